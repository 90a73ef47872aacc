// What the engine publishes about itself (the wasm `engine_catalog` export): the trace schema
// (event kinds, their kernel functions and field names, gate and ACK-reason names), the key
// registry (every scenario key with its group, range, doc and per-kernel defaults) and the
// counter names. TypeScript never lists kinds, keys or counters itself: it reads them here.

/** One event kind of the trace: its name, the kernel function and its numeric fields. */
export interface KindInfo {
  name: string;
  /** The function on the connecting side; `passiveFunc` on the passive side where it differs. */
  func: string;
  passiveFunc?: string;
  fields: string[];
  /** In a recording's schema (capture/replay.ts): the recorded event kind its rows come from. */
  recorded?: string;
}

/** `sendpath_core::trace::schema()`. */
export interface TraceSchema {
  maxFields: number;
  kinds: KindInfo[];
  gates: string[];
  ackReasons: string[];
  /** Where a `drop` happened, by the code in its `site` field. */
  dropSites: string[];
  noSock: number;
}

/** The type and range of a key's value (`keys::Kind`). */
export type KeyKind =
  | { type: 'int'; min: number; max: number }
  | { type: 'bool' }
  | { type: 'choice'; choices: string[] }
  | { type: 'triple'; min: number; max: number };

/** One scenario key (`keys::keys_json()`). */
export interface KeyDef {
  name: string;
  /** The group as the kernel groups it: "socket options", "net.ipv4 sysctls", ... */
  group: string;
  kind: KeyKind;
  /** Kernel version that introduced it, e.g. "3.14". */
  since: string | null;
  perHost: boolean;
  doc: string;
  /** Default value under each kernel profile (rendered as in a scenario file). */
  defaults: Record<string, string>;
}

export interface Catalog {
  trace: TraceSchema;
  keys: { kernels: string[]; keys: KeyDef[] };
  counters: string[];
}

/**
 * The event kinds the site's derivations read, by name. `kindCodes` fails loudly when the
 * engine stops publishing one of them, so a renamed kind cannot silently empty a view.
 */
export const KIND_NAMES = [
  'sendmsg',
  'sendmsg_copy',
  'sendmsg_wait',
  'write_space',
  'sendmsg_done',
  'autocork',
  'xmit_hold',
  'fragment',
  'xmit',
  'ack_xmit',
  'qdisc_enqueue',
  'qdisc_drop',
  'qdisc_dequeue',
  'qdisc_throttle',
  'ring_post',
  'queue_stop',
  'queue_wake',
  'wire_tx',
  'wire_rx',
  'tx_completion',
  'tcp_wfree',
  'tsq_handler',
  'gro',
  'rcv_data',
  'delack_sched',
  'ack_rcvd',
  'recvmsg',
  'cpu_wait',
  'established',
  'drop',
] as const;

export type KindName = (typeof KIND_NAMES)[number];

/** Kinds the engine may or may not publish (newer device events); -1 when absent. */
export const OPTIONAL_KIND_NAMES = [
  'qdisc_bypass',
  'requeue',
  'gso_segment',
  'retransmit',
  'ca_state',
] as const;
export type OptionalKindName = (typeof OPTIONAL_KIND_NAMES)[number];

export type KindCodes = Record<KindName, number> & Record<OptionalKindName, number>;

const kindCodesOf = new WeakMap<TraceSchema, KindCodes>();

/** The code of every kind the site reads; throws naming a kind the schema lacks. */
export function kindCodes(schema: TraceSchema): KindCodes {
  let codes = kindCodesOf.get(schema);
  if (codes) return codes;
  const code = (name: string) => schema.kinds.findIndex((k) => k.name === name);
  for (const name of KIND_NAMES) {
    if (code(name) < 0) throw new Error(`the engine's trace schema has no event kind '${name}'`);
  }
  // Built in one go: an object given its ~35 properties one by one falls back to a dictionary,
  // and then every `codes.xmit` in the derivation's and the pipeline's loops over the trace
  // rows is a hash lookup.
  codes = Object.fromEntries(
    [...KIND_NAMES, ...OPTIONAL_KIND_NAMES].map((name) => [name, code(name)]),
  ) as KindCodes;
  kindCodesOf.set(schema, codes);
  return codes;
}

/** Position of `field` among the fields of `kind`; throws when the schema lacks it. */
export function fieldIndex(schema: TraceSchema, kind: string, field: string): number {
  const info = schema.kinds.find((k) => k.name === kind);
  const i = info?.fields.indexOf(field) ?? -1;
  if (i < 0) throw new Error(`the engine's trace schema has no field '${field}' in '${kind}'`);
  return i;
}

/** The gate's code by name; throws when unknown. */
export function gateCode(schema: TraceSchema, name: string): number {
  const i = schema.gates.indexOf(name);
  if (i < 0) throw new Error(`the engine's trace schema has no gate '${name}'`);
  return i;
}

/** Key definitions grouped in the registry's order of first appearance of each group. */
export function keysByGroup(keys: readonly KeyDef[]): { group: string; keys: KeyDef[] }[] {
  const groups: { group: string; keys: KeyDef[] }[] = [];
  for (const k of keys) {
    let g = groups.find((x) => x.group === k.group);
    if (!g) {
      g = { group: k.group, keys: [] };
      groups.push(g);
    }
    g.keys.push(k);
  }
  return groups;
}
