#!/usr/bin/env bash
# kafka_vs_kcat.sh — client cost of stampede's kafka.Produce against kcat
# (librdkafka), producing the same 2 KB messages with acks=1 to the same
# embedded cluster (stampede kafka serve), alternating, ROUNDS times.
#
# For each tool and round it reports msgs/s (messages / process wall time,
# start-up included for both) and the client's CPU µs per message
# (user+sys of the client process / messages), plus the broker's CPU µs per
# message over the same interval. Medians at the end.
#
# Usage: bench/kafka_vs_kcat.sh [N_MESSAGES] [ROUNDS]
#   env STAMPEDE_ARGS   extra args for stampede run (default: -u 64 --linger 5ms)
#       K               messages per iteration (default 100: 64 VUs × 100 =
#                       6400 in flight; librdkafka queues up to 100000)
#       STAMPEDE_ARGS_B a second stampede configuration measured in the same
#                       rounds (tool "stampede-b"), e.g. one message per
#                       iteration: "-u 1024 --linger 5ms" with K=1
#       KCAT_ARGS       extra args for kcat (default: none: librdkafka defaults)
#       BROKERS         embedded brokers (default 3)
#       STORE=1         store records (default: the cluster discards them,
#                       --blackhole, so that the broker's memory stays flat)
set -euo pipefail
N=${1:-200000}
ROUNDS=${2:-5}
BROKERS=${BROKERS:-3}
STAMPEDE_ARGS=${STAMPEDE_ARGS:--u 64 --linger 5ms}
K=${K:-100}
[ $((N % K)) = 0 ] || { echo "N_MESSAGES ($N) must be a multiple of K ($K)" >&2; exit 2; }
KCAT_ARGS=${KCAT_ARGS:-}
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/kafka_vs_kcat.XXXXXX)
trap 'kill "${serve_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

if ! command -v kcat >/dev/null; then
	echo "installing kcat (Debian package kcat)..." >&2
	if [ "$(id -u)" = 0 ]; then apt-get install -y kcat >/dev/null; else sudo apt-get install -y kcat >/dev/null; fi
fi
go build -o "$work/stampede" ./cmd/stampede

blackhole=--blackhole
[ "${STORE:-0}" = 1 ] && blackhole=
"$work/stampede" kafka serve --brokers "$BROKERS" $blackhole >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
for _ in $(seq 50); do [ -s "$work/serve.out" ] && break; sleep 0.1; done
url=$(head -1 "$work/serve.out")
brokers=${url#kafka://}
echo "cluster: $url ($(cat "$work/serve.err"))"

# The same N messages for both: 2048 printable bytes each. kcat reads them
# one per line; stampede generates random bytes of the same size.
head -c $((N * 1536)) /dev/urandom | base64 -w 2048 >"$work/msgs.txt"

# stampede creates the topic (1 partition, RF 1: the high-throughput
# profile); kcat then produces to it.
"$work/stampede" run kafka.Produce --target "$url" -i 1 -u 1 --topic-prefix bench --no-csv --out "$work/warm" -q >/dev/null

clk=$(getconf CLK_TCK)
cpu_of() { awk '{print $14 + $15}' "/proc/$1/stat"; } # utime+stime ticks

# measure NAME CMD...: runs CMD, prints "name msgs/s client_us/msg broker_us/msg"
measure() {
	local name=$1
	shift
	local b0 t0 t1 b1
	b0=$(cpu_of "$serve_pid")
	t0=$(date +%s.%N)
	TIMEFORMAT='%U %S'
	local cpu
	cpu=$( { time "$@" >/dev/null 2>"$work/err.txt"; } 2>&1 )
	t1=$(date +%s.%N)
	b1=$(cpu_of "$serve_pid")
	if [ -s "$work/err.txt" ] && grep -qi 'error\|fail' "$work/err.txt"; then
		echo "$name failed:" >&2
		cat "$work/err.txt" >&2
		exit 1
	fi
	awk -v n="$N" -v t0="$t0" -v t1="$t1" -v cpu="$cpu" -v b0="$b0" -v b1="$b1" -v clk="$clk" -v name="$name" 'BEGIN {
		split(cpu, c, " ");
		printf "%-9s %9.0f msgs/s  client %5.2f µs/msg  broker %5.2f µs/msg\n", name, n / (t1 - t0), (c[1] + c[2]) * 1e6 / n, (b1 - b0) / clk * 1e6 / n
	}'
}

