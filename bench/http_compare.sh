#!/usr/bin/env bash
# HTTP GET on loopback: stampede vs wrk vs vegeta against bench/httptarget.
# The target is pinned to CPU 1 and every load generator to CPU 0, with 50
# connections/VUs, so the figures compare generators, not targets. Rounds
# interleave the tools (noisy machines: compare within a round).
#
#   bench/http_compare.sh [SECONDS=10] [ROUNDS=3]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
rounds=${2:-3}
port=18181
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT

command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
go build -o "$tmp/stampede" ./cmd/stampede
go build -o "$tmp/httptarget" ./bench/httptarget
GOBIN="$tmp" go install github.com/tsenart/vegeta/v12@v12.13.0

taskset -c 1 "$tmp/httptarget" -addr 127.0.0.1:$port 2>/dev/null &
sleep 0.5
url=http://127.0.0.1:$port/

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; ${secs}s per tool, 50 connections, generator on CPU 0, target on CPU 1"
rate() { # requests per second of a result dir
	python3 - "$1/snapshot.json" <<'PY'
import json, sys
from datetime import datetime
sc = json.load(open(sys.argv[1]))["scenarios"][0]
t = lambda x: datetime.fromisoformat(x.replace("Z", "+00:00"))
print(round(sc["counters"]["requests"] / (t(sc["end"]) - t(sc["start"])).total_seconds()))
PY
}
printf '%-6s %12s %12s %12s %14s\n' round wrk vegeta stampede stampede+csv
for r in $(seq "$rounds"); do
	w=$(taskset -c 0 wrk -t1 -c50 -d"${secs}s" "$url" | awk '/Requests\/sec/ {printf "%.0f", $2}')
	v=$(echo "GET $url" | taskset -c 0 "$tmp/vegeta" attack -rate=0 -max-workers=50 -workers=50 -duration="${secs}s" -keepalive=true |
		"$tmp/vegeta" report -type=json | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["throughput"]))')
	taskset -c 0 "$tmp/stampede" run http.Request --target "$url" -u 50 -d "${secs}s" --no-csv --no-report --quiet --out "$tmp/s$r" >/dev/null
	taskset -c 0 "$tmp/stampede" run http.Request --target "$url" -u 50 -d "${secs}s" --no-report --quiet --out "$tmp/c$r" >/dev/null
	printf '%-6s %12s %12s %12s %14s\n' "$r" "$w" "$v" "$(rate "$tmp/s$r")" "$(rate "$tmp/c$r")"
done
