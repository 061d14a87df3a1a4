#!/usr/bin/env bash
# Reproducible whole-program timing of `stampede gen ldbc`.
#
#   bench/gen_ldbc.sh [SF ...]        default: 1 10   (e.g. bench/gen_ldbc.sh 1 10 100)
#
# Env: WORKERS (default: all CPUs), SEED (default 42), RUNS (default 3),
#      OUT (scratch directory, default a mktemp dir, removed at the end).
# Prints the machine, then per SF: wall seconds of each run, best/median,
# peak RSS (from /usr/bin/time -v when present), rows, rows/s and output size.
# Also checks that two runs with different worker counts give identical bytes.
set -euo pipefail

cd "$(dirname "$0")/.."
SFS=("$@")
[ ${#SFS[@]} -eq 0 ] && SFS=(1 10)
WORKERS=${WORKERS:-$(nproc)}
SEED=${SEED:-42}
RUNS=${RUNS:-3}
SCRATCH=${OUT:-$(mktemp -d -t stampede-gen-XXXXXX)}
trap 'rm -rf "$SCRATCH"' EXIT

BIN="$SCRATCH/stampede"
go build -o "$BIN" ./cmd/stampede

echo "## machine"
echo "cpu:     $(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)"
echo "cores:   $(nproc)"
echo "memory:  $(free -g 2>/dev/null | awk '/^Mem:/ {print $2 " GiB"}')"
echo "go:      $(go version | cut -d' ' -f3)"
echo "kernel:  $(uname -r)"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "workers: $WORKERS   seed: $SEED   runs: $RUNS"
echo

TIMEV=""
if /usr/bin/time -v true >/dev/null 2>&1; then TIMEV="/usr/bin/time -v"; fi

for sf in "${SFS[@]}"; do
	echo "## sf $sf"
	times=()
	for run in $(seq 1 "$RUNS"); do
		dir="$SCRATCH/sf$sf"
		rm -rf "$dir"
		start=$(date +%s.%N)
		if [ -n "$TIMEV" ]; then
			$TIMEV "$BIN" gen ldbc --sf "$sf" --out "$dir" --seed "$SEED" --workers "$WORKERS" --quiet \
				>"$SCRATCH/summary.txt" 2>"$SCRATCH/time.txt"
		else
			"$BIN" gen ldbc --sf "$sf" --out "$dir" --seed "$SEED" --workers "$WORKERS" --quiet >"$SCRATCH/summary.txt"
		fi
		end=$(date +%s.%N)
		t=$(echo "$end - $start" | bc -l)
		times+=("$t")
		rss=""
		[ -n "$TIMEV" ] && rss=$(awk -F: '/Maximum resident/ {gsub(/ /,"",$2); printf "%.0f MiB", $2/1024}' "$SCRATCH/time.txt")
		printf "run %d: %.2f s  peak RSS %s\n" "$run" "$t" "${rss:-n/a}"
	done
	rows=$(awk '/^total rows/ {print $3}' "$SCRATCH/summary.txt")
	knows=$(awk '/^knows/ {print $2}' "$SCRATCH/summary.txt")
	persons=$(awk '/^persons/ {print $2}' "$SCRATCH/summary.txt")
	sorted=$(printf "%s\n" "${times[@]}" | sort -g)
	best=$(echo "$sorted" | head -1)
	median=$(echo "$sorted" | sed -n "$(( (RUNS + 1) / 2 ))p")
	printf "best %.2f s, median %.2f s; persons %s, knows %s, rows %s (%.0f rows/s at best); size %s\n" \
		"$best" "$median" "$persons" "$knows" "$rows" "$(echo "$rows / $best" | bc -l)" "$(du -sh "$SCRATCH/sf$sf" | cut -f1)"
	# Determinism: one worker must give the same bytes.
	if [ "$WORKERS" != 1 ] && [ "${CHECK_DETERMINISM:-1}" = 1 ]; then
		"$BIN" gen ldbc --sf "$sf" --out "$SCRATCH/sf$sf-w1" --seed "$SEED" --workers 1 --quiet >/dev/null
		if diff -rq "$SCRATCH/sf$sf" "$SCRATCH/sf$sf-w1" >/dev/null; then
			echo "workers=$WORKERS and workers=1 outputs are byte-identical"
		else
			echo "ERROR: output differs between workers=$WORKERS and workers=1" >&2
			exit 1
		fi
		rm -rf "$SCRATCH/sf$sf-w1"
	fi
	rm -rf "$SCRATCH/sf$sf"
	echo
done
