#!/usr/bin/env bash
# Two stampede binaries (e.g. before and after a change to the output
# lifecycle) on two workloads, rounds interleaved and the order alternating
# between rounds: HTTP GET on loopback against bench/httptarget (50 VUs,
# generator on CPU 0, target on CPU 1, --no-csv --no-report, as
# bench/http_ab.sh), and builtin.Noop (4 VUs on CPU 0) with every default
# output on (request CSV, series, report). Prints per round the load
# average, iterations/s and the generator's CPU time per iteration (user +
# system of the stampede process, the stable figure on a shared machine),
# then the medians and ranges of new/old per workload, the CPU model and
# the load before and after.
#
#   bench/outputs_ab.sh OLD_BINARY NEW_BINARY [SECONDS=10] [ROUNDS=5]
set -euo pipefail
old=$(realpath "$1") new=$(realpath "$2") secs=${3:-10} rounds=${4:-5}
cd "$(dirname "$0")/.."
port=18183
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/httptarget" ./bench/httptarget
taskset -c 1 "$tmp/httptarget" -addr 127.0.0.1:$port 2>/dev/null &
sleep 0.5
# one WORKLOAD BINARY DIR: prints "iterations/s CPU-µs-per-iteration".
one() {
	python3 - "$@" "http://127.0.0.1:$port/" "$secs" <<'PY'
import json, resource, subprocess, sys
from datetime import datetime
work, binary, out, url, secs = sys.argv[1:]
if work == "http":
    args = ["run", "http.Request", "--target", url, "-u", "50", "--no-csv", "--no-report"]
else:
    args = ["run", "builtin.Noop", "-u", "4"]
before = resource.getrusage(resource.RUSAGE_CHILDREN)
subprocess.run(["taskset", "-c", "0", binary] + args + ["-d", secs + "s", "--quiet", "--out", out], check=True, stdout=subprocess.DEVNULL)
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
sc = json.load(open(out + "/snapshot.json"))["scenarios"][0]
t = lambda x: datetime.fromisoformat(x.replace("Z", "+00:00"))
n = sc["counters"]["iterations"]
print(round(n / (t(sc["end"]) - t(sc["start"])).total_seconds()), round(cpu / n * 1e6, 3))
PY
}
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; ${secs}s per run; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-5s %-6s %-16s %9s %9s %8s %10s %10s %8s\n' work round loadavg old/s new/s new/old old-cpu-us new-cpu-us new/old
for r in $(seq "$rounds"); do
	for w in http noop; do
		la=$(cut -d' ' -f1-3 /proc/loadavg)
		if ((r % 2)); then
			read -r o oc < <(one $w "$old" "$tmp/o$w$r"); read -r n nc < <(one $w "$new" "$tmp/n$w$r")
		else
			read -r n nc < <(one $w "$new" "$tmp/n$w$r"); read -r o oc < <(one $w "$old" "$tmp/o$w$r")
		fi
		printf '%-5s %-6s %-16s %9s %9s %8.3f %10s %10s %8.3f\n' $w "$r" "$la" "$o" "$n" "$(echo "$n/$o" | bc -l)" "$oc" "$nc" "$(echo "$nc/$oc" | bc -l)" | tee -a "$tmp/rows"
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tmp/rows" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
for w in ("http", "noop"):
    r = [x for x in rows if x[0] == w]
    for name, col in (("throughput new/old", 7), ("CPU per iteration new/old", 10)):
        v = sorted(float(x[col]) for x in r)
        print(f"{w}: {name}: median {statistics.median(v):.3f} [{v[0]:.3f}-{v[-1]:.3f}] over {len(v)} rounds")
PY
