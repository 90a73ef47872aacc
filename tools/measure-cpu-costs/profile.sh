#!/bin/sh
# profile.sh NAME AUTOCORK SECONDS SENDER_OPTS... : run.sh under perf on both CPUs; prints the
# run line and the per-layer CPU time of the sender (CPU 0) and the sink (CPU 1).
# RECORD_ONLY=1 stops after the run (the analysis takes CPU; run it later, with the machine free
# again, with the same arguments: ANALYZE_ONLY=1 profile.sh NAME AUTOCORK SECONDS).
NAME=$1; AC=$2; T=$3; shift 3
D=$(cd "$(dirname "$0")" && pwd)
if [ "${ANALYZE_ONLY:-0}" != 1 ]; then
ip netns exec cpuA sysctl -qw net.ipv4.tcp_autocorking=$AC
( sleep 0.6; perf record -q -e cpu-clock -F 10000 -a -g -o /tmp/perf.$NAME -- sleep $((T - 1)) >/dev/null 2>&1 ) &
"$D/run.sh" $T "$@" | tee /tmp/run.$NAME
wait
ip netns exec cpuA sysctl -qw net.ipv4.tcp_autocorking=1
[ "${RECORD_ONLY:-0}" = 1 ] && exit 0
else
cat /tmp/run.$NAME
fi
echo "== sender (CPU 0, comm tcp_stream) over $((T - 1)) s of the run"
perf script -F comm,cpu,ip,sym -C 0 -i /tmp/perf.$NAME 2>/dev/null | "$D/breakdown.py" 10000 tcp_stream "" /tmp/cpu0.$NAME.json
echo "== CPU 1 (sink, and receive softirq run in it, idle or ksoftirqd)"
perf script -F comm,cpu,ip,sym -C 1 -i /tmp/perf.$NAME 2>/dev/null | "$D/breakdown.py" 10000 - tcp_stream,swapper,ksoftirqd /tmp/cpu1.$NAME.json
