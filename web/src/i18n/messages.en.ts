// Every string the simulator shows, in every language: English (`en`) and Simplified Chinese
// (`zhCN`), objects of the same shape. Components never hard-code visible text; names that are the
// kernel's own (functions, sysctls, counters, struct fields) stay as they are in every language.

import { currentLang, loadedCatalogues, subscribeLang } from './current';
import type { Lang } from './lang';
import { formatBytes, formatCount, formatNs, trim3 } from '../model/format';

export const en = {
  appTitle: 'sendpath',
  tagline: 'The Linux TCP send path, simulated in your browser.',
  skipToPipeline: 'Skip to the pipeline',
  engine: {
    starting: 'Starting the engine…',
    ready: 'Engine ready',
    failed: (e: string) => `Engine failed: ${e}`,
    version: 'Engine version',
  },
  header: {
    preset: 'Experiment',
    variant: 'Variant',
    fileAsWritten: '(the file as written)',
    compare: 'Compare A/B',
    compareWith: (label: string) => `Compare with “${label}”`,
    fork: 'Fork into B',
    closeCompare: 'Stop comparing',
    theme: 'Theme',
    themes: { auto: 'System', light: 'Light', dark: 'Dark' },
    presets: 'Experiments',
    close: 'OK',
    copyLink: 'Copy link',
    linkCopied: 'Link copied',
    shortcuts: 'Keyboard shortcuts',
  },
  run: {
    running: 'Running…',
    updated: (events: number, window: string) =>
      `${formatCount(events)} events recorded over ${window}`,
    window: 'Recorded window',
    windowFrom: 'from (ms)',
    windowTo: 'to (ms)',
    windowApply: 'Record this window',
    windowOf: (ms: number) => `of a ${formatNs(ms * 1e6)} run`,
    truncated: 'The trace hit its limit: events after its last record are missing.',
    shownIsBase: (e: string) =>
      `The settings in the link were not applied (${e}); the run shown is the scenario as written.`,
    urlProblems: 'Parts of the link were ignored:',
    warnings: 'Engine warnings',
    sideLabel: (side: string) => (side === 'a' ? 'A' : 'B'),
    runLine: (kernel: string, events: string, span: string) =>
      `kernel ${kernel} · ${events} events · ${span}`,
  },
  player: {
    region: 'Time controls',
    play: 'Play',
    pause: 'Pause',
    stepBack: 'Previous event',
    stepForward: 'Next event',
    stepKind: 'Step to decision',
    holdAt: (gate: string) => `xmit_hold at ${gate} (tcp_write_xmit)`,
    prevOfKind: 'Previous of this kind',
    nextOfKind: 'Next of this kind',
    noMore: (kind: string) => `No further ${kind} in this run`,
    speed: 'Speed',
    speedValue: (speed: number) =>
      speed >= 1e9 ? `${trim3(speed / 1e9)}× real time` : `${formatNs(speed)} per second`,
    scrubber: 'Time cursor',
    time: 'Time',
    event: (row: number, total: number) =>
      row < 0
        ? `before the first of ${formatCount(total)} events`
        : `event ${formatCount(row + 1)} of ${formatCount(total)}`,
    start: 'Go to start',
    end: 'Go to end',
  },
  pipeline: {
    region: 'Send path',
    canvasLabel: (side: string) =>
      `Animated pipeline of run ${side}: applications, write queues, qdisc, NIC TX ring, wire, receiver and ACKs`,
    stages: {
      app: 'send() calls',
      wq: 'write queue (sk_write_queue)',
      qdisc: 'qdisc',
      ring: 'NIC TX ring',
      wire: 'wire',
      rx: 'receiver',
      acks: 'ACKs back',
    },
    legend: 'Legend',
    states: {
      filling: 'filling toward size_goal',
      full: 'full, waiting to be pushed',
      autocorked: 'autocorked (tcp_push)',
      sent: 'sent, waiting for its ACK',
      held: (gate: string) => `held: ${gate}`,
      sleeping: (gate: string) => `writer asleep: ${gate}`,
      writing: 'in send()',
      idle: 'between send() calls',
      delack: 'receiver: delayed-ACK timer running',
    },
    lanesMore: (shown: number, total: number) => `showing ${shown} of ${total} sockets`,
    selectHint: 'Click an skb to see why it waits.',
  },
  tooltip: {
    app: (sk: number, state: string) => `application of socket ${sk}: ${state} (tcp_sendmsg)`,
    skb: (id: number, len: number, goal: number, state: string, seq: number, end: number) =>
      `struct sk_buff #${id} [${seq}, ${end}): ${formatBytes(len)} of size_goal ${formatBytes(goal)}, ${state}`,
    qdisc: (kind: string, pkts: number, bytes: number) =>
      `struct Qdisc (${kind}): ${formatCount(pkts)} packets, ${formatBytes(bytes)} (dev_queue_xmit / dequeue_skb)`,
    ring: (used: number, size: number, inflight: number, limit: number) =>
      `NIC TX ring: ${used}/${size} descriptors (ndo_start_xmit); BQL struct dql: inflight ${formatBytes(inflight)}, limit ${formatBytes(limit)}`,
    packet: (id: number, segs: number, len: number, where: string) =>
      `packet #${id}: ${segs} segment${segs === 1 ? '' : 's'}, ${formatBytes(len)}, ${where}`,
    wire: (n: number) => `the wire (phy): ${formatCount(n)} packets in flight`,
    rx: (sk: number, delack: string) =>
      `receiver socket ${sk} (tcp_rcv_established, napi_gro_receive): ${delack}`,
    delackPending: (inNs: string) => `delayed-ACK timer fires in ${inNs} (tcp_send_delayed_ack)`,
    delackNone: 'no delayed ACK pending',
    acks: (n: number) => `ACKs on their way back (__tcp_send_ack → tcp_ack): ${formatCount(n)}`,
    completion: 'TX completion interrupt (netdev_tx_completed_queue → tcp_wfree → TSQ handler)',
  },
  why: {
    region: 'Why is it waiting?',
    intro:
      'Select an skb in the pipeline, or a byte range of a socket, to see every gate that held its bytes.',
    socket: 'Socket',
    bytesFrom: 'first byte',
    bytesTo: 'last byte',
    show: 'Show',
    skbTitle: (id: number, seq: number, end: number, sk: number) =>
      `skb #${id} of sk${sk}: bytes [${seq}, ${end})`,
    skbRow: (id: number) => `skb #${id} in TCP`,
    pktRow: (id: number, segs: number) => `packet #${id} (${segs} seg)`,
    none: 'No skb holds these bytes in the recorded window.',
    totalsRun: 'Per gate, the whole run',
    totalsSkb: 'Per gate, this skb',
    gate: 'Gate',
    time: 'Time',
    share: 'Share',
    from: (t: string) => `from ${t}`,
    freed: (t: string) => `freed by the ACK at ${t}`,
    notFreed: 'not freed within the window',
    gates: {
      autocork: 'autocork (tcp_push)',
      nagle: 'Nagle (tcp_nagle_test)',
      cork: 'cork / MSG_MORE',
      tso_defer: 'TSO deferral (tcp_tso_should_defer)',
      tsq: 'TSQ (tcp_small_queue_check)',
      cwnd: 'cwnd (tcp_cwnd_test)',
      rwnd: 'rwnd (tcp_snd_wnd_test)',
      pacing: 'pacing',
      qdisc: 'in the qdisc',
      bql: 'BQL stopped the queue',
      ring_full: 'TX ring full',
      peer_ack: "waiting for the peer's ACK",
      sndbuf: 'sndbuf full (sk_stream_wait_memory)',
      notsent_lowat: 'TCP_NOTSENT_LOWAT',
      wire: 'on the wire',
      cpu: 'waiting for a CPU',
      filling: 'being written / not yet pushed',
      tx_ring: 'in the NIC TX ring',
    } as Record<string, string>,
  },
  log: {
    region: 'Decision log',
    host: 'Host',
    flow: 'Flow',
    func: 'Kernel function',
    reason: 'Reason',
    any: 'any',
    rows: (shown: number, total: number) => `${formatCount(shown)} of ${formatCount(total)} events`,
    listLabel: 'Events, each with the kernel function that made the decision',
    follow: 'Follow the cursor',
  },
  controls: {
    region: 'Controls',
    editing: 'Editing run',
    defaultFor: (kernel: string, v: string) => `default in ${kernel}: ${v}`,
    fromFile: 'set by the scenario',
    fromVariant: 'set by the variant',
    fromSet: 'changed here',
    perHost: (values: string) => `per host: ${values}`,
    absent: (kernel: string) => `does not exist in ${kernel}: ignored`,
    reset: 'Reset',
    resetAll: 'Reset all changes',
    on: 'on',
    off: 'off',
    apply: 'Apply',
    groups: {
      run: 'Run',
      'socket options': 'Socket options (setsockopt)',
      'net.ipv4 sysctls': 'net.ipv4.tcp_* sysctls',
      'net.core sysctls': 'net.core.* sysctls',
      'qdisc (tc)': 'qdisc (tc)',
      'NIC (ethtool)': 'NIC (ethtool)',
      link: 'Link',
      CPU: 'CPU',
      application: 'Application',
    } as Record<string, string>,
  },
  counters: {
    region: 'Counters',
    nstat: (host: string) => `nstat on ${host}`,
    name: 'Counter',
    value: 'Value',
    delta: (over: string) => `Δ last ${over}`,
    deltaOver: 'Δ over',
    ss: 'ss -ti at the cursor',
    socket: 'Socket',
    noCounters: 'No counter has moved yet.',
  },
  charts: {
    region: 'Charts',
    throughput: 'Throughput (bytes acknowledged)',
    wire: 'wire',
    queues: 'Bytes in the qdisc and the NIC, sk_wmem_alloc against the TSQ limit',
    qdisc: 'qdisc',
    nic: 'NIC ring',
    wmem: 'sk_wmem_alloc',
    tsqLimit: 'TSQ limit',
    limitAbove: (v: string) => `TSQ limit ${v}: above the scale`,
    cwnd: 'cwnd and pacing rate',
    cwndSeries: 'snd_cwnd',
    pacing: 'sk_pacing_rate',
    sizes: 'Packet size at transmit',
    segs: 'Segments per packet (TSO/GSO)',
    stevens: 'Time-sequence (Stevens) graph',
    stevensSeries: {
      sent: 'segments sent',
      acked: 'ACKed (snd_una)',
      written: 'written (write_seq)',
    },
    focus: 'Socket',
    flow: (sk: number, flow: number) => `sk${sk} (flow ${flow})`,
    time: 'time',
    packets: 'packets',
    bytes: 'bytes',
    seq: 'seq',
  },
  compare: {
    region: 'A/B comparison',
    counter: 'Counter',
    host: 'Host',
    diff: 'B − A',
    window: 'In the recorded window (end of window)',
    full: 'Full runs',
    apps: 'Applications',
    run: 'Run',
    application: 'Application',
    flow: 'Flow',
  },
  experiment: {
    region: 'Full experiment',
    intro: (duration: string) =>
      `The pipeline shows a short window. The full experiment runs the whole scenario (${duration}) in the background, without the trace.`,
    run: 'Run the full experiment',
    cancel: 'Cancel',
    progress: (side: string, pct: number) => `Run ${side}: ${pct.toFixed(0)} %`,
    done: 'Finished',
    stale: 'The configuration changed since this run.',
    throughput: 'Throughput',
    cpu: 'CPU (task-clock)',
    ctx: 'Context switches',
    finished: 'Finished after',
    mem: 'TCP memory (pages, average)',
    notFinished: 'not finished',
  },
  native: {
    region: 'Recording',
    open: 'Open a recording…',
    openHint:
      'A capture of sendpath-record, nstat or bpftrace output: read in your browser, never uploaded. You can also drop a file on the page.',
    dropHere: 'Drop a recording to replay it',
    recordings: 'Recordings',
    samples: {
      'autocork-on.jsonl': {
        title: 'Recorded: autocorking on, 128-byte writes in bursts',
        summary:
          '929 writes of 128 B in bursts of 32 every 5 ms with TCP_NODELAY, tbf at 20 Mbit/s on a veth, net.ipv4.tcp_autocorking=1: 518 skbs leave (TcpExtTCPAutoCorking 50).',
      },
      'autocork-off.jsonl': {
        title: 'Recorded: autocorking off, 128-byte writes in bursts',
        summary: 'The same writes with net.ipv4.tcp_autocorking=0: 752 skbs leave.',
      },
      'pingpong-default.jsonl': {
        title: 'Recorded: Nagle and delayed ACK ping-pong',
        summary:
          '1000 B as 100 writes each way, 100 rounds on lo: 9 s, two 40 ms delayed ACKs per round.',
      },
      'pingpong-nodelay.jsonl': {
        title: 'Recorded: ping-pong with TCP_NODELAY',
        summary: 'The same ping-pong with TCP_NODELAY on both ends: 0.06 s.',
      },
      'bulk-40ms.jsonl': {
        title: 'Recorded: one 2 MB write over a 40 ms RTT',
        summary:
          "One 2,000,000-byte write with SO_SNDBUF 1,000,000 through a forwarder delaying 20 ms each way (605ad7f1's netperf -l -2000000): 165 skbs carry 1386 segments.",
      },
    } as Record<string, { title: string; summary: string }>,
    reading: (name: string) => `Reading ${name}…`,
    progress: (read: string, total: string | null, pct: number | null) =>
      total === null ? `${read} read` : `${read} of ${total} (${pct?.toFixed(0) ?? 0} %)`,
    cancel: 'Cancel',
    failed: (name: string) => `${name} could not be replayed; the page is as it was.`,
    atLine: (line: number) => `line ${line}: `,
    problems: (n: number, dropped: number) =>
      `${n + dropped} problem${n + dropped === 1 ? '' : 's'} in the file: the lines named below were skipped, the rest replays.`,
    truncated: 'The file ends early (cut short, or still being written): what it holds replays.',
    title: (name: string) => `Recording: ${name}`,
    fromFile: 'Opened from a file: a link to this page does not reopen it.',
    line: (kernel: string, events: number, span: string) =>
      `kernel ${kernel} · ${formatCount(events)} recorded events · ${span}`,
    close: 'Close the recording',
    window: (shown: number, total: number) =>
      `The replay holds ${formatCount(shown)} of the ${formatCount(total)} recorded events.`,
    windowApply: 'Replay this window',
    notRecorded: 'What the recording cannot show',
    inferred: 'What the replay infers',
    stageNames: {
      app: 'send() calls',
      wq: 'write queue',
      qdisc: 'qdisc',
      ring: 'NIC TX ring / TX completion',
      wire: 'wire',
      rx: 'receiver',
      acks: 'ACKs back',
    } as Record<string, string>,
    inFlight: (since: string) =>
      `handed to the driver ${since} ago (net_dev_start_xmit), not yet acknowledged (tcp_probe): its path beyond the device is not recorded`,
    hatch: 'not recorded',
    hatchInferred: 'inferred',
    stageTip: (stage: string, reason: string) => `${stage}: ${reason}`,
    host: 'Recorded on',
    hostValue: (host: string, kernel: string, hz: string, cpus: string) =>
      `${host}, Linux ${kernel}, HZ ${hz}, ${cpus} CPUs`,
    device: 'Device',
    qdisc: 'qdisc',
    workload: 'Workload',
    simulate: 'Simulate this',
    simulateIntro:
      "Runs the engine with the recording's sysctls, qdisc, NIC settings and workload, and puts the simulation beside the recording (B).",
    simulating: 'Simulating…',
    simulateAgain: 'Simulate again',
    stopSimulating: 'Stop comparing',
    sideRecording: 'Recording',
    sideSimulation: 'Simulation',
    keys: 'Scenario keys of the simulation',
    keyCols: { key: 'Key', value: 'Value', source: 'From', why: 'Where it comes from' },
    sources: {
      recorded: 'recorded',
      approximated: 'approximated',
      default: 'default',
    } as Record<string, string>,
    defaultsUsed: (n: number, kernel: string) =>
      `${n} keys the recording does not fill: the ${kernel} defaults, each with the reason`,
    compare: 'Recording and simulation, side by side',
    compareCaption:
      "Counters: the recording's whole run against the simulation's full run (differences highlighted)",
    counterCols: {
      host: 'Host',
      counter: 'Counter',
      a: 'Recording',
      b: 'Simulation',
      diff: 'Simulation − recording',
    },
    notModelled: (n: number) =>
      `${n} recorded counters the model does not keep are left out (the simulation has no value for them).`,
    elapsed: 'Workload time',
    written: 'Bytes written',
    simFailed: (e: string) => `The simulation failed: ${e}`,
    simProgress: (pct: number) => `Full run: ${pct.toFixed(0)} %`,
  },
  shortcuts: [
    ['Space', 'play / pause'],
    ['← →', 'previous / next event'],
    ['Shift + ← →', 'previous / next decision of the chosen kind'],
    ['[ ]', 'slower / faster'],
    ['Home End', 'start / end of the window'],
    ['?', 'show these shortcuts'],
  ] as [string, string][],
};

export type Messages = typeof en;

/**
 * The messages of the page's language. A live binding: it follows the language switch
 * (i18n/current.ts, which loads a catalogue before switching to it), and the views re-render on
 * a switch, reading the new catalogue.
 */
export let msg: Messages = catalogue(currentLang());
subscribeLang(() => {
  msg = catalogue(currentLang());
});

function catalogue(lang: Lang): Messages {
  return lang === 'en' ? en : (loadedCatalogues(lang)?.messages ?? en);
}
