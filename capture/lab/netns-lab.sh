#!/usr/bin/env bash
# netns-lab.sh: reproduce the source experiments on one Linux machine and record them with
# sendpath-record.
#
# Topology (built fresh for each experiment, removed on exit):
#
#   netns ${LAB}-snd              netns ${LAB}-mid                 netns ${LAB}-rcv
#   10.77.0.1/24                  (no IP: sp-delayfwd              10.77.0.2/24
#   ${LAB}s0 [tbf rate] <--veth--> ${LAB}m0  delays every frame  ${LAB}m1 <--veth--> ${LAB}r0
#                                  by DELAY in each direction)
#
# The middle namespace stands in for `netem delay` (this lab's kernels may lack sch_netem): a
# small C program forwards frames between its two veth ends, GSO frames whole. tbf on the
# sender's veth sets the rate and is where packets wait, which is what autocorking needs.
# Loopback experiments (the Nagle/delayed-ACK ping-pong) run in a single namespace on `lo`.
#
# usage: netns-lab.sh [-o OUTDIR] [-q] EXPERIMENT...
#   autocork-on, autocork-off     bursts of 32 writes of 128 B every 5 ms for 0.15 s, TCP_NODELAY,
#                                 through tbf 20mbit burst 1600, RTT 2 ms,
#                                 net.ipv4.tcp_autocorking 1 / 0             (f54b3111)
#   autocork-cpu-on, autocork-cpu-off
#                                 the commit's own workload: 128-byte writes back to back for 1 s
#                                 (netperf -m 128, Nagle on) through tbf 500mbit burst 16kb; on
#                                 this lab its packet counts swing with CPU scheduling
#   pingpong-default, pingpong-nodelay, pingpong-quickack, pingpong-cork, pingpong-msgmore
#                                 1000 B as 100 writes, 100 rounds, on lo  (zh-TW article)
#   bulk-40ms                     one 2,000,000-byte write, SO_SNDBUF 1,000,000, RTT 40 ms
#                                 through the delay forwarder               (605ad7f1)
#   smoke                         a 0.5 s small-write run, used by the test suite
#   samples                       the five samples shipped in public/samples
# Each writes OUTDIR/EXPERIMENT.jsonl (default OUTDIR: .) and prints the key counters.
# LAB_RECORD_ARGS adds sendpath-record options to every experiment (e.g. --no-bpf).
# Needs root, iproute2, gcc; bpftrace optional (counters mode without it).

set -u
export LC_ALL=C

HERE=$(cd "$(dirname "$0")" && pwd)
RECORD="$HERE/../sendpath-record"
OUTDIR=.
QUIET=0
LAB="sp$(printf '%04x' $(($$ % 65536)))" # interface names stay under 15 characters
PORT=5001
EXP_TIMEOUT_S=60

die() {
	echo "netns-lab: $*" >&2
	exit 1
}
say() { [ "$QUIET" = 1 ] || echo "netns-lab: $*" >&2; }

while [ $# -gt 0 ]; do
	case "$1" in
	-o) OUTDIR=$2; shift 2 ;;
	-q) QUIET=1; shift ;;
	-h | --help) sed -n '2,/^$/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || die "name an experiment (see -h)"
[ "$(id -u)" = 0 ] || die "must run as root (network namespaces)"
for tool in ip tc nstat gcc timeout; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool is required"
done
mkdir -p "$OUTDIR" || die "cannot create $OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)

BUILD=$(mktemp -d "${TMPDIR:-/tmp}/netns-lab.XXXXXX") || die "mktemp failed"
FWD_PID=""
SRV_PID=""
NAMESPACES=()

cleanup() {
	[ -z "$SRV_PID" ] || kill -TERM "$SRV_PID" 2>/dev/null
	[ -z "$FWD_PID" ] || kill -TERM "$FWD_PID" 2>/dev/null
	[ -z "$FWD_PID" ] || wait "$FWD_PID" 2>/dev/null
	for ns in ${NAMESPACES[@]+"${NAMESPACES[@]}"}; do
		ip netns del "$ns" 2>/dev/null
	done
	NAMESPACES=()
	FWD_PID=""
	SRV_PID=""
}
trap 'cleanup; rm -rf "$BUILD"' EXIT
trap 'exit 130' INT TERM

gcc -O2 -Wall -o "$BUILD/sp-delayfwd" "$HERE/sp-delayfwd.c" || die "cannot build sp-delayfwd"
gcc -O2 -Wall -o "$BUILD/sp-tcp" "$HERE/sp-tcp.c" || die "cannot build sp-tcp"

ns_add() {
	ip netns add "$1" || die "ip netns add $1 failed"
	NAMESPACES+=("$1")
	ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
	ip -n "$1" link set lo up
}

