#!/usr/bin/env bash
# bench/pg_timeout_ab.sh — the PostgreSQL driver's Do against a bare pgx
# loop, go.Go1Step's SQL on a generated LDBC-shaped knows table
# (internal/driver/postgres/go1step_bench_test.go), the client's CPU per
# query from the kernel's accounting (getrusage of the test process, every
# thread: cpu-ns/op; the server's CPU is not in it).
#
#   STAMPEDE_TEST_POSTGRES=postgres://... bench/pg_timeout_ab.sh [ROUNDS] [QUERIES]   # default 7 5000
#
# Each round runs the three benchmarks in a rotated order, one process
# each: Do (timeout 60 s, cancellable run context), BareTimeout (the same
# timeout semantics: context.WithTimeout per query) and Bare (no timeout,
# a context that cannot end: the floor). Prints per-round ratios, medians
# and ranges.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-7}
N=${2:-5000}
[ "$ROUNDS" -ge 5 ] || { echo "pg_timeout_ab.sh: need at least 5 rounds" >&2; exit 2; }
WORK=${WORK:-$(mktemp -d)}
[ -n "${STAMPEDE_TEST_POSTGRES:-}" ] || { echo "pg_timeout_ab.sh: set STAMPEDE_TEST_POSTGRES to a database of your own (see scripts/postgres-for-tests.sh)" >&2; exit 2; }
BIN=$WORK/postgres.test
go test -c -o "$BIN" ./internal/driver/postgres

echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
names=(Do BareTimeout Bare)
declare -A all
for r in $(seq 1 "$ROUNDS"); do
	line="round $r:"
	for k in 0 1 2; do
		name=${names[$(((k + r) % 3))]}
		v=$(cd "$WORK" && "$BIN" -test.run '^$' -test.bench "^BenchmarkGo1Step${name}\$" -test.benchtime "${N}x" |
			awk '/cpu-ns\/op/ {for (i = 1; i < NF; i++) if ($(i+1) == "cpu-ns/op") print $i}')
		all[$name,$r]=$v
		line+=" $name ${v}ns"
	done
	echo "$line"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# median and range of a list of numbers
stats() { sort -g | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2; printf "median %.3f [%.3f-%.3f]", m, a[1], a[NR]}'; }
for name in "${names[@]}"; do
	echo "$name cpu-ns/query: $(for r in $(seq 1 "$ROUNDS"); do echo "${all[$name,$r]}"; done | stats)"
done
echo "Do / BareTimeout per round: $(for r in $(seq 1 "$ROUNDS"); do echo "${all[Do,$r]} ${all[BareTimeout,$r]}" | awk '{print $1/$2}'; done | stats)"
echo "Do / Bare per round:        $(for r in $(seq 1 "$ROUNDS"); do echo "${all[Do,$r]} ${all[Bare,$r]}" | awk '{print $1/$2}'; done | stats)"
