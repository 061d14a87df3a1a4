#!/usr/bin/env bash
# msg_vs_peers.sh — stampede's messaging clients against their peers on the
# same broker, tools alternated round by round (the order rotates every
# round, so no tool always runs first or last on a warming machine):
#
#   kafka: kafka.Produce one message per iteration (-u 1024 --linger 5ms),
#          kafka.Produce --produce-window 1024 (-u 64 --linger 5ms), and
#          kcat 1.7 (librdkafka defaults: linger 5 ms), 2048-byte messages,
#          acks=1, to one topic of `stampede kafka serve --blackhole`;
#   nats:  nats.Publish async (window 500) and sync, and `nats bench js pub
#          async --batch 500` / `sync`, 4 clients, 2048-byte messages, to
#          one R1 stream of `stampede nats serve` (3 nodes).
#
# kcat reads its messages from a file in /dev/shm (memory); what reading it
# costs is measured separately (cat of the same file) and printed, so that
# it can be taken out of kcat's CPU. msgs/s is messages / the client
# process's wall time (start-up included) for kafka; for nats it is nats
# bench's "aggregated stats" and stampede's PubAcks over the scenario
# (summary export). Client CPU µs/msg is the client process's user+sys
# time per message (/usr/bin/time). Each line of the summary gives the
# median and the range over the rounds, and the ratio of the medians.
#
# Usage: bench/msg_vs_peers.sh [ROUNDS]      (default 5)
#   env N_KAFKA   messages per kafka run (default 100000)
#       N_ASYNC   messages per nats async run (default 200000)
#       N_SYNC    messages per nats sync run (default 20000)
#       NATS      the nats CLI (default: nats in PATH; go install
#                 github.com/nats-io/natscli/nats@v0.5.0); ONLY=kafka skips nats
#       ONLY      kafka or nats (default: both)
set -euo pipefail
ROUNDS=${1:-5}
N_KAFKA=${N_KAFKA:-100000}
N_ASYNC=${N_ASYNC:-200000}
N_SYNC=${N_SYNC:-20000}
NATS=${NATS:-nats}
ONLY=${ONLY:-}
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/msg_vs_peers.XXXXXX)
shm=$(mktemp -d /dev/shm/msg_vs_peers.XXXXXX)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$work" "$shm"' EXIT
go build -o "$work/stampede" ./cmd/stampede
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load average before $(cut -d' ' -f1-3 /proc/loadavg)"
echo "kcat: $(kcat -V 2>&1 | grep -m1 -o 'Version [0-9.]*'), $(kcat -V 2>&1 | grep -m1 -o 'librdkafka [0-9.]*')"

res="$work/results.txt"
: >"$res"

# timed NAME N CMD...: runs CMD under /usr/bin/time; appends
# "NAME msgs/s µs/msg" with msgs/s = N / wall time.
timed() {
	local name=$1 n=$2
	shift 2
	local t0 t1
	t0=$(date +%s.%N)
	/usr/bin/time -f "%U %S" -o "$work/time" "$@" >"$work/out.txt" 2>"$work/err.txt" || {
		echo "$name failed:" >&2
		tail -5 "$work/err.txt" >&2
		exit 1
	}
	t1=$(date +%s.%N)
	awk -v n="$n" -v t0="$t0" -v t1="$t1" -v name="$name" '{printf "%s %.0f %.2f\n", name, n / (t1 - t0), ($1 + $2) * 1e6 / n}' "$work/time" >>"$res"
}

# rotate R WORDS...: the words rotated left by R.
rotate() {
	local r=$1
	shift
	local a=("$@") n=$#
	for i in $(seq 0 $((n - 1))); do echo -n "${a[$(((i + r) % n))]} "; done
}