results="$work/results.txt"
for r in $(seq "$ROUNDS"); do
	rm -rf "$work/run"
	# shellcheck disable=SC2086
	measure stampede "$work/stampede" run kafka.Produce --target "$url" -i $((N / K)) --messages-per-iteration "$K" \
		--topic-prefix bench --acks 1 --no-csv --no-report -q --out "$work/run" $STAMPEDE_ARGS | tee -a "$results"
	if [ -n "${STAMPEDE_ARGS_B:-}" ]; then
		rm -rf "$work/run"
		# shellcheck disable=SC2086
		measure stampede-b "$work/stampede" run kafka.Produce --target "$url" -i $((N / K)) --messages-per-iteration "$K" \
			--topic-prefix bench --acks 1 --no-csv --no-report -q --out "$work/run" $STAMPEDE_ARGS_B | tee -a "$results"
	fi
	# shellcheck disable=SC2086
	measure kcat kcat -P -b "$brokers" -t bench-0 -X acks=1 -l "$work/msgs.txt" $KCAT_ARGS | tee -a "$results"
done

# Every message arrived: the partition's end offset counts both tools.
tools=2
[ -n "${STAMPEDE_ARGS_B:-}" ] && tools=3
want=$((1 + tools * ROUNDS * N))
got=$(kcat -Q -b "$brokers" -t bench-0:0:-1 | awk '{print $NF}')
[ "$got" = "$want" ] || { echo "end offset $got, want $want: messages were lost" >&2; exit 1; }

echo
echo "medians over $ROUNDS rounds of $N messages (2048 B, acks=1, $BROKERS brokers, stampede: $STAMPEDE_ARGS --messages-per-iteration $K${STAMPEDE_ARGS_B:+; stampede-b: $STAMPEDE_ARGS_B}), load average $(cut -d' ' -f1-3 /proc/loadavg):"
for tool in stampede ${STAMPEDE_ARGS_B:+stampede-b} kcat; do
	grep "^$tool " "$results" | awk -v tool="$tool" '
		{ r[NR] = $2; c[NR] = $5; b[NR] = $8 }
		function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }; return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		END { printf "%-9s %9.0f msgs/s  client %5.2f µs/msg  broker %5.2f µs/msg\n", tool, med(r, NR), med(c, NR), med(b, NR) }'
done

# Many topics: 200 topics × 1 producer each on the embedded cluster (in
# process, records kept), 200 VUs for 10 s. It must run without errors and
# the summary must be out within 2 s after the run ends.
if [ "${MANY_TOPICS:-1}" = 1 ]; then
	echo
	rm -rf "$work/many"
	"$work/stampede" run kafka.Produce --topics 200 --producers 1 -u 200 -d 10s --no-csv --no-report \
		--out "$work/many" >"$work/many.txt" 2>&1
	done_at=$(date +%s.%N)
	python3 - "$work/many/snapshot.json" "$done_at" <<'PY'
import json, sys, datetime
snap = json.load(open(sys.argv[1]))
sc = snap["scenarios"][0]
end = datetime.datetime.fromisoformat(sc["end"].replace("Z", "+00:00")).timestamp()
start = datetime.datetime.fromisoformat(sc["start"].replace("Z", "+00:00")).timestamp()
c = sc["counters"]
after = float(sys.argv[2]) - end
print(f"200 topics × 1 producer, 200 VUs, 10 s: {c['messages']} messages, {c['messages'] / (end - start):.0f} msgs/s, "
      f"errors {c.get('errors', 0)}, summary and exit {after:.2f} s after the run ended")
sys.exit(0 if c.get("errors", 0) == 0 and after < 2 else 1)
PY
	grep -E 'per topic|topic_msgs_per_s' -A2 "$work/many.txt" | head -6
fi
