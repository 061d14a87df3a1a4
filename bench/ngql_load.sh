#!/usr/bin/env bash
# ngql_load.sh — speed of `stampede load` into NebulaGraph (package
# ngqlload, issue #19): the full LDBC network of one data set loaded into
# a stand-in graphd (package nebulatest, NOT a NebulaGraph server) that
# runs in another process, and, in the same round, a dry run of the same
# statements to io.Discard (reading, checking and formatting only: the
# client's floor). Prints rows/s, the client's CPU per row (getrusage of
# the loading process), the stand-in's CPU per row (its process) and the
# client's peak RSS and the stand-in's.
#
# Usage: bench/ngql_load.sh [ROUNDS] [SF]
#   ROUNDS  default 3
#   SF      scale factor generated into a temporary directory (default 0.1)
set -euo pipefail
ROUNDS=${1:-3}
SF=${2:-0.1}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/stampede" ./cmd/stampede
go test -c -o "$tmp/ngqlload.test" ./internal/workload/graph/ngqlload
"$tmp/stampede" gen ldbc --sf "$SF" --out "$tmp/data" --quiet | grep -E 'total rows|persons'
echo "commit $(git rev-parse --short HEAD)  $(nproc) cores  SF $SF"
cd internal/workload/graph/ngqlload
for r in $(seq "$ROUNDS"); do
	echo "round $r: load average $(cut -d' ' -f1-3 /proc/loadavg)"
	STAMPEDE_NGQLLOAD_SPEED_DATA="$tmp/data" "$tmp/ngqlload.test" -test.run '^TestLoadSpeed$' | grep -E 'rows/s|RSS|FAIL'
done
