// The decision log's lines in Simplified Chinese (see i18n/log.ts): one template per event kind
// of the engine (engine/core/src/trace.rs `Ev::describe`, sentence for sentence) and per kind a
// recording records (capture/replay.ts `describeRecorded`). The numbers are the row's own, written
// as the English writes them; kernel names (functions, fields, flags, counters) and units stay as
// they are. Part of the Chinese chunk (zh-CN.ts), loaded only when the page is in Chinese. A gate's
// name comes from the caller (log.ts: the Chinese messages'). log.test.ts checks that
// every kind has its template and that each renders real rows.

import type { RecordedFacts } from '../capture/replay';
import type { EventKind } from '../capture/model';
import { formatBytes, formatNs } from '../model/format';
import type { SimRow } from '../model/logRow';

/** A field as the engine prints it: u64::MAX ("unlimited") comes through the columns as Infinity. */
function num(v: number | undefined): string {
  if (v === undefined || Number.isNaN(v)) return '?';
  return v === Infinity ? '18446744073709551615' : String(v);
}

/** The engine's integer division of a u64 field (`sojourn_ns / 1000`). */
function div(v: number | undefined, by: bigint): string {
  if (v === undefined || !Number.isFinite(v)) return num(v);
  return String(BigInt(v) / by);
}

/** The ACK reasons of `__tcp_ack_snd_check` and friends, by the engine's English name. */
export const ACK_REASONS: Record<string, string> = {
  'more than one full frame received': '收到了不止一个满尺寸的帧',
  'quickack mode': '处于快速确认模式（tcp_in_quickack_mode）',
  ICSK_ACK_NOW: '立即确认（ICSK_ACK_NOW）',
  'delayed-ACK timer expired': '延迟确认定时器到期',
  'tcp_cleanup_rbuf on read': '读取数据时的 tcp_cleanup_rbuf',
  'delayed-ACK timer about to fire': '延迟确认定时器即将触发',
  'setsockopt TCP_QUICKACK': '调用了 setsockopt(TCP_QUICKACK)',
  'connection control': '连接控制',
  'tcp_release_cb after the socket backlog': '套接字积压队列处理完后的 tcp_release_cb',
  'zero-window probe (tcp_xmit_probe_skb)': '零窗口探测（tcp_xmit_probe_skb）',
};

/** A field as the line writes it (see `fieldText`). */
type FieldText = (field: string) => string;
/** A gate's name in Chinese (`autocork` -> 自动封包 …), from the Chinese messages. */
type GateName = (gate: string) => string;
/**
 * A row's fields (`f`), the row (`r`), its fields as the line writes them (`n`) and the names of
 * the gates (`gateName`).
 */
type SimTemplate = (row: {
  f: Record<string, number>;
  r: SimRow;
  n: FieldText;
  gateName: GateName;
}) => string;

/**
 * Field `field` of row `r` as the engine prints it. Every id and count the engine traces is
 * below 2^53 (software-GSO segment ids included: dev.rs `SEG_ID_BASE`), so the columns' f64
 * hold them exactly.
 */
function fieldText(r: SimRow): FieldText {
  return (field) => num(r.f[field]);
}

/** What `tcp_write_xmit` compared at each gate it can stop at (`Ev::XmitHold`). */
function held(gate: string, a: string, b: string, gateName: GateName): string {
  switch (gate) {
    case 'nagle':
      return `Nagle 算法：这是不足 MSS 的分段，而先前的小分段（snd_sml ${a}）尚未被确认（snd_una ${b}）`;
    case 'cork':
      return '被塞住（TCP_CORK 或 MSG_MORE）';
    case 'tso_defer':
      return `tcp_tso_should_defer：现在只能发送 ${a} B，等一个 ACK 后可一次发送最多 ${b} B`;
    case 'tsq':
      return `TSQ：sk_wmem_alloc ${a} B > 上限 ${b} B，置位 TSQ_THROTTLED`;
    case 'cwnd':
      return `拥塞窗口已满：${a} 个数据包在途，cwnd ${b}`;
    case 'rwnd':
      return `接收窗口已满：分段结束于 ${a}，窗口结束于 ${b}`;
    case 'pacing':
      return `pacing 限速：下一次发送在 ${a} ns`;
    default:
      return gateName(gate);
  }
}

