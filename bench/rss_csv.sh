#!/usr/bin/env bash
# RSS of stampede over a long run with many slow VUs and the per-request
# CSV on (issue 25: it must stay flat within 10%).
#
#   bench/rss_csv.sh [DURATION] [VUS] [SLEEP]     (defaults: 10m 20000 1s)
#
# Builds the binary, runs builtin.Sleep (each VU: one request, then SLEEP)
# niced, under prlimit and timeout, samples VmRSS from /proc every 10 s,
# and prints the samples, the RSS after the first minute (the warm-up:
# VUs allocated, buffers sized), the last one and the growth between
# them, the peak after the warm-up, with the load average before/after
# and the CPU model. It ends with PASS (exit 0) when RSS grew by at most
# 5% from the first minute to the end and never rose more than 10% above
# it (issue 25: flat), FAIL (exit 1) otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
dur=${1:-10m} vus=${2:-20000} sleep=${3:-1s}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/stampede" ./cmd/stampede
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs), $(nproc) cores"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
secs=$(( $(date -d "1970-01-01 $(echo "$dur" | sed 's/m/ min/;s/s$/ sec/') UTC" +%s) ))
prlimit --as=8000000000 timeout --foreground -k 5 $((secs + 120)) nice -n 10 \
	"$tmp/stampede" run builtin.Sleep --sleep "$sleep" -u "$vus" -d "$dur" \
	--out "$tmp/r" --no-report -q >"$tmp/out" 2>"$tmp/err" &
pid=$!
# the stampede process itself (prlimit and timeout exec or fork it)
for _ in $(seq 50); do
	child=$(pgrep -f "^$tmp/stampede run" | head -1 || true)
	[ -n "$child" ] && break
	sleep 0.1
done
samples=()
t=0
while kill -0 "$child" 2>/dev/null; do
	rss=$(awk '/VmRSS/ {print $2}' "/proc/$child/status" 2>/dev/null || true)
	[ -n "$rss" ] && samples+=("$t $rss") && echo "t=${t}s rss=$((rss / 1024)) MiB"
	sleep 10
	t=$((t + 10))
done
wait "$pid" || true
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
rows=$(($(wc -l <"$tmp/r/requests.csv") - 1))
echo "requests.csv rows: $rows"
printf '%s\n' "${samples[@]}" | awk '
	$1 >= 60 && !w { w = $2; wt = $1 }
	{ last = $2; lt = $1; if ($1 >= 60) { if (!mn || $2 < mn) mn = $2; if ($2 > mx) mx = $2 } }
	END {
		if (!w) { print "run shorter than a minute: no figure"; exit 1 }
		g = 100*(last-w)/w; p = 100*(mx-w)/w
		printf "rss after warm-up (t=%ds): %d MiB; last (t=%ds): %d MiB; growth %+.1f%%; range after warm-up %d-%d MiB (peak %+.1f%%)\n", wt, w/1024, lt, last/1024, g, mn/1024, mx/1024, p
		if (g <= 5 && p <= 10) { print "PASS: flat (growth <= 5%, peak <= +10%)" } else { print "FAIL: not flat (want growth <= 5% and peak <= +10%)"; exit 1 }
	}'
