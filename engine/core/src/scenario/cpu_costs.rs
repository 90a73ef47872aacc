//! What each operation of the send and receive paths costs the CPU: a table the scenario picks
//! (`cpu.costs`, `cpu.speed_percent`) and the kernel twins charge through the host context.
//!
//! The costs in [`CpuCosts::MEASURED_6_18_VM`] were measured on the machine this project is
//! built on: a 2-vCPU Firecracker VM ("Intel Xeon Processor", no hypervisor CPU model name),
//! Linux 6.18.44, HZ 250, `CONFIG_IRQ_TIME_ACCOUNTING` off, two network namespaces joined by a
//! veth pair, the sender on CPU 0 and the receiver on CPU 1 with RPS steering each side's
//! receive work to its CPU. Method (scripts in `tools/measure-cpu-costs/`, described in its
//! README): a netperf-like sender (`tcp_stream`) runs 4 s per workload while `perf record -a -g
//! -e cpu-clock -F 10000` samples both CPUs; each sample is attributed to the innermost
//! send-path layer on its call chain (`breakdown.py`), the layer times are scaled to the
//! process's CPU time (`getrusage`) and divided by the run's counts (writes, bytes, and the
//! nstat counters `IpOutRequests`, `TcpOutSegs`, `TcpInSegs`, `BTcpOutSegs`, IPIs from
//! `/proc/interrupts` CAL) (`costs.py`). The workloads: 128-byte writes with
//! `TCP_NODELAY` and `tcp_autocorking=0` (about one packet per write), 128-byte writes with
//! `TCP_CORK` (appends, MSS packets cut by `tso_fragment`), 64 KB writes (bytes, 30-segment TSO
//! skbs), the same with a `pfifo_fast` qdisc on the veth, and with TSO off (software GSO).
//!
//! Quiet machine. The first table (2026-11-24) was measured while other jobs shared the two
//! vCPUs (load average 2..3); re-measured on 2026-11-25 with every other process frozen (load
//! average 0.4..0.9), the same operations cost 2..7x less (`getppid()` 75 ns against 186..254,
//! a context switch 658 ns against 1303..1921, a new skb 43 ns against 321): the loaded figures
//! carried other jobs' cache and TLB misses. The sender-side fields and the receiver's read,
//! copy and ACK transmit are the quiet medians over 3 runs per workload (12 runs of 128-byte
//! writes for the per-call fields); `tx_irq_ns`, `tx_clean_ns`, `ack_rcv_ns`, `rx_skb_ns`,
//! `rx_seg_ns` and `rx_irq_ns` keep the first table's figures, because with RPS the quiet
//! profiles charge the sender's CPU for sending the RPS IPIs (a VM exit each, about half the
//! sender's samples) and the receive-side layers could not be separated from that. The quiet
//! runs fall into two states of this VM that the medians mix: in some a write system call costs
//! 60..110 ns and `tcp_write_xmit` without a send 47 ns per write, in others about 270 and 148.
//!
//! The table is this machine's (a VM: syscall entry costs more under a hypervisor and with 6.x
//! mitigations), not the 2013 bare-metal hosts' of the seed commits.
//!
//! Not measurable here, and therefore estimates (each says so on its field): the NIC's MMIO
//! doorbell, a NIC driver's descriptor work (veth's `veth_xmit` stands in), the TX-completion
//! interrupt (the RPS IPI, the same hardirq + NET_RX softirq entry path, stands in), and the
//! receiver's per-segment driver/GRO work (veth delivers whole GSO skbs without GRO).

