// Scenario titles and summaries and the keys' meanings in Simplified Chinese (see content.ts;
// catalogues.ts checks the shape). Part of the Chinese chunk (zh-CN.ts), loaded only when the page
// is in Chinese.

export const scenariosZh: Record<string, { title: string; summary: string }> = {
  autocorking: {
    title: 'TCP 自动封包：4 个数据流，每次写入 128 字节',
    summary:
      '四个 netperf TCP_STREAM 数据流每次 send() 写入 128 字节。没有自动封包时，只要 Nagle 算法允许，tcp_push 就立即发送，于是每个 MSS 的数据都要完整地走一遍 tcp_write_xmit、qdisc 和驱动程序，发送方的 CPU 不堪重负。有了自动封包，只要该数据流仍有数据包在 qdisc 或网卡 TX 环中，tcp_push 就暂扣尚未填满的末尾 skb，之后由发送完成（tcp_wfree → TSQ 处理函数）把更大的包推出。',
  },
  'nagle-delayed-ack': {
    title: 'Nagle 算法与延迟确认（以及为何只设置一次 TCP_QUICKACK 毫无帮助）',
    summary:
      '服务端把 1000 字节拆成 100 次、每次 10 字节写出；客户端全部读完后以同样方式回复；共 100 轮。每轮的前 10 字节立即发出；Nagle 算法扣住其余数据，直到这个小分段被确认，而接收方处于交互模式（pingpong），会把 ACK 最多延迟 40 ms。每轮两次这样的等待，使 100 轮持续约 8 秒。',
  },
  'tso-autosizing': {
    title: 'TSO 自动分段：在 sendmsg 时（3.18）还是在发送时（3.19）',
    summary:
      '在 40 ms RTT 的路径上，以 SO_SNDBUF 1,000,000 一次 send() 2,000,000 字节。在 3.18 中，tcp_xmit_size_goal 按 sk_pacing_rate / 2000 决定每个新 skb 的大小：握手刚完成时只有 2 个 MSS，于是写队列里全是 2 个 MSS 的 skb，每个都作为单独的小 TSO 数据包发出并各自被确认。在 3.19 中 skb 为 64 KB，由 tcp_write_xmit 在发送时按当时的速率切分（tcp_tso_autosize、tso_fragment），而速率在慢启动中不断增长。',
  },
  'notsent-lowat': {
    title: 'TCP_NOTSENT_LOWAT：200 个批量数据流，未发送字节上限 128 KB',
    summary:
      '200 个 netperf TCP_STREAM 数据流共享一条链路。不加限制时，每个发送方的写队列会用要等很久才能发出的字节填满自动调整后的发送缓冲区。设置 net.ipv4.tcp_notsent_lowat = 131072 后，一旦有 128 KB 未发送，tcp_stream_memory_free 就让写入进程休眠，等这些数据发出后由 sk_stream_write_space 唤醒：/proc/net/sockstat 中的内存（"TCP: mem"，页）减半，唤醒次数增加。',
  },
  'tcp-small-queues': {
    title: 'TCP Small Queues：1 Gbit/s 链路上的一个批量数据流',
    summary:
      '一个 netperf TCP_STREAM 数据流以每次 64 KB 的 send() 写入，链路为 1 Gbit/s、RTT 10 ms。网卡是瓶颈，所以 TCP 交下去的数据都在 qdisc 中等待。有了 TCP Small Queues，当该 socket 在 TCP 之下的字节数（sk_wmem_alloc）达到 tcp_limit_output_bytes 时，tcp_write_xmit 就停下，由发送完成（tcp_wfree，然后是 TSQ 处理函数）放行下一批数据包：qdisc 中只有大约两个 TSO 数据包。把上限调到不可能达到的大小，qdisc 就会容纳拥塞窗口允许的全部数据：以兆字节计，排在后面的每个数据包都要多等好几毫秒。',
  },
  'fq-pacing-autocorking': {
    title: 'fq 限速发送让自动封包更容易触发',
    summary:
      '在 fq 作为 qdisc 的情况下重做自动封包实验（4 个数据流，每次写入 128 字节），链路为发送方无法填满的 40 Gbit/s。关闭 pacing 时，fq 立即转发每个数据包：发送方的 CPU 先耗尽，数据包大约只有 1 个 MSS。每个数据流限速 2.5 Gbit/s（tc qdisc fq maxrate 2500mbit，约等于每个受限于 CPU 的数据流达到的速率）时，fq 把每个数据流的数据包扣到其发送时刻；在此期间 tcp_push 发现该数据流仍有数据包在 qdisc 中，于是自动封包，末尾 skb 增长到数十个 MSS。限速高于发送方所能达到的速率时，数据包被扣住的时间太短，几乎没有影响。',
  },
  'loss-recovery': {
    title: '那个数据包去哪儿了：一个批量数据流经过 100 个数据包的瓶颈队列',
    summary:
      '一个 TCP_STREAM 数据流以每次 64 KB 的 send() 写入，经过一台 200 Mbit/s、RTT 40 ms 的路由器。路由器的队列能容纳 100 个数据包，远少于路径在途的 660 个，所以慢启动会撑破队列，路由器丢弃放不下的数据包。接收方的 SACK 报告空洞；发送方把缺失的分段标记为丢失（RACK），进入快速恢复并重传它们，由 PRR 在整个恢复期间安排重传和新数据的节奏。随后 cubic 从窗口的 70 % 继续；BBR 则保持它测得的速率，每次探测更多带宽时又会丢包。',
  },
};

