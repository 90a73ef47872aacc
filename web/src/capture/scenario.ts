// "Simulate this": a scenario configuration from what a recording says about its host, device
// and workload, as `KEY=VALUE` overrides of the scenario keys (docs/scenario-format.md) that
// the engine checks like any other. Every key of the registry gets a value, so the base file's
// own settings never leak in; each says where it came from: read from the recording, derived
// from it with a stated approximation, or the kernel profile's default because the recording
// does not hold what the key needs (and why). Runs in the capture worker; no React.

import type { KeyDef, KeyKind } from '../model/catalog';
import type { ReplayModel } from './model';
import { parseIpLink, parseSs, parseTcQdisc, tcRateBps, tcSizeBytes, tcTimeUs } from './recorded';

export type KeySource = 'recorded' | 'approximated' | 'default';

export interface MappedKey {
  key: string;
  /** `sender`, `receiver` (or `localhost`) for one host; null for every host. */
  host: string | null;
  value: string;
  source: KeySource;
  /** Where the value comes from, or why the default was used. */
  why: string;
}

export interface ScenarioMapping {
  /** The scenario file the overrides apply to (every key is overridden). */
  base: string;
  kernel: string;
  /** `KEY=VALUE` / `HOST:KEY=VALUE`, as `sendpath run --set` and the site's URL take them. */
  sets: string[];
  keys: MappedKey[];
}

/** The registry as the engine publishes it (catalog.keys). */
export interface KeyRegistry {
  kernels: string[];
  keys: KeyDef[];
}

/** The lab's workload program prints one JSON line of what it did (capture/lab/). */
interface LabWorkload {
  tool?: string;
  workload?: string;
  write_size?: number;
  bytes?: number;
  calls?: number;
  gap_ns?: number;
  burst?: number;
  no_delay?: number;
  quickack?: number;
  cork?: number;
  msg_more?: number;
  sndbuf?: number;
  cc?: string;
  send?: number;
  n_chunk?: number;
  round?: number;
  elapsed_s?: number;
}

function labWorkload(m: ReplayModel): LabWorkload | null {
  const out = m.workload?.stdout.trim().split('\n').pop();
  if (!out?.startsWith('{')) return null;
  try {
    const v = JSON.parse(out) as LabWorkload;
    return v.tool === 'sp-tcp' ? v : null;
  } catch {
    return null;
  }
}

/** The kernel profile for a release: the newest profile not newer than it. */
export function kernelProfile(
  release: string | null,
  kernels: string[],
): {
  profile: string;
  exact: boolean;
} {
  const newest = kernels[kernels.length - 1]!;
  const m = /^(\d+)\.(\d+)/.exec(release ?? '');
  if (!m) return { profile: newest, exact: false };
  const v = Number(m[1]) * 1000 + Number(m[2]);
  const num = (k: string) => {
    const [a, b] = k.split('.').map(Number);
    return a! * 1000 + b!;
  };
  let best = kernels[0]!;
  for (const k of kernels) if (num(k) <= v) best = k;
  return { profile: best, exact: num(best) === v };
}

/** Whether `value` is valid for a key of `kind` (the engine checks it again). */
function fits(kind: KeyKind, value: string): boolean {
  switch (kind.type) {
    case 'bool':
      return value === '0' || value === '1';
    case 'int': {
      const n = Number(value);
      return /^\d+$/.test(value) && n >= kind.min && n <= kind.max;
    }
    case 'choice':
      return kind.choices.includes(value);
    case 'triple': {
      const parts = value.split(/\s+/);
      return (
        parts.length === 3 &&
        parts.every((p) => /^\d+$/.test(p) && Number(p) >= kind.min && Number(p) <= kind.max)
      );
    }
  }
}

/** Sizes of the application's send() calls, from the iterations of tcp_sendmsg_locked. */
function callSizes(m: ReplayModel): { sizes: number[]; starts: number[] } {
  const t = m.events.tables.sendmsg;
  const tid = t.columns['tid']!;
  const left = t.columns['msg_left']!;
  const addr = t.columns['skbaddr']!;
  const len = t.columns['skb_len']!;
  // Per thread: what its last iteration left, and that iteration. The current thread's are in
  // `p` and `rem` (a thread's iterations come in runs: no Map lookup per event).
  const remaining = new Map<number, number>();
  const prev = new Map<number, number>();
  const sizes: number[] = [];
  const starts: number[] = [];
  let current = NaN;
  let p: number | undefined;
  let rem: number | undefined;
  for (let i = 0; i < t.count; i++) {
    const th = tid[i]!;
    if (!Object.is(th, current)) {
      if (p !== undefined) {
        remaining.set(current, rem!);
        prev.set(current, p);
      }
      current = th;
      p = prev.get(th);
      rem = remaining.get(th);
    }
    // The same call goes on when msg_left dropped, or stayed with the same tail skb (a wait).
    const same =
      p !== undefined &&
      rem! > 0 &&
      (left[i]! < left[p]! ||
        (left[i] === left[p] && addr[i] === addr[p] && addr[i]! > 0 && len[i] === len[p]));
    if (!same) {
      sizes.push(left[i]!);
      starts.push(t.t_ns[i]!);
    }
    rem = left[i]!;
    p = i;
  }
  return { sizes, starts };
}

