#!/usr/bin/env bash
# HTTP GET on loopback: two stampede binaries (e.g. before and after a
# change) against bench/httptarget, rounds interleaved, the same settings
# as bench/http_compare.sh (50 VUs, generator on CPU 0, target on CPU 1).
# Prints per round the load average, requests/s and the generator's CPU
# time per request of each binary; the order alternates between rounds.
#
#   bench/http_ab.sh OLD_BINARY NEW_BINARY [SECONDS=10] [ROUNDS=5]
set -euo pipefail
old=$1 new=$2 secs=${3:-10} rounds=${4:-5}
cd "$(dirname "$0")/.."
port=18182
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/httptarget" ./bench/httptarget
taskset -c 1 "$tmp/httptarget" -addr 127.0.0.1:$port 2>/dev/null &
sleep 0.5
url=http://127.0.0.1:$port/
# run BINARY DIR: one run; prints "requests/s CPU-µs-per-request" (the CPU
# time of the stampede process, user+system, over its requests: less
# sensitive than throughput to other processes on a shared machine).
run() {
	python3 - "$1" "$2" "$url" "$secs" <<'PY'
import json, resource, subprocess, sys
from datetime import datetime
binary, out, url, secs = sys.argv[1:]
before = resource.getrusage(resource.RUSAGE_CHILDREN)
subprocess.run(["taskset", "-c", "0", binary, "run", "http.Request", "--target", url, "-u", "50", "-d", secs + "s",
                "--no-csv", "--no-report", "--quiet", "--out", out], check=True, stdout=subprocess.DEVNULL)
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
sc = json.load(open(out + "/snapshot.json"))["scenarios"][0]
t = lambda x: datetime.fromisoformat(x.replace("Z", "+00:00"))
n = sc["counters"]["requests"]
print(round(n / (t(sc["end"]) - t(sc["start"])).total_seconds()), round(cpu / n * 1e6, 2))
PY
}
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; ${secs}s per run, 50 VUs, --no-csv"
printf '%-6s %-16s %9s %9s %8s %11s %11s %8s\n' round loadavg old/s new/s new/old old-cpu-us new-cpu-us new/old
for r in $(seq "$rounds"); do
	la=$(cut -d' ' -f1-3 /proc/loadavg)
	if ((r % 2)); then
		read -r o oc < <(run "$old" "$tmp/o$r"); read -r n nc < <(run "$new" "$tmp/n$r")
	else
		read -r n nc < <(run "$new" "$tmp/n$r"); read -r o oc < <(run "$old" "$tmp/o$r")
	fi
	printf '%-6s %-16s %9s %9s %8.3f %11s %11s %8.3f\n' "$r" "$la" "$o" "$n" "$(echo "$n/$o" | bc -l)" "$oc" "$nc" "$(echo "$nc/$oc" | bc -l)"
done
