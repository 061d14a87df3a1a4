#!/usr/bin/env bash
# The engine's no-op iteration for two engine test binaries (e.g. before
# and after a change: go test -c -o OLD.test ./internal/engine in each
# tree), rounds interleaved, the order alternating between rounds. Prints
# per round the load average, the benchmark's wall ns/op and the process's
# CPU time (user+system) per iteration, which other work on a shared
# machine disturbs far less than wall time, and allocs/op.
#
#   bench/engine_ab.sh OLD.test NEW.test [ROUNDS=10] [ITERATIONS=2000000]
set -euo pipefail
old=$(realpath "$1") new=$(realpath "$2") rounds=${3:-10} n=${4:-2000000}
cd "$(dirname "$0")/../internal/engine"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for r in $(seq "$rounds"); do
	if ((r % 2)); then order="old new"; else order="new old"; fi
	for v in $order; do
		bin=$old
		[[ $v == new ]] && bin=$new
		load=$(cut -d' ' -f1-3 /proc/loadavg)
		out=$(/usr/bin/time -f '%U %S' -o "$tmp" "$bin" -test.run '^$' -test.bench 'NoopIteration$' \
			-test.benchmem -test.cpu 2 -test.benchtime="${n}x" | grep '^Benchmark')
		read -r u s <"$tmp"
		wall=$(awk '{for (i = 1; i < NF; i++) if ($(i+1) == "ns/op") print $i}' <<<"$out")
		allocs=$(awk '{for (i = 1; i < NF; i++) if ($(i+1) == "allocs/op") print $i}' <<<"$out")
		cpu=$(awk -v u="$u" -v s="$s" -v n="$n" 'BEGIN { printf "%.0f", (u + s) * 1e9 / n }')
		echo "round $r $v load $load wall $wall ns/op cpu $cpu ns/op $allocs allocs/op"
	done
done