function mostCommon(xs: number[]): number | null {
  const counts = new Map<number, number>();
  let best: number | null = null;
  for (const x of xs) {
    const c = (counts.get(x) ?? 0) + 1;
    counts.set(x, c);
    if (best === null || c > counts.get(best)!) best = x;
  }
  return best;
}

/** tc's parameter value without its unit suffix: "10000p" -> 10000, "3028b" -> 3028. */
function tcCount(v: string | undefined): number | null {
  if (v === undefined) return null;
  const size = tcSizeBytes(v);
  if (size !== null) return size;
  const m = /^(\d+)p?$/.exec(v);
  return m ? Number(m[1]) : null;
}

/** The recording's configuration as scenario keys (see the file's header). */
export function scenarioFromRecording(m: ReplayModel, registry: KeyRegistry): ScenarioMapping {
  const cfg = m.config;
  const lab = labWorkload(m);
  const { profile, exact } = kernelProfile(cfg.host?.kernelRelease ?? null, registry.kernels);
  const devName = cfg.filters?.dev ?? cfg.devices[0]?.dev ?? null;
  const loopback = devName === 'lo';
  const device = cfg.devices.find((d) => d.dev === devName) ?? cfg.devices[0] ?? null;
  const link = device ? parseIpLink(device.link) : null;
  const tcText = m.qdiscs.find((q) => q.netns === '' && (q.dev === devName || q.dev === null));
  const root = tcText
    ? parseTcQdisc(tcText.text).find(
        (q) => q.parent === 'root' || (devName === null && q.parent === 'root'),
      )
    : undefined;
  const netnsOther = Object.keys(cfg.sysctls).filter((n) => n !== '');
  const receiverNetns = !loopback && netnsOther.length === 1 ? netnsOther[0]! : null;
  const sendHost = loopback ? 'localhost' : 'sender';
  const { sizes, starts } = callSizes(m);
  const ss = m.sockets.length > 0 ? parseSs(m.sockets[0]!.text) : [];
  const workloadS = m.workload ? (m.workload.end_t_ns - m.workload.t_ns) / 1e9 : null;
  const elapsedS = lab?.elapsed_s ?? workloadS;
  const pingpong = lab?.workload === 'pingpong';

  // The smallest smoothed RTT tcp_probe saw on the writer's end (µs).
  let minSrttUs = Infinity;
  {
    const p = m.events.tables.probe;
    const srtt = p.columns['srtt']!;
    for (let i = 0; i < p.count; i++) {
      const s = srtt[i]!;
      if (s > 0 && s < minSrttUs) minSrttUs = s;
    }
  }

  const keys: MappedKey[] = [];
  const defaultFor = (def: KeyDef) => def.defaults[profile] ?? Object.values(def.defaults)[0]!;
  const byName = new Map(registry.keys.map((k) => [k.name, k]));
  const done = new Set<string>();
  const put = (key: string, host: string | null, value: string, source: KeySource, why: string) => {
    const def = byName.get(key);
    if (!def) return;
    if (!fits(def.kind, value)) {
      keys.push({
        key,
        host,
        value: defaultFor(def),
        source: 'default',
        why: `${why}: ${value} is outside what the model takes (${describeKind(def.kind)})`,
      });
    } else keys.push({ key, host, value, source, why });
    done.add(key);
  };

  // ---- run ----
  put(
    'kernel',
    null,
    profile,
    exact ? 'recorded' : 'approximated',
    exact
      ? `uname -r ${cfg.host?.kernelRelease}`
      : cfg.host?.kernelRelease
        ? `uname -r ${cfg.host.kernelRelease}: the newest model profile not newer than it`
        : 'the kernel release is not recorded: the newest profile',
  );
  if (cfg.host?.configHz)
    put('sim.hz', null, String(cfg.host.configHz), 'recorded', 'CONFIG_HZ of the recording host');
  if (elapsedS !== null) {
    const ms = Math.min(600_000, Math.max(100, Math.ceil(elapsedS * 2000) + 100));
    put(
      'sim.duration_ms',
      null,
      String(ms),
      'approximated',
      `the workload ran ${elapsedS.toFixed(3)} s; twice that, so the simulated one can finish`,
    );
  }

  // ---- link ----
  put(
    'link.kind',
    null,
    loopback ? 'loopback' : 'ethernet',
    'recorded',
    loopback ? 'the recorded device is lo' : `the recorded device ${devName ?? '?'} is not lo`,
  );
  if (link?.mtu) put('link.mtu', null, String(link.mtu), 'recorded', `ip link: mtu ${link.mtu}`);
  if (link?.qlen)
    put('link.txqueuelen', sendHost, String(link.qlen), 'recorded', `ip link: qlen ${link.qlen}`);
  if (!loopback) {
    const rate = root?.kind === 'tbf' ? tcRateBps(root.params['rate'] ?? '') : null;
    if (rate)
      put(
        'link.rate_mbit',
        null,
        String(Math.max(1, Math.round(rate / 1e6))),
        'approximated',
        `tc: tbf rate ${root!.params['rate']} on ${devName}; the model has no tbf, so its rate is the line rate (packets then wait in the NIC and the qdisc rather than in tbf)`,
      );
    if (Number.isFinite(minSrttUs))
      put(
        'link.delay_us',
        null,
        String(Math.max(0, Math.round(minSrttUs / 2))),
        'approximated',
        `half the smallest srtt tcp_probe recorded (${minSrttUs} µs), the stacks' own latency included`,
      );
  }

  // ---- qdisc ----
  if (root) {
    const kind = root.kind;
    const modelKinds = ['pfifo_fast', 'fq', 'fq_codel', 'noqueue'];
    if (modelKinds.includes(kind))
      put('tc.qdisc', sendHost, kind, 'recorded', `tc: root qdisc ${kind} on ${devName}`);
    else
      put(
        'tc.qdisc',
        sendHost,
        'pfifo_fast',
        'approximated',
        `tc: root qdisc ${kind} on ${devName}; the model has pfifo_fast, fq, fq_codel and noqueue: a FIFO stands in`,
      );
    if (kind === 'fq') {
      const p = root.params;
      const fq: [string, number | null, string][] = [
        ['tc.fq.limit', tcCount(p['limit']), 'limit'],
        ['tc.fq.flow_limit', tcCount(p['flow_limit']), 'flow_limit'],
        ['tc.fq.quantum', tcCount(p['quantum']), 'quantum'],
        ['tc.fq.initial_quantum', tcCount(p['initial_quantum']), 'initial_quantum'],
        [
          'tc.fq.refill_delay_ms',
          p['refill_delay'] ? (tcTimeUs(p['refill_delay']) ?? NaN) / 1000 : null,
          'refill_delay',
        ],
      ];
      for (const [key, v, name] of fq)
        if (v !== null && Number.isFinite(v))
          put(key, sendHost, String(Math.round(v)), 'recorded', `tc: fq ${name} ${p[name]}`);
      if ('nopacing' in p) put('tc.fq.pacing', sendHost, '0', 'recorded', 'tc: fq nopacing');
      const maxrate = p['maxrate'] ? tcRateBps(p['maxrate']) : null;
      if (maxrate)
        put(
          'tc.fq.maxrate_mbit',
          sendHost,
          String(Math.round(maxrate / 1e6)),
          'recorded',
          `tc: fq maxrate ${p['maxrate']}`,
        );
    }
  }

  // ---- NIC ----
  if (device && !loopback) {
    const f = device.features;
    const onOff = (v: string | undefined) =>
      v?.startsWith('on') ? '1' : v?.startsWith('off') ? '0' : null;
    const tso = onOff(f?.['tcp-segmentation-offload']);
    const gso = onOff(f?.['generic-segmentation-offload']);
    if (tso)
      put(
        'ethtool.tso',
        sendHost,
        tso,
        'recorded',
        `ethtool -k ${devName}: tcp-segmentation-offload ${f!['tcp-segmentation-offload']}`,
      );
    if (gso)
      put(
        'ethtool.gso',
        sendHost,
        gso,
        'recorded',
        `ethtool -k ${devName}: generic-segmentation-offload ${f!['generic-segmentation-offload']}`,
      );
    const tx = device.ring?.['current.TX'];
    if (tx && /^\d+$/.test(tx))
      put('ethtool.tx', sendHost, tx, 'recorded', `ethtool -g ${devName}: TX ${tx}`);
    const usecs = device.coalesce?.['tx-usecs'];
    if (usecs && /^\d+$/.test(usecs))
      put(
        'ethtool.tx-usecs',
        sendHost,
        usecs,
        'recorded',
        `ethtool -c ${devName}: tx-usecs ${usecs}`,
      );
    const frames = device.coalesce?.['tx-frames'];
    if (frames && /^\d+$/.test(frames))
      put(
        'ethtool.tx-frames',
        sendHost,
        frames,
        'recorded',
        `ethtool -c ${devName}: tx-frames ${frames}`,
      );
    if (device.bql && Object.keys(device.bql).length === 0)
      put('bql.enabled', sendHost, '0', 'recorded', `${devName} has no byte_queue_limits (no BQL)`);
    else if (device.bql) {
      const q = Object.values(device.bql)[0] ?? '';
      const lim = /limit_max=(\d+)/.exec(q);
      put('bql.enabled', sendHost, '1', 'recorded', `${devName} has byte_queue_limits`);
      if (lim)
        put(
          'bql.limit_max',
          sendHost,
          lim[1]!,
          'recorded',
          `byte_queue_limits/limit_max ${lim[1]}`,
        );
    }
  }

  // ---- CPU ----
  if (cfg.host?.cpus)
    put(
      'cpu.cores',
      null,
      String(cfg.host.cpus),
      'recorded',
      `${cfg.host.cpus} CPUs on the recording host`,
    );

  // ---- sysctls ----
  for (const def of registry.keys) {
    if (!def.name.startsWith('net.')) continue;
    const mine = cfg.sysctls['']?.[def.name];
    if (mine === undefined) continue;
    const theirs = receiverNetns ? cfg.sysctls[receiverNetns]?.[def.name] : undefined;
    if (def.name === 'net.ipv4.tcp_congestion_control' && !fits(def.kind, mine)) {
      put(
        def.name,
        null,
        defaultFor(def),
        'default',
        `sysctl: ${mine}; the model has ${describeKind(def.kind)} (the socket's own choice is TCP_CONGESTION)`,
      );
      continue;
    }
    if (theirs !== undefined && theirs !== mine && def.perHost) {
      put(def.name, 'sender', mine, 'recorded', 'sysctl of the recording namespace');
      put(def.name, 'receiver', theirs, 'recorded', `sysctl of namespace ${receiverNetns}`);
    } else
      put(
        def.name,
        null,
        mine,
        'recorded',
        loopback || theirs !== undefined
          ? 'sysctl of the recording namespace'
          : "sysctl of the recording namespace (the receiver's is not recorded: the same is used)",
      );
  }

  // ---- socket options and the application ----
  const fromLab = 'the lab workload (sp-tcp) printed it';
  if (lab) {
    if (lab.no_delay !== undefined)
      put('TCP_NODELAY', null, String(lab.no_delay), 'recorded', fromLab);
    if (lab.quickack !== undefined)
      put('TCP_QUICKACK', null, String(lab.quickack), 'recorded', fromLab);
    if (lab.sndbuf) put('SO_SNDBUF', sendHost, String(lab.sndbuf), 'recorded', fromLab);
    if (lab.cc) put('TCP_CONGESTION', null, lab.cc, 'recorded', fromLab);
  } else {
    const cc = ss.find((s) => s.cc)?.cc;
    if (cc) put('TCP_CONGESTION', null, cc, 'recorded', `ss -ti: the socket runs ${cc}`);
  }
  // Connections by their two ports, either way round (a number each: no string per event).
  const connections = new Set<number>();
  for (const kind of ['probe', 'state'] as const) {
    const t = m.events.tables[kind];
    const sport = t.columns['sport']!;
    const dport = t.columns['dport']!;
    for (let i = 0, last = NaN; i < t.count; i++) {
      const a = sport[i]!;
      const b = dport[i]!;
      if (!(a > 0 && b > 0)) continue;
      const key = Math.min(a, b) * 2 ** 32 + Math.max(a, b);
      if (key === last) continue;
      last = key;
      connections.add(key);
    }
  }
  if (pingpong) {
    put('app.kind', null, 'pingpong', 'recorded', fromLab);
    if (lab?.send) put('app.send_bytes', null, String(lab.send), 'recorded', fromLab);
    if (lab?.n_chunk) put('app.n_chunk', null, String(lab.n_chunk), 'recorded', fromLab);
    if (lab?.round) put('app.rounds', null, String(lab.round), 'recorded', fromLab);
    if (lab?.msg_more !== undefined)
      put('app.msg_more', null, String(lab.msg_more), 'recorded', fromLab);
    if (lab?.cork !== undefined) put('app.cork', null, String(lab.cork), 'recorded', fromLab);
  } else {
    put(
      'app.kind',
      null,
      'tcp_stream',
      lab ? 'recorded' : 'approximated',
      lab ? fromLab : 'writes in one direction: a stream',
    );
    if (connections.size > 0)
      put(
        'app.flows',
        null,
        String(connections.size),
        'recorded',
        `${connections.size} connection(s) in the events`,
      );
    const size = lab?.write_size ?? mostCommon(sizes);
    if (size)
      put(
        'app.write_size_bytes',
        null,
        String(size),
        'recorded',
        lab ? fromLab : `the most common send() size of ${sizes.length} calls (tcp_sendmsg_locked)`,
      );
    const total = lab?.bytes ?? (sizes.length > 0 ? sizes.reduce((a, b) => a + b, 0) : null);
    if (total)
      put(
        'app.bytes',
        null,
        String(total),
        'recorded',
        lab ? fromLab : `${sizes.length} send() calls wrote ${total} bytes`,
      );
    if (lab?.gap_ns && lab.burst) {
      put(
        'app.interval_us',
        null,
        String(Math.round(lab.gap_ns / lab.burst / 1000)),
        'approximated',
        `the workload wrote bursts of ${lab.burst} every ${lab.gap_ns / 1000} µs; the model's writer has one interval between calls: the mean, ${lab.gap_ns / lab.burst / 1000} µs`,
      );
    } else if (lab && lab.gap_ns === 0) {
      put('app.interval_us', null, '0', 'recorded', fromLab);
    } else if (starts.length > 1) {
      const mean = (starts[starts.length - 1]! - starts[0]!) / (starts.length - 1) / 1000;
      put(
        'app.interval_us',
        null,
        String(Math.round(mean)),
        'approximated',
        `the mean time between the ${starts.length} send() calls recorded (the model's writer waits the same time after every call)`,
      );
    }
  }

  // ---- every other key: the profile's default, and why ----
  for (const def of registry.keys) {
    if (done.has(def.name)) continue;
    keys.push({
      key: def.name,
      host: null,
      value: defaultFor(def),
      source: 'default',
      why: whyDefault(def, m, loopback),
    });
  }

  const sets = keys.map((k) => `${k.host ? `${k.host}:` : ''}${k.key}=${k.value}`);
  return { base: pingpong ? 'nagle-delayed-ack' : 'autocorking', kernel: profile, sets, keys };
}

