#!/usr/bin/env bash
# bench/go1step.sh — go.Go1Step on the embedded SQLite target, LDBC SF1,
# 50 VUs, with stampede's own CPU profile (the target runs in the same
# process, so the profile splits the time between SQLite, database/sql,
# the engine, the metrics and the outputs).
#
#   bench/go1step.sh [DURATION] [VUS]     # default 30s 50
#
# The first run generates SF1 and loads it (kept in $WORK/data).
set -euo pipefail
cd "$(dirname "$0")/.."

DUR=${1:-30s}
VUS=${2:-50}
WORK=${WORK:-/tmp/stampede-bench-go1step}
BIN=$WORK/stampede
mkdir -p "$WORK"
go build -o "$BIN" ./cmd/stampede

# Warm the data set and the database (not measured).
rm -rf "$WORK/warm"
"$BIN" run go.Go1Step --sf 1 --data-dir "$WORK/data" -u 1 -d 1s --out "$WORK/warm" --no-report -q >/dev/null

for csv in on off; do
	out=$WORK/out-csv-$csv
	rm -rf "$out"
	extra=()
	[ "$csv" = off ] && extra=(--no-csv)
	"$BIN" run go.Go1Step --sf 1 --data-dir "$WORK/data" -u "$VUS" -d "$DUR" --out "$out" \
		--self-profile "$WORK/cpu-csv-$csv.pprof" --no-report -q "${extra[@]}" >"$WORK/summary-csv-$csv.txt"
	line=$(grep -E '^ +go.Go1Step ' "$WORK/summary-csv-$csv.txt" | tail -n 1)
	iters=$(grep -E '^ +iterations\.' "$WORK/summary-csv-$csv.txt" | head -n 1 | awk '{print $2}')
	cpu=$(go tool pprof -top "$WORK/cpu-csv-$csv.pprof" 2>/dev/null | sed -n 's/.*Total samples = \([0-9.]*\)s.*/\1/p')
	echo "== per-request CSV $csv: $line"
	echo "   $iters iterations, process CPU ${cpu}s: $(echo "1000000 * $cpu / $iters" | bc -l | xargs printf '%.1f') µs CPU per query (whole process: SQLite + generator)"
done
echo "   load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "   (columns: scenario, QPS, p50, p95, p99, errors)"

# Where the time goes, by package, for the run with the CSV (the default).
echo "== CPU by package (cumulative share of samples, csv on)"
go tool pprof -top -cum "$WORK/cpu-csv-on.pprof" 2>/dev/null |
	awk 'NR>6 {print}' | grep -E ' (modernc.org/sqlite|database/sql|github.com/stampede-bench/stampede/internal/(engine|metrics|output|workload/graph|driver/sqlite)|runtime\.gcBgMarkWorker|runtime\.mallocgc|syscall)' |
	grep -E '\.(\(\*conn\)\.query|\(\*Stmt\)\.QueryContext|\(\*Rows\)\.Next|\(\*runner\)\.iterate|\(\*Iter\)\.Request|\(\*goStepVU\)\.Iterate|\(\*Conn\)\.DoScan|gcBgMarkWorker|mallocgc)$|csv|Write' | head -20 || true
echo "profiles: $WORK/cpu-csv-on.pprof $WORK/cpu-csv-off.pprof (go tool pprof -http=: FILE)"
