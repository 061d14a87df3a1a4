#!/usr/bin/env bash
# msg_vs_peers.sh — stampede's messaging clients against their peers on the
# same broker, the tools alternated round by round (the order rotates every
# round, so no tool always runs first or last on a warming machine):
#
#   kafka: kafka.Produce one message per iteration (-u 1024 --linger 5ms),
#          kafka.Produce --produce-window 1024 (-u 16 --linger 5ms: 16,384
#          in flight; -u 64, 65,536 in flight, cost more CPU per message in
#          alternated probes), kcat (librdkafka defaults: linger 5 ms,
#          up to 100,000 queued) and kcat-1024 (at most 1,024 queued:
#          -X queue.buffering.max.messages=1024, the in-flight depth of
#          the one-per-iteration mode), N_KAFKA 2048-byte messages each,
#          acks=1, to one topic (1 partition) of `stampede kafka serve
#          --brokers 3 --blackhole`;
#          at the end the partition's end offset must count every message;
#   nats:  nats.Publish async (window 500) and sync, and `nats bench js pub
#          async --batch 500` / `sync`, 4 clients, 2048-byte messages, to
#          one file stream (REPLICAS, default 1) of `stampede nats serve`;
#          both tools empty the stream before each run (nats bench
#          --purge, stampede --nats-purge), so neither writes after the
#          other's data.
#
# With 2 or more cores the broker runs on CPU 1 and every client on CPU 0
# (taskset), so a client and the broker do not share a core.
#
# Client CPU is user+sys of the client's process tree, from /proc: the
# client runs under a bash that waited for it, and that bash's cutime +
# cstime (/proc/self/stat) are the client's (every thread, and any child
# it waited for), in clock ticks (10 ms). Broker CPU is the serving
# process tree's utime+stime over the same interval. msgs/s is messages /
# the client process's wall time (start-up included) for every tool, so
# that one yardstick measures all; for nats the tools' own figures (nats
# bench's "aggregated stats", stampede's messages rate from its summary
# export) are printed as well.
#
# kcat reads its messages from a file in /dev/shm (memory). What reading it
# costs (cat of the same file, measured the same way) is printed, and kcat's
# CPU per message is given both with it (kcat as run) and without it.
#
# Every line of the summary gives the median and [range] over the rounds,
# and the ratio of the medians to the peer's.
#
# Usage: bench/msg_vs_peers.sh [ROUNDS]      (default 5)
#   env N_KAFKA   messages per kafka run (default 200000)
#       N_ASYNC   messages per nats async run (default 200000)
#       N_SYNC    messages per nats sync run (default 20000)
#       REPLICAS  replicas of the nats stream (default 1)
#       NATS      the nats CLI (default: nats in PATH; go install
#                 github.com/nats-io/natscli/nats@v0.5.0)
#       ONLY      kafka or nats (default: both)
set -euo pipefail
ROUNDS=${1:-5}
N_KAFKA=${N_KAFKA:-200000}
N_ASYNC=${N_ASYNC:-200000}
N_SYNC=${N_SYNC:-20000}
REPLICAS=${REPLICAS:-1}
NATS=${NATS:-nats}
ONLY=${ONLY:-}
[ "$ROUNDS" -ge 1 ] 2>/dev/null || { echo "ROUNDS must be a positive number" >&2; exit 2; }
if [ "$ONLY" != kafka ]; then
	command -v "$NATS" >/dev/null || { echo "no nats CLI: go install github.com/nats-io/natscli/nats@v0.5.0, or set NATS=path" >&2; exit 2; }
fi
if [ "$ONLY" != nats ]; then
	command -v kcat >/dev/null || { echo "no kcat (Debian package kcat)" >&2; exit 2; }
fi
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/msg_vs_peers.XXXXXX)
shm=$(mktemp -d /dev/shm/msg_vs_peers.XXXXXX)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$work" "$shm"' EXIT
go build -o "$work/stampede" ./cmd/stampede

client=() broker=()
if [ "$(nproc)" -ge 2 ]; then client=(taskset -c 0) broker=(taskset -c 1); fi
clk=$(getconf CLK_TCK)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load average before $(cut -d' ' -f1-3 /proc/loadavg)"
echo "pinning: ${broker[*]:-none} for the broker, ${client[*]:-none} for the clients; CPU from /proc in ticks of 1/$clk s"
echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (with uncommitted changes)')"