/** key -> meaning. */
export const keysZh: Record<string, string> = {
  kernel: '模型所依据的内核版本：决定默认值和代码路径',
  'sim.seed': '本次运行随机数（定时器节拍相位）的种子；种子相同，运行结果相同',
  'sim.duration_ms': '模拟时间上限：工作负载未完成时，运行在此时停止',
  'sim.hz': 'CONFIG_HZ：每秒的 jiffies 数；延迟确认和重传定时器以 jiffies 计时',
  'kernel.max_header':
    '内核构建的 MAX_HEADER（字节）：LL_MAX_HEADER（32；启用 CONFIG_WLAN 时 96；启用 CONFIG_HYPERV_NET 时 128），编译了 IP 隧道再加 48；发行版内核为 176，精简构建为 32。MAX_TCP_HEADER = 128 + 它，决定每个 skb 头部的大小（truesize）以及 tcp_sndbuf_expand 按每个 MSS 计算的内存',
  TCP_NODELAY: '关闭 Nagle 算法：即使有数据未被确认，也发送小于 MSS 的分段',
  TCP_CORK: '保持 socket 塞住：只发送满尺寸的分段（直到解除或探测定时器触发）',
  TCP_QUICKACK: '连接后执行一次 setsockopt(TCP_QUICKACK, 1)：退出 pingpong 模式（不是永久的）',
  TCP_NOTSENT_LOWAT: '写入进程休眠前允许的未发送字节数；0 = 使用 net.ipv4.tcp_notsent_lowat',
  SO_SNDBUF:
    '发送缓冲区请求（netperf -s）；内核将其加倍，以 net.core.wmem_max 为上限，并停止自动调整；0 = 未设置',
  SO_RCVBUF:
    '接收缓冲区请求（netperf -S）；加倍，以 net.core.rmem_max 为上限，关闭自动调整；0 = 未设置',
  SO_PRIORITY: '该 socket 数据包的 skb->priority；pfifo_fast 据此选择频段',
  SO_MAX_PACING_RATE: 'sk_pacing_rate 的上限，字节每秒；0 = 不限',
  TCP_CONGESTION: '该 socket 的拥塞控制算法；留空 = net.ipv4.tcp_congestion_control',
  'net.ipv4.tcp_autocorking':
    '当该数据流仍有先前的数据包在 qdisc 或网卡中时，暂扣尚未填满的末尾 skb',
  'net.ipv4.tcp_limit_output_bytes':
    'TCP Small Queues：单个 socket 在 qdisc 和网卡中最多可有的字节数（按 truesize 计）',
  'net.ipv4.tcp_min_tso_segs': 'TSO 自动分段为每个 TSO 数据包选择的最少 MSS 数',
  'net.ipv4.tcp_tso_win_divisor': '窗口中有这一比例（1/N）可用时，tcp_tso_should_defer 就发送',
  'net.ipv4.tcp_tso_rtt_log':
    'TSO 自动分段额外加上 64 KB >> (min_rtt_us >> N)：短路径上的 TSO 数据包更大',
  'net.ipv4.tcp_notsent_lowat':
    '未发送字节超过此值时写入进程休眠（未设置 TCP_NOTSENT_LOWAT 的 socket）；4294967295 = 关闭',
  'net.ipv4.tcp_wmem': '发送缓冲区的最小值、初始值和自动调整上限，字节',
  'net.ipv4.tcp_rmem': '接收缓冲区的最小值、初始值和自动调整上限，字节',
  'net.ipv4.tcp_mem':
    'TCP 内存阈值，以页计（低、压力、高）；内核按内存大小设定（这里：一台 64 GB 的主机）',
  'net.ipv4.tcp_slow_start_after_idle': '空闲超过 RTO 后重置拥塞窗口',
  'net.ipv4.tcp_congestion_control': '默认拥塞控制算法（模型实现了 CUBIC、Reno 和 BBR）',
  'net.ipv4.tcp_pacing_ss_ratio': '慢启动中的 sk_pacing_rate，为 cwnd * mss / srtt 的百分比',
  'net.ipv4.tcp_pacing_ca_ratio': '拥塞避免中的 sk_pacing_rate，为 cwnd * mss / srtt 的百分比',
  'net.ipv4.tcp_timestamps':
    'TCP 时间戳选项（每个分段 12 字节，因此 MTU 1500 时 MSS 为 1448 而非 1460）',
  'net.ipv4.tcp_moderate_rcvbuf': '接收缓冲区自动调整',
  'net.ipv4.tcp_early_retrans':
    '3 或 4：最后一次发送 2 个 RTT 后发出尾部丢包探测（TLP）；模型从 4.14 起探测',
  'net.ipv4.tcp_frto':
    '重传超时后的 F-RTO（RFC 5682）：非零时先发送新数据，并在随后的 ACK 表明超时是虚假的时撤销它（TcpExtTCPSpuriousRTOs）；0 时重传所有未被确认的数据',
  'net.ipv4.tcp_pingpong_thresh':
    '接收方把连接视为交互式（延迟其 ACK）之前，需要在 ato 内收到的回复次数',
  'net.core.default_qdisc': '新设备挂载的 qdisc',
  'net.core.wmem_max': 'SO_SNDBUF 请求的上限，字节',
  'net.core.rmem_max': 'SO_RCVBUF 请求的上限，字节',
  'tc.qdisc':
    '主机设备的根 qdisc；default = net.core.default_qdisc（loopback 上为 noqueue，从 4.3 起 veth 上也是）',
  'tc.fq.limit': 'fq：qdisc 中最多的数据包数',
  'tc.fq.flow_limit': 'fq：每个数据流最多的数据包数',
  'tc.fq.quantum': 'fq：每轮一个数据流可发送的字节数；0 = 2 * (MTU + 14)',
  'tc.fq.initial_quantum': 'fq：新数据流或长时间空闲的数据流的额度；0 = 10 * (MTU + 14)',
  'tc.fq.maxrate_mbit': 'fq：每个数据流的速率上限，Mbit/s；0 = 不限',
  'tc.fq.refill_delay_ms': 'fq：数据流空闲多久后恢复其额度',
  'tc.fq.pacing': 'fq：执行 pacing 限速（nopacing = 0）',
  'tc.fq.horizon_ms': 'fq：时间戳超出此范围的数据包被丢弃（5.7+）',
  'path.bottleneck_mbit':
    '两台主机之间的瓶颈路由器（每个方向）：速率，Mbit/s（以太网帧字节，不含前导码和 FCS），在 link.delay_us 之前；GSO 帧在那里被切成 MSS 大小的帧；0 = 没有',
  'path.queue_packets':
    '瓶颈路由器的尾部丢弃队列：等待或正在串行化的数据包数；遇到队列已满的数据包被丢弃',
  'tc.tbf.rate_mbit': 'tbf：令牌速率（tc 的 rate），Mbit/s',
  'tc.tbf.burst_bytes': 'tbf：桶深度（tc 的 burst），字节；更大的 GSO 包被切分，其他包被丢弃',
  'tc.tbf.latency_ms':
    'tbf：在队列中的最长等待（tc 的 latency）；设定 limit = rate * latency + burst',
  'tc.tbf.limit_bytes': 'tbf：队列容纳的字节数（tc 的 limit）；0 = 由 tc.tbf.latency_ms 计算',
  'tc.fq_codel.limit': 'fq_codel：qdisc 中最多的数据包数',
  'tc.fq_codel.flows': 'fq_codel：数据流桶的数量',
  'tc.fq_codel.quantum': 'fq_codel：每轮一个数据流可出队的字节数',
  'tc.fq_codel.target_us': 'fq_codel：可接受的持续排队延迟',
  'tc.fq_codel.interval_us': 'fq_codel：延迟须持续高于目标值多久才开始丢包',
  'link.txqueuelen': '设备发送队列长度（ip link set txqueuelen）：pfifo_fast 每个频段的上限',
  'ethtool.tx': 'TX 环的描述符数（ethtool -G tx）',
  'ethtool.tso': '网卡中的 TCP 分段卸载（ethtool -K tso）',
  'ethtool.gso': '网卡不支持 TSO 时在软件中进行的通用分段卸载（ethtool -K gso）',
  'ethtool.gro':
    '接收方的通用接收卸载（ethtool -K gro）：开启时一个 TSO 数据包作为一个 skb 到达 TCP；关闭时每个 MSS 帧各是一个 skb（经由 veth 转发器时：转发器切分 GSO 帧，sp-delayfwd -S）',
  'ethtool.tx-usecs': '发送完成中断合并：首个完成后等待的微秒数（ethtool -C tx-usecs）',
  'ethtool.tx-frames': '发送完成中断合并：累计完成多少帧就立即触发中断（ethtool -C tx-frames）',
  'bql.enabled': 'TX 队列上的 Byte Queue Limits（驱动程序调用 netdev_tx_sent_queue）',
  'bql.limit_min': 'BQL：最低上限，字节（byte_queue_limits/limit_min）',
  'bql.limit_max': 'BQL：最高上限，字节（byte_queue_limits/limit_max；默认为 DQL_MAX_LIMIT）',
  'link.kind':
    '两台主机由以太网链路相连，两端都在同一主机的 loopback（lo）上，或者两个网络命名空间由一对 veth 相连（noqueue，没有线路速率：接收方的软中断在发送方的核上运行）；设置了 link.delay_us 或 path.bottleneck_mbit 的 veth 是经由转发命名空间的两对 veth，转发器延迟每一帧（有瓶颈时还会串行化并丢弃），如同一致性实验室的 sp-delayfwd',
  'link.rate_mbit':
    '线路速率，Mbit/s（以太网帧开销另计，在 IP 数据包之外）；lo 和 veth 没有线路速率',
  'link.delay_us': '单向传播延迟，µs（RTT 为其两倍再加上串行化时间）；lo 和 veth 没有延迟',
  'link.mtu': 'MTU，字节（lo：65536）',
  'cpu.cores': '主机的 CPU 核数；核数足够时，每个应用线程独占一个核',
  'cpu.speed_percent': '主机 CPU 相对于测量开销表的机器的速度（200 = 每项操作只需一半时间）',
  'cpu.model': '内核工作的开销模型：reference = 有文档记录的每项操作开销；free = CPU 永不成为限制',
  'app.kind': 'tcp_stream：netperf TCP_STREAM 数据流；pingpong：Nagle 文章中的请求/响应轮次',
  'app.flows': '并发连接数（super_netperf N）',
  'app.write_size_bytes': '每次 send() 调用的字节数（netperf -m）',
  'app.bytes': '每个数据流停止前发送的字节数（netperf -l -N）；0 = 一直到 sim.duration_ms',
  'app.interval_us': '两次 send() 调用之间的思考时间；0 = 连续调用',
  'app.connect_interval_us':
    '相邻数据流调用 connect() 的时间间隔：第 i 个数据流在 i 乘以该值时连接；0 = 全部在 t = 0 连接。（一致性实验室的录制脚本用 shell 循环启动客户端：它们的 SYN 相隔约 0.5 ms。）',
  'app.io':
    '流发送方的发送方式：阻塞的 send() 调用；或者非阻塞（O_NONBLOCK），用 epoll_wait 等待 EPOLLOUT，每次唤醒后一直发送到 EAGAIN，或者只发送一次',
  'app.read_size_bytes': '接收方应用程序每次 recv() 调用的字节数',
  'app.send_bytes': 'pingpong：每轮每一方发送的字节数（文章中的 send）',
  'app.n_chunk': 'pingpong：这些字节被拆成的 send() 调用次数（文章中的 n_chunk）',
  'app.rounds': 'pingpong：轮数（文章中的 round）',
  'app.msg_more': 'pingpong：一轮中除最后一次外，每次 send() 都带上 MSG_MORE',
  'app.cork': 'pingpong：一轮的 send() 调用之前设置 TCP_CORK，最后一次之后清除',
};