/// Cost in nanoseconds (or picoseconds per byte) of each operation the model charges.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CpuCosts {
    // --- sender, per system call -------------------------------------------------------
    /// Entry and exit of one `write`/`send`/`recv` system call with VFS and socket dispatch
    /// and the libc wrapper. Measured (quiet): 102 ns, median of 12 runs of 128-byte writes
    /// (56..283); `getppid()` alone 75 ns.
    pub syscall_ns: u64,
    /// `tcp_sendmsg` per call: `lock_sock`, `tcp_send_mss`/size_goal, the copy loop's fixed
    /// part, `release_sock`. Measured (quiet): 190 ns, median of 12 runs of 128-byte writes (83..217).
    pub sendmsg_ns: u64,
    /// Copying user data (`_copy_from_iter` and friends): a fixed part per copy plus a part
    /// per byte. Measured (quiet): 51 ps/B for 64 KB writes (34..63); 17 ns for 128 B (median of
    /// 12 runs), of which 10 ns is the fixed part.
    pub copy_call_ns: u64,
    pub copy_ps_per_byte: u64,
    /// `tcp_stream_alloc_skb` + `tcp_skb_entail`: a new skb in the write queue (also the new
    /// skb `tso_fragment` makes). Measured (quiet): 43 ns median (nodelay runs, 35..51).
    pub skb_alloc_ns: u64,
    // --- sender, per skb transmitted ---------------------------------------------------
    /// One skb through `tcp_write_xmit`'s loop, `__tcp_transmit_skb` (clone, headers) and
    /// `ip_queue_xmit`/`ip_output`. Measured (quiet): 365 ns median (1-segment skbs, nodelay
    /// runs, 283..390), 360 ns (TSO skbs of 30 segments).
    pub tcp_xmit_ns: u64,
    /// A `tcp_write_xmit` call that sends nothing (Nagle, TSQ, cwnd, TSO deferral hold its
    /// head): `tcp_mstamp_refresh`, `tcp_tso_segs`, the tests of the loop's first pass and
    /// `tcp_cwnd_validate`. What autocorking saves per write it holds. Measured (quiet): 148 ns
    /// median (47, 148 and 148 ns) of `tcp_write_xmit`'s own time per `write()` in runs of
    /// 128-byte writes with Nagle on and autocorking off, where 90 % of the calls send nothing
    /// (`profile.sh wx1 0 4 -m 128`), so a slight overestimate.
    pub write_xmit_call_ns: u64,
    /// Extra work when `tcp_write_xmit` cuts the skb with `tso_fragment` (the new skb's
    /// allocation is `skb_alloc_ns`). Measured (quiet): 524 ns per packet in the `TCP_CORK` runs,
    /// where every packet is cut, against 365 ns: about 160 ns.
    pub tso_fragment_ns: u64,
    /// `__dev_queue_xmit` without a qdisc (noqueue) and the neighbour output. Measured (quiet):
    /// 48 ns median.
    pub dev_xmit_ns: u64,
    /// The qdisc path on top of that: enqueue, `__qdisc_run`, dequeue, `sch_direct_xmit`,
    /// locks. Measured (quiet) with pfifo_fast on the veth: dev layer 65 ns (vs 48) plus 34 ns in
    /// the pfifo_fast functions: about 50 ns. tbf is charged nothing more: counted with
    /// tracepoints on an AMD EPYC VM (2026-11-27, `tools/measure-cpu-costs/tbf-run.sh`), its
    /// watchdog is armed about 2.5 k times a second behind `tbf rate 1gbit burst 16kb` and a
    /// write costs 8 % more than on a bare veth (1.13 against 1.05 µs); on the Intel Xeon VM of
    /// this table and the recordings the gap was larger (see `autocork-tbf1g-*`), not isolated.
    pub qdisc_ns: u64,
    /// The driver's `ndo_start_xmit` per descriptor. Stand-in measured (quiet): `veth_xmit` 129 ns
    /// (117..141) (it hands the skb to the peer's backlog and sends an RPS IPI instead of writing a
    /// descriptor and mapping DMA). Estimate for a NIC.
    pub driver_xmit_ns: u64,
    /// The MMIO doorbell once per batch. Not measurable here (veth has none): 0, its cost is
    /// inside `driver_xmit_ns`. Estimate.
    pub doorbell_ns: u64,
    /// Software GSO (`skb_segment`) per segment produced, TSO off. Measured (quiet): 92 ns
    /// median (65..129).
    pub gso_segment_ns: u64,
    // --- sender, TX completion ---------------------------------------------------------
    /// A TX-completion interrupt and its NAPI poll entry/exit. Stand-in measured: an RPS IPI
    /// with its NET_RX softirq entry on this VM, 610..1312 ns per IPI, median ≈ 1100 ns (first
    /// table, loaded machine; not re-measured). Estimate for a NIC MSI-X interrupt.
    pub tx_irq_ns: u64,
    /// Cleaning one TX descriptor: `napi_consume_skb` of the clone, `tcp_wfree`. Measured
    /// analog: freeing a received clone on the receiving CPU, 74..119 ns per skb; 120 ns (first
    /// table, loaded machine; quiet runs 16..108 ns).
    pub tx_clean_ns: u64,
    // --- sender, ACK processing --------------------------------------------------------
    /// One incoming ACK: receive softirq, `ip_rcv`, `tcp_v4_rcv`, `tcp_ack` (without freeing
    /// the acked skbs). Measured: 2365 ns median per ACK in the cork runs, where an ACK
    /// freed ~4 skbs at `rtx_free_ns`: about 1400 ns (first table, loaded machine; the quiet
    /// profiles mix it with the RPS IPIs the sender's CPU sends, see the module header).
    pub ack_rcv_ns: u64,
    /// The part of `ack_rcv_ns` that the receive softirq spends before the socket: the
    /// driver/backlog, `ip_rcv` and `tcp_v4_rcv`'s lookup and checks. It runs in the softirq's
    /// context even when the ACK waits in the socket's backlog for its owner (`tcp_add_backlog`),
    /// who pays the rest. AMD EPYC VM: the ACK's receive layers on the receiver's CPU, 12 runs
    /// 573..2248 ns per ACK, median 1776. 0 (all of it at the socket) where not measured.
    pub ack_rcv_softirq_ns: u64,
    /// Freeing one acknowledged skb from the retransmit queue (`tcp_clean_rtx_queue`).
    /// Measured (quiet): 111 ns per skb (cork runs, MSS skbs, 43..197); 64 KB skbs with page
    /// frags 351..731 ns.
    pub rtx_free_ns: u64,
    // --- scheduling --------------------------------------------------------------------
    /// One context switch with its wakeup (a sleep in `sk_stream_wait_memory` or `recv`
    /// costs two). Measured: two processes on one CPU bouncing a byte over pipes (lmbench
    /// `lat_ctx` method, `syscall_cost ctx`), quiet: 658 ns per switch (651..669, 3 runs).
    pub ctx_switch_ns: u64,
    /// From `sk_data_ready` / `sk_stream_write_space` waking a task that sleeps on another CPU
    /// to that task running (`try_to_wake_up`: the IPI, the idle exit, the switch in). Time the
    /// woken task waits, not CPU work it does. Measured (quiet): 46 µs median (42.7, 46.9, 46.4
    /// µs over 3 runs; p10 35 µs, p90 61 µs) for a pipe wake-up between this VM's two vCPUs, 1.4
    /// µs on the same CPU (`wake.c` in tools/measure-cpu-costs). An idle vCPU has halted and the
    /// hypervisor must run it again: on the loaded machine (load average 7) the same wake-up took
    /// 25 µs.
    pub wakeup_ns: u64,
    /// How long an idle CPU polls before it halts (the idle loop runs with
    /// `TIF_POLLING_NRFLAG` until the cpuidle state's `hlt`): a task woken within this time is
    /// picked up without an IPI (`set_nr_if_polling`, `sched:sched_wake_idle_without_ipi`) after
    /// `wake_polling_ns`. Measured on the AMD EPYC VM (bpftrace, 128-byte writes to a reader on
    /// the other vCPU, 2026-11-27): of 196,000 wake-ups without an IPI, 99.6 % came within 4 µs
    /// of the reader's CPU going idle; the 19,000 with an IPI, from 4 µs on. 0 (every idle CPU
    /// has halted) where not measured.
    pub idle_poll_ns: u64,
    /// From a wake-up without an IPI to the woken task running: 1.0..1.25 µs for 72 % of them
    /// (same trace, `sched_wakeup` to `sched_switch`).
    pub wake_polling_ns: u64,
    /// The waker's CPU time for the IPI that wakes a task whose CPU has halted
    /// (`ttwu_queue_wakelist`: an x2APIC write that exits to the hypervisor, interrupts off):
    /// `wake_ipi_min_ns` just after the CPU halted, rising linearly to `wake_ipi_ns` for a CPU
    /// idle `wake_halt_ns` or longer (while the host still halt-polls the vCPU the exit is
    /// cheaper). Measured with `wake_cost.c` on the AMD EPYC VM (the writer's CPU per wake-up
    /// beyond its spin, 3 runs of 20,000 each): 2.2..2.9 µs at 10 µs between wake-ups, 3.7..4.1
    /// at 20, 6.3..7.0 at 50, 6.9..7.7 at 100, 6.6..7.0 at 200. 0 where not measured.
    pub wake_ipi_min_ns: u64,
    pub wake_ipi_ns: u64,
    pub wake_halt_ns: u64,
    // --- receiver ----------------------------------------------------------------------
    /// One skb (after GRO) through the receive path: `process_backlog`/`netif_receive_skb`,
    /// `ip_rcv`, `tcp_v4_rcv`, queueing to the socket. Measured: 234..352 ns median (small
    /// skbs), 661 ns (64 KB skbs) (first table, loaded machine; not re-measured).
    pub rx_skb_ns: u64,
    /// The part of `rx_skb_ns` spent before the socket (`rx_dev`, `rx_ip`), paid by the
    /// softirq's context even for an skb that waits in the socket's backlog. AMD EPYC VM, 12
    /// runs: 468..858 ns, median 561. 0 where not measured.
    pub rx_skb_softirq_ns: u64,
    /// The NIC driver's per-frame RX work and the GRO merge, per wire segment. Not measurable
    /// on veth (whole GSO skbs, GRO off). Estimate: 120 ns, the order of one skb head
    /// allocation or free measured here.
    pub rx_seg_ns: u64,
    /// An RX interrupt with its NET_RX softirq entry: the same path as `tx_irq_ns` (measured
    /// on this VM per RPS IPI, median ≈ 1100 ns).
    pub rx_irq_ns: u64,
    /// `tcp_recvmsg` per call beyond the system call: lock, queue walk, freeing the consumed
    /// skbs, `tcp_cleanup_rbuf`. Measured (quiet): 301 ns per read (cork runs, 260..515) including
    /// the system call: about 200 ns.
    pub recvmsg_ns: u64,
    /// Copy to user per byte on receive. Measured (quiet): 151 ps/B median (64 KB reads).
    pub recv_copy_ps_per_byte: u64,
    /// Building and sending one pure ACK (`__tcp_send_ack` through the device). Measured
    /// (quiet): 136..1483 ns per ACK, median over 9 runs 412 ns.
    pub ack_xmit_ns: u64,
    /// `loopback_xmit` per skb (the receive side is charged as `rx_skb_ns`). Stand-in
    /// measured: `veth_xmit` (quiet, 129 ns), which does the same hand-over to a backlog.
    pub loopback_xmit_ns: u64,
}

