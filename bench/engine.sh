#!/usr/bin/env bash
# The engine's own cost, whole program: builtin.Noop (an operation that does
# nothing, fully recorded) with 50 VUs pinned to one core, and the memory of
# 100,000 idle VUs (builtin.Sleep) from the peak RSS.
#
#   bench/engine.sh [SECONDS=10]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/stampede" ./cmd/stampede
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs"

taskset -c 0 "$tmp/stampede" run builtin.Noop -u 50 -d "${secs}s" --no-csv --no-report --quiet --out "$tmp/noop" >/dev/null
python3 - "$tmp/noop/snapshot.json" <<'PY'
import json, sys
from datetime import datetime
sc = json.load(open(sys.argv[1]))["scenarios"][0]
t = lambda x: datetime.fromisoformat(x.replace("Z", "+00:00"))
print("builtin.Noop, 50 VUs, 1 core: %.2f M iterations/s" % (sc["counters"]["iterations"] / (t(sc["end"]) - t(sc["start"])).total_seconds() / 1e6))
PY

/usr/bin/time -f "%M" -o "$tmp/rss" "$tmp/stampede" run builtin.Sleep -u 100000 -d 15s --sleep 5s --no-csv --no-report --quiet --out "$tmp/idle" >/dev/null
base=$(/usr/bin/time -f "%M" "$tmp/stampede" version 2>&1 >/dev/null | tail -1)
python3 -c "import sys; rss,base=int(sys.argv[1]),int(sys.argv[2]); print('100,000 idle VUs: peak RSS %d MiB, %.1f KB per VU' % (rss/1024, (rss-base)*1024/100000/1000))" "$(cat "$tmp/rss")" "$base"