# Two hosts joined through a delaying middle namespace. DELAY_US each way; RATE for tbf on the
# sender's veth ("" = no tbf: the veth's noqueue).
TOPOLOGY=""
lab_up_veth() {
	local delay_us=$1 rate=$2 burst=${3:-100kb}
	SND=$LAB-snd MID=$LAB-mid RCV=$LAB-rcv
	SDEV=${LAB}s0 RDEV=${LAB}r0
	ns_add "$SND"
	ns_add "$MID"
	ns_add "$RCV"
	ip link add "$SDEV" netns "$SND" type veth peer name "${LAB}m0" netns "$MID" || die "veth failed"
	ip link add "$RDEV" netns "$RCV" type veth peer name "${LAB}m1" netns "$MID" || die "veth failed"
	ip -n "$SND" addr add 10.77.0.1/24 dev "$SDEV"
	ip -n "$RCV" addr add 10.77.0.2/24 dev "$RDEV"
	for link in "$SND $SDEV" "$MID ${LAB}m0" "$MID ${LAB}m1" "$RCV $RDEV"; do
		set -- $link
		ip -n "$1" link set "$2" up
	done
	ip netns exec "$MID" "$BUILD/sp-delayfwd" -a "${LAB}m0" -b "${LAB}m1" -d "$delay_us" \
		2>"$BUILD/fwd.stderr" &
	FWD_PID=$!
	local tbf=""
	if [ -n "$rate" ]; then
		# A burst smaller than a GSO skb makes tbf split it into MSS-sized segments
		# (tbf_segment) and hold packets as soon as the flow exceeds the rate.
		tbf="tc qdisc add dev $SDEV root tbf rate $rate burst $burst latency 200ms"
		ip netns exec "$SND" $tbf || die "tbf failed"
	fi
	# Reachability (ARP resolves through the forwarder).
	local ok=0
	for _ in $(seq 1 50); do
		if ip netns exec "$SND" bash -c "exec 3<>/dev/tcp/10.77.0.2/9" 2>/dev/null ||
			ip -n "$SND" neigh show 10.77.0.2 | grep -q lladdr; then
			ok=1
			break
		fi
		sleep 0.1
	done
	[ $ok = 1 ] || die "no connectivity through the forwarder: $(cat "$BUILD/fwd.stderr")"
	TOPOLOGY="netns $SND ($SDEV 10.77.0.1/24, ${tbf:-no qdisc (veth noqueue)}) <-veth-> netns $MID (sp-delayfwd -d $delay_us: every frame delayed ${delay_us} us each way, GSO frames whole) <-veth-> netns $RCV ($RDEV 10.77.0.2/24); IPv6 off; MTU 1500; veth offloads at their defaults"
}

lab_up_lo() {
	SND=$LAB-lo RCV=""
	ns_add "$SND"
	SDEV=lo
	TOPOLOGY="one netns $SND, both ends on lo (127.0.0.1, MTU 65536, noqueue); IPv6 off"
}

# Run the server in RCV_NS (or SND for loopback), then record the client in SND.
#   run_experiment NAME DESCRIPTION SERVER_ADDR "SERVER ARGS" "CLIENT ARGS" "RECORD ARGS"
run_experiment() {
	local name=$1 what=$2 addr=$3 srv_args=$4 cli_args=$5 rec_args=$6
	local srv_ns=${RCV:-$SND} out="$OUTDIR/$name.jsonl"
	local sysctls
	sysctls=$(ip netns exec "$SND" sysctl -n net.ipv4.tcp_autocorking net.ipv4.tcp_congestion_control | tr '\n' ' ')
	ip netns exec "$srv_ns" timeout "$EXP_TIMEOUT_S" "$BUILD/sp-tcp" server -p "$PORT" $srv_args \
		>"$BUILD/server.out" 2>"$BUILD/server.err" &
	SRV_PID=$!
	local client="$BUILD/sp-tcp client -c $addr -p $PORT $cli_args"
	local note="netns-lab.sh $name: $what. Kernel $(uname -r). Topology: $TOPOLOGY. Server: sp-tcp server -p $PORT $srv_args (in ${srv_ns}). Client (the recorded command): sp-tcp client -c $addr -p $PORT $cli_args. Sender sysctls changed from defaults: $SYSCTL_NOTE. Recorder: sendpath-record -D $SDEV -p $PORT -c sp-tcp $rec_args${LAB_RECORD_ARGS:+ $LAB_RECORD_ARGS}. Sources: capture/lab/ in the sendpath repository."
	say "$name: recording ($what)"
	# shellcheck disable=SC2086
	ip netns exec "$SND" timeout "$EXP_TIMEOUT_S" "$RECORD" -q -o "$out" -D "$SDEV" -p "$PORT" \
		-c sp-tcp $rec_args $LAB_RECORD_ARGS --note "$note" -- $client ||
		die "$name: sendpath-record failed"
	wait "$SRV_PID"
	SRV_PID=""
	say "$name: server: $(cat "$BUILD/server.out")"
	summarize "$out"
}

