// Every Simplified Chinese catalogue, as one chunk: catalogues.ts loads it (and checks it against
// `Catalogues`) only when the page shows Chinese, so English readers do not download it.

export { zhCN as messages } from './messages.zh-CN';
export { zhCN as classroom } from './classroom.zh-CN';
export { conformZh as conform } from './conform.zh-CN';
export { packetdrillZh as packetdrill } from './packetdrill.zh-CN';
export { keysZh as keys, scenariosZh as scenarios } from './content.zh-CN';
export { logZh as log } from './log.zh-CN';