res="$work/results.txt"
: >"$res"

# tree PID: PID and its descendants (nats serve runs its nodes as children).
tree() {
	echo "$1"
	local c
	for c in $(pgrep -P "$1" || true); do tree "$c"; done
}
# ticks PID: CPU of PID's process tree in clock ticks: utime+stime of every
# live process, plus cutime+cstime (children that ended and were waited for).
ticks() {
	local p t=0 v
	for p in $(tree "$1"); do
		v=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$p/stat" 2>/dev/null || echo 0)
		t=$((t + v))
	done
	echo "$t"
}

# measure NAME N BROKER_PID CMD...: runs CMD (pinned to the client core)
# under a bash that waits for it and then reads its own /proc/PID/stat,
# whose fields 16 and 17 (cutime, cstime) are CMD's CPU; appends
# "NAME msgs/s client_µs/msg broker_µs/msg" to the results, msgs/s being
# N / CMD's wall time, and keeps CMD's stdout in $work/out.txt.
measure() {
	local name=$1 n=$2 bpid=$3
	shift 3
	local b0 b1 t0 t1
	b0=$(ticks "$bpid")
	t0=$(date +%s.%N)
	if ! OUT="$work/out.txt" ERR="$work/err.txt" STAT="$work/stat" \
		bash -c '"$@" >"$OUT" 2>"$ERR"; rc=$?; read -r l </proc/$$/stat; echo "$l" >"$STAT"; exit $rc' _ "${client[@]}" "$@"; then
		echo "$name failed:" >&2
		tail -n 5 "$work/out.txt" "$work/err.txt" >&2
		exit 1
	fi
	t1=$(date +%s.%N)
	b1=$(ticks "$bpid")
	# Fields after the command name (which is "(bash)": no spaces).
	awk -v n="$n" -v clk="$clk" -v t0="$t0" -v t1="$t1" -v b0="$b0" -v b1="$b1" -v name="$name" \
		'{printf "%s %.0f %.3f %.3f\n", name, n / (t1 - t0), ($16 + $17) / clk * 1e6 / n, (b1 - b0) / clk * 1e6 / n}' "$work/stat" >>"$res"
}

# rotate R WORDS...: the words rotated left by R.
rotate() {
	local r=$1
	shift
	local a=("$@") n=$#
	for i in $(seq 0 $((n - 1))); do echo -n "${a[$(((i + r) % n))]} "; done
}

# show R: the last result line with the load average.
show() { echo "round $1: $(tail -1 "$res")  (load $(cut -d' ' -f1 /proc/loadavg))"; }

