// nstat's two output forms (iproute2 misc/nstat.c), shared by the nstat importers and by the
// nstat records of our capture.
//
//   text  (`nstat`, `nstat -a`): a header `#<info source>`, then one line per non-zero counter,
//         printed with "%-32s%-16llu%6.1f" (name, value, rate), maybe followed by " (overflow)".
//         Long names shift the columns, so lines are split on whitespace, not at fixed columns.
//   JSON  (`nstat -j`): {"<info source>": {"<name>": <value>, ...}}. The info source is
//         "kernel", or "<pid>.<n> sampling_interval=<s> time_const=<s>" when a daemon (`nstat -d`)
//         answers: the key is never assumed.
// Neither form carries a time; the rate column is an EWMA, non-zero only with a daemon, and is
// ignored here.

/** Counter names as nstat prints them: table prefix + field, e.g. TcpExtTCPAutoCorking. */
const COUNTER_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

export interface NstatValues {
  source: string;
  values: Record<string, number>;
}

/** Read the value of `nstat -j` (already JSON-parsed); problems go to `problem`. */
export function nstatFromJson(
  value: unknown,
  problem: (message: string) => void,
): NstatValues | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problem(
      `expected nstat -j output, an object {"<info source>": {counters}}, got ${jsonKind(value)}`,
    );
    return null;
  }
  const keys = Object.keys(value);
  if (keys.length !== 1) {
    problem(
      `expected nstat -j output with exactly one key (nstat's info source, e.g. "kernel"), got ${keys.length} keys`,
    );
    return null;
  }
  const source = keys[0]!;
  const counters = (value as Record<string, unknown>)[source];
  if (typeof counters !== 'object' || counters === null || Array.isArray(counters)) {
    problem(
      `expected the counters of "${source}" to be an object of numbers, got ${jsonKind(counters)}`,
    );
    return null;
  }
  const values: Record<string, number> = {};
  for (const [name, v] of Object.entries(counters as Record<string, unknown>)) {
    if (!COUNTER_NAME.test(name)) {
      problem(
        `counter name "${name.slice(0, 60)}" is not an nstat counter name (letters, digits, _)`,
      );
      continue;
    }
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
      problem(
        `counter ${name}: expected a non-negative integer, got ${typeof v === 'number' ? v : jsonKind(v)}`,
      );
      continue;
    }
    if (!Number.isSafeInteger(v))
      problem(`counter ${name}: ${v} exceeds 2^53 and is kept approximately`);
    values[name] = v;
  }
  return { source, values };
}

export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export type NstatLine =
  | { kind: 'header'; source: string }
  | { kind: 'counter'; name: string; value: number; overflow: boolean; unsafe: boolean }
  | { kind: 'invalid'; expected: string; got: string };

/** One line of nstat's text output (without its newline). */
export function nstatTextLine(line: string): NstatLine {
  if (line.startsWith('#')) return { kind: 'header', source: line.slice(1).trim() };
  const parts = line.trim().split(/\s+/);
  const [name, value, rate, ...rest] = parts;
  if (parts.length < 2 || !name || !COUNTER_NAME.test(name))
    return {
      kind: 'invalid',
      expected: 'a counter line "<Name> <value> <rate>" or a "#<info source>" header',
      got: line,
    };
  if (!value || !/^\d+$/.test(value))
    return {
      kind: 'invalid',
      expected: `the value of ${name} as an unsigned integer`,
      got: value ?? '',
    };
  if (rate !== undefined && !/^-?\d+(\.\d+)?$/.test(rate) && rate !== '(overflow)')
    return {
      kind: 'invalid',
      expected: `the rate of ${name} as a number`,
      got: rate,
    };
  const overflow = rate === '(overflow)' || rest.includes('(overflow)');
  const v = Number(value);
  return { kind: 'counter', name, value: v, overflow, unsafe: !Number.isSafeInteger(v) };
}

/**
 * A line a script may print before each nstat output to time it: an ISO 8601 date
 * (`date -u +%FT%T.%NZ`), `date`'s default form, or seconds since the epoch with a fraction.
 * Returns nanoseconds since the epoch as [seconds, nanoseconds], or null.
 */
export function timestampLine(line: string): [number, number] | null {
  const s = line.trim();
  let m = /^(\d{9,11})(?:\.(\d{1,9}))?$/.exec(s);
  if (m) return [Number(m[1]), Number((m[2] ?? '').padEnd(9, '0'))];
  m = /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2})(?:[.,](\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/.exec(s);
  if (m) {
    const ms = Date.parse(`${m[1]!.replace(' ', 'T')}${m[3] ?? 'Z'}`);
    if (Number.isNaN(ms)) return null;
    return [Math.floor(ms / 1000), Number((m[2] ?? '').padEnd(9, '0'))];
  }
  // date(1)'s default: "Sat Nov 21 22:05:00 UTC 2026"
  m =
    /^[A-Z][a-z]{2} +([A-Z][a-z]{2}) +(\d{1,2}) (\d{2}:\d{2}:\d{2}) (?:[A-Z]{2,5} )?(\d{4})$/.exec(
      s,
    );
  if (m) {
    const ms = Date.parse(`${m[1]} ${m[2]}, ${m[4]} ${m[3]} UTC`);
    if (Number.isNaN(ms)) return null;
    return [Math.floor(ms / 1000), 0];
  }
  return null;
}
