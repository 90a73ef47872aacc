// The replay model: what the site replays from a recording, whatever format it came from.
//
// A recording is a configuration (sysctls, qdiscs, devices, the workload), counter samples
// (nstat), socket and qdisc samples (ss, tc), and time-ordered send-path events (bpftrace).
// Events are stored as columns, one table per event kind, so that a 100 MB capture stays a few
// typed arrays that a Worker can transfer to the page (see docs/capture-format.md for what each
// field means and its unit). Nothing here imports React.

/** The formats the importers read, detected by content (detect.ts). */
export type CaptureFormat =
  | 'sendpath-capture' // our JSON Lines capture, written by capture/sendpath-record
  | 'nstat-text' // `nstat` / `nstat -a` output; several outputs in one file are a series
  | 'nstat-json' // `nstat -j` (also `-p`); several objects in one file are a series
  | 'bpftrace-json' // `bpftrace -f json capture/sendpath.bt ...` (NDJSON)
  | 'bpftrace-text'; // `bpftrace capture/sendpath.bt ...` (text mode)

export const FORMAT_NAMES: Record<CaptureFormat, string> = {
  'sendpath-capture': 'sendpath capture (sendpath-record)',
  'nstat-text': 'nstat text output',
  'nstat-json': 'nstat -j JSON output',
  'bpftrace-json': 'bpftrace -f json output of sendpath.bt',
  'bpftrace-text': 'bpftrace text output of sendpath.bt',
};

export interface Diagnostic {
  severity: 'error' | 'warning' | 'info';
  /** 1-based line of the input, or null when the message is about the whole file. */
  line: number | null;
  message: string;
}

/** Event kinds recorded by capture/sendpath.bt, and their numeric fields in payload order. */
export const EVENT_FIELDS = {
  sendmsg: ['tid', 'skbaddr', 'skb_len', 'msg_left', 'size_goal'],
  queue: ['dev', 'skbaddr', 'len'],
  enqueue: ['skbaddr', 'handle', 'parent'],
  dequeue: ['skbaddr', 'packets', 'handle', 'parent', 'txq_state'],
  xmit: ['dev', 'skbaddr', 'len', 'data_len', 'gso_size', 'gso_segs', 'gso_type', 'queue_mapping'],
  free: ['skbaddr', 'lat_ns'],
  drop: ['skbaddr', 'reason'],
  probe: [
    'sport',
    'dport',
    'data_len',
    'snd_nxt',
    'snd_una',
    'snd_cwnd',
    'ssthresh',
    'snd_wnd',
    'srtt',
    'rcv_wnd',
  ],
  retrans: ['sport', 'dport', 'skbaddr', 'state'],
  state: ['sport', 'dport', 'skaddr', 'oldstate', 'newstate'],
  delack_start: ['timer', 'expires', 'now'],
  delack_fire: ['timer', 'now'],
} as const;

export type EventKind = keyof typeof EVENT_FIELDS;
export const EVENT_KINDS = Object.keys(EVENT_FIELDS) as EventKind[];
export type EventField<K extends EventKind> = (typeof EVENT_FIELDS)[K][number];

/**
 * How a field's text is read. `address`: a kernel pointer (or the recorder's anonymized
 * identifier), stored as an interned id (0 = NULL); `string`: stored as an index into
 * `EventTables.strings`; `hex`: a hexadecimal number; anything else is decimal.
 */
export const FIELD_TYPES: Record<string, 'address' | 'string' | 'hex'> = {
  skbaddr: 'address',
  skaddr: 'address',
  timer: 'address',
  dev: 'string',
  handle: 'hex',
  parent: 'hex',
  txq_state: 'hex',
};

/** One event kind's rows, sorted by time. Column values are numbers (see FIELD_TYPES). */
export interface EventTable {
  kind: EventKind;
  count: number;
  /** Nanoseconds since the recording's t0. */
  t_ns: Float64Array;
  columns: Record<string, Float64Array>;
}

export interface EventTables {
  tables: Record<EventKind, EventTable>;
  /** All events in time order: `timelineKind[i]` indexes EVENT_KINDS, `timelineRow[i]` the row. */
  timelineKind: Uint8Array;
  timelineRow: Uint32Array;
  /** Interned strings (device names), indexed by `string` columns. */
  strings: string[];
  /** Number of distinct addresses seen; address ids run from 1 to this (0 is NULL). */
  addressCount: number;
}