if [ "$ONLY" != nats ]; then
	"${broker[@]}" "$work/stampede" kafka serve --brokers 3 --blackhole >"$work/kserve.out" 2>"$work/kserve.err" &
	kpid=$!
	pids+=($kpid)
	for _ in $(seq 100); do [ -s "$work/kserve.out" ] && break; sleep 0.1; done
	kurl=$(head -1 "$work/kserve.out")
	[ -n "$kurl" ] || { cat "$work/kserve.err" >&2; exit 1; }
	brokers=${kurl#kafka://}
	echo "kafka cluster: $kurl (stampede kafka serve --brokers 3 --blackhole)"
	echo "kcat: $(kcat -V 2>&1 | grep -m1 -o 'Version [0-9.]*'), $(kcat -V 2>&1 | grep -m1 -o 'librdkafka [0-9.]*')"
	# 2048 printable bytes per message, one per line, in memory.
	head -c $((N_KAFKA * 1536)) /dev/urandom | base64 -w 2048 >"$shm/msgs.txt"
	measure cat-input "$N_KAFKA" "$kpid" bash -c 'cat "$0" >/dev/null' "$shm/msgs.txt"
	read_us=$(awk '{print $3}' "$res")
	: >"$res"
	echo "kcat input: $N_KAFKA lines in /dev/shm; reading them (cat) costs $read_us µs/msg of CPU"
	# stampede creates the topic (1 partition: without --partitions a
	# topic gets one per broker); every tool then writes it.
	"$work/stampede" run kafka.Produce --target "$kurl" -i 1 -u 1 --partitions 1 --topic-prefix bench --no-csv --no-report -q --out "$work/kwarm" >/dev/null
	common=(--target "$kurl" --partitions 1 --topic-prefix bench --acks 1 --no-csv --no-report -q --out "$work/krun")
	for r in $(seq "$ROUNDS"); do
		for tool in $(rotate "$r" kafka-one kafka-window kcat kcat-1024); do
			rm -rf "$work/krun"
			case $tool in
			kafka-one) measure "$tool" "$N_KAFKA" "$kpid" "$work/stampede" run kafka.Produce -i "$N_KAFKA" -u 1024 --linger 5ms "${common[@]}" ;;
			kafka-window) measure "$tool" "$N_KAFKA" "$kpid" "$work/stampede" run kafka.Produce -i "$N_KAFKA" -u 16 --produce-window 1024 --linger 5ms "${common[@]}" ;;
			kcat) measure "$tool" "$N_KAFKA" "$kpid" kcat -P -b "$brokers" -t bench-0 -X acks=1 -l "$shm/msgs.txt" ;;
			kcat-1024) measure "$tool" "$N_KAFKA" "$kpid" kcat -P -b "$brokers" -t bench-0 -X acks=1 -X queue.buffering.max.messages=1024 -l "$shm/msgs.txt" ;;
			esac
			show "$r"
		done
	done
	want=$((1 + 4 * ROUNDS * N_KAFKA))
	got=$(kcat -Q -b "$brokers" -t bench-0:0:-1 | awk '{print $NF}')
	[ "$got" = "$want" ] || { echo "end offset $got, want $want: messages were lost" >&2; exit 1; }
	echo "end offset of bench-0: $got = 1 + 4 tools × $ROUNDS rounds × $N_KAFKA (nothing lost)"
	rm -f "$shm/msgs.txt"
	kill "$kpid" 2>/dev/null || true
fi

# nats_run TOOL MODE N: one nats run; the tool's own msgs/s is appended.
nats_run() {
	local tool=$1 mode=$2 n=$3 rate
	if [ "$tool" = natsbench ]; then
		local batch=()
		[ "$mode" = async ] && batch=(--batch 500)
		measure "natsbench-$mode" "$n" "$npid" "$NATS" bench js pub "$mode" "nb.0" --server "$nurl" --stream "nb-0" --purge \
			--replicas "$REPLICAS" --storage file --clients 4 --msgs "$n" --size 2048 --no-progress "${batch[@]}"
		rate=$(awk '/aggregated stats:/ {for (i = 1; i < NF; i++) if ($(i+1) == "msgs/sec") {gsub(",", "", $i); print $i}}' "$work/out.txt" "$work/err.txt" | tail -1)
	else
		local iters=$n
		[ "$mode" = async ] && iters=$((n / 500))
		measure "nats-$mode" "$n" "$npid" "$work/stampede" run nats.Publish --target "$nurl" -u 4 -i "$iters" --nats-publish "$mode" --nats-purge \
			--nats-async-window 500 --nats-replicas "$REPLICAS" --nats-message-size 2048 --stream-prefix nb \
			--no-csv --no-report -q --out "$work/nout-$RANDOM$RANDOM" --summary-export "$work/s.json"
		rate=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["metrics"]["messages"]; print(round(m["rate"]))' "$work/s.json")
	fi
	[ -n "$rate" ] || { echo "$tool $mode: no msgs/s in its output" >&2; exit 1; }
	sed -i "\$s/\$/ $rate/" "$res"
}

