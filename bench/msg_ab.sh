#!/usr/bin/env bash
# msg_ab.sh — two stampede binaries (e.g. before and after a change to the
# messaging clients) on the same brokers, rounds interleaved and the order
# alternating between rounds:
#
#   kafka-one     kafka.Produce one message per iteration (-u 1024 --linger 5ms)
#   kafka-window  kafka.Produce --produce-window 1024 (-u 16 --linger 5ms)
#   nats-async    nats.Publish async (window 500: N/500 iterations), 4 VUs
#
# N messages of 2048 bytes per run (kafka to one partition of `stampede
# kafka serve --brokers 3 --blackhole`, nats to one R1 file stream of
# `stampede nats serve --nodes 3`, both served by OLD). With 2 or more
# cores the brokers run on CPU 1 and the clients on CPU 0. Client CPU per
# message is user+system of the client process from the kernel
# (/usr/bin/time, start-up included), msgs/s is N over its wall time.
# Prints per round both binaries' figures, then per workload the medians
# and [ranges] of new/old per round, the CPU model and the load before and
# after.
#
#   bench/msg_ab.sh OLD_BINARY NEW_BINARY [ROUNDS=7] [N=200000]
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bench/msg_ab.sh OLD_BINARY NEW_BINARY [ROUNDS=7] [N=200000]" >&2; exit 2; }
old=$(realpath "$1") new=$(realpath "$2") rounds=${3:-7} n=${4:-200000}
[ -x "$old" ] && [ -x "$new" ] || { echo "msg_ab.sh: OLD and NEW must be executables" >&2; exit 2; }
[ "$rounds" -ge 5 ] 2>/dev/null || { echo "msg_ab.sh: need at least 5 rounds" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$tmp"' EXIT
broker=() client=()
if [ "$(nproc)" -ge 2 ]; then broker=(taskset -c 1) client=(taskset -c 0); fi

"${broker[@]}" "$old" kafka serve --brokers 3 --blackhole >"$tmp/kserve.out" 2>"$tmp/kserve.err" &
"${broker[@]}" "$old" nats serve --nodes 3 --data-dir "$tmp/ndata" >"$tmp/nserve.out" 2>"$tmp/nserve.err" &
for _ in $(seq 600); do [ -s "$tmp/kserve.out" ] && [ -s "$tmp/nserve.out" ] && break; sleep 0.1; done
kurl=$(head -1 "$tmp/kserve.out") nurl=$(head -1 "$tmp/nserve.out")
[ -n "$kurl" ] && [ -n "$nurl" ] || { cat "$tmp"/*.err >&2; exit 1; }
# The topic (1 partition) and the stream (R1) exist before the first round.
"$old" run kafka.Produce --target "$kurl" -i 1 -u 1 --partitions 1 --topic-prefix ab --no-csv --no-report -q --out "$tmp/kwarm" >/dev/null
"$old" run nats.Publish --target "$nurl" -i 1 -u 1 --nats-replicas 1 --stream-prefix ab --no-csv --no-report -q --out "$tmp/nwarm" >/dev/null

echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs), $(nproc) cores; $rounds rounds of $n messages"
echo "old: $old"
echo "new: $new"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# one WORKLOAD BINARY: prints "msgs/s cpu-µs/msg".
one() {
	local w=$1 bin=$2 args iters=$n
	case $w in
	kafka-one) args=(kafka.Produce --target "$kurl" -u 1024 --linger 5ms --partitions 1 --topic-prefix ab) ;;
	kafka-window) args=(kafka.Produce --target "$kurl" -u 16 --produce-window 1024 --linger 5ms --partitions 1 --topic-prefix ab) ;;
	nats-async) # an iteration publishes one window of 500
		iters=$((n / 500))
		args=(nats.Publish --target "$nurl" -u 4 --nats-publish async --nats-async-window 500 --nats-message-size 2048
			--nats-replicas 1 --stream-prefix ab) ;;
	esac
	rm -rf "$tmp/run"
	/usr/bin/time -f '%e %U %S' -o "$tmp/time" "${client[@]}" timeout --foreground -k 5 300 "$bin" run "${args[@]}" -i "$iters" \
		--no-csv --no-report -q --out "$tmp/run" >/dev/null 2>"$tmp/err" || { echo "$w $bin failed: $(cat "$tmp/err")" >&2; exit 1; }
	awk -v n="$n" '{printf "%.0f %.3f\n", n / $1, ($2 + $3) * 1e6 / n}' "$tmp/time"
}

works=(kafka-one kafka-window nats-async)
declare -A rate cpu
for r in $(seq 1 "$rounds"); do
	for w in "${works[@]}"; do
		order=(old new)
		[ $((r % 2)) -eq 0 ] && order=(new old)
		line="round $r $w:"
		for which in "${order[@]}"; do
			bin=$old
			[ "$which" = new ] && bin=$new
			read -r rate[$w,$which,$r] cpu[$w,$which,$r] < <(one "$w" "$bin")
			line+=" $which ${rate[$w,$which,$r]} msgs/s ${cpu[$w,$which,$r]} µs/msg"
		done
		echo "$line (load $(cut -d' ' -f1 /proc/loadavg))"
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "new/old per round: median [range]"
for w in "${works[@]}"; do
	rs=() cs=()
	for r in $(seq 1 "$rounds"); do
		rs+=("$(awk -v a="${rate[$w,new,$r]}" -v b="${rate[$w,old,$r]}" 'BEGIN{printf "%.3f", a/b}')")
		cs+=("$(awk -v a="${cpu[$w,new,$r]}" -v b="${cpu[$w,old,$r]}" 'BEGIN{printf "%.3f", a/b}')")
	done
	python3 - "$w" "${rs[*]}" "${cs[*]}" <<'PY'
import statistics, sys
w, rs, cs = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
print(f"{w:13s} msgs/s {statistics.median(rs):.3f} [{min(rs):.3f}-{max(rs):.3f}]   client CPU/msg {statistics.median(cs):.3f} [{min(cs):.3f}-{max(cs):.3f}]")
PY
done
