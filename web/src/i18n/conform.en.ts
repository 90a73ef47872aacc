// The strings of the "Model vs Linux" view (classroom/ConformView.tsx), in English: the shape of
// every language's (conform.zh-CN.ts is Simplified Chinese). Unlike the other English catalogues
// it is not part of the first load: only the view's chunk imports it, through conform.ts. The
// experiments' own texts (title, claim, real setup) are the files' English, marked lang="en".
// Kernel names (counters, sysctls, socket options) stay as they are. A catalogue imports no other
// module of i18n/ (catalogues.ts).

const en = {
  title: 'Model vs Linux',
  back: 'Back to the simulator',
  intro:
    'Each experiment below was run on a real Linux kernel and measured with the tools kernel people use (nstat, ss, tc, getrusage). The same setup then runs in this site’s engine, in your browser: the table puts Linux’s numbers beside the model’s.',
  bandHeading: 'How to read it',
  band: 'A value is in band when the model is within ±10 % of Linux’s median, or inside the range (min..max) the kernel itself gave over its repetitions.',
  ratioHelp:
    'The bar shows model ÷ Linux on a log scale from ×¼ to ×4: the shaded middle is ±10 %, a dot left of it means the model gives less than Linux, right of it more.',
  legend: 'Verdicts',
  legendSep: ': ',
  legendIn: 'the model agrees with Linux.',
  legendKnown: 'the model misses, and the mechanism it lacks is named.',
  legendMiss: 'the model misses and nothing explains it yet.',
  overall: (experiments: number, values: number, inBand: number, percent: number) =>
    `${experiments} experiments, ${values} values: ${inBand} in band (${percent} %).`,
  misses: (known: number, miss: number) =>
    `Of the misses, ${known} ${known === 1 ? 'is' : 'are'} explained by a known failure and ${miss} ${miss === 1 ? 'is' : 'are'} not yet explained.`,
  summary: (inBand: number, total: number) => `${inBand} of ${total} values in band`,
  summaryKnown: (n: number) => `${n} explained ${n === 1 ? 'miss' : 'misses'}`,
  summaryMiss: (n: number) => `${n} unexplained ${n === 1 ? 'miss' : 'misses'}`,
  filtered: (scenario: string, n: number) =>
    `Showing the ${n} ${n === 1 ? 'experiment' : 'experiments'} that mirror the scenario “${scenario}”.`,
  showAll: 'Show every experiment',
  loading: 'Loading the recordings…',
  running: (done: number, total: number) =>
    `The engine is running the experiments in your browser: ${done} of ${total} done.`,
  done: (total: number) => `All ${total} experiments ran in the engine.`,
  none: 'This build has no recorded experiments.',
  noneForScenario: (scenario: string) =>
    `No recorded experiment mirrors the scenario “${scenario}”.`,
  failed: (error: string) => `The engine could not run this experiment: ${error}`,
  contents: 'Mechanisms',
  mechanisms: {
    nagle: 'Nagle’s algorithm and delayed ACKs',
    autocorking: 'Autocorking',
    tso: 'TSO autosizing',
    notsent_lowat: 'Unsent data limit (TCP_NOTSENT_LOWAT)',
    tsq: 'TCP small queues (TSQ)',
    loss: 'Loss recovery',
  } as Record<string, string>,
  claim: 'Claim',
  caption: (title: string) => `Linux and the model, value by value: ${title}`,
  col: {
    value: 'Value',
    real: 'Linux (median)',
    range: 'Linux min..max',
    model: 'Model',
    ratio: 'Model ÷ Linux',
    verdict: 'Verdict',
  },
  notComputed: 'not computed by the model',
  pending: 'running…',
  verdict: {
    in: 'In band',
    near: 'within ±10 % of the median',
    range: 'inside Linux’s range',
    stale: 'In band, though marked as a known failure (the marker can go)',
    known: 'Miss, explained:',
    miss: 'Miss, not yet explained',
  },
  ratioLabel: (ratio: string) => `model ÷ Linux = ${ratio}`,
  open: 'Open in the simulator',
  // The link's accessible name: its visible text first (WCAG 2.5.3), then which experiment.
  openLabel: (title: string) => `Open in the simulator: ${title}`,
  notInSimulator: (file: string) =>
    `Its engine setup (${file}) lives beside the recordings, not among the simulator’s scenarios: the engine does not yet model what it shows well enough to teach with it.`,
  details: 'The real setup and the recording',
  recording: 'Recording',
  facts: {
    kernel: 'Kernel',
    hz: 'Timer frequency (HZ)',
    date: 'Date',
    machine: 'Machine',
    repetitions: 'Repetitions',
  },
  realSetup: 'The real setup',
  modelRun: 'The model’s run',
  scenario: 'Scenario',
  variant: 'Variant',
  asWritten: '(the file as written)',
  overrides: 'Overrides',
  noOverrides: 'none',
  lacks: 'What the engine lacks to mirror this setup',
  lacksNone: 'Nothing: the engine mirrors the whole setup.',
};

export type ConformMessages = typeof en;

export { en as conformEn };