function describeKind(kind: KeyKind): string {
  switch (kind.type) {
    case 'bool':
      return '0 or 1';
    case 'int':
      return `${kind.min}..${kind.max}`;
    case 'choice':
      return kind.choices.filter((c) => c !== '').join(', ');
    case 'triple':
      return `three of ${kind.min}..${kind.max}`;
  }
}

/** Why the recording does not give a key its value. */
function whyDefault(def: KeyDef, m: ReplayModel, loopback: boolean): string {
  const name = def.name;
  if (name === 'sim.seed')
    return "the model's own randomness (timer phase): not a property of the host";
  if (def.group === 'socket options')
    return 'a socket option the application sets: not in the sysctls, and no tracepoint shows it';
  if (name.startsWith('net.'))
    return Object.keys(m.config.sysctls).length === 0
      ? 'no sysctls in this recording'
      : 'not among the recorded sysctls (a kernel without it, or not net.ipv4.tcp_*)';
  if (name.startsWith('tc.fq') || name.startsWith('tc.fq_codel'))
    return 'the recorded qdisc is not this one: the key does not apply';
  if (name.startsWith('ethtool.') || name.startsWith('bql.'))
    return loopback
      ? 'lo has no TX ring, coalescing or BQL'
      : m.config.devices.length === 0
        ? 'no device recorded (sendpath-record -D)'
        : 'the driver does not report it (ethtool answered nothing)';
  if (name === 'link.rate_mbit')
    return loopback
      ? 'lo has no line rate'
      : 'the line rate is not recorded (a veth has none; tbf would give one)';
  if (name === 'link.delay_us') return 'no tcp_probe events to measure the RTT';
  if (name.startsWith('cpu.')) return 'CPU speed and cost are not measured by the recorder';
  if (name.startsWith('app.'))
    return 'not shown by the recording (the model takes it from its own workload)';
  if (name === 'sim.hz') return 'CONFIG_HZ is not recorded';
  if (name === 'sim.duration_ms') return 'no workload record: the model stops at its own default';
  return 'not in the recording';
}
