#!/usr/bin/env bash
# k6_vs_stampede.sh: the same k6 script under k6 and under `stampede run`,
# rounds alternated, iterations per second from each tool's own
# --summary-export (iterations.rate), medians and ranges, plus peak RSS
# (/usr/bin/time). k6 is a peer for measuring, never a dependency: pass its
# binary as K6=/path/to/k6 (built with `go install go.k6.io/k6@v1.8.1`).
#
#   K6=/tmp/k6/bin/k6 ROUNDS=5 bash bench/k6_vs_stampede.sh [SCRIPT.js]
set -euo pipefail
cd "$(dirname "$0")/.."
K6=${K6:?set K6 to a k6 binary (go install go.k6.io/k6@v1.8.1)}
ROUNDS=${ROUNDS:-5}
SCRIPT=${1:-bench/k6scripts/empty.js}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/stampede" ./cmd/stampede
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), cores: $(nproc)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "k6: $("$K6" version | head -1); script: $SCRIPT"
rate() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["metrics"]["iterations"]["rate"])' "$1"; }
rss() { awk '/Maximum resident/ {print $NF}' "$1"; }
: > "$work/k6.txt"; : > "$work/st.txt"
for i in $(seq 1 "$ROUNDS"); do
	/usr/bin/time -v "$K6" run -q --no-usage-report --summary-export "$work/k6-$i.json" "$SCRIPT" >/dev/null 2>"$work/k6-$i.time"
	echo "$(rate "$work/k6-$i.json") $(rss "$work/k6-$i.time")" >> "$work/k6.txt"
	/usr/bin/time -v "$work/stampede" run "$SCRIPT" -q --no-summary --no-report --no-csv --out "$work/st-$i" --summary-export "$work/st-$i.json" >/dev/null 2>"$work/st-$i.time"
	echo "$(rate "$work/st-$i.json") $(rss "$work/st-$i.time")" >> "$work/st.txt"
	echo "round $i: k6 $(tail -1 "$work/k6.txt")  stampede $(tail -1 "$work/st.txt")  (it/s, peak RSS KiB)"
done
python3 - "$work/k6.txt" "$work/st.txt" <<'PY'
import statistics as s, sys
def col(p, i): return [float(l.split()[i]) for l in open(p) if l.strip()]
k, t = sys.argv[1], sys.argv[2]
for name, i in (("iterations/s", 0), ("peak RSS KiB", 1)):
    a, b = col(k, i), col(t, i)
    print(f"{name}: k6 median {s.median(a):.0f} [{min(a):.0f}..{max(a):.0f}]  stampede median {s.median(b):.0f} [{min(b):.0f}..{max(b):.0f}]  ratio stampede/k6 {s.median(b)/s.median(a):.2f}")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
