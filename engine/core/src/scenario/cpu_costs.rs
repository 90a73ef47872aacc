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
//! `/proc/interrupts` CAL) (`costs.py`). Each figure is the median over 2..3 runs; the machine
//! was shared, so single runs scatter by ±30 %. The workloads: 128-byte writes with
//! `TCP_NODELAY` and `tcp_autocorking=0` (about one packet per write), 128-byte writes with
//! `TCP_CORK` (appends, MSS packets cut by `tso_fragment`), 64 KB writes (bytes, 30-segment TSO
//! skbs), the same with a `pfifo_fast` qdisc on the veth, and with TSO off (software GSO).
//!
//! This VM is slower per operation than the 2013 bare-metal hosts of the seed commits (its
//! `getppid()` takes 186..254 ns; syscall entry costs more under a hypervisor and with 6.x
//! mitigations); the table is this machine's, not theirs.
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
    /// and the libc wrapper. Measured: 263 ns (cork runs), 312 ns (nodelay runs) median;
    /// `getppid()` alone 186..254 ns.
    pub syscall_ns: u64,
    /// `tcp_sendmsg` per call: `lock_sock`, `tcp_send_mss`/size_goal, the copy loop's fixed
    /// part, `release_sock`. Measured: 306 / 369 ns median (128-byte writes).
    pub sendmsg_ns: u64,
    /// Copying user data (`_copy_from_iter` and friends): a fixed part per copy plus a part
    /// per byte. Measured: 36..43 ns for 128 B, 86..121 ps/B for 64 KB writes.
    pub copy_call_ns: u64,
    pub copy_ps_per_byte: u64,
    /// `tcp_stream_alloc_skb` + `tcp_skb_entail`: a new skb in the write queue (also the new
    /// skb `tso_fragment` makes). Measured: 321 ns median (nodelay runs).
    pub skb_alloc_ns: u64,
    // --- sender, per skb transmitted ---------------------------------------------------
    /// One skb through `tcp_write_xmit`'s loop, `__tcp_transmit_skb` (clone, headers) and
    /// `ip_queue_xmit`/`ip_output`. Measured: 1047 ns median (1-segment skbs), 906 ns (TSO
    /// skbs of 30 segments).
    pub tcp_xmit_ns: u64,
    /// A `tcp_write_xmit` call that sends nothing (Nagle, TSQ, cwnd, TSO deferral hold its
    /// head): `tcp_mstamp_refresh`, `tcp_tso_segs`, the tests of the loop's first pass and
    /// `tcp_cwnd_validate`. What autocorking saves per write it holds. Measured: 60 ns median
    /// (58, 60 and 136 ns) of `tcp_write_xmit`'s own time per `write()` in runs of 128-byte
    /// writes with Nagle on and autocorking off, where 91 % of the calls send nothing
    /// (`profile.sh wx1 0 4 -m 128`), so a slight overestimate.
    pub write_xmit_call_ns: u64,
    /// Extra work when `tcp_write_xmit` cuts the skb with `tso_fragment` (the new skb's
    /// allocation is `skb_alloc_ns`). Measured: 1760 ns per packet in the `TCP_CORK` runs,
    /// where every packet is cut, against 1047 ns: about 700 ns.
    pub tso_fragment_ns: u64,
    /// `__dev_queue_xmit` without a qdisc (noqueue) and the neighbour output. Measured: 136
    /// ns median.
    pub dev_xmit_ns: u64,
    /// The qdisc path on top of that: enqueue, `__qdisc_run`, dequeue, `sch_direct_xmit`,
    /// locks. Measured with pfifo_fast on the veth: dev layer 276 ns (vs 136) plus 64 ns in
    /// the pfifo_fast functions: about 200 ns.
    pub qdisc_ns: u64,
    /// The driver's `ndo_start_xmit` per descriptor. Stand-in measured: `veth_xmit` 305..325
    /// ns (it hands the skb to the peer's backlog and sends an RPS IPI instead of writing a
    /// descriptor and mapping DMA). Estimate for a NIC.
    pub driver_xmit_ns: u64,
    /// The MMIO doorbell once per batch. Not measurable here (veth has none): 0, its cost is
    /// inside `driver_xmit_ns`. Estimate.
    pub doorbell_ns: u64,
    /// Software GSO (`skb_segment`) per segment produced, TSO off. Measured: 248 ns median
    /// (209..426).
    pub gso_segment_ns: u64,
    // --- sender, TX completion ---------------------------------------------------------
    /// A TX-completion interrupt and its NAPI poll entry/exit. Stand-in measured: an RPS IPI
    /// with its NET_RX softirq entry on this VM, 610..1312 ns per IPI, median ≈ 1100 ns.
    /// Estimate for a NIC MSI-X interrupt.
    pub tx_irq_ns: u64,
    /// Cleaning one TX descriptor: `napi_consume_skb` of the clone, `tcp_wfree`. Measured
    /// analog: freeing a received clone on the receiving CPU, 74..119 ns per skb; 120 ns.
    pub tx_clean_ns: u64,
    // --- sender, ACK processing --------------------------------------------------------
    /// One incoming ACK: receive softirq, `ip_rcv`, `tcp_v4_rcv`, `tcp_ack` (without freeing
    /// the acked skbs). Measured: 2365 ns median per ACK in the cork runs, where an ACK
    /// freed ~4 skbs at `rtx_free_ns`: about 1400 ns.
    pub ack_rcv_ns: u64,
    /// Freeing one acknowledged skb from the retransmit queue (`tcp_clean_rtx_queue`).
    /// Measured: 196..279 ns per skb (small skbs); 64 KB skbs with page frags 944..1268 ns.
    pub rtx_free_ns: u64,
    // --- scheduling --------------------------------------------------------------------
    /// One context switch with its wakeup (a sleep in `sk_stream_wait_memory` or `recv`
    /// costs two). Measured: two processes on one CPU bouncing a byte over pipes (lmbench
    /// `lat_ctx` method, `syscall_cost ctx`), 1303..1921 ns per switch.
    pub ctx_switch_ns: u64,
    /// From `sk_data_ready` / `sk_stream_write_space` waking a task that sleeps on another CPU
    /// to that task running (`try_to_wake_up`: the IPI, the idle exit, the switch in). Time the
    /// woken task waits, not CPU work it does. Measured: 25 µs median (18 µs p10, 41 µs p90) for a
    /// pipe wake-up between this VM's two vCPUs, 1.5 µs on the same CPU (`wake.c` in
    /// tools/measure-cpu-costs; the machine was loaded, load average 7).
    pub wakeup_ns: u64,
    // --- receiver ----------------------------------------------------------------------
    /// One skb (after GRO) through the receive path: `process_backlog`/`netif_receive_skb`,
    /// `ip_rcv`, `tcp_v4_rcv`, queueing to the socket. Measured: 234..352 ns median (small
    /// skbs), 661 ns (64 KB skbs).
    pub rx_skb_ns: u64,
    /// The NIC driver's per-frame RX work and the GRO merge, per wire segment. Not measurable
    /// on veth (whole GSO skbs, GRO off). Estimate: 120 ns, the order of one skb head
    /// allocation or free measured here.
    pub rx_seg_ns: u64,
    /// An RX interrupt with its NET_RX softirq entry: the same path as `tx_irq_ns` (measured
    /// on this VM per RPS IPI, median ≈ 1100 ns).
    pub rx_irq_ns: u64,
    /// `tcp_recvmsg` per call beyond the system call: lock, queue walk, freeing the consumed
    /// skbs, `tcp_cleanup_rbuf`. Measured: 1167 ns per read (cork runs) including the system
    /// call: about 900 ns.
    pub recvmsg_ns: u64,
    /// Copy to user per byte on receive. Measured: 170 ps/B median (64 KB reads).
    pub recv_copy_ps_per_byte: u64,
    /// Building and sending one pure ACK (`__tcp_send_ack` through the device). Measured:
    /// 393..2658 ns per ACK, median over 9 runs 1039 ns.
    pub ack_xmit_ns: u64,
    /// `loopback_xmit` per skb (the receive side is charged as `rx_skb_ns`). Stand-in
    /// measured: `veth_xmit`, which does the same hand-over to a backlog.
    pub loopback_xmit_ns: u64,
}

