#!/usr/bin/env bash
# Local proof of distributed runs: the same workload as 1 process and as N
# `--segment i/N` processes with a common --start-at, against
# bench/httptarget (GET /work?n=200, ~0.1 ms of hashing) on loopback, then
# `stampede merge`. Prints both totals (they must be equal: shared
# iterations are split exactly) and the merged p50/p95/p99 next to the exact
# percentiles of every logged request (they must agree within HDR's 3
# significant digits), plus a constant-arrival-rate run (total within 1%).
#
#   bench/segments.sh [N=4] [ITERATIONS=20000]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-4}
iters=${2:-20000}
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/stampede" ./cmd/stampede
go build -o "$tmp/httptarget" ./bench/httptarget
port=$((20000 + RANDOM % 20000))
"$tmp/httptarget" -addr 127.0.0.1:$port 2>/dev/null &
sleep 0.5
url="http://127.0.0.1:$port/work?n=200"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; $n segments, $iters shared iterations, 16 VUs"

work=(run http.Request --target "$url" -u 16 --no-report --quiet)
"$tmp/stampede" "${work[@]}" -i "$iters" --out "$tmp/whole" >/dev/null
start=$(date -u -d '+3 sec' +%Y-%m-%dT%H:%M:%SZ)
for i in $(seq 1 "$n"); do
  "$tmp/stampede" "${work[@]}" -i "$iters" --segment "$i/$n" --start-at "$start" --out "$tmp/seg/$i" >/dev/null &
done
wait $(jobs -p | tail -n "$n")
t0=$(date +%s.%N)
"$tmp/stampede" merge "$tmp/seg" -o "$tmp/merged" --quiet
t1=$(date +%s.%N)

# Open model: 2000 it/s for 5 s as one process and as N segments.
"$tmp/stampede" "${work[@]}" --rate 2000 -d 5s --no-csv --out "$tmp/rate-whole" >/dev/null
start=$(date -u -d '+3 sec' +%Y-%m-%dT%H:%M:%SZ)
for i in $(seq 1 "$n"); do
  "$tmp/stampede" "${work[@]}" --rate 2000 -d 5s --no-csv --segment "$i/$n" --start-at "$start" --out "$tmp/rate-seg/$i" >/dev/null &
done
wait $(jobs -p | tail -n "$n")
"$tmp/stampede" merge "$tmp/rate-seg" -o "$tmp/rate-merged" --quiet

python3 - "$tmp" "$n" "$(echo "$t1 - $t0" | bc)" <<'PY'
import csv, glob, json, math, sys
tmp, n, merge_s = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
def sc(d): return json.load(open(f"{tmp}/{d}/snapshot.json"))["scenarios"][0]
whole, merged = sc("whole"), sc("merged")
print(f"iterations: 1 process {whole['counters']['iterations']}, {n} segments merged {merged['counters']['iterations']}")
print(f"requests:   1 process {whole['counters']['requests']}, {n} segments merged {merged['counters']['requests']}")
rts = []
for f in glob.glob(f"{tmp}/seg/*/requests.csv"):
    with open(f) as fh:
        rts += [int(r["responseTime"]) for r in csv.DictReader(fh)]
rts.sort()
summ = json.load(open(f"{tmp}/merged/summary.json"))["metrics"]["responseTime"]
whole_summ = json.load(open(f"{tmp}/whole/summary.json"))["metrics"]["responseTime"]
for q, key in ((50, "med"), (95, "p(95)"), (99, "p(99)")):
    exact = rts[math.ceil(q / 100 * len(rts)) - 1] / 1000
    print(f"p{q}: merged {summ[key]:.3f} ms, exact over {len(rts)} logged requests {exact:.3f} ms, 1 process {whole_summ[key]:.3f} ms")
print(f"merge of {n} dirs: {merge_s:.2f} s")
rw, rm = sc("rate-whole"), sc("rate-merged")
a, b = rw["counters"]["iterations"] + rw["counters"].get("dropped_iterations", 0), rm["counters"]["iterations"] + rm["counters"].get("dropped_iterations", 0)
print(f"2000 it/s × 5 s: 1 process {a} scheduled, {n} segments {b} ({100*(b-a)/a:+.2f}%)")
PY
