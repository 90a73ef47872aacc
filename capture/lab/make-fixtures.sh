#!/usr/bin/env bash
# make-fixtures.sh: record the real input files of the importers' snapshot tests
# (web/src/capture/fixtures/real/), one per format the site imports besides our own captures
# (those are public/samples/, made by netns-lab.sh).
#
# usage: make-fixtures.sh OUTDIR
#
# Everything runs in a fresh network namespace with a short ping-pong on lo (sp-tcp), so the
# counters are this workload's only. Formats written:
#   nstat.txt             `nstat` (increments since the previous run) after the workload
#   nstat-a.txt           `nstat -a` (absolute values)
#   nstat-j.json          `nstat -j`
#   nstat-ajp.json        `nstat -a -j -p` (pretty-printed, several lines)
#   nstat-daemon.json     `nstat -j` answered by an `nstat -d 1` daemon (the key is not "kernel")
#   nstat-daemon.txt      `nstat` answered by the daemon (rate column non-zero)
#   nstat-series.txt      three rounds of `date -u +%FT%T.%NZ; nstat` (a series with timestamps)
#   nstat-series.jsonl    three rounds of `nstat -j`, one object per line (no timestamps)
#   bpftrace.ndjson       `bpftrace -f json capture/sendpath.bt 8000 lo sp-tcp 400 NETNS`
#   bpftrace.txt          the same in text mode, stdout and stderr together (as a terminal shows)
# Needs root, iproute2, gcc, bpftrace (the two bpftrace files are skipped without it).

set -u
export LC_ALL=C
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: make-fixtures.sh OUTDIR}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
[ "$(id -u)" = 0 ] || { echo "make-fixtures: must run as root" >&2; exit 1; }

NS="spfx$$"
TMP=$(mktemp -d)
DAEMON_PID=""
cleanup() {
	[ -z "$DAEMON_PID" ] || kill "$DAEMON_PID" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
gcc -O2 -o "$TMP/sp-tcp" "$HERE/sp-tcp.c" || exit 1
ip netns add "$NS" || exit 1
ip -n "$NS" link set lo up
in_ns() { ip netns exec "$NS" env NSTAT_HISTORY="$TMP/nstat.history" "$@"; }

pingpong() { # ROUNDS
	in_ns timeout 30 "$TMP/sp-tcp" server -p 8000 -w pingpong -r "$1" >/dev/null &
	local server=$!
	in_ns timeout 30 "$TMP/sp-tcp" client -c 127.0.0.1 -p 8000 -w pingpong -r "$1" >/dev/null
	wait "$server"
}

in_ns nstat -n
pingpong 3
in_ns nstat -s >"$OUT/nstat.txt"
in_ns nstat -a -s >"$OUT/nstat-a.txt"
in_ns nstat -j -s >"$OUT/nstat-j.json"
in_ns nstat -a -j -p -s >"$OUT/nstat-ajp.json"

in_ns nstat -n
: >"$OUT/nstat-series.txt"
: >"$OUT/nstat-series.jsonl"
for _ in 1 2 3; do
	pingpong 1
	date -u +%Y-%m-%dT%H:%M:%S.%NZ >>"$OUT/nstat-series.txt"
	in_ns nstat -s >>"$OUT/nstat-series.txt"
	in_ns nstat -j >>"$OUT/nstat-series.jsonl"
done

# The daemon keeps its own history; ask it after it has sampled the workload.
rm -f "$TMP/nstat.history"
in_ns nstat -d 1 -t 10
DAEMON_PID=$(ip netns pids "$NS" | while read -r pid; do
	[ "$(cat /proc/"$pid"/comm 2>/dev/null)" = nstat ] && echo "$pid"
done | head -n1)
sleep 2.5
pingpong 2
sleep 1.5
in_ns nstat -j >"$OUT/nstat-daemon.json"
in_ns nstat >"$OUT/nstat-daemon.txt"
kill "$DAEMON_PID" 2>/dev/null
DAEMON_PID=""

if command -v bpftrace >/dev/null 2>&1; then
	inode=$(ip netns exec "$NS" stat -L -c %i /proc/self/ns/net)
	for mode in json text; do
		out="$OUT/bpftrace.txt"
		args=()
		[ $mode = json ] && { out="$OUT/bpftrace.ndjson"; args=(-f json); }
		ip netns exec "$NS" unshare -m sh -c '
			mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing
			exec bpftrace "$@"' sh ${args[@]+"${args[@]}"} "$HERE/../sendpath.bt" 8000 lo sp-tcp 400 "$inode" \
			>"$out" 2>&1 &
		bt=$!
		for _ in $(seq 1 300); do grep -q 'clock mono_ns' "$out" && break; sleep 0.1; done
		pingpong 3
		sleep 0.3
		kill -TERM "$bt" 2>/dev/null
		wait "$bt"
	done
fi
ls -l "$OUT"
