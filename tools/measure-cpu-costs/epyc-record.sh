#!/bin/bash
# One quiet window: per-operation profiles (lab topology: veth without RPS) and re-recordings.
# Run with every other process stopped (load average below 1 before it starts). Writes /tmp/run.amd_* and
# /tmp/perf.amd_* (analyse with ANALYZE_ONLY=1 profile.sh NAME 0 4, then costs_norps.py) and the
# re-recordings to /tmp/rec-amd. Needs setup.sh first, and gcc -O2 -o syscall_cost syscall_cost.c;
# gcc -O2 -o wake_idle wake_idle.c.
D=$(cd "$(dirname "$0")" && pwd)
ip netns exec cpuA sh -c 'echo 0 > /sys/class/net/va/queues/rx-0/rps_cpus'
ip netns exec cpuB sh -c 'echo 0 > /sys/class/net/vb/queues/rx-0/rps_cpus'
cat /proc/loadavg
export RECORD_ONLY=1
for i in 1 2 3; do
  $D/profile.sh amd_nd$i 0 4 -m 128 -n
  $D/profile.sh amd_ck$i 1 4 -m 128 -c
  $D/profile.sh amd_big$i 1 4 -m 65536
  $D/profile.sh amd_wx$i 0 4 -m 128
done
ip netns exec cpuA tc qdisc replace dev va root pfifo_fast
for i in 1 2 3; do $D/profile.sh amd_qd$i 0 4 -m 128 -n; done
ip netns exec cpuA tc qdisc del dev va root; ip netns exec cpuA ethtool -K va tso off
for i in 1 2 3; do $D/profile.sh amd_gso$i 1 4 -m 65536; done
ip netns exec cpuA ethtool -K va tso on
cat /proc/loadavg
for i in 1 2 3; do $D/syscall_cost sys 3000000; taskset -c 0 /tmp/wk/syscall_cost ctx 300000; done
for g in 20 50 200; do $D/wake_idle 3000 $g; done
cat /proc/loadavg
mkdir -p /tmp/rec-amd
$D/../../capture/lab/conform-record -n 3 -o /tmp/rec-amd autocork-veth-on autocork-veth-off autocork-tbf5g-on autocork-tbf5g-off autocork-tbf1g-on autocork-tbf1g-off autocork-tbf1g-nodelay autocork-tbf200m-on autocork-tbf200m-off pingpong-lo-cork pingpong-lo-msgmore pingpong-lo-nodelay pingpong-veth-nodelay 2>&1 | tail -30
cat /proc/loadavg