if [ "$ONLY" != nats ]; then
	"$work/stampede" kafka serve --brokers 3 --blackhole >"$work/kserve.out" 2>"$work/kserve.err" &
	pids+=($!)
	for _ in $(seq 100); do [ -s "$work/kserve.out" ] && break; sleep 0.1; done
	kurl=$(head -1 "$work/kserve.out")
	brokers=${kurl#kafka://}
	echo "kafka cluster: $kurl ($(cat "$work/kserve.err"))"
	# 2048 printable bytes per message, one per line, in memory.
	head -c $((N_KAFKA * 1536)) /dev/urandom | base64 -w 2048 >"$shm/msgs.txt"
	/usr/bin/time -f "%U %S" -o "$work/time" cat "$shm/msgs.txt" >/dev/null
	read_cost=$(awk -v n="$N_KAFKA" '{printf "%.2f", ($1 + $2) * 1e6 / n}' "$work/time")
	echo "kcat input: $N_KAFKA lines from /dev/shm; reading them (cat) costs $read_cost µs/msg of CPU"
	"$work/stampede" run kafka.Produce --target "$kurl" -i 1 -u 1 --topic-prefix bench --no-csv --no-report -q --out "$work/kwarm" >/dev/null
	for r in $(seq "$ROUNDS"); do
		for tool in $(rotate "$r" kafka-one kafka-window kcat); do
			rm -rf "$work/krun"
			case $tool in
			kafka-one) timed "$tool" "$N_KAFKA" "$work/stampede" run kafka.Produce --target "$kurl" -i "$N_KAFKA" -u 1024 --linger 5ms \
				--topic-prefix bench --acks 1 --no-csv --no-report -q --out "$work/krun" ;;
			kafka-window) timed "$tool" "$N_KAFKA" "$work/stampede" run kafka.Produce --target "$kurl" -i "$N_KAFKA" -u 64 --produce-window 1024 --linger 5ms \
				--topic-prefix bench --acks 1 --no-csv --no-report -q --out "$work/krun" ;;
			kcat) timed "$tool" "$N_KAFKA" kcat -P -b "$brokers" -t bench-0 -X acks=1 -l "$shm/msgs.txt" ;;
			esac
			echo "round $r: $(tail -1 "$res") (load $(cut -d' ' -f1 /proc/loadavg))"
		done
	done
	rm -f "$shm/msgs.txt"
fi

# natsbench MODE N: appends "natsbench-MODE msgs/s µs/msg".
natsbench() {
	local mode=$1 n=$2 batch=
	[ "$mode" = async ] && batch="--batch 500"
	# shellcheck disable=SC2086
	/usr/bin/time -f "%U %S" -o "$work/time" "$NATS" bench js pub "$mode" "nb.0" --server "$nurl" --stream "nb-0" --purge \
		--replicas 1 --storage file --clients 4 --msgs "$n" --size 2048 --no-progress $batch >"$work/nb.txt" 2>&1 || { tail -5 "$work/nb.txt" >&2; exit 1; }
	local rate
	rate=$(awk '/aggregated stats:/ {for (i = 1; i < NF; i++) if ($(i+1) == "msgs/sec") {gsub(",", "", $i); print $i}}' "$work/nb.txt" | tail -1)
	awk -v n="$n" -v rate="$rate" -v name="natsbench-$mode" '{printf "%s %s %.2f\n", name, rate, ($1 + $2) * 1e6 / n}' "$work/time" >>"$res"
}

# stampede_nats MODE N: appends "nats-MODE msgs/s µs/msg".
stampede_nats() {
	local mode=$1 n=$2 iters=$2
	[ "$mode" = async ] && iters=$((n / 500))
	/usr/bin/time -f "%U %S" -o "$work/time" "$work/stampede" run nats.Publish --target "$nurl" -u 4 -i "$iters" --nats-publish "$mode" \
		--nats-async-window 500 --nats-replicas 1 --nats-message-size 2048 --stream-prefix nb \
		--no-csv --no-report -q --out "$work/nout-$RANDOM$RANDOM" --summary-export "$work/s.json" >/dev/null 2>"$work/st.err" ||
		{ tail -5 "$work/st.err" >&2; exit 1; }
	local rate
	rate=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["metrics"]["messages"]; print(round(m["rate"]))' "$work/s.json")
	awk -v n="$n" -v rate="$rate" -v name="nats-$mode" '{printf "%s %s %.2f\n", name, rate, ($1 + $2) * 1e6 / n}' "$work/time" >>"$res"
}