if [ "$ONLY" != kafka ]; then
	"${broker[@]}" "$work/stampede" nats serve --nodes 3 --data-dir "$work/ndata" >"$work/nserve.out" 2>"$work/nserve.err" &
	npid=$!
	pids+=($npid)
	for _ in $(seq 600); do [ -s "$work/nserve.out" ] && break; sleep 0.1; done
	nurl=$(head -1 "$work/nserve.out")
	[ -n "$nurl" ] || { cat "$work/nserve.err" >&2; exit 1; }
	echo "nats cluster: $nurl (stampede nats serve --nodes 3, one process); $($NATS --version 2>&1 | head -1); stream R$REPLICAS"
	# stampede creates the stream nb-0; nats bench purges and reuses it.
	"$work/stampede" run nats.Publish --target "$nurl" -u 1 -i 1 --nats-replicas "$REPLICAS" --stream-prefix nb --no-csv --no-report -q --out "$work/nwarm" >/dev/null
	for r in $(seq "$ROUNDS"); do
		for mode in async sync; do
			n=$N_ASYNC
			[ $mode = sync ] && n=$N_SYNC
			for tool in $(rotate "$r" stampede natsbench); do
				nats_run "$tool" "$mode" "$n"
				show "$r"
			done
		done
	done
fi

echo
echo "medians [ranges] over $ROUNDS rounds; load average after $(cut -d' ' -f1-3 /proc/loadavg)"
# summary TOOL [MINUS]: "msgs/s lo hi cpu lo hi broker" (CPU less MINUS µs).
summary() {
	{ grep "^$1 " "$res" || true; } | awk -v minus="${2:-0}" '
		{ r[NR] = $2; c[NR] = $3 - minus; b[NR] = $4 }
		function sort(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } }
		function med(a, n) { return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		END { if (NR == 0) exit; sort(r, NR); sort(c, NR); sort(b, NR)
			printf "%.0f %.0f %.0f %.2f %.2f %.2f %.2f\n", med(r, NR), r[1], r[NR], med(c, NR), c[1], c[NR], med(b, NR) }'
}
# own TOOL: median and range of the tool's own msgs/s (column 5).
own() { { grep "^$1 " "$res" || true; } | awk '{print $5}' | sort -n | awk '{a[NR] = $1} END {if (NR) printf "%.0f [%s–%s]", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2, a[1], a[NR]}'; }
row() { # LABEL TOOL [MINUS]
	local s
	s=($(summary "$2" "${3:-0}"))
	[ ${#s[@]} -gt 0 ] || return 0
	printf "%-34s %8s msgs/s [%s–%s]  client %5s µs/msg [%s–%s]  broker %5s µs/msg\n" "$1" "${s[0]}" "${s[1]}" "${s[2]}" "${s[3]}" "${s[4]}" "${s[5]}" "${s[6]}"
}
ratio() { # LABEL TOOL PEER [PEER_MINUS]
	local a b
	a=($(summary "$2"))
	b=($(summary "$3" "${4:-0}"))
	if [ ${#a[@]} -eq 0 ] || [ ${#b[@]} -eq 0 ]; then return 0; fi
	printf "%-48s msgs/s %5.2fx   client CPU/msg %5.2fx\n" "$1" "$(echo "${a[0]} / ${b[0]}" | bc -l)" "$(echo "${a[3]} / ${b[3]}" | bc -l)"
}
row kcat kcat
[ -n "${read_us:-}" ] && row "kcat less its input ($read_us µs)" kcat "$read_us"
row "kcat, 1,024 queued" kcat-1024
row "kafka.Produce one per iteration" kafka-one
row "kafka.Produce --produce-window" kafka-window
row "nats bench async" natsbench-async
row "nats.Publish async" nats-async
row "nats bench sync" natsbench-sync
row "nats.Publish sync" nats-sync
echo
ratio "one per iteration / kcat" kafka-one kcat
[ -n "${read_us:-}" ] && ratio "one per iteration / kcat less its input" kafka-one kcat "$read_us"
ratio "one per iteration / kcat, 1,024 queued" kafka-one kcat-1024
ratio "--produce-window / kcat" kafka-window kcat
[ -n "${read_us:-}" ] && ratio "--produce-window / kcat less its input" kafka-window kcat "$read_us"
ratio "nats.Publish async / nats bench async" nats-async natsbench-async
ratio "nats.Publish sync / nats bench sync" nats-sync natsbench-sync
if grep -q '^nats' "$res"; then
	echo
	echo "nats msgs/s as each tool reports it: nats bench async $(own natsbench-async), nats.Publish async $(own nats-async);"
	echo "  nats bench sync $(own natsbench-sync), nats.Publish sync $(own nats-sync)"
fi
exit 0
