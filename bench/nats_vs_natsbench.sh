#!/usr/bin/env bash
# nats_vs_natsbench.sh — stampede's nats.Publish against natscli's
# `nats bench js pub` on the same embedded cluster (stampede nats serve),
# same message size, client count and message count, rounds interleaved.
#
# Two modes, each on its own stream, shared by both tools:
#   R1 async — 1 replica, async publish, window 500 (nats bench --batch 500)
#   R3 sync  — 3 replicas, one synchronous publish (PubAck) at a time
# msgs/s for nats bench is its "aggregated stats" line; for stampede the messages
# counter (PubAcks) divided by the scenario's duration (summary export).
# Client CPU µs/msg is the client process's user+sys time (start-up
# included for both) per message, from /usr/bin/time.
#
# Usage: bench/nats_vs_natsbench.sh [ROUNDS]
#   env NATS      the nats CLI (default: nats in PATH; build it with
#                 go install github.com/nats-io/natscli/nats@v0.5.0)
#       NODES     cluster size (default 3)  CLIENTS (default 4)
#       SIZE      message bytes (default 2048)
#       N_ASYNC   messages per R1 async run (default 200000)
#       N_SYNC    messages per R3 sync run (default 20000)
#       FSYNC     always or default (default: default)
set -euo pipefail
ROUNDS=${1:-3}
NATS=${NATS:-nats}
NODES=${NODES:-3}
CLIENTS=${CLIENTS:-4}
SIZE=${SIZE:-2048}
N_ASYNC=${N_ASYNC:-200000}
N_SYNC=${N_SYNC:-20000}
FSYNC=${FSYNC:-default}
command -v "$NATS" >/dev/null || { echo "no nats CLI: go install github.com/nats-io/natscli/nats@v0.5.0, or set NATS=path" >&2; exit 2; }
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/nats_vs_natsbench.XXXXXX)
trap 'kill "${serve_pid:-}" 2>/dev/null || true; wait 2>/dev/null; rm -rf "$work"' EXIT
go build -o "$work/stampede" ./cmd/stampede
"$work/stampede" nats serve --nodes "$NODES" --fsync "$FSYNC" --data-dir "$work/data" >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
for _ in $(seq 600); do [ -s "$work/serve.out" ] && break; sleep 0.1; done
url=$(head -1 "$work/serve.out")
[ -n "$url" ] || { cat "$work/serve.err" >&2; exit 1; }
echo "cluster: $url; $(cat "$work/serve.err")"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# cpu N: client µs/msg from the last /usr/bin/time output
cpu() { awk -v n="$1" '{printf "%.1f", ($1 + $2) * 1e6 / n}' "$work/time"; }

# natsbench MODE STREAM N: prints "msgs/s µs/msg"
natsbench() {
	local mode=$1 stream=$2 n=$3 reps=1 batch=
	[ "$stream" = r3 ] && reps=3
	[ "$mode" = async ] && batch="--batch 500"
	local r
	r=$(/usr/bin/time -f "%U %S" -o "$work/time" "$NATS" bench js pub "$mode" "st-$stream.0" --server "$url" --stream "st-$stream-0" --purge \
		--replicas $reps --storage file --clients "$CLIENTS" --msgs "$n" --size "$SIZE" --no-progress $batch 2>&1 |
		awk '/aggregated stats:/ {for (i = 1; i < NF; i++) if ($(i+1) == "msgs/sec") {gsub(",", "", $i); print $i}}' | tail -1)
	echo "$r $(cpu "$n")"
}

# stampede MODE STREAM N: prints "msgs/s µs/msg" (PubAcks / scenario duration)
stampede() {
	local mode=$1 stream=$2 n=$3 reps=1 iters=$3
	[ "$stream" = r3 ] && reps=3
	[ "$mode" = async ] && iters=$((n / 500))
	/usr/bin/time -f "%U %S" -o "$work/time" "$work/stampede" run nats.Publish --target "$url" -u "$CLIENTS" -i "$iters" --nats-publish "$mode" \
		--nats-async-window 500 --nats-replicas $reps --nats-message-size "$SIZE" --stream-prefix "st-$stream" \
		--no-csv --no-report -q --out "$work/out-$RANDOM$RANDOM" --summary-export "$work/s.json" >/dev/null 2>"$work/st.err" ||
		{ cat "$work/st.err" >&2; return 1; }
	echo "$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["metrics"]["messages"]; print(round(m["rate"]))' "$work/s.json") $(cpu "$n")"
}

# Both tools publish to the same streams (same leader, same placement):
# stampede creates st-r1-0 (R1) and st-r3-0 (R3) here; nats bench purges
# and reuses them.
for k in r1 r3; do
	reps=1; [ $k = r3 ] && reps=3
	"$work/stampede" run nats.Publish --target "$url" -u 1 -i 1 --nats-replicas $reps --stream-prefix "st-$k" \
		--no-csv --no-report -q --out "$work/warm-$k" >/dev/null
done

printf "%-6s %-9s %11s %11s %7s %10s %10s  %s\n" round mode "nats bench" stampede ratio "nb µs/msg" "st µs/msg" loadavg
declare -A nb st nbc stc
for r in $(seq "$ROUNDS"); do
	for m in "async r1 $N_ASYNC" "sync r3 $N_SYNC"; do
		set -- $m
		if [ $((r % 2)) = 1 ]; then a=($(natsbench "$1" "$2" "$3")); b=($(stampede "$1" "$2" "$3"))
		else b=($(stampede "$1" "$2" "$3")); a=($(natsbench "$1" "$2" "$3")); fi
		nb[$2]+="${a[0]} "; st[$2]+="${b[0]} "; nbc[$2]+="${a[1]} "; stc[$2]+="${b[1]} "
		printf "%-6s %-9s %11s %11s %6.2fx %10s %10s  %s\n" "$r" "$2 $1" "${a[0]}" "${b[0]}" "$(echo "${b[0]} / ${a[0]}" | bc -l)" "${a[1]}" "${b[1]}" "$(cut -d' ' -f1 /proc/loadavg)"
	done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for k in r1 r3; do
	a=$(echo "${nb[$k]}" | median); b=$(echo "${st[$k]}" | median)
	printf "median %-9s %11s %11s %6.2fx %10s %10s\n" "$k" "$a" "$b" "$(echo "$b / $a" | bc -l)" "$(echo "${nbc[$k]}" | median)" "$(echo "${stc[$k]}" | median)"
done
