#!/usr/bin/env python3
"""Run tcp_stream workloads between the cpuA/cpuB namespaces (setup.sh) and fit per-operation
CPU costs by least squares.

    ./measure.py run OUT.jsonl [REPS]   # append one JSON line per run
    ./measure.py fit OUT.jsonl          # print the fitted costs

Sender model:   cpu_send = c_write * writes + c_byte * bytes + c_pkt * packets_out + c_ack * acks_in
Receiver model: cpu_sink = c_read * reads + c_rbyte * bytes + c_rpkt * packets_in + c_ackx * acks_out
(cpu = utime + stime of the process: with CONFIG_IRQ_TIME_ACCOUNTING off, softirq work done on
its CPU while it runs, such as ACK processing steered there by RPS, is charged to it).
"""
import json, re, subprocess, sys

WORKLOADS = [
    # (write size, sender options, tcp_autocorking)
    (128, ["-c"], 1), (128, [], 1), (128, ["-n"], 1), (128, ["-n"], 0), (128, [], 0),
    (512, ["-n"], 0), (512, [], 1), (1448, ["-n"], 0), (1448, [], 1),
    (4096, [], 1), (16384, [], 1), (65536, [], 1), (65536, ["-n"], 0), (2048, ["-c"], 1),
]

def run(out, reps):
    with open(out, "a") as f:
        for rep in range(reps):
            for m, opts, ac in WORKLOADS:
                subprocess.run(["ip", "netns", "exec", "cpuA", "sysctl", "-qw",
                                f"net.ipv4.tcp_autocorking={ac}"], check=True)
                line = subprocess.run(["./run.sh", "2", "-m", str(m), *opts],
                                      capture_output=True, text=True, check=True).stdout
                s = re.search(r"send\[([^\]]*)\] sink\[([^\]]*)\]", line)
                sw = s.group(1).split(); kw = s.group(2).split()
                c = dict(re.findall(r"(\w+)=(\d+)", line))
                rec = {"m": m, "opts": opts, "autocork": ac,
                       "writes": int(sw[0]), "bytes": int(sw[1]), "wall": float(sw[2]),
                       "cpu_send": float(sw[3]) + float(sw[4]), "nvcsw": int(sw[5]),
                       "reads": int(kw[0]), "cpu_sink": float(kw[2]) + float(kw[3]),
                       "pkts_out": int(c.get("IpOutRequests", 0)),
                       "segs_out": int(c.get("TcpOutSegs", 0)),
                       "acks_in": int(c.get("TcpInSegs", 0)),
                       "acks_out": int(c.get("BTcpOutSegs", 0)),
                       "pkts_in": int(c.get("BIpInReceives", 0))}
                f.write(json.dumps(rec) + "\n"); f.flush()
                print(rec, flush=True)
    subprocess.run(["ip", "netns", "exec", "cpuA", "sysctl", "-qw", "net.ipv4.tcp_autocorking=1"])

def lstsq(rows, ys):
    n = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(n)] for i in range(n)]
    b = [sum(r[i] * y for r, y in zip(rows, ys)) for i in range(n)]
    for i in range(n):  # Gauss-Jordan
        p = max(range(i, n), key=lambda k: abs(a[k][i]))
        a[i], a[p], b[i], b[p] = a[p], a[i], b[p], b[i]
        for k in range(n):
            if k != i:
                f = a[k][i] / a[i][i]
                a[k] = [x - f * y for x, y in zip(a[k], a[i])]
                b[k] -= f * b[i]
    return [b[i] / a[i][i] for i in range(n)]

def fit(path):
    recs = [json.loads(l) for l in open(path)]
    # Weight each run by 1/cpu so that relative errors count equally.
    def solve(cols, y):
        rows = [[r[c] / r[y] for c in cols] for r in recs]
        ys = [1.0 for _ in recs]
        x = lstsq(rows, ys)
        res = [sum(ci * r[c] for ci, c in zip(x, cols)) / r[y] - 1 for r in recs]
        return x, res
    x, res = solve(["writes", "bytes", "pkts_out", "acks_in"], "cpu_send")
    print("sender: c_write %.0f ns, c_byte %.3f ns, c_pkt %.0f ns, c_ack %.0f ns" % tuple(v * 1e9 for v in x))
    print("  relative residuals: " + " ".join("%+.2f" % e for e in res))
    x, res = solve(["reads", "bytes", "pkts_in", "acks_out"], "cpu_sink")
    print("sink:   c_read %.0f ns, c_byte %.3f ns, c_pkt %.0f ns, c_ackx %.0f ns" % tuple(v * 1e9 for v in x))
    print("  relative residuals: " + " ".join("%+.2f" % e for e in res))
    for r in recs:
        print("m=%-6d %-5s ac=%d  ns/write %7.0f  writes/pkt %6.2f  acks/pkt %.2f  ns/pkt(sink) %6.0f" % (
            r["m"], "".join(r["opts"]), r["autocork"], r["cpu_send"] / r["writes"] * 1e9,
            r["writes"] / max(r["pkts_out"], 1), r["acks_in"] / max(r["pkts_out"], 1),
            r["cpu_sink"] / max(r["pkts_in"], 1) * 1e9))

if __name__ == "__main__":
    if sys.argv[1] == "run":
        run(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    else:
        fit(sys.argv[2])
