#!/usr/bin/env bash
# The worked Go PGO example of docs/pgo.md, for real: profile bench/httptarget
# under a stampede scenario, rebuild it with -pgo, then run both builds
# RUNS times each, interleaved, and compare them with stampede compare.
#
#   bench/pgo.sh [OUT=bench/out/pgo]
#
# Environment (defaults in brackets): RUNS [5] runs per build, DURATION [10s]
# per run, WARMUP [2s] excluded from each run's statistics, VUS [20],
# WORK [200] SHA-256 rounds per request, COOLDOWN [5s] pause between runs,
# PORT [18190], TARGET_CPU [1] and LOAD_CPU [0] for taskset.
#
# The target is pinned to one CPU and stampede to another, so the two do not
# trade places on a core. Builds alternate A B B A ... so a slow drift of the
# machine (other load, thermals) hits both alike. The Markdown table ends up
# in OUT/compare.md, the terminal table in OUT/compare.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/out/pgo}
runs=${RUNS:-5}
duration=${DURATION:-10s}
warmup=${WARMUP:-2s}
vus=${VUS:-20}
work=${WORK:-200}
cooldown=${COOLDOWN:-5s}
port=${PORT:-18190}
target_cpu=${TARGET_CPU:-1}
load_cpu=${LOAD_CPU:-0}

if [ -e "$out" ]; then
	echo "pgo.sh: $out exists; remove it or pass another directory" >&2
	exit 2
fi
mkdir -p "$out/bin"
bin=$(cd "$out/bin" && pwd)
url="http://127.0.0.1:$port"
target_pid=
stop_target() {
	if [ -n "$target_pid" ]; then
		kill "$target_pid" 2>/dev/null || true
		wait "$target_pid" 2>/dev/null || true
		target_pid=
	fi
}
trap stop_target EXIT

# start_target BINARY: run it pinned on $target_cpu and wait until it answers.
start_target() {
	taskset -c "$target_cpu" "$1" -addr "127.0.0.1:$port" 2>>"$out/target.log" &
	target_pid=$!
	for _ in $(seq 100); do
		curl -fsS -o /dev/null "$url/" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "pgo.sh: $1 did not start on port $port (see $out/target.log)" >&2
	exit 1
}

# cpu_ticks: user+system CPU clock ticks the target has used so far.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$target_pid/stat"; }

# load DIR [FLAGS...]: one stampede run of the CPU-bound handler into DIR.
load() {
	local dir=$1
	shift
	taskset -c "$load_cpu" "$bin/stampede" run http.Request --target "$url/work?n=$work" \
		-u "$vus" -d "$duration" --no-csv --no-report --quiet --out "$dir" --monitor "pid=$target_pid" "$@" >/dev/null
}

echo "== build stampede and the default (no PGO) target"
go build -o "$bin/stampede" ./cmd/stampede
go build -pgo=off -o "$bin/httptarget-default" ./bench/httptarget

echo "== profile the default build under load ($duration, $vus VUs)"
start_target "$bin/httptarget-default"
load "$out/profile-run" --profile "pprof=$url"
stop_target
"$bin/stampede" profile merge "$out/profile-run/profiles" -o "$out/default.pgo"

echo "== rebuild with -pgo"
go build -pgo="$out/default.pgo" -o "$bin/httptarget-pgo" ./bench/httptarget
go version -m "$bin/httptarget-pgo" | grep -- '-pgo=' || { echo "pgo.sh: the PGO build does not record -pgo" >&2; exit 1; }

echo "== $runs runs per build, interleaved, warm-up $warmup, cool-down $cooldown"
for i in $(seq "$runs"); do
	order="default pgo"
	if [ $((i % 2)) -eq 0 ]; then order="pgo default"; fi
	for build in $order; do
		dir=$(printf '%s/%s/run-%02d' "$out" "$build" "$i")
		echo "   run $i: $build → $dir"
		start_target "$bin/httptarget-$build"
		t0=$(cpu_ticks)
		load "$dir" --warmup "$warmup"
		printf '%s\t%s\t%s\n' "$build" "$dir" $(($(cpu_ticks) - t0)) >>"$out/target-cpu.tsv"
		stop_target
		sleep "$cooldown"
	done
done

# Target CPU time per request (stampede compare shows it too, as target_cpu,
# from the --monitor pid= series of each run): a check that wall-clock noise cannot blur as
# much (a busy neighbour delays requests but does not make them cost more
# CPU). The ticks cover the whole run; the requests exclude the warm-up, so
# they are scaled up by duration/(duration - warm-up).
python3 - "$out/target-cpu.tsv" "$duration" "$warmup" "$(getconf CLK_TCK)" >"$out/target-cpu.txt" <<'PY'
import json, re, statistics, sys
tsv, dur, warm, hz = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
secs = lambda s: float(re.sub(r"s$", "", s)) if not s.endswith("ms") else float(s[:-2]) / 1000
scale = secs(dur) / (secs(dur) - secs(warm))
per = {}
for line in open(tsv):
    build, d, ticks = line.split("\t")
    req = json.load(open(d + "/snapshot.json"))["scenarios"][0]["counters"]["requests"]
    per.setdefault(build, []).append(1e6 * int(ticks) / hz / (req * scale))
print("target CPU µs per request (user+system, per run)")
for build, xs in per.items():
    m = statistics.fmean(xs)
    print(f"{build:8} " + " ".join(f"{x:7.1f}" for x in xs) + f"   mean {m:.1f}  STDDEVP/Mean {100 * statistics.pstdev(xs) / m:.1f}%")
if len(per) == 2:
    (a, xa), (b, xb) = per.items()
    print(f"{b}/{a}: {100 * (statistics.fmean(xb) / statistics.fmean(xa) - 1):+.1f}%")
PY
cat "$out/target-cpu.txt"

echo "== compare"
"$bin/stampede" compare "$out/default" "$out/pgo" --names default,pgo --format md >"$out/compare.md"
"$bin/stampede" compare "$out/default" "$out/pgo" --names default,pgo | tee "$out/compare.txt"
