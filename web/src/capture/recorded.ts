// Readers for the text the recorder stores as it was printed: `tc -s qdisc`, `ss -tinm` and
// `ip -d link`. Each returns what it could read and ignores what it does not know, so that
// newer iproute2 output still reads.

/** tc's rates and sizes: "500Mbit", "16Kb", "1514b", "200ms", "4Kbit". */
const RATE_UNITS: Record<string, number> = {
  bit: 1,
  kbit: 1e3,
  mbit: 1e6,
  gbit: 1e9,
  tbit: 1e12,
  bps: 8,
  kbps: 8e3,
  mbps: 8e6,
  gbps: 8e9,
  tbps: 8e12,
};

/** A tc rate in bits per second ("500Mbit" -> 5e8); null if it is not one. */
export function tcRateBps(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)([a-zA-Z]+)$/.exec(text);
  if (!m) return null;
  const unit = RATE_UNITS[m[2]!.toLowerCase()];
  return unit === undefined ? null : Number(m[1]) * unit;
}

/** A tc size in bytes ("16Kb" -> 16384, "1514b" -> 1514, "1Mb" -> 1048576); null if not one. */
export function tcSizeBytes(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)([KMG]?)b$/.exec(text);
  if (!m) return null;
  const mult = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[m[2] as '' | 'K' | 'M' | 'G'];
  return Math.round(Number(m[1]) * mult);
}

/** A tc time in microseconds ("200ms" -> 200000, "1s", "50us"); null if not one. */
export function tcTimeUs(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)(s|ms|us|usec|msec|sec)$/.exec(text);
  if (!m) return null;
  const mult = { s: 1e6, sec: 1e6, ms: 1e3, msec: 1e3, us: 1, usec: 1 }[m[2] as 's'];
  return Number(m[1]) * mult;
}

export interface QdiscStats {
  kind: string;
  handle: string;
  /** "root", or the parent's handle. */
  parent: string;
  /** The parameters after the handle, as tc printed them (key -> value, or key -> "" for flags). */
  params: Record<string, string>;
  sentBytes: number | null;
  sentPackets: number | null;
  dropped: number | null;
  overlimits: number | null;
  requeues: number | null;
  backlogBytes: number | null;
  backlogPackets: number | null;
}

/** `tc -s qdisc show [dev DEV]`: one entry per qdisc line and the statistics under it. */
export function parseTcQdisc(text: string): QdiscStats[] {
  const out: QdiscStats[] = [];
  let cur: QdiscStats | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const q = /^qdisc (\S+) (\S+) (root|parent \S+)(.*)$/.exec(line);
    if (q) {
      const tokens = q[4]!.trim().split(/\s+/).filter(Boolean);
      const params: Record<string, string> = {};
      for (let i = 0; i < tokens.length; i++) {
        const key = tokens[i]!;
        const next = tokens[i + 1];
        // "rate 500Mbit", "burst 16Kb", "limit 1000p", "refcnt 2"; a key followed by another key is a flag.
        if (next !== undefined && /^[\d.]/.test(next)) {
          params[key] = next;
          i++;
        } else params[key] = '';
      }
      cur = {
        kind: q[1]!,
        handle: q[2]!.replace(/:$/, ':'),
        parent: q[3] === 'root' ? 'root' : q[3]!.slice('parent '.length),
        params,
        sentBytes: null,
        sentPackets: null,
        dropped: null,
        overlimits: null,
        requeues: null,
        backlogBytes: null,
        backlogPackets: null,
      };
      out.push(cur);
      continue;
    }
    if (!cur) continue;
    const sent =
      /^Sent (\d+) bytes (\d+) pkt \(dropped (\d+), overlimits (\d+) requeues (\d+)\)/.exec(line);
    if (sent) {
      cur.sentBytes = Number(sent[1]);
      cur.sentPackets = Number(sent[2]);
      cur.dropped = Number(sent[3]);
      cur.overlimits = Number(sent[4]);
      cur.requeues = Number(sent[5]);
      continue;
    }
    const backlog = /^backlog (\S+) (\d+)p/.exec(line);
    if (backlog) {
      cur.backlogBytes = tcSizeBytes(backlog[1]!);
      cur.backlogPackets = Number(backlog[2]);
    }
  }
  return out;
}

export interface SsSocket {
  state: string;
  recvQ: number;
  sendQ: number;
  local: string;
  peer: string;
  localPort: number | null;
  peerPort: number | null;
  /** Congestion control, when ss names it. */
  cc: string | null;
  /** Every "key:value" of the info line, as printed. */
  info: Record<string, string>;
  /** skmem:(r,rb,t,tb,f,w,o,bl,d) in bytes. */
  skmem: Record<string, number>;
  cwnd: number | null;
  rttMs: number | null;
  rttVarMs: number | null;
  mss: number | null;
  bytesSent: number | null;
  bytesAcked: number | null;
  notsent: number | null;
  unacked: number | null;
  pacingRateBps: number | null;
  deliveryRateBps: number | null;
}