impl CpuCosts {
    /// The table measured on this project's build machine (see the module header).
    pub const MEASURED_6_18_VM: CpuCosts = CpuCosts {
        syscall_ns: 100,
        sendmsg_ns: 190,
        copy_call_ns: 10,
        copy_ps_per_byte: 51,
        skb_alloc_ns: 43,
        tcp_xmit_ns: 365,
        write_xmit_call_ns: 148,
        tso_fragment_ns: 160,
        dev_xmit_ns: 48,
        qdisc_ns: 50,
        driver_xmit_ns: 130,
        doorbell_ns: 0,
        gso_segment_ns: 92,
        tx_irq_ns: 1100,
        tx_clean_ns: 120,
        ack_rcv_ns: 1400,
        ack_rcv_softirq_ns: 0,
        rtx_free_ns: 110,
        ctx_switch_ns: 658,
        wakeup_ns: 46000,
        idle_poll_ns: 0,
        wake_polling_ns: 0,
        wake_ipi_min_ns: 0,
        wake_ipi_ns: 0,
        wake_halt_ns: 0,
        rx_skb_ns: 300,
        rx_skb_softirq_ns: 0,
        rx_seg_ns: 120,
        rx_irq_ns: 1100,
        recvmsg_ns: 200,
        recv_copy_ps_per_byte: 150,
        ack_xmit_ns: 412,
        loopback_xmit_ns: 130,
    };

