#!/usr/bin/env bash
# A VU sweep that must find a knee: bench/httptarget pinned to one core
# hashes for ~1 ms per request (GET /work?n=5000), the generator runs on the
# other core; 1, 2, 4, 8, 16 VUs for 5 s each. The target saturates at one
# core, so throughput stops growing while p99 climbs.
#
#   bench/sweep.sh [VUS=1,2,4,8,16] [DURATION=5s]
set -euo pipefail
cd "$(dirname "$0")/.."
vus=${1:-1,2,4,8,16}
dur=${2:-5s}
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/stampede" ./cmd/stampede
go build -o "$tmp/httptarget" ./bench/httptarget
port=$((20000 + RANDOM % 20000))
taskset -c 1 "$tmp/httptarget" -addr 127.0.0.1:$port 2>/dev/null &
sleep 0.5
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; target on CPU 1, generator on CPU 0"
taskset -c 0 "$tmp/stampede" sweep http.Request --target "http://127.0.0.1:$port/work?n=5000" \
  --vus "$vus" -d "$dur" --no-csv --quiet --out "$tmp/sweep" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
cat "$tmp/sweep/sweep.txt"