# Print the counters that matter for the experiments from a capture (sum of nstat deltas).
summarize() {
	local file=$1
	awk '
		/"type":"nstat"/ && /"kind":"delta"/ && /"netns":""/ {
			line = $0
			while (match(line, /"[A-Za-z0-9]+":[0-9]+/)) {
				kv = substr(line, RSTART + 1, RLENGTH - 1); line = substr(line, RSTART + RLENGTH)
				split(kv, a, "\":"); sum[a[1]] += a[2]
			}
		}
		/"type":"workload"/ { w = $0; sub(/.*"stdout":"/, "", w); sub(/\\n.*|","stderr.*/, "", w); gsub(/\\"/, "\"", w); print "  workload: " w }
		END {
			n = split("TcpOutSegs IpOutRequests IpExtOutOctets IpInReceives TcpExtTCPAutoCorking TcpExtTCPOrigDataSent TcpExtDelayedACKs TcpExtTCPPureAcks TcpRetransSegs", k, " ")
			for (i = 1; i <= n; i++) printf "  %-24s %d\n", k[i], sum[k[i]]
		}' "$file"
	printf '  file: %s (%d bytes)\n' "$file" "$(wc -c <"$file")"
}

experiment() {
	local name=$1
	SYSCTL_NOTE="none"
	case "$name" in
	autocork-on | autocork-off)
		local v=1
		[ "$name" = autocork-off ] && v=0
		# A burst of small writes finds the previous packet still in tbf (one packet of tokens),
		# so autocorking holds the rest until tbf lets that packet go (its TX completion on
		# veth). TCP_NODELAY: with Nagle, the unacked first packet would hold them anyway.
		lab_up_veth 1000 20mbit 1600
		ip netns exec "$SND" sysctl -qw net.ipv4.tcp_autocorking=$v
		SYSCTL_NOTE="net.ipv4.tcp_autocorking=$v"
		run_experiment "$name" "bursts of 32 writes of 128 bytes every 5 ms for 0.15 s, TCP_NODELAY, with net.ipv4.tcp_autocorking=$v (f54b3111)" \
			10.77.0.2 "-w stream" "-w stream -s 128 -t 0.15 --nodelay --burst=32 --gap-us=5000" \
			"-i 50 --events sendmsg,dev,qdisc,tcp --max-events 8000"
		;;
	autocork-cpu-on | autocork-cpu-off)
		local v=1
		[ "$name" = autocork-cpu-off ] && v=0
		lab_up_veth 1000 500mbit 16kb
		ip netns exec "$SND" sysctl -qw net.ipv4.tcp_autocorking=$v
		SYSCTL_NOTE="net.ipv4.tcp_autocorking=$v"
		run_experiment "$name" "128-byte writes back to back for 1 s with net.ipv4.tcp_autocorking=$v (f54b3111: netperf TCP_STREAM -m 128)" \
			10.77.0.2 "-w stream" "-w stream -s 128 -t 1" "-i 100 --events sendmsg,dev,qdisc,tcp --max-events 4000"
		;;
	pingpong-default | pingpong-nodelay | pingpong-quickack | pingpong-cork | pingpong-msgmore)
		local opt="" max=6000
		case "$name" in
		pingpong-nodelay) opt="--nodelay" ;;
		pingpong-quickack) opt="--quickack=once" ;;
		pingpong-cork) opt="--cork" ;;
		pingpong-msgmore) opt="--msg-more" ;;
		esac
		lab_up_lo
		run_experiment "$name" "Nagle/delayed-ACK ping-pong: 1000 B as 100 writes each way, 100 rounds${opt:+, $opt on both ends} (zh-TW article's tcp_test)" \
			127.0.0.1 "-w pingpong -r 100 $opt" "-w pingpong -r 100 $opt" \
			"-i 200 --events sendmsg,dev,tcp,delack --max-events $max"
		;;
	bulk-40ms)
		lab_up_veth 20000 ""
		run_experiment "$name" "one 2,000,000-byte write with SO_SNDBUF 1,000,000 over a 40 ms RTT (605ad7f1: netperf -l -2000000 -- -s 1000000)" \
			10.77.0.2 "-w stream" "-w stream -s 2000000 -n 2000000 --sndbuf=1000000" \
			"-i 100 -n $LAB-rcv --events sendmsg,dev,qdisc,tcp --max-events 20000"
		;;
	smoke)
		lab_up_veth 1000 20mbit
		run_experiment "$name" "128-byte writes for 0.5 s (test-suite smoke run)" \
			10.77.0.2 "-w stream" "-w stream -s 128 -t 0.5" "-i 100 --events sendmsg,dev,qdisc,tcp --max-events 2000"
		;;
	*) die "unknown experiment '$name' (see -h)" ;;
	esac
	cleanup
}

LAB_RECORD_ARGS=${LAB_RECORD_ARGS:-} # extra sendpath-record options for every experiment
for exp in "$@"; do
	if [ "$exp" = samples ]; then
		for s in autocork-on autocork-off pingpong-default pingpong-nodelay bulk-40ms; do
			experiment "$s"
		done
	else
		experiment "$exp"
	fi
done
