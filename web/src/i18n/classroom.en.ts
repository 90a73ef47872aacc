// The strings of the classroom views (landing, lessons, presenter mode), the embed, the
// "Copy embed code" dialog, the About page and the site footer, in English: the catalogue that
// gives every other language its shape (`ClassroomMessages`; classroom.zh-CN.ts is Simplified
// Chinese). Views read it through classroom.ts in the page's language. Kernel names (functions,
// sysctls, counters) stay as they are in every language. A catalogue imports no other module of
// i18n/ (catalogues.ts).

const en = {
  language: 'Language',
  landing: {
    region: 'Welcome',
    // Two sentences: what the site is.
    lead: 'sendpath runs a model of the Linux TCP send path in your browser, function by function as the kernel does it, and animates every skb from write() to the wire and back.',
    lead2:
      'Change a sysctl or a socket option and watch autocorking, Nagle, TSQ and pacing decide what leaves and when.',
    start: 'Start the lesson: autocorking',
    explore: 'Explore on your own',
    lessons: 'Lessons',
    about: 'About the model',
    conform: 'Model vs Linux',
    packetdrill: 'packetdrill scripts',
    dismiss: 'Hide this introduction',
    // The landing's A/B figures (LandingEffect.tsx): two whole runs of the landing scenario.
    effect: {
      region: 'What tcp_autocorking changes',
      runs: (a: string, b: string, run: string) =>
        `Two whole runs of ${run}, computed in your browser: ${a} and ${b}.`,
      running: (pct: number) => `Running both runs in your browser: ${pct.toFixed(0)} %`,
      failed: (e: string) => `The runs failed: ${e}`,
      sideA: 'on',
      sideB: 'off',
      figures: {
        packets: 'Packets sent',
        bytesPerPacket: 'Bytes per packet',
        cpuPerMB: 'Sender CPU per MB',
        throughput: 'Throughput',
        autocorks: 'Autocorked pushes',
      },
      // The caption: what run A does against run B, its parts listed with these separators.
      caption: (list: string) => `With autocorking on, the sender ${list} than with it off.`,
      listSeparator: ', ',
      listLast: ' and ',
      packetsFewer: (x: string) => `sends ${x}× fewer, bigger packets`,
      packetsMore: (x: string) => `sends ${x}× more, smaller packets`,
      cpuLess: (pct: number) => `uses ${pct} % less CPU per MB`,
      cpuMore: (pct: number) => `uses ${pct} % more CPU per MB`,
      throughputMore: (pct: number) => `moves ${pct} % more data`,
      throughputLess: (pct: number) => `moves ${pct} % less data`,
      none: 'In these runs tcp_autocorking changes none of these figures.',
    },
  },
  lessons: {
    region: 'Lessons',
    steps: (n: number) => `${n} steps`,
    open: 'Open',
    broken: 'This lesson could not be read:',
    notFound: (id: string) => `There is no lesson “${id}”.`,
  },
  lesson: {
    stepOf: (n: number, total: number) => `Step ${n} of ${total}`,
    prev: 'Previous step',
    next: 'Next step',
    steps: 'Steps',
    goToStep: (n: number, title: string) => `Step ${n}: ${title}`,
    exit: 'Leave the lesson',
    fullscreen: 'Full screen',
    exitFullscreen: 'Leave full screen',
    laser: 'Laser pointer',
    run: "The step's run",
    play: 'Play this step',
    pause: 'Pause',
    replay: 'Play again',
    loading: 'Preparing the run…',
    failed: (e: string) => `The engine could not run this step: ${e}`,
    keys: 'Keys',
    menu: 'Menu',
    close: 'Close',
    sideShown: (side: string, variant: string) =>
      side === 'A'
        ? `A: ${variant} (B shows the other side)`
        : `B: ${variant} (B again for the step's own A)`,
    momentMark: (what: string) => `The step's moment: the first ${what} (M jumps there)`,
    toMoment: 'To the moment (M)',
    chart: (title: string) => `the chart “${title}”`,
    chartSide: (side: string, variant: string) => `${side}: ${variant}`,
    formula: {
      autocork: (len: string, goal: string, wmem: string, truesize: string) =>
        `tcp_should_autocork(): skb->len ${len} < size_goal ${goal} && sk_wmem_alloc ${wmem} > skb->truesize ${truesize}: tcp_push holds the skb and sets TSQ_THROTTLED`,
      unlimited: 'unlimited',
      tsqMax: (wmem: string, limit: string, sysctl: string, rate: string, perMs: string) =>
        `tcp_small_queue_check() (3.6 to 3.18): sk_wmem_alloc ${wmem} > limit ${limit} = max(tcp_limit_output_bytes ${sysctl}, sk_pacing_rate ${rate} >> 10 = ${perMs}): set TSQ_THROTTLED, stop`,
      tsq: (wmem: string, limit: string, sysctl: string, rate: string, perMs: string) =>
        `tcp_small_queue_check() (3.19 on): sk_wmem_alloc ${wmem} > limit ${limit} = min(max(2 × skb->truesize, sk_pacing_rate ${rate} >> 10 = ${perMs}), tcp_limit_output_bytes ${sysctl}): set TSQ_THROTTLED, stop`,
      sizeGoal: (
        rate: string,
        perHalfMs: string,
        minSegs: string,
        mss: string,
        minBytes: string,
        goal: string,
        goalSegs: string,
      ) =>
        `tcp_xmit_size_goal() (3.12 to 3.18, when send() copies): max(sk_pacing_rate ${rate} / 2000 = ${perHalfMs}, tcp_min_tso_segs ${minSegs} × mss_now ${mss} = ${minBytes}), below 64 KB and half the peer's window, in whole MSS: size_goal ${goal} B (${goalSegs} segments), where tcp_sendmsg starts a new skb`,
      autosize: (
        rate: string,
        perMs: string,
        mss: string,
        minSegs: string,
        segs: string,
        bytes: string,
        len: string,
        rest: string,
      ) =>
        `tcp_tso_autosize() (3.19 on, at transmit time): max(min(sk_pacing_rate ${rate} >> 10 = ${perMs}, 64 KB − headers) / mss_now ${mss}, tcp_min_tso_segs ${minSegs}) = ${segs} segments = ${bytes} B; tcp_write_xmit sends at most that, and what cwnd and the peer's window allow: tso_fragment cuts ${len} B off the skb, ${rest} B stay queued`,
      notsent: (notsent: string, lowat: string) =>
        `tcp_stream_memory_free(): unsent write_seq − snd_nxt = ${notsent} ≥ tcp_notsent_lowat ${lowat}: sk_stream_wait_memory puts the writer to sleep until sk_stream_write_space finds fewer unsent bytes than the limit`,
      nagle: (sml: string, una: string) =>
        `tcp_nagle_check(): skb->len < MSS && snd_sml ${sml} > snd_una ${una} (a small segment unacknowledged): hold`,
    },
    keyList: [
      ['Space, →, PageDown', 'next step'],
      ['←, PageUp', 'previous step'],
      ['1 … 9', 'go to step N'],
      ['P', 'play / pause the step'],
      [']  or  +,  [  or  -', 'play faster, slower'],
      ['R', 'reset the step (back to its start)'],
      ['B', "A/B: the other side of the lesson's comparison"],
      ['M', "go to the step's moment (marked ▼ on the time line)"],
      ['N', 'show the numbers (every key counter)'],
      ['L', 'laser pointer on / off'],
      ['F', 'full screen'],
      ['?', 'these keys'],
      ['Esc', 'close, else leave the lesson'],
    ] as [string, string][],
    config: 'Configuration',
    variant: 'Variant',
    fileAsWritten: 'the scenario as written',
    overrides: 'Changes',
    range: 'Time range',
    highlights: 'Look at',
    elements: {
      app: 'the applications',
      write_queue: 'the write queue',
      qdisc: 'the qdisc',
      tx_ring: 'the NIC TX ring',
      wire: 'the wire',
      receiver: 'the receiver',
      acks: 'the ACKs',
      completion: 'the TX completions',
    } as Record<string, string>,
    counter: (name: string) => `counter ${name}`,
    source: 'Source',
  },
  ab: {
    region: 'A/B comparison',
    caption: (a: string, b: string) => `${a} (A) against ${b} (B): full runs`,
    run: 'Run both',
    running: (side: string, pct: number) => `Running ${side}: ${pct.toFixed(0)} %`,
    metric: 'Metric',
    model: 'model',
    source: 'source',
    ratio: 'A / B',
    noSource: '—',
    sourceName: (name: string) => `Source: ${name}`,
    noSourceNote: 'The source document gives no number for these rows: the model alone.',
    failed: (e: string) => `The run failed: ${e}`,
    metrics: {
      elapsed_s: 'time until the workload finished (s)',
      throughput_mbit: 'throughput (Mbit/s)',
      ctxt_switches: 'context switches per writer',
      cpu_per_byte_ns: "the senders' CPU time per byte sent (ns)",
      tcp_mem_pages: (host: string) => `TCP memory on ${host} (pages)`,
      qdisc_backlog_bytes: (host: string) => `bytes in the qdisc of ${host} at the end`,
      counter: (host: string, name: string) => `${name} on ${host}`,
    },
  },
  embed: {
    region: 'sendpath player',
    poster: 'Press play to run the simulation in your browser.',
    play: 'Play',
    pause: 'Pause',
    step: 'Next event',
    scrub: 'Time cursor',
    loading: 'Loading the engine…',
    openFull: 'Open in sendpath',
    counters: 'Key counters',
    failed: (e: string) => `The player failed: ${e}`,
    bad: (e: string) => `This embed is misconfigured: ${e}`,
  },
  share: {
    open: 'Copy embed code',
    title: 'Embed this view',
    intro:
      'Paste one of these into a web page. The player loads nothing until a reader scrolls to it, and loads nothing from any other site.',
    iframe: 'An iframe',
    component: 'A web component (one script)',
    copy: 'Copy',
    copied: 'Copied',
    close: 'Close',
    autoplay: 'Play when visible',
    panels: 'Panels',
  },
  about: {
    region: 'About the model',
    intro:
      'What the engine reimplements of the kernel, for which versions, what it simplifies, and how its numbers compare with the source documents. The text below is docs/model-vs-linux.md of this build.',
    contents: 'Contents',
    back: 'Back to the simulator',
  },
  footer: {
    version: (v: string) => `sendpath ${v}`,
    offline: {
      unsupported: '',
      installing: 'saving for offline use…',
      ready: 'works offline',
      failed: 'offline use unavailable',
    } as Record<string, string>,
  },
};

export type ClassroomMessages = typeof en;

export { en as classroomEn };