    /// The same operations measured on the AMD EPYC VM the project runs on since 2026-11-27
    /// (2 vCPUs, Linux 6.18.44, HZ 250), on the conformance lab's topology: a veth pair without
    /// RPS, so the receiver's NET_RX softirq for data runs on the sender's CPU inside its
    /// `send()`, as in the lab. `profile.sh` runs of 4 s with every other process stopped (load
    /// average 1.5..2 from the runs themselves), 3 runs per workload (`nd`, `ck`, `wx`, `qd`,
    /// `big`, `gso`), analysed by `costs_norps.py`; the per-call fields are the medians over the
    /// 12 runs of 128-byte writes, the per-skb fields those of the NODELAY runs (`nd`), like the
    /// Intel table. Every operation costs 1.5..5x the Intel VM's, except the cross-CPU wake-up
    /// latency (22 µs against 46; `wake_idle.c`, with the woken CPU idle 20..200 µs). Fields the
    /// profiles could not separate say so and keep the Intel table's figure.
    pub const MEASURED_6_18_EPYC_VM: CpuCosts = CpuCosts {
        // 12 runs: 164..380 ns, median 215.
        syscall_ns: 215,
        // 12 runs: 231..866 ns, median 345, without lock_sock's spinning on the socket's
        // spinlock while a softirq on the other CPU holds it (breakdown.py's sock_lock_spin,
        // 9..172 ns a call): the engine makes a lock_sock wait for that softirq itself
        // (`TcpSock::bh_locked_until_ns`). With the wait left in, the median was 462.
        sendmsg_ns: 345,
        // 128 B: 16..23 ns (12 runs, median 19); the 64 KB runs' copy layer (11 ps/B) misses
        // time that lands under tcp_sendmsg_locked, so the per-byte part keeps the Intel 51.
        copy_call_ns: 12,
        copy_ps_per_byte: 51,
        // nd: 110..125 ns.
        skb_alloc_ns: 120,
        // nd, one-segment skbs: 960..1021 ns.
        tcp_xmit_ns: 965,
        // wx (Nagle holding most calls): tcp_write_xmit + tcp_push per write, 111..115 ns.
        write_xmit_call_ns: 111,
        // Not separable: ck's per-skb time less its per-write tcp_write_xmit calls (about 820
        // ns) is below nd's 965; 0.
        tso_fragment_ns: 0,
        // nd: 204..299 ns.
        dev_xmit_ns: 233,
        // qd (pfifo_fast): 133..244 ns.
        qdisc_ns: 158,
        driver_xmit_ns: 261,
        doorbell_ns: 0,
        // gso (TSO off): 127..441 ns per segment.
        gso_segment_ns: 145,
        // The interrupt layer of the woken CPU per IPI (12 runs: 71..745 ns, median 487).
        tx_irq_ns: 487,
        // Freeing a received skb on the receiving CPU: 65..187 ns.
        tx_clean_ns: 130,
        // tcp_ack on both CPUs with the ACK's receive path on the receiver's CPU, per ACK
        // (12 runs: 1825..3343 ns, median 2719), without freeing the acked skbs.
        ack_rcv_ns: 2719,
        ack_rcv_softirq_ns: 1776,
        // nd: skb_free and tcp_clean_rtx_queue on the sender's CPU per skb, 267..298 ns (it
        // also holds the receive side's frees of skbs coalesced into the receive queue).
        rtx_free_ns: 286,
        // syscall_cost ctx: 1594..1627 ns (3 runs).
        ctx_switch_ns: 1610,
        // wake_idle.c p50: 17.0, 22.3, 23.0 µs with the woken CPU idle 20, 50, 200 µs.
        wakeup_ns: 22000,
        idle_poll_ns: 4000,
        wake_polling_ns: 1100,
        wake_ipi_min_ns: 2200,
        wake_ipi_ns: 6800,
        wake_halt_ns: 50000,
        // The data skb's receive path in the softirq on the sender's CPU (dev, ip, tcp, without
        // the wake-up), 12 runs: 1080..1892 ns, median 1182.
        rx_skb_ns: 1182,
        rx_skb_softirq_ns: 561,
        // Not measurable on a veth (no NAPI, no per-frame driver work): the Intel figure.
        rx_seg_ns: 120,
        rx_irq_ns: 487,
        // recvmsg with its system call per read, 12 runs: 525..1263 ns, median 1010, less
        // syscall_ns.
        recvmsg_ns: 795,
        // Not separable (the 64 KB runs' copy layer gives an implausible 17 ps/B): Intel's.
        recv_copy_ps_per_byte: 151,
        // The receiver's ACK transmit per ACK on its CPU, 12 runs: 561..2533 ns, median 1618.
        ack_xmit_ns: 1618,
        loopback_xmit_ns: 261,
    };