/** nstat counters at one instant: absolute values, or increments since the previous sample. */
export interface CounterSample {
  /** Nanoseconds since t0, or null when the input had no time (a plain nstat output). */
  t_ns: number | null;
  /** Network namespace: "" for the recording host's own, else the name it was sampled in. */
  netns: string;
  /**
   * `absolute`: values since boot (or namespace creation); `delta`: increments since the previous
   * sample; `unknown`: a plain nstat output, which is either (nstat prints increments since its
   * previous run, absolute values with -a or on its first run, and does not say which).
   */
  kind: 'absolute' | 'delta' | 'unknown';
  /** nstat's info source: "kernel", or the daemon's "<pid>.<n> sampling_interval=..." */
  source: string;
  values: Record<string, number>;
  /** 1-based line where the sample starts. */
  line: number;
}

export interface TextSample {
  t_ns: number;
  netns: string;
  /** The device, for tc samples of one device; null otherwise. */
  dev: string | null;
  text: string;
}

export interface DeviceRecord {
  netns: string;
  dev: string;
  /** `ip -d -s link show dev DEV`. */
  link: string;
  /** `ethtool -i/-k/-g/-c` as key -> value (null without ethtool, {} when unsupported). */
  driver: Record<string, string> | null;
  features: Record<string, string> | null;
  ring: Record<string, string> | null;
  coalesce: Record<string, string> | null;
  bql: Record<string, string> | null;
}

export interface WorkloadRecord {
  t_ns: number;
  end_t_ns: number;
  command: string[];
  exit_status: number | null;
  stdout: string;
  stderr: string;
}

/** What was recorded about the host and the run (from the capture header and records). */
export interface RecordedConfig {
  recorder: string | null;
  formatVersion: number | null;
  mode: 'full' | 'counters' | null;
  modeReason: string | null;
  created: string | null;
  t0RealtimeUs: number | null;
  host: {
    hostname: string | null;
    kernelRelease: string | null;
    kernelVersion: string | null;
    machine: string | null;
    configHz: number | null;
    cpus: number | null;
  } | null;
  bpftraceVersion: string | null;
  /** Event groups the recorder traced (sendmsg, dev, qdisc, tcp, delack). */
  eventGroups: string[];
  /** Groups dropped because the kernel lacked a tracepoint, with the missing requirement. */
  droppedGroups: string[];
  /** Tracepoint field declarations from tracefs (null entry: the kernel lacks it). */
  tracepoints: Record<string, string[] | null> | null;
  /** Names of enum values, e.g. "skb:kfree_skb:reason" -> {"2": "NOT_SPECIFIED"}. */
  symbols: Record<string, Record<string, string>> | null;
  filters: {
    port: number | null;
    dev: string | null;
    comm: string | null;
    netns: string[];
    netnsInode: number | null;
  } | null;
  intervalMs: number | null;
  command: string[] | null;
  note: string | null;
  /** Sysctls per network namespace ("" = the recording host's). */
  sysctls: Record<string, Record<string, string>>;
  devices: DeviceRecord[];
}

/** A stage of the send path, and whether this recording shows it. */
export type Stage =
  | 'app_writes'
  | 'push_decisions'
  | 'qdisc'
  | 'device_xmit'
  | 'tx_completion'
  | 'acks_in'
  | 'delayed_ack_timer'
  | 'connection_state'
  | 'counters'
  | 'socket_state'
  | 'qdisc_stats';

export interface StageCoverage {
  stage: Stage;
  recorded: boolean;
  /** Why it is or is not recorded, in words a reader of the pipeline view understands. */
  reason: string;
}

/** The span of time over which events were recorded, and why it ends where it ends. */
export interface EventWindow {
  startNs: number;
  endNs: number;
  /** Events traced but not in the file: bpftrace's lost_events, plus those past the cap. */
  lostEvents: number;
  /** Why the event stream stops before the recording ends, or null. */
  truncatedBy: 'cap' | 'bpftrace-stopped' | null;
}

export interface ReplayModel {
  format: CaptureFormat;
  config: RecordedConfig;
  events: EventTables;
  eventWindow: EventWindow | null;
  counters: CounterSample[];
  /** `ss -tinm` samples (text; see recorded.ts to read them). */
  sockets: TextSample[];
  /** `tc -s qdisc` samples (text; see recorded.ts). */
  qdiscs: TextSample[];
  workload: WorkloadRecord | null;
  coverage: StageCoverage[];
  /** Nanoseconds from t0 to the last record. */
  durationNs: number;
  /** True when the input ended early (no `end` record, or a cut last line). */
  truncated: boolean;
  /** Input lines read. */
  lines: number;
  bytes: number;
}

export type ParseResult =
  | { ok: true; model: ReplayModel; diagnostics: Diagnostic[]; diagnosticsDropped: number }
  | { ok: false; error: Diagnostic; diagnostics: Diagnostic[]; diagnosticsDropped: number };