/** Every event kind of the engine (trace.rs `KINDS`), by name. */
export const SIM_TEMPLATES: Record<string, SimTemplate> = {
  sendmsg: ({ f, n }) =>
    `应用程序调用 send()，写入 ${n('size')} B${f.msg_more ? '，带 MSG_MORE' : ''}`,
  sendmsg_copy: ({ f, n }) =>
    `把 ${num(f.end_seq! - f.seq!)} B [${n('seq')}, ${n('end_seq')}) 复制进${f.new_skb ? '新的' : '末尾的'} skb#${n('skb')}，现有 ${n('skb_len')} B，size_goal 为 ${n('size_goal')} B`,
  sendmsg_wait: ({ f, r, n }) =>
    r.gates[f.gate!] === 'notsent_lowat'
      ? `写入进程休眠：尚未发送的 ${n('notsent')} B 超过 TCP_NOTSENT_LOWAT`
      : `写入进程休眠：sk_wmem_queued ${n('wmem_queued')} B >= sk_sndbuf ${n('sndbuf')} B`,
  write_space: ({ n }) =>
    `写入进程被唤醒：sk_wmem_queued ${n('wmem_queued')} B，sk_sndbuf ${n('sndbuf')} B，${n('notsent')} B 尚未发送`,
  sendmsg_done: ({ n }) => `send() 返回 ${n('copied')}`,
  autocork: ({ f, r, n }) => {
    // The running count is the session's (Described.autocorking), not a field; "+1" as the
    // engine words it where there is no count.
    const count = r.autocorking ?? '+1';
    return `skb#${n('skb')} 的 ${n('skb_len')} B < size_goal ${n('size_goal')} B，且 sk_wmem_alloc ${n('wmem_alloc')} > truesize ${n('truesize')}：自动封包（${f.counted ? `TcpExtTCPAutoCorking ${count}` : 'TSQ_THROTTLED 已置位'}）`;
  },
  xmit_hold: ({ f, r, n, gateName }) =>
    `skb#${n('skb')} [${n('seq')}, ${n('end_seq')}) 被扣住：${held(r.gates[f.gate!] ?? n('gate'), n('a'), n('b'), gateName)}`,
  fragment: ({ n }) =>
    `拆分 skb#${n('skb')}：${n('len')} B 现在发出，${n('rest')} B 留在 skb#${n('new_skb')}`,
  xmit: ({ n }) =>
    `发送 skb#${n('skb')} [${n('seq')}, ${n('end_seq')})，作为数据包 #${n('pkt')}：${n('segs')} 个分段，${n('len')} B，truesize ${n('truesize')}`,
  ack_xmit: ({ f, r, n }) => {
    const reason = r.ackReasons[f.reason!] ?? n('reason');
    return `ACK #${n('pkt')} 确认到 ${n('ack')}，通告窗口 ${n('window')}：${ACK_REASONS[reason] ?? reason}`;
  },
  qdisc_enqueue: ({ n }) =>
    `数据包 #${n('pkt')} 进入 qdisc：qdisc 中现有 ${n('qlen')} 个数据包，${n('backlog')} B`,
  qdisc_drop: ({ n }) => `数据包 #${n('pkt')} 被 qdisc 丢弃（原因代码 ${n('reason')}）`,
  qdisc_dequeue: ({ f, n }) =>
    `数据包 #${n('pkt')} 在 qdisc 中等待 ${div(f.sojourn_ns, 1000n)} µs 后出队`,
  qdisc_throttle: ({ n }) => `数据流被限速，直到 ${n('until_ns')} ns`,
  ring_post: ({ n }) =>
    `数据包 #${n('pkt')} 放入网卡 TX 环（已用 ${n('ring_used')}/${n('ring_size')} 个描述符），BQL 在途 ${n('bql_inflight')} B，上限 ${n('bql_limit')} B`,
  queue_stop: ({ f, r }) =>
    r.gates[f.gate!] === 'bql'
      ? 'TX 队列被 BQL 停止（__QUEUE_STATE_STACK_XOFF）'
      : 'TX 队列停止：TX 环已满（__QUEUE_STATE_DRV_XOFF）',
  queue_wake: ({ f, r }) =>
    r.gates[f.gate!] === 'bql'
      ? 'TX 队列被唤醒：BQL 又有余量（清除 STACK_XOFF）'
      : 'TX 队列被唤醒：驱动程序释放了 TX 描述符',
  qdisc_bypass: ({ n }) =>
    `数据包 #${n('pkt')} 绕过空的 qdisc（TCQ_F_CAN_BYPASS），直接交给驱动程序`,
  gso_segment: ({ n }) => `数据包 #${n('pkt')} 由软件分段（TSO 关闭），分成 ${n('segs')} 个数据包`,
  requeue: ({ n }) => `数据包 #${n('pkt')} 被驱动程序拒收，重新放回 qdisc 的队首`,
  wire_tx: ({ n }) =>
    `数据包 #${n('pkt')} 上线路：${n('segs')} 个帧，连同帧开销共 ${n('wire_bytes')} B，最后一位在 ${n('end_ns')} ns 发出`,
  wire_rx: ({ n }) => `数据包 #${n('pkt')} 已接收（${n('segs')} 个帧）`,
  tx_completion: ({ n }) =>
    `发送完成：释放 ${n('descs')} 个描述符、${n('bytes')} B；BQL 上限 ${n('bql_limit')} B`,
  tcp_wfree: ({ f, n }) =>
    `数据包 #${n('pkt')} 被释放：sk_wmem_alloc -${n('truesize')} = ${n('wmem_alloc')}${f.tsq_queued ? '，TSQ_THROTTLED 曾置位：调度 TSQ 处理函数' : ''}`,
  tsq_handler: () => 'TSQ 处理函数运行 tcp_write_xmit',
  gro: ({ n }) => `GRO 合并了 ${n('segs')} 个分段，${n('bytes')} B`,
  rcv_data: ({ n }) => `收到 [${n('seq')}, ${n('end_seq')})，共 ${n('segs')} 个分段`,
  delack_sched: ({ f, n }) =>
    // ato in ms as the engine prints an f64 (`ato_us as f64 / 1000.0`).
    `延迟确认定时器设为 ${n('timeout_ns')} ns 触发（ato ${num(f.ato_us! / 1000)} ms，quick ${n('quick')}，pingpong ${n('pingpong')}）`,
  ack_rcvd: ({ f, n }) =>
    // pacing in Mbit/s as the engine computes it: `pacing_rate * 8 / 1_000_000`, u64::MAX kept.
    `ACK ${n('ack')} 确认了 ${n('acked')} B：cwnd ${n('cwnd')}，ssthresh ${n('ssthresh')}，srtt ${n('srtt_us')} µs，pacing 速率 ${f.pacing_rate === Infinity ? num(Infinity) : String((BigInt(f.pacing_rate!) * 8n) / 1_000_000n)} Mbit/s，${n('packets_out')} 个数据包在途`,
  recvmsg: ({ n }) => `应用程序读取了 ${n('bytes')} B`,
  probe0: ({ n }) => `探测定时器不顾 Nagle/cork 发送了 ${n('bytes')} B`,
  rto: ({ n }) => `重传超时（序号 ${n('seq')}）`,
  loss_probe: ({ f, n }) =>
    `尾部丢包探测（TLP）：${f.retrans ? '再次发送最后一个分段' : '发送新数据'}，tlp_high_seq ${n('seq')}`,
  cpu_wait: ({ f }) => `等待 CPU ${div(f.wait_ns, 1000n)} µs`,
  established: ({ n }) =>
    `连接已建立：mss ${n('mss')}，sk_sndbuf ${n('sndbuf')}，sk_rcvbuf ${n('rcvbuf')}`,
  // A kernel site keeps its kernel name (qdisc); the lab's router between the hosts is named.
  drop: ({ f, r, n }) => {
    const site = r.dropSites[f.site!] ?? n('site');
    return `数据包 #${n('pkt')} 在 ${DROP_SITES_ZH[site] ?? site} 中被丢弃`;
  },
  retransmit: ({ n }) => `重传 skb#${n('skb')} [${n('seq')}, ${n('end_seq')})：${n('segs')} 个分段`,
  // The state keeps the kernel's name (enum tcp_ca_state), as the engine's line does.
  ca_state: ({ f, n }) => `拥塞状态 ${CA_STATES[f.state!] ?? n('state')}`,
};