    /// No CPU cost at all (the CPU model switched off).
    pub const FREE: CpuCosts = CpuCosts {
        syscall_ns: 0,
        sendmsg_ns: 0,
        copy_call_ns: 0,
        copy_ps_per_byte: 0,
        skb_alloc_ns: 0,
        tcp_xmit_ns: 0,
        write_xmit_call_ns: 0,
        tso_fragment_ns: 0,
        dev_xmit_ns: 0,
        qdisc_ns: 0,
        driver_xmit_ns: 0,
        doorbell_ns: 0,
        gso_segment_ns: 0,
        tx_irq_ns: 0,
        tx_clean_ns: 0,
        ack_rcv_ns: 0,
        ack_rcv_softirq_ns: 0,
        rtx_free_ns: 0,
        ctx_switch_ns: 0,
        wakeup_ns: 0,
        idle_poll_ns: 0,
        wake_polling_ns: 0,
        wake_ipi_min_ns: 0,
        wake_ipi_ns: 0,
        wake_halt_ns: 0,
        rx_skb_ns: 0,
        rx_skb_softirq_ns: 0,
        rx_seg_ns: 0,
        rx_irq_ns: 0,
        recvmsg_ns: 0,
        recv_copy_ps_per_byte: 0,
        ack_xmit_ns: 0,
        loopback_xmit_ns: 0,
    };

