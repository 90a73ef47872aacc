#!/usr/bin/env python3
"""Per-operation CPU costs, in the fields of `CpuCosts`, from profiled runs on the conformance
lab's topology: a veth pair without RPS (profile.sh with rps_cpus 0 on both ends), so the
receiver's NET_RX softirq for data runs on the sender's CPU (0) inside its send(), and the
receiver's ACKs are received on the receiver's CPU (1) and processed by the sender from its
socket backlog (release_sock) or in that softirq.

    ./costs_norps.py NAME...

For each run the layer times of each CPU (perf, innermost layer wins, breakdown.py) are scaled
to the process's CPU time (getrusage) and divided by the run's counts: writes, bytes, skbs
(IpOutRequests), segments, ACKs (TcpInSegs), the receiver's reads and ACKs sent (BTcpOutSegs),
and the wake-up IPIs the receiver's CPU took (CAL interrupts of CPU 1). Prints each run and the
median over runs.
"""
import json, re, sys

from costs import report

def one(name):
    line = open(f"/tmp/run.{name}").read()
    s = re.search(r"send\[([^\]]*)\] sink\[([^\]]*)\]", line)
    sw, kw = s.group(1).split(), s.group(2).split()
    c = {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", line)}
    writes, nbytes, secs = int(sw[0]), int(sw[1]), float(sw[2])
    cpu_send = float(sw[3]) + float(sw[4])
    reads = int(kw[0])
    pkts, segs, acks = c["IpOutRequests"], c["TcpOutSegs"], c["TcpInSegs"]
    acks_out, wakes = c["BTcpOutSegs"], max(c.get("IPI1", 1), 1)
    l0 = json.load(open(f"/tmp/cpu0.{name}.json"))
    l1 = json.load(open(f"/tmp/cpu1.{name}.json"))
    # perf covered SECONDS - 1 of the run: scale both CPUs by the sender's run/window ratio.
    f0 = cpu_send / sum(l0.values())
    f1 = secs / (secs - 1)
    g0 = lambda *ks: sum(l0.get(k, 0) for k in ks) * f0
    g1 = lambda *ks: sum(l1.get(k, 0) for k in ks) * f1
    rx = ("rx_dev", "rx_ip", "rx_tcp")
    return {
        "syscall_ns (write, incl. libc)": g0("syscall", "user") / writes * 1e9,
        # Without the wait in lock_sock for a softirq that holds the socket on the other CPU
        # (sock_lock_spin, breakdown.py): the engine models that wait itself.
        "sendmsg_ns (per call)": g0("sendmsg") / writes * 1e9,
        "sock_lock_spin_ns (send side, per call)": g0("sock_lock_spin") / writes * 1e9,
        "copy_ps_per_byte (send)": g0("copy") / nbytes * 1e12,
        "skb_alloc_ns (per skb)": g0("skb_alloc") / pkts * 1e9,
        "tcp_xmit_ns (write_xmit+push+transmit+ip, per skb)":
            g0("tcp_write_xmit", "tcp_push", "tcp_transmit", "ip") / pkts * 1e9,
        "write_xmit_ns (write_xmit+push, per write)":
            g0("tcp_write_xmit", "tcp_push") / writes * 1e9,
        "dev_xmit_ns (per skb)": g0("dev") / pkts * 1e9,
        "qdisc_ns (per skb)": g0("qdisc") / pkts * 1e9,
        "gso_segment_ns (per segment)": g0("gso") / segs * 1e9,
        "driver_xmit_ns (veth_xmit, per skb)": g0("driver") / pkts * 1e9,
        "rx_skb_ns (data rx softirq on CPU 0, per skb)": g0(*rx) / pkts * 1e9,
        "ack_rcv_ns (tcp_ack both CPUs + ACK rx on CPU 1, per ACK)":
            (g0("tcp_ack") + g1("tcp_ack", *rx)) / max(acks, 1) * 1e9,
        "ack_rcv_softirq_ns (the ACK's receive path on CPU 1, per ACK)":
            g1(*rx) / max(acks, 1) * 1e9,
        "rx_skb_softirq_ns (rx_dev + rx_ip on CPU 0, per skb)": g0("rx_dev", "rx_ip") / pkts * 1e9,
        "rtx_free_ns (skb_free + rtx_clean on CPU 0, per skb)":
            g0("skb_free", "rtx_clean") / pkts * 1e9,
        "wake_ipi_ns (CPU 0 wake layer, per IPI to CPU 1)": g0("wake") / wakes * 1e9,
        "irq_ns (CPU 1 irq layer, per IPI)": g1("irq") / wakes * 1e9,
        "recvmsg_ns (recvmsg+syscall+user, per read)":
            g1("recvmsg", "syscall", "user") / reads * 1e9,
        "sock_lock_spin_ns (receive side, per read)": g1("sock_lock_spin") / reads * 1e9,
        "recv_copy_ps_per_byte": g1("copy") / nbytes * 1e12,
        "rx_free_ns (skb_free on CPU 1, per skb)": g1("skb_free") / pkts * 1e9,
        "ack_xmit_ns (per ACK sent, CPU 1)":
            g1("ack_xmit", "tcp_transmit", "ip", "dev", "driver", "skb_alloc") / max(acks_out, 1) * 1e9,
        "_counts": f"writes {writes} bytes {nbytes} skbs {pkts} segs {segs} acks {acks} "
                   f"reads {reads} acks_out {acks_out} wakes {wakes} cpu_send {cpu_send:.3f}",
    }

report(one, sys.argv[1:], width=58)