const CCS = new Set([
  'cubic',
  'reno',
  'bbr',
  'bbr2',
  'bic',
  'dctcp',
  'htcp',
  'vegas',
  'westwood',
  'illinois',
  'hybla',
  'highspeed',
  'scalable',
  'veno',
  'yeah',
  'lp',
  'nv',
  'cdg',
]);

function port(addr: string): number | null {
  const m = /:(\d+)$/.exec(addr);
  return m ? Number(m[1]) : null;
}

/** ss's rates: "12.3Mbps" (bits per second despite the name), "980bps", "1.2Gbps". */
export function ssRateBps(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)([KMGT]?)bps$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * { '': 1, K: 1e3, M: 1e6, G: 1e9, T: 1e12 }[m[2] as ''];
}

/** `ss -tinm [-H]`: a socket line, then an indented info line, per socket. */
export function parseSs(text: string): SsSocket[] {
  const out: SsSocket[] = [];
  let cur: SsSocket | null = null;
  for (const raw of text.split('\n')) {
    if (raw.trim() === '' || /^State\s+Recv-Q/.test(raw)) continue;
    if (!/^\s/.test(raw)) {
      const parts = raw.trim().split(/\s+/);
      if (parts.length < 5) continue;
      cur = {
        state: parts[0]!,
        recvQ: Number(parts[1]),
        sendQ: Number(parts[2]),
        local: parts[3]!,
        peer: parts[4]!,
        localPort: port(parts[3]!),
        peerPort: port(parts[4]!),
        cc: null,
        info: {},
        skmem: {},
        cwnd: null,
        rttMs: null,
        rttVarMs: null,
        mss: null,
        bytesSent: null,
        bytesAcked: null,
        notsent: null,
        unacked: null,
        pacingRateBps: null,
        deliveryRateBps: null,
      };
      out.push(cur);
      continue;
    }
    if (!cur) continue;
    const tokens = raw.trim().split(/\s+/);
    for (let i = 0; i < tokens.length; i++) {
      const tok = tokens[i]!;
      const skmem = /^skmem:\((.*)\)$/.exec(tok);
      if (skmem) {
        for (const part of skmem[1]!.split(',')) {
          const m = /^([a-z]+)(\d+)$/.exec(part);
          if (m) cur.skmem[m[1]!] = Number(m[2]);
        }
        continue;
      }
      // Two-token forms: "send 12Mbps", "pacing_rate 24Mbps", "delivery_rate 9Mbps".
      if ((tok === 'send' || tok === 'pacing_rate' || tok === 'delivery_rate') && tokens[i + 1]) {
        cur.info[tok] = tokens[++i]!;
        continue;
      }
      const colon = tok.indexOf(':');
      if (colon > 0) cur.info[tok.slice(0, colon)] = tok.slice(colon + 1);
      else if (CCS.has(tok)) cur.cc = tok;
      else cur.info[tok] = '';
    }
    const num = (k: string) =>
      cur!.info[k] !== undefined && /^\d+$/.test(cur!.info[k]!) ? Number(cur!.info[k]) : null;
    cur.cwnd = num('cwnd');
    cur.mss = num('mss');
    cur.bytesSent = num('bytes_sent');
    cur.bytesAcked = num('bytes_acked');
    cur.notsent = num('notsent');
    cur.unacked = num('unacked');
    const rtt = /^([\d.]+)\/([\d.]+)$/.exec(cur.info['rtt'] ?? '');
    if (rtt) {
      cur.rttMs = Number(rtt[1]);
      cur.rttVarMs = Number(rtt[2]);
    }
    cur.pacingRateBps = cur.info['pacing_rate'] ? ssRateBps(cur.info['pacing_rate']) : null;
    cur.deliveryRateBps = cur.info['delivery_rate'] ? ssRateBps(cur.info['delivery_rate']) : null;
  }
  return out;
}

export interface LinkInfo {
  mtu: number | null;
  qdisc: string | null;
  qlen: number | null;
  /** The kind line of `ip -d`, e.g. "veth". */
  kind: string | null;
  gsoMaxSize: number | null;
  gsoMaxSegs: number | null;
  tsoMaxSize: number | null;
  numTxQueues: number | null;
}

/** `ip -d [-s] link show dev DEV`. */
export function parseIpLink(text: string): LinkInfo {
  const num = (re: RegExp) => {
    const m = re.exec(text);
    return m ? Number(m[1]) : null;
  };
  const kind =
    /\n\s+(veth|vxlan|bridge|bond|macvlan|ipvlan|vlan|dummy|tun|geneve|wireguard)\s/.exec(text);
  return {
    mtu: num(/\bmtu (\d+)/),
    qdisc: /\bqdisc (\S+)/.exec(text)?.[1] ?? null,
    qlen: num(/\bqlen (\d+)/),
    kind: kind ? kind[1]! : null,
    gsoMaxSize: num(/\bgso_max_size (\d+)/),
    gsoMaxSegs: num(/\bgso_max_segs (\d+)/),
    tsoMaxSize: num(/\btso_max_size (\d+)/),
    numTxQueues: num(/\bnumtxqueues (\d+)/),
  };
}