    /// Copying `bytes` from user space (send side).
    #[inline]
    pub fn copy_from_user_ns(&self, bytes: u64) -> u64 {
        self.copy_call_ns + bytes * self.copy_ps_per_byte / 1000
    }

    /// Copying `bytes` to user space (receive side).
    #[inline]
    pub fn copy_to_user_ns(&self, bytes: u64) -> u64 {
        self.copy_call_ns + bytes * self.recv_copy_ps_per_byte / 1000
    }

    /// A `write()` of `bytes` that only appends to skbs (no new skb, nothing transmitted):
    /// system call + `tcp_sendmsg` + copy.
    #[inline]
    pub fn write_call_ns(&self, bytes: u64) -> u64 {
        self.syscall_ns + self.sendmsg_ns + self.copy_from_user_ns(bytes)
    }

    /// Waking a task whose CPU has been idle `idle_ns`: (the time until it runs, the waker's
    /// CPU time for the IPI). A CPU that still polls needs no IPI.
    pub fn wake_up(&self, idle_ns: u64) -> (u64, u64) {
        if idle_ns < self.idle_poll_ns {
            return (self.wake_polling_ns, 0);
        }
        let span = self.wake_halt_ns.saturating_sub(self.idle_poll_ns);
        let into = (idle_ns - self.idle_poll_ns).min(span);
        let rise = self.wake_ipi_ns.saturating_sub(self.wake_ipi_min_ns);
        let ipi = self.wake_ipi_min_ns + (rise * into).checked_div(span).unwrap_or(rise);
        (self.wakeup_ns, ipi)
    }