if [ "$ONLY" != kafka ]; then
	command -v "$NATS" >/dev/null || { echo "no nats CLI: go install github.com/nats-io/natscli/nats@v0.5.0, or set NATS=path" >&2; exit 2; }
	"$work/stampede" nats serve --nodes 3 --data-dir "$work/ndata" >"$work/nserve.out" 2>"$work/nserve.err" &
	pids+=($!)
	for _ in $(seq 600); do [ -s "$work/nserve.out" ] && break; sleep 0.1; done
	nurl=$(head -1 "$work/nserve.out")
	[ -n "$nurl" ] || { cat "$work/nserve.err" >&2; exit 1; }
	echo "nats cluster: $nurl; $($NATS --version 2>&1 | head -1)"
	"$work/stampede" run nats.Publish --target "$nurl" -u 1 -i 1 --nats-replicas 1 --stream-prefix nb --no-csv --no-report -q --out "$work/nwarm" >/dev/null
	for r in $(seq "$ROUNDS"); do
		for mode in async sync; do
			n=$N_ASYNC
			[ $mode = sync ] && n=$N_SYNC
			for tool in $(rotate "$r" stampede natsbench); do
				if [ "$tool" = stampede ]; then stampede_nats "$mode" "$n"; else natsbench "$mode" "$n"; fi
				echo "round $r: $(tail -1 "$res") (load $(cut -d' ' -f1 /proc/loadavg))"
			done
		done
	done
fi

echo
echo "medians [ranges] over $ROUNDS rounds; load average after $(cut -d' ' -f1-3 /proc/loadavg)"
summary() { # TOOL: "median msgs/s [lo–hi]  median µs/msg [lo–hi]"
	grep "^$1 " "$res" | awk '
		{ r[NR] = $2; c[NR] = $3 }
		function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }; return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		END { if (NR == 0) exit; mr = med(r, NR); mc = med(c, NR); printf "%.0f %.0f %.0f %.2f %.2f %.2f\n", mr, r[1], r[NR], mc, c[1], c[NR] }'
}
line() { # TOOL PEER
	local a b
	a=($(summary "$1"))
	b=($(summary "$2"))
	if [ ${#a[@]} -eq 0 ] || [ ${#b[@]} -eq 0 ]; then return 0; fi
	printf "%-14s %9s msgs/s [%s–%s]  %6s µs/msg [%s–%s]   vs %-15s msgs/s %5.2fx, CPU/msg %5.2fx\n" "$1" "${a[0]}" "${a[1]}" "${a[2]}" "${a[3]}" "${a[4]}" "${a[5]}" \
		"$2" "$(echo "${a[0]} / ${b[0]}" | bc -l)" "$(echo "${a[3]} / ${b[3]}" | bc -l)"
}
for t in kcat natsbench-async natsbench-sync; do
	s=($(summary "$t"))
	if [ ${#s[@]} -gt 0 ]; then
		printf "%-14s %9s msgs/s [%s–%s]  %6s µs/msg [%s–%s]\n" "$t" "${s[0]}" "${s[1]}" "${s[2]}" "${s[3]}" "${s[4]}" "${s[5]}"
	fi
done
line kafka-one kcat
line kafka-window kcat
line nats-async natsbench-async
line nats-sync natsbench-sync
if [ -n "${read_cost:-}" ]; then echo "(kcat's CPU includes reading its input from /dev/shm: $read_cost µs/msg)"; fi
exit 0