/** `enum tcp_ca_state` by value, as the engine names the states. */
const CA_STATES = [
  'TCP_CA_Open',
  'TCP_CA_Disorder',
  'TCP_CA_CWR',
  'TCP_CA_Recovery',
  'TCP_CA_Loss',
];

/** Drop sites that are not kernel names, in Chinese. */
const DROP_SITES_ZH: Record<string, string> = { bottleneck: '瓶颈路由器' };

function hex(v: number): string {
  return Number.isFinite(v) ? `0x${v.toString(16)}` : '?';
}

/** Every event kind a recording records (capture/model.ts `EVENT_KINDS`). */
export const RECORDED_TEMPLATES: Record<EventKind, (r: RecordedFacts) => string> = {
  sendmsg: ({ n }) =>
    `tid ${num(n.tid)} 复制进${(n.skbaddr ?? NaN) > 0 ? `末尾的 skb（${formatBytes(n.skb_len!)}，size_goal 为 ${formatBytes(n.size_goal!)}）` : '新的 skb（没有末尾的 skb）'}，本次调用还剩 ${formatBytes(n.msg_left ?? NaN)}`,
  queue: ({ n, s }) => `一个 ${formatBytes(n.len ?? NaN)} 的 skb 在 ${s.dev} 上进入 dev_queue_xmit`,
  enqueue: ({ n }) => `qdisc ${hex(n.handle ?? NaN)} 接收了这个 skb`,
  dequeue: ({ n }) =>
    `qdisc ${hex(n.handle ?? NaN)} 放出 ${num(n.packets)} 个 skb${n.txq_state ? `（txq_state ${hex(n.txq_state)}：队列已停止）` : ''}`,
  xmit: ({ n, s }) =>
    `交给 ${s.dev} 的驱动程序：${formatBytes(n.len ?? NaN)}，${(n.gso_segs ?? NaN) > 1 ? `${num(n.gso_segs)} 个 ${formatBytes(n.gso_size ?? NaN)} 的分段（TSO/GSO）` : '一个分段'}，其中 ${formatBytes(n.data_len ?? NaN)} 数据在页面片段中`,
  free: ({ n }) => `skb 在发出 ${formatNs(n.lat_ns ?? NaN)} 后被释放`,
  drop: ({ s }) => `skb 在发出后被丢弃（${s.reason}）`,
  probe: ({ n }) =>
    `端口 ${num(n.sport)} 收到${(n.data_len ?? NaN) > 0 ? ` ${formatBytes(n.data_len!)} 数据` : '一个 ACK'}：snd_una ${num(n.snd_una)}，snd_nxt ${num(n.snd_nxt)}，cwnd ${num(n.snd_cwnd)}，srtt ${formatNs((n.srtt ?? NaN) * 1000)}，snd_wnd ${formatBytes(n.snd_wnd ?? NaN)}`,
  retrans: ({ n }) => `端口 ${num(n.sport)} > ${num(n.dport)} 重传一个 skb`,
  state: ({ n, s }) => `端口 ${num(n.sport)} > ${num(n.dport)}：${s.oldstate} → ${s.newstate}`,
  delack_start: ({ n }) => {
    const ticks = (n.expires ?? NaN) - (n.now ?? NaN);
    const hz = n.hz ?? NaN;
    return `延迟确认将在 ${num(ticks)} 个 jiffies 后到期（HZ ${num(hz)} 下为 ${formatNs((ticks * 1e9) / hz)}）`;
  },
  delack_fire: () => '延迟确认定时器触发',
};

/** Recorded kinds whose tracepoint is a timer's: the English names the timer after it. */
const TIMER_KINDS: ReadonlySet<EventKind> = new Set(['delack_start', 'delack_fire']);

export const logZh = {
  /** An ACK reason in Chinese, by the engine's English name; null for one without words. */
  ackReason(reason: string): string | null {
    return ACK_REASONS[reason] ?? null;
  },
  /** A simulated row in Chinese, after its kernel function; null for a kind without a template. */
  simLine(r: SimRow, gateName: GateName): string | null {
    const t = SIM_TEMPLATES[r.kind];
    return t ? `${r.func}：${t({ f: r.f, r, n: fieldText(r), gateName })}` : null;
  },
  /** A recorded event in Chinese, after its tracepoint; null for a kind without a template. */
  recordedLine(r: RecordedFacts): string | null {
    const t = RECORDED_TEMPLATES[r.kind] as ((r: RecordedFacts) => string) | undefined;
    if (!t) return null;
    return `${r.tp}${TIMER_KINDS.has(r.kind) ? '（tcp_delack_timer）' : ''}：${t(r)}`;
  },
};
