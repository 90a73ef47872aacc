#!/bin/sh
# Two network namespaces joined by a veth pair, receive work steered with RPS so that the
# sender's CPU (0) does the sender's work and the ACKs it receives, and CPU 1 the receiver's.
set -e
ip netns add cpuA 2>/dev/null || true
ip netns add cpuB 2>/dev/null || true
ip link add va netns cpuA type veth peer name vb netns cpuB 2>/dev/null || true
ip -n cpuA addr add 10.77.0.1/24 dev va 2>/dev/null || true
ip -n cpuB addr add 10.77.0.2/24 dev vb 2>/dev/null || true
ip -n cpuA link set va up; ip -n cpuB link set vb up
ip -n cpuA link set lo up; ip -n cpuB link set lo up
# RPS: packets received on vb (data) are processed on CPU 1, on va (ACKs) on CPU 0.
ip netns exec cpuB sh -c 'echo 2 > /sys/class/net/vb/queues/rx-0/rps_cpus'
ip netns exec cpuA sh -c 'echo 1 > /sys/class/net/va/queues/rx-0/rps_cpus'
# TCP_CONGESTION is set per socket (cubic) by tcp_stream; the netns default cannot be changed here.
for ns in; do
  ip netns exec $ns sysctl -qw net.ipv4.tcp_congestion_control=cubic
done
