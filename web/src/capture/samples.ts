// The recordings of public/samples/ the site's sample menu lists (the header's Experiment menu
// and the presets); their titles are in i18n/messages.en.ts (native.samples). A unit test checks
// that this lists every file of the folder; how each was made is in its header's note and in
// docs/capture.md.

/** The folder the samples are served from, relative to the page. */
export const SAMPLES_PATH = 'samples/';

/** File names in public/samples/, in menu order. */
export const SAMPLE_FILES: readonly string[] = [
  'autocork-on.jsonl',
  'autocork-off.jsonl',
  'pingpong-default.jsonl',
  'pingpong-nodelay.jsonl',
  'bulk-40ms.jsonl',
];
