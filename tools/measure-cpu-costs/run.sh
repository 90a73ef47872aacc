#!/bin/sh
# run.sh SECONDS SENDER_OPTS... -- SINK_OPTS...
# One measurement: sink on CPU 1 in cpuB, sender on CPU 0 in cpuA; prints the sender's and the
# sink's counts and CPU times and the nstat deltas of both namespaces.
T=$1; shift
SOPTS=""; KOPTS=""; side=s
for a in "$@"; do
  if [ "$a" = "--" ]; then side=k; continue; fi
  if [ $side = s ]; then SOPTS="$SOPTS $a"; else KOPTS="$KOPTS $a"; fi
done
D=$(dirname "$0")
PORT=$((20000 + $$ % 20000))
export NSA=/tmp/nstat.cpuA NSB=/tmp/nstat.cpuB
ip netns exec cpuA env NSTAT_HISTORY=$NSA nstat -n >/dev/null; ip netns exec cpuB env NSTAT_HISTORY=$NSB nstat -n >/dev/null
CAL0=$(awk '$1=="CAL:"{print $2" "$3}' /proc/interrupts)
ip netns exec cpuB taskset -c 1 "$D/tcp_stream" sink 10.77.0.2 $PORT $KOPTS > /tmp/sink.$$ &
sleep 0.3
S=$(ip netns exec cpuA taskset -c 0 "$D/tcp_stream" send 10.77.0.2 $PORT -t $T $SOPTS)
wait
K=$(cat /tmp/sink.$$); rm -f /tmp/sink.$$
NA=$(ip netns exec cpuA env NSTAT_HISTORY=$NSA nstat | awk '$1=="TcpOutSegs"||$1=="TcpInSegs"||$1=="IpOutRequests"||$1=="TcpExtTCPAutoCorking"{printf "%s=%s ",$1,$2}')
NB=$(ip netns exec cpuB env NSTAT_HISTORY=$NSB nstat | awk '$1=="TcpOutSegs"||$1=="TcpInSegs"||$1=="IpInReceives"||$1=="IpOutRequests"||$1=="TcpExtDelayedACKs"{printf "B%s=%s ",$1,$2}')
CAL1=$(awk '$1=="CAL:"{print $2" "$3}' /proc/interrupts)
IPI=$(echo "$CAL0 $CAL1" | awk '{printf "IPI0=%d IPI1=%d", $3-$1, $4-$2}')
echo "send[$S] sink[$K] $NA $NB $IPI"
