#!/usr/bin/env bash
# k6_vs_stampede.sh: the same k6 scripts under k6 and under `stampede run`,
# the order of the two tools alternating round by round (odd rounds k6
# first, even rounds stampede first), each figure read
# from each tool's own --summary-export and /usr/bin/time; medians and
# ranges. k6 is a peer for measuring, never a dependency: pass its binary
# as K6 (built once with `go install go.k6.io/k6@v1.8.1`).
#
#   K6=/path/to/k6 ROUNDS=5 bash bench/k6_vs_stampede.sh [empty|http|vus]...
#
#   empty  bench/k6scripts/empty.js: 50 VUs, 5 s, an empty default function: iterations/s
#   http   bench/k6scripts/http_get_check.js against bench/httptarget (target on CPU 1,
#          generators on CPU 0): http_reqs/s and CPU (user+sys) per request
#   vus    bench/k6scripts/vus.js with -u N -i N for N = 1, 1000, 10000: wall time (start-up
#          of N VUs and one iteration each) and peak RSS; memory per VU = (RSS(N) - RSS(1)) / N
set -euo pipefail
cd "$(dirname "$0")/.."
K6=${K6:?set K6 to a k6 binary (go install go.k6.io/k6@v1.8.1)}
ROUNDS=${ROUNDS:-5}
modes=${*:-empty http vus}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/stampede" ./cmd/stampede
go build -o "$work/httptarget" ./bench/httptarget
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), cores: $(nproc); $("$K6" version | head -1)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
pin=""
cap() { $pin prlimit --as=8000000000 timeout --foreground -k 5 600 "$@"; }
k6run() { cap /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$K6" run -q --no-usage-report --summary-export "$work/sum.json" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }; }
strun() { cap /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$work/stampede" run "$@" -q --no-summary --no-report --no-csv --out "$work/st-$RANDOM$RANDOM" --summary-export "$work/sum.json" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }; }
jq_() { python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["metrics"]; print(m[sys.argv[2]][sys.argv[3]])' "$work/sum.json" "$1" "$2"; }
# stats FILE COL: median [min..max]
stats() { python3 - "$@" <<'PY'
import statistics as s, sys
v = [float(l.split()[int(sys.argv[2])]) for l in open(sys.argv[1]) if l.strip()]
print(f"{s.median(v):.6g} [{min(v):.6g}..{max(v):.6g}]")
PY
}
med() { python3 -c 'import statistics as s,sys; print(s.median(float(l.split()[int(sys.argv[2])]) for l in open(sys.argv[1]) if l.strip()))' "$1" "$2"; }
ratio() { python3 -c 'import sys; print(f"{float(sys.argv[1])/float(sys.argv[2]):.2f}")' "$1" "$2"; }
# inorder ROUND A B: runs the functions A and B, A first in odd rounds.
inorder() { if (($1 % 2)); then "$2"; "$3"; else "$3"; "$2"; fi; }

for mode in $modes; do
case $mode in
empty)
	: > "$work/k6"; : > "$work/st"
	k6one() { k6run bench/k6scripts/empty.js; echo "$(jq_ iterations rate) $(cut -d' ' -f4 "$work/time")" >> "$work/k6"; }
	stone() { strun bench/k6scripts/empty.js; echo "$(jq_ iterations rate) $(cut -d' ' -f4 "$work/time")" >> "$work/st"; }
	for i in $(seq "$ROUNDS"); do inorder "$i" k6one stone; done
	echo "empty default, 50 VUs, 5 s: iterations/s k6 $(stats "$work/k6" 0)  stampede $(stats "$work/st" 0)  stampede/k6 $(ratio "$(med "$work/st" 0)" "$(med "$work/k6" 0)")"
	;;
http)
	port=18191
	taskset -c 1 "$work/httptarget" -addr 127.0.0.1:$port 2>/dev/null &
	sleep 0.5
	: > "$work/k6"; : > "$work/st"
	pin="taskset -c 0"
	k6one() {
		k6run -e URL=http://127.0.0.1:$port/ bench/k6scripts/http_get_check.js --no-thresholds
		read -r _ u s _ < "$work/time"; n=$(jq_ http_reqs count); echo "$(jq_ http_reqs rate) $(python3 -c "print(($u+$s)/$n*1e6)")" >> "$work/k6"
	}
	stone() {
		strun -e URL=http://127.0.0.1:$port/ bench/k6scripts/http_get_check.js
		read -r _ u s _ < "$work/time"; n=$(jq_ http_reqs count); echo "$(jq_ http_reqs rate) $(python3 -c "print(($u+$s)/$n*1e6)")" >> "$work/st"
	}
	for i in $(seq "$ROUNDS"); do inorder "$i" k6one stone; done
	kill %1 2>/dev/null || true
	pin=""
	echo "http.get+check, 50 VUs, 5 s: req/s k6 $(stats "$work/k6" 0)  stampede $(stats "$work/st" 0)  stampede/k6 $(ratio "$(med "$work/st" 0)" "$(med "$work/k6" 0)")"
	echo "  CPU µs per request: k6 $(stats "$work/k6" 1)  stampede $(stats "$work/st" 1)  stampede/k6 $(ratio "$(med "$work/st" 1)" "$(med "$work/k6" 1)")"
	;;
vus)
	for n in 1 1000 10000; do
		: > "$work/k6-$n"; : > "$work/st-$n"
		k6one() { k6run -u "$n" -i "$n" bench/k6scripts/vus.js; cut -d' ' -f1,4 "$work/time" >> "$work/k6-$n"; }
		stone() { strun -u "$n" -i "$n" bench/k6scripts/vus.js; cut -d' ' -f1,4 "$work/time" >> "$work/st-$n"; }
		for i in $(seq "$ROUNDS"); do inorder "$i" k6one stone; done
		echo "$n VUs (-u $n -i $n): wall s k6 $(stats "$work/k6-$n" 0)  stampede $(stats "$work/st-$n" 0)  stampede/k6 $(ratio "$(med "$work/st-$n" 0)" "$(med "$work/k6-$n" 0)");  peak RSS KiB k6 $(stats "$work/k6-$n" 1)  stampede $(stats "$work/st-$n" 1)"
	done
	for n in 1000 10000; do
		k=$(python3 -c "print(($(med "$work/k6-$n" 1)-$(med "$work/k6-1" 1))/$n)"); s=$(python3 -c "print(($(med "$work/st-$n" 1)-$(med "$work/st-1" 1))/$n)")
		echo "memory per VU at $n VUs (median RSS(N)-RSS(1))/N: k6 ${k} KiB  stampede ${s} KiB  stampede/k6 $(ratio "$s" "$k")"
	done
	;;
esac
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