    /// Every cost multiplied by `num / den` (a faster or slower host than the one measured).
    pub fn scaled(&self, num: u64, den: u64) -> CpuCosts {
        assert!(den > 0, "CpuCosts::scaled by x/0");
        let s = |v: u64| v * num / den;
        CpuCosts {
            syscall_ns: s(self.syscall_ns),
            sendmsg_ns: s(self.sendmsg_ns),
            copy_call_ns: s(self.copy_call_ns),
            copy_ps_per_byte: s(self.copy_ps_per_byte),
            skb_alloc_ns: s(self.skb_alloc_ns),
            tcp_xmit_ns: s(self.tcp_xmit_ns),
            write_xmit_call_ns: s(self.write_xmit_call_ns),
            tso_fragment_ns: s(self.tso_fragment_ns),
            dev_xmit_ns: s(self.dev_xmit_ns),
            qdisc_ns: s(self.qdisc_ns),
            driver_xmit_ns: s(self.driver_xmit_ns),
            doorbell_ns: s(self.doorbell_ns),
            gso_segment_ns: s(self.gso_segment_ns),
            tx_irq_ns: s(self.tx_irq_ns),
            tx_clean_ns: s(self.tx_clean_ns),
            ack_rcv_ns: s(self.ack_rcv_ns),
            ack_rcv_softirq_ns: s(self.ack_rcv_softirq_ns),
            rtx_free_ns: s(self.rtx_free_ns),
            ctx_switch_ns: s(self.ctx_switch_ns),
            wakeup_ns: s(self.wakeup_ns),
            idle_poll_ns: self.idle_poll_ns,
            wake_polling_ns: s(self.wake_polling_ns),
            wake_ipi_min_ns: s(self.wake_ipi_min_ns),
            wake_ipi_ns: s(self.wake_ipi_ns),
            wake_halt_ns: self.wake_halt_ns,
            rx_skb_ns: s(self.rx_skb_ns),
            rx_skb_softirq_ns: s(self.rx_skb_softirq_ns),
            rx_seg_ns: s(self.rx_seg_ns),
            rx_irq_ns: s(self.rx_irq_ns),
            recvmsg_ns: s(self.recvmsg_ns),
            recv_copy_ps_per_byte: s(self.recv_copy_ps_per_byte),
            ack_xmit_ns: s(self.ack_xmit_ns),
            loopback_xmit_ns: s(self.loopback_xmit_ns),
        }
    }
}

impl Default for CpuCosts {
    fn default() -> Self {
        CpuCosts::MEASURED_6_18_VM
    }
}

#[cfg(test)]
mod tests {
    use super::CpuCosts;

    #[test]
    fn a_wake_up_needs_an_ipi_only_once_the_idle_cpu_has_stopped_polling() {
        let c = CpuCosts::MEASURED_6_18_EPYC_VM;
        // Still polling: no IPI, picked up at once.
        assert_eq!(c.wake_up(0), (c.wake_polling_ns, 0));
        assert_eq!(c.wake_up(c.idle_poll_ns - 1), (c.wake_polling_ns, 0));
        // Halted: the IPI, dearer the longer the vCPU has been idle, up to wake_halt_ns.
        assert_eq!(c.wake_up(c.idle_poll_ns), (c.wakeup_ns, c.wake_ipi_min_ns));
        let (_, mid) = c.wake_up((c.idle_poll_ns + c.wake_halt_ns) / 2);
        assert!(c.wake_ipi_min_ns < mid && mid < c.wake_ipi_ns);
        assert_eq!(c.wake_up(c.wake_halt_ns), (c.wakeup_ns, c.wake_ipi_ns));
        assert_eq!(c.wake_up(10 * c.wake_halt_ns), (c.wakeup_ns, c.wake_ipi_ns));
    }

    #[test]
    fn the_intel_table_has_no_polling_window_and_no_ipi_cost() {
        let c = CpuCosts::MEASURED_6_18_VM;
        assert_eq!(c.wake_up(0), (c.wakeup_ns, 0));
        assert_eq!(c.wake_up(1_000_000), (c.wakeup_ns, 0));
        assert_eq!(
            c.ack_rcv_softirq_ns, 0,
            "not measured there: all of it at the socket"
        );
    }

    #[test]
    fn the_softirq_parts_are_parts_of_their_totals() {
        for c in [CpuCosts::MEASURED_6_18_VM, CpuCosts::MEASURED_6_18_EPYC_VM] {
            assert!(c.ack_rcv_softirq_ns <= c.ack_rcv_ns);
            assert!(c.rx_skb_softirq_ns <= c.rx_skb_ns);
        }
    }
}
