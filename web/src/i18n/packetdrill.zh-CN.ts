// The packetdrill player's strings in Simplified Chinese, in the shape of the English
// (packetdrill.en.ts; catalogues.ts checks it). Script text, packets and kernel names stay as
// they are. Part of the Chinese chunk (zh-CN.ts).

export const packetdrillZh = {
  title: '在引擎中运行 packetdrill 脚本',
  back: '返回模拟器',
  intro:
    'packetdrill 脚本逐个数据包、逐个系统调用地写明 Linux 内核的行为。打开一个脚本，本站的引擎就在你的浏览器里运行它：脚本的系统调用驱动引擎的套接字，脚本中的入站数据包从线路到达，引擎发出的每个数据包都与脚本期望的数据包逐项比较。',
  open: '打开 .pkt 文件',
  drop: '或把 .pkt 文件拖放到脚本上',
  upstream: '或选择一个上游脚本',
  choose: '选择脚本…',
  empty: '还没有脚本：打开一个 .pkt 文件，或选择一个上游脚本。',
  running: (name: string) => `引擎正在运行 ${name}…`,
  pass: (name: string, events: number) => `${name}：通过。全部 ${events} 个事件都与脚本一致。`,
  fail: (name: string, line: number) =>
    `${name}：第 ${line} 行不一致。引擎的行为与脚本的期望不同。`,
  unsupported: (name: string, line: number) =>
    `${name}：第 ${line} 行不受支持。脚本用到了引擎没有建模的功能，其后的内容没有运行。`,
  error: (name: string, line: number) => `${name}：脚本无法解析（第 ${line} 行）。`,
  readFailed: (error: string) => `无法读取该文件：${error}`,
  engineFailed: (error: string) => `引擎无法运行该脚本：${error}`,
  controls: '播放',
  play: '播放',
  pause: '暂停',
  step: '下一个事件',
  restart: '回到开头',
  end: '显示结果',
  speed: '速度',
  speeds: { slow: '慢速（实际时间的 ¼）', real: '实际时间', fast: '快速（×4）' },
  progress: (done: number, total: number, seconds: string) =>
    `第 ${done} 个事件，共 ${total} 个，t = ${seconds} 秒`,
  script: '脚本',
  engineSent: '引擎发出：',
  returned: '返回 ',
  stopFail: (line: number) => `第 ${line} 行：不一致`,
  stopUnsupported: (line: number) => `第 ${line} 行：不受支持`,
  stopError: (line: number) => `第 ${line} 行：脚本无法解析`,
  expected: '脚本期望：',
  actual: '引擎实际：',
  notes: '引擎没有遵循的设置值',
};
