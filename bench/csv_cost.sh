#!/usr/bin/env bash
# CPU per operation of the default per-request CSV on the no-op path
# (issue 32 item 2: at most +10%): builtin.Noop with 50 VUs on one core
# (taskset -c 0), the CSV on (the default) and off (--no-csv), the order
# alternating round by round. CPU is the process's user+system time from
# the kernel (/usr/bin/time; start-up included) divided by the iterations
# of the run (snapshot.json). Each CSV run is checked: requests.csv holds
# one complete row per request.
#
#   bench/csv_cost.sh [ROUNDS=7] [DURATION=10s] [VUS=50]
#
# Prints per round the load average and CPU ns/iteration of both, then
# medians [ranges] of each and of the per-round ratio on/off; then the
# recording+logging path alone (go test -bench RecordAndLog, peer
# RecordOnly, in internal/output/csvlog), whose allocs/op must be 0.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-7} dur=${2:-10s} vus=${3:-50}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/stampede" ./cmd/stampede
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs), $(nproc) cores; builtin.Noop -u $vus -d $dur, taskset -c 0, $rounds rounds"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
iterations() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["scenarios"][0]["counters"]["iterations"])' "$1/snapshot.json"
}
requests() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["scenarios"][0]["counters"]["requests"])' "$1/snapshot.json"
}
one() { # MODE ROUND -> ns/iteration
	local mode=$1 r=$2 extra=() dir="$tmp/$1-$2"
	[ "$mode" = off ] && extra=(--no-csv)
	/usr/bin/time -f '%U %S' -o "$tmp/time" prlimit --as=8000000000 timeout --foreground -k 5 300 taskset -c 0 \
		"$tmp/stampede" run builtin.Noop -u "$vus" -d "$dur" --no-report -q --out "$dir" "${extra[@]}" >/dev/null 2>"$tmp/err" ||
		{ echo "run $mode $r failed: $(cat "$tmp/err")" >&2; exit 1; }
	local n u s
	n=$(iterations "$dir")
	read -r u s <"$tmp/time"
	if [ "$mode" = on ]; then
		local rows req
		rows=$(($(wc -l <"$dir/requests.csv") - 1))
		req=$(requests "$dir")
		[ "$rows" -eq "$req" ] || { echo "round $r: requests.csv has $rows rows for $req requests" >&2; exit 1; }
		[ "$(tail -c1 "$dir/requests.csv" | od -An -tx1 | tr -d ' ')" = 0a ] || { echo "round $r: requests.csv ends with a cut row" >&2; exit 1; }
	fi
	rm -rf "$dir"
	awk -v u="$u" -v s="$s" -v n="$n" 'BEGIN { printf "%.1f", (u + s) * 1e9 / n }'
}
on=() off=() ratio=()
for r in $(seq "$rounds"); do
	if ((r % 2)); then order="on off"; else order="off on"; fi
	load=$(cut -d' ' -f1 /proc/loadavg)
	for m in $order; do
		v=$(one "$m" "$r")
		if [ "$m" = on ]; then a=$v; else b=$v; fi
	done
	on+=("$a") off+=("$b")
	ratio+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')")
	echo "round $r (load $load): CSV on $a ns/iteration, --no-csv $b ns/iteration, ratio ${ratio[-1]}"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
stat() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%s [%s-%s]", m, v[1], v[NR] }'; }
echo "CSV on:   $(stat "${on[@]}") ns/iteration"
echo "--no-csv: $(stat "${off[@]}") ns/iteration"
echo "ratio on/off: $(stat "${ratio[@]}") (goal <= 1.10)"
echo "go test -bench (recording + logging path, 5 runs each, -benchmem):"
go test -c -o "$tmp/csvlog.test" ./internal/output/csvlog
(cd internal/output/csvlog && taskset -c 0 "$tmp/csvlog.test" -test.run '^$' -test.bench 'RecordAndLog|RecordOnly' -test.benchmem -test.count 5 -test.benchtime 2000000x | grep '^Benchmark') |
	awk '{ ns[$1] = ns[$1] " " $3; al[$1] = $7 } END { for (k in ns) printf "  %s ns/op:%s; allocs/op %s\n", k, ns[k], al[k] }'
