#!/usr/bin/env bash
# Speed of `stampede merge`: 100 result directories of 5 scenarios each,
# with 10 s and with 60 s of per-second series (500 responses per second
# per scenario, 1 in 50 in a long tail), merged exactly. The directories
# are written once per benchmark; only Merge is timed (load, merge, write).
#
#   bench/merge.sh [RUNS=3]
set -euo pipefail
cd "$(dirname "$0")/.."
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
go test ./internal/analysis/merge/ -run XXX -bench 'Merge100' -benchtime "${1:-3}x" -benchmem | grep -E '^Benchmark|^ok'