impl CpuCosts {
    /// The table measured on this project's build machine (see the module header).
    pub const MEASURED_6_18_VM: CpuCosts = CpuCosts {
        syscall_ns: 260,
        sendmsg_ns: 330,
        copy_call_ns: 24,
        copy_ps_per_byte: 110,
        skb_alloc_ns: 320,
        tcp_xmit_ns: 1050,
        write_xmit_call_ns: 60,
        tso_fragment_ns: 700,
        dev_xmit_ns: 140,
        qdisc_ns: 200,
        driver_xmit_ns: 315,
        doorbell_ns: 0,
        gso_segment_ns: 250,
        tx_irq_ns: 1100,
        tx_clean_ns: 120,
        ack_rcv_ns: 1400,
        rtx_free_ns: 250,
        ctx_switch_ns: 1500,
        wakeup_ns: 25_000,
        rx_skb_ns: 300,
        rx_seg_ns: 120,
        rx_irq_ns: 1100,
        recvmsg_ns: 900,
        recv_copy_ps_per_byte: 170,
        ack_xmit_ns: 1040,
        loopback_xmit_ns: 315,
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
        rtx_free_ns: 0,
        ctx_switch_ns: 0,
        wakeup_ns: 0,
        rx_skb_ns: 0,
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
            rtx_free_ns: s(self.rtx_free_ns),
            ctx_switch_ns: s(self.ctx_switch_ns),
            wakeup_ns: s(self.wakeup_ns),
            rx_skb_ns: s(self.rx_skb_ns),
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
