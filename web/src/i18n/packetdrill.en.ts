// The strings of the packetdrill player (classroom/PacketdrillView.tsx, `?view=packetdrill`), in
// English: the shape of every language's (packetdrill.zh-CN.ts is Simplified Chinese). Like
// "Model vs Linux"'s, it is not part of the first load: only the view's chunk imports it,
// through packetdrill.ts. Script text, packets and kernel names stay as they are. A catalogue
// imports no other module of i18n/ (catalogues.ts).

const en = {
  title: 'packetdrill scripts in the engine',
  back: 'Back to the simulator',
  intro:
    'A packetdrill script says, packet by packet and system call by system call, what the Linux kernel does. Open one and this site’s engine runs it in your browser: the script’s system calls drive the engine’s socket, its inbound packets arrive from the wire, and every packet the engine sends is compared with the one the script expects.',
  open: 'Open a .pkt file',
  drop: 'or drop a .pkt file on the script',
  upstream: 'Or an upstream script',
  choose: 'Choose a script…',
  empty: 'No script yet: open a .pkt file or choose an upstream script.',
  running: (name: string) => `The engine is running ${name}…`,
  pass: (name: string, events: number) =>
    `${name}: pass. All ${events} events happened as the script says.`,
  fail: (name: string, line: number) =>
    `${name}: mismatch at line ${line}. The engine did not do what the script expects.`,
  unsupported: (name: string, line: number) =>
    `${name}: unsupported at line ${line}. The script uses something the engine does not model; nothing after it ran.`,
  error: (name: string, line: number) => `${name}: the script does not parse (line ${line}).`,
  readFailed: (error: string) => `The file could not be read: ${error}`,
  engineFailed: (error: string) => `The engine could not run the script: ${error}`,
  controls: 'Playback',
  play: 'Play',
  pause: 'Pause',
  step: 'Next event',
  restart: 'Back to the start',
  end: 'Show the end',
  speed: 'Speed',
  speeds: { slow: 'Slow (¼ of real time)', real: 'Real time', fast: 'Fast (×4)' },
  progress: (done: number, total: number, seconds: string) =>
    `Event ${done} of ${total}, t = ${seconds} s`,
  script: 'The script',
  engineSent: 'the engine sent: ',
  returned: 'returned ',
  stopFail: (line: number) => `Line ${line}: mismatch`,
  stopUnsupported: (line: number) => `Line ${line}: unsupported`,
  stopError: (line: number) => `Line ${line}: the script does not parse`,
  expected: 'script expects: ',
  actual: 'engine did: ',
  notes: 'Set-up values the engine does not follow',
};

export type PacketdrillMessages = typeof en;
export const packetdrillEn: PacketdrillMessages = en;
