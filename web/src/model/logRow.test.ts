import { describe, expect, it } from 'vitest';

import type { TraceSchema } from './catalog';
import { simRow } from './logRow';
import type { TraceColumns } from './trace';

const schema: TraceSchema = {
  maxFields: 3,
  kinds: [
    {
      name: 'established',
      func: 'tcp_finish_connect',
      passiveFunc: 'tcp_rcv_state_process',
      fields: ['mss', 'sndbuf', 'rcvbuf'],
    },
  ],
  gates: [],
  ackReasons: [],
  dropSites: [],
  noSock: 4294967295,
};

const cols: TraceColumns = {
  t: new Float64Array([0, 0]),
  host: new Uint16Array([0, 1]),
  sk: new Uint32Array([0, 1]),
  kind: new Uint16Array([0, 0]),
  values: new Float64Array([1448, 16384, 131072, 1448, 16384, 131072]),
  stride: 3,
};

describe('simRow', () => {
  it("names the passive side's function for a passive socket's row", () => {
    expect(simRow(schema, cols, 0, null)?.func).toBe('tcp_finish_connect');
    expect(simRow(schema, cols, 1, null, false)?.func).toBe('tcp_rcv_state_process');
    expect(simRow(schema, cols, 1, null, false)?.f.mss).toBe(1448);
  });
});
