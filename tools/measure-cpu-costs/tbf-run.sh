#!/bin/bash
# tbf-run.sh RATE|none BURST SECONDS TRACE(0|1): one run of 128-byte writes (Nagle on,
# tcp_autocorking 0, cubic, writer pinned to CPU 0) behind `tbf rate RATE burst BURST` on a
# veth pair without RPS (the conformance lab's topology, no forwarder). Prints the sender's
# nstat deltas, tbf's overlimits, the writer's getrusage and, with TRACE=1, tbf-watchdog.bt's
# counts (qdisc_watchdog hrtimer arms and expiries, NET_TX softirqs, local timer interrupts;
# tracefs mounted in a private mount namespace: no kprobes on this kernel). Run it with every
# other process stopped: CPU-bound figures need a quiet machine. Needs root, iproute2, gcc.
HERE=$(cd "$(dirname "$0")" && pwd); cd "$HERE"
[ -x sp-tcp ] || gcc -O2 -o sp-tcp ../../capture/lab/sp-tcp.c || exit 1
set -u
RATE=$1; BURST=$2; SECS=$3; TRACE=$4
ip netns del tq-s 2>/dev/null; ip netns del tq-r 2>/dev/null
ip netns add tq-s; ip netns add tq-r
ip link add tqs0 netns tq-s type veth peer name tqr0 netns tq-r
ip -n tq-s addr add 10.79.0.1/24 dev tqs0; ip -n tq-r addr add 10.79.0.2/24 dev tqr0
ip -n tq-s link set tqs0 up; ip -n tq-r link set tqr0 up; ip -n tq-s link set lo up; ip -n tq-r link set lo up
ip netns exec tq-s sysctl -qw net.ipv4.tcp_autocorking=0
ip -n tq-s link set tqs0 gso_max_size 65536 2>/dev/null
[ "$RATE" != none ] && tc -n tq-s qdisc replace dev tqs0 root tbf rate $RATE burst $BURST latency 50ms
ip netns exec tq-r ./sp-tcp server -p 5001 -F 1 -w stream > /tmp/tbf-srv.json &
SP=$!
sleep 0.3
if [ "$TRACE" = 1 ]; then
  ulimit -l unlimited; unshare -m sh -c 'mount -t tracefs nodev /sys/kernel/tracing && exec bpftrace -q tbf-watchdog.bt' > /tmp/tbf-bt.out 2>&1 &
  BT=$!; sleep 2
fi
nstat -n >/dev/null 2>&1; ip netns exec tq-s nstat -n > /dev/null
taskset -c 0 ip netns exec tq-s ./sp-tcp client -c 10.79.0.2 -p 5001 -w stream -s 128 -t $SECS --drain --cc=cubic > /tmp/tbf-cli.json
ip netns exec tq-s nstat -az IpOutRequests TcpOutSegs 2>/dev/null | awk '/IpOut|TcpOutSegs/{printf "%s=%s ", $1, $2}'
tc -n tq-s -s qdisc show dev tqs0 | grep -o "overlimits [0-9]*" || echo
if [ "$TRACE" = 1 ]; then kill -INT $BT; wait $BT 2>/dev/null; grep -v "^$" /tmp/tbf-bt.out | tr '\n' ' '; echo; fi
echo -n "$RATE $BURST trace=$TRACE "; python3 -c "import json;d=json.load(open('/tmp/tbf-cli.json'));print('writes',d.get('send_calls'),'cpu_s',d['cpu_s'],'sys',d['sys_s'],'bytes',d.get('bytes'))"
wait $SP 2>/dev/null
ip netns del tq-s; ip netns del tq-r
