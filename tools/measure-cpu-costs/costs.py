#!/usr/bin/env python3
"""Per-operation CPU costs from profiled runs (profile.sh NAME ...):

    ./costs.py NAME...

For each run, layer times (perf, innermost layer wins) are scaled to the process's CPU time
(rusage) and divided by the run's operation counts (writes, bytes, nstat packets and ACKs).
Prints each run and the median over runs.
"""
import json, re, statistics, sys

def one(name):
    line = open(f"/tmp/run.{name}").read()
    s = re.search(r"send\[([^\]]*)\] sink\[([^\]]*)\]", line)
    sw, kw = s.group(1).split(), s.group(2).split()
    c = {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", line)}
    writes, nbytes = int(sw[0]), int(sw[1])
    cpu_send = float(sw[3]) + float(sw[4])
    reads, cpu_sink = int(kw[0]), float(kw[2]) + float(kw[3])
    pkts, acks = c["IpOutRequests"], c["TcpInSegs"]
    l0 = json.load(open(f"/tmp/cpu0.{name}.json"))
    l1 = json.load(open(f"/tmp/cpu1.{name}.json"))
    f0 = cpu_send / sum(l0.values())  # perf window -> whole run
    # CPU 1 also ran receive softirq outside the sink process: scale by the same run/window
    # ratio as CPU 0 (both profiles cover the same window).
    f1 = f0 * (sum(l0.values()) / cpu_send) * (float(sw[2]) / (float(sw[2]) - 1))
    g0 = lambda *ks: sum(l0.get(k, 0) for k in ks) * f0
    g1 = lambda *ks: sum(l1.get(k, 0) for k in ks) * f1
    acks_out = c["BTcpOutSegs"]
    return {
        "syscall_ns (write, incl. libc)": g0("syscall", "user") / writes * 1e9,
        "sendmsg_ns (per call)": g0("sendmsg") / writes * 1e9,
        "copy_ps_per_byte (send)": g0("copy") / nbytes * 1e12,
        "skb_alloc_ns (per skb)": g0("skb_alloc") / pkts * 1e9,
        "tcp_xmit_ns (write_xmit+transmit+ip, per pkt)":
            g0("tcp_write_xmit", "tcp_push", "tcp_transmit", "ip") / pkts * 1e9,
        "dev_xmit_ns (per pkt)": g0("dev") / pkts * 1e9,
        "qdisc_ns (per pkt)": g0("qdisc") / pkts * 1e9,
        "gso_ns (per segment)": g0("gso") / c["TcpOutSegs"] * 1e9,
        "veth_xmit_ns (per pkt)": g0("driver") / pkts * 1e9,
        "ack_rcv_ns (per ACK, CPU 0)":
            g0("tcp_ack", "rx_tcp", "rx_ip", "rx_dev", "rtx_clean") / max(acks, 1) * 1e9,
        "skb_free_ns (per pkt, CPU 0)": g0("skb_free") / pkts * 1e9,
        "rx_pkt_ns (dev+ip+tcp, CPU 1)": g1("rx_dev", "rx_ip", "rx_tcp") / pkts * 1e9,
        "rx_irq_ns (IPI+softirq entry, CPU 1, per pkt)": g1("irq") / pkts * 1e9,
        "ipi_ns (IPI+softirq entry, CPU 1, per IPI)": g1("irq") / max(c.get("IPI1", 1), 1) * 1e9,
        "pkts_per_ipi (CPU 1)": pkts / max(c.get("IPI1", 1), 1),
        "rx_skb_free_ns (CPU 1, per pkt)": g1("skb_free") / pkts * 1e9,
        "recv_call_ns (recvmsg+syscall, per read)": g1("recvmsg", "syscall", "user") / reads * 1e9,
        "copy_ps_per_byte (recv)": g1("copy") / nbytes * 1e12,
        "ack_xmit_ns (per ACK sent, CPU 1)":
            g1("ack_xmit", "tcp_transmit", "ip", "dev", "driver", "skb_alloc") / max(acks_out, 1) * 1e9,
        "_counts": f"writes {writes} bytes {nbytes} pkts {pkts} acks {acks} reads {reads} "
                   f"cpu_send {cpu_send:.3f} cpu_sink {cpu_sink:.3f}",
    }

def report(one, names, width=48):
    """Each run's counts, then a row per operation: each run's figure and the median."""
    runs = {n: one(n) for n in names}
    keys = [k for k in next(iter(runs.values())) if not k.startswith("_")]
    for n, r in runs.items():
        print(n, r["_counts"])
    print("%-*s" % (width, "") + "".join("%10s" % n[-10:] for n in runs) + "    median")
    for k in keys:
        vals = [runs[n][k] for n in runs]
        print("%-*s" % (width, k) + "".join("%10.1f" % v for v in vals)
              + "%10.1f" % statistics.median(vals))

if __name__ == "__main__":
    report(one, sys.argv[1:])
