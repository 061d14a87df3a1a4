#!/usr/bin/env bash
# bench/http_compare.sh — HTTP GET on loopback: stampede's http.Request
# against wrk -t1, the same URL, at 50, 500 and 5,000 connections (VUs),
# against bench/httptarget. The target runs on CPU 1 and every generator on
# CPU 0 (taskset). Client CPU per request comes from the kernel's
# accounting of the whole process (/usr/bin/time: user + system, start-up
# and shutdown included, for every tool), RSS is the process's peak
# resident set. The tools alternate every round (the first of a round
# alternates too); prints per-round figures, then per connection count the
# medians, the ranges and the per-round ratio stampede / wrk.
#
#   bench/http_compare.sh [SECONDS=5] [ROUNDS=5] [CONNS="50 500 5000"]
#
# Tools: wrk (wrk -t1 -cN), stampede (--no-csv --no-report: like wrk, a
# histogram and no per-request log; its VUs are steps of one event loop
# per processor), stampede-goroutines (the same with --http-goroutines: a
# goroutine per VU, k6's model), stampede+csv (the default per-request
# CSV, for reference: not in the ratio) and bare
# (bench/httpbare: a bare Go loop, one goroutine per connection on a plain
# net.Conn, recording nothing): bare / wrk is the cost of the
# goroutine-per-connection model stampede's VUs share, stampede / bare
# stampede's own; and evloop (bench/httpevloop: wrk's design in Go, one
# goroutine on epoll for every connection, raw read and write, recording
# nothing): evloop / wrk is the floor an event-loop stampede could reach;
# and vegeta 12.13 (`vegeta attack -rate=0 -workers=N -max-workers=N`,
# when VEGETA names it or it is in PATH: go install
# github.com/tsenart/vegeta/v12@v12.13.0), whose results file is counted
# after the timed run.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
rounds=${2:-5}
conns=${3:-50 500 5000}
[ "$rounds" -ge 5 ] || { echo "http_compare.sh: need at least 5 rounds" >&2; exit 2; }
command -v wrk >/dev/null || { echo "http_compare.sh: wrk not in PATH" >&2; exit 2; }
VEGETA=${VEGETA:-$(command -v vegeta || true)}
port=${PORT:-18181}
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
ulimit -n 20000

go build -o "$tmp/stampede" ./cmd/stampede
go build -o "$tmp/httptarget" ./bench/httptarget
go build -o "$tmp/httpbare" ./bench/httpbare
go build -o "$tmp/httpevloop" ./bench/httpevloop
# The binaries just written leave the page cache as the linker wrote them,
# in large folios that the kernel maps whole when a page of them is
# touched: measured here, the same stampede binary peaked at ~10 MB more
# file-backed RSS straight from `go build` than once read back from disk.
# Drop them from the cache, so that every tool starts as an installed
# program does (wrk's files were read, not written, here).
# (Written back first: the kernel drops clean pages only.)
python3 -c 'import os, sys
for p in sys.argv[1:]:
    fd = os.open(p, os.O_RDONLY); os.fsync(fd); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED); os.close(fd)' \
	"$tmp/stampede" "$tmp/httptarget" "$tmp/httpbare" "$tmp/httpevloop"
taskset -c 1 "$tmp/httptarget" -addr 127.0.0.1:$port 2>/dev/null &
sleep 0.5
url=http://127.0.0.1:$port/

echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores; ${secs}s per run, generator on CPU 0, target on CPU 1"
echo "wrk: $(wrk --version 2>&1 | head -1 | cut -d' ' -f1-2)${VEGETA:+; vegeta: $VEGETA}"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# one TOOL CONNS: runs the tool once; prints "requests cpu-us/request rss-MB".
one() {
	local tool=$1 c=$2 n
	case $tool in
	wrk)
		/usr/bin/time -f "%U %S %M" -o "$tmp/time" taskset -c 0 wrk -t1 -c"$c" -d"${secs}s" "$url" >"$tmp/out"
		n=$(awk '/requests in/ {print $1}' "$tmp/out")
		;;
	vegeta)
		echo "GET $url" | /usr/bin/time -f "%U %S %M" -o "$tmp/time" taskset -c 0 "$VEGETA" attack -rate=0 -workers="$c" -max-workers="$c" \
			-duration="${secs}s" -output="$tmp/vegeta.bin"
		n=$("$VEGETA" report -type=json "$tmp/vegeta.bin" | python3 -c 'import json,sys; print(json.load(sys.stdin)["requests"])')
		rm -f "$tmp/vegeta.bin"
		;;
	bare | evloop)
		local bin=$tmp/httpbare
		[ "$tool" = evloop ] && bin=$tmp/httpevloop
		/usr/bin/time -f "%U %S %M" -o "$tmp/time" taskset -c 0 "$bin" -c "$c" -d "${secs}s" -url "$url" >"$tmp/out"
		n=$(tail -1 "$tmp/out")
		;;
	stampede | stampede+csv | stampede-goroutines)
		local extra=(--no-csv)
		[ "$tool" = stampede+csv ] && extra=()
		[ "$tool" = stampede-goroutines ] && extra=(--no-csv --http-goroutines)
		rm -rf "$tmp/run"
		/usr/bin/time -f "%U %S %M" -o "$tmp/time" taskset -c 0 "$tmp/stampede" run http.Request --target "$url" \
			-u "$c" -d "${secs}s" --no-report --quiet --out "$tmp/run" "${extra[@]}" >"$tmp/out"
		n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["scenarios"][0]["counters"]["requests"])' "$tmp/run/snapshot.json")
		;;
	esac
	if [ "${n:-0}" -le 0 ]; then # the starved target answered nothing: the round does not count
		echo "http_compare.sh: $tool -c$c measured nothing" >&2
		echo "0 nan nan"
		return
	fi
	awk -v n="$n" '{printf "%d %.3f %.1f\n", n, ($1 + $2) * 1e6 / n, $3 / 1024}' "$tmp/time"
}

tools=(wrk stampede stampede-goroutines stampede+csv bare evloop)
[ -z "$VEGETA" ] || tools+=(vegeta)
declare -A cpu rss req
for c in $conns; do
	for r in $(seq 1 "$rounds"); do
		line="c=$c round $r:"
		for k in "${!tools[@]}"; do
			tool=${tools[$(((k + r) % ${#tools[@]}))]}
			read -r n us mb < <(one "$tool" "$c")
			req[$tool,$c,$r]=$n cpu[$tool,$c,$r]=$us rss[$tool,$c,$r]=$mb
			line+=" $tool ${us}µs ${mb}MB ($n)"
		done
		echo "$line"
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# Where the resident memory is, at the largest connection count, at the
# peak of one more run of each (sampled every 0.5 s): anonymous (heap,
# stacks, buffers) and file-backed (the executable's own pages) from
# /proc/PID/smaps_rollup.
cmax=$(echo $conns | tr ' ' '\n' | sort -n | tail -1)
split() { # split NAME COMMAND...: prints "NAME at N connections: RSS ... = anonymous ... + file-backed ..."
	local name=$1 best="0 0" p
	shift
	"$@" >/dev/null 2>&1 &
	local pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		p=$(pgrep -P "$pid" | head -1 || true) # taskset execs in place; keep $pid when it has no child
		p=${p:-$pid}
		best=$(awk -v best="$best" 'BEGIN {split(best, b, " ")} /^Anonymous:/ {a=$2} /^Rss:/ {r=$2} END {if (r > b[1]) print r, a; else print best}' "/proc/$p/smaps_rollup" 2>/dev/null || echo "$best")
		sleep 0.5
	done
	wait "$pid" || true
	echo "$best" | awk -v n="$name" -v c="$cmax" '{printf "%s at %s connections, peak: RSS %.1f MB = anonymous %.1f + file-backed %.1f\n", n, c, $1/1024, $2/1024, ($1-$2)/1024}'
}
rm -rf "$tmp/split"
split wrk taskset -c 0 wrk -t1 -c"$cmax" -d"${secs}s" "$url"
split stampede taskset -c 0 "$tmp/stampede" run http.Request --target "$url" -u "$cmax" -d "${secs}s" --no-csv --no-report --quiet --out "$tmp/split"
rm -rf "$tmp/split"
split stampede-goroutines taskset -c 0 "$tmp/stampede" run http.Request --target "$url" -u "$cmax" -d "${secs}s" --no-csv --no-report --quiet --http-goroutines --out "$tmp/split"

# median and range of a list of numbers (rounds that measured nothing left out)
stats() { grep -v nan | sort -g | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2; printf "%.2f [%.2f-%.2f]", m, a[1], a[NR]}'; }
col() { for r in $(seq 1 "$rounds"); do eval "echo \${$1[$2,$3,$r]}"; done | stats; }
ratio() { for r in $(seq 1 "$rounds"); do echo "${cpu[$1,$3,$r]} ${cpu[$2,$3,$r]}" | awk '/nan/ {print "nan"; next} {print $1/$2}'; done | stats; }
rratio() { for r in $(seq 1 "$rounds"); do echo "${rss[$1,$3,$r]} ${rss[$2,$3,$r]}" | awk '/nan/ {print "nan"; next} {print $1/$2}'; done | stats; }
echo
echo "medians [ranges] over $rounds rounds; CPU µs/request of the whole process, peak RSS MB"
printf '| %-5s | %-22s | %-22s | %-18s | %-18s | %-22s | %-18s | %-18s |\n' conns "wrk µs/req" "stampede µs/req" "stampede/wrk CPU" "wrk RSS" "stampede RSS" "stampede/wrk RSS" "stampede+csv µs/req"
printf '|%s|\n' "-------|------------------------|------------------------|--------------------|--------------------|------------------------|--------------------|----------------------"
for c in $conns; do
	printf '| %-5s | %-22s | %-22s | %-18s | %-18s | %-22s | %-18s | %-18s |\n' "$c" "$(col cpu wrk "$c")" "$(col cpu stampede "$c")" \
		"$(ratio stampede wrk "$c")" "$(col rss wrk "$c")" "$(col rss stampede "$c")" "$(rratio stampede wrk "$c")" "$(col cpu stampede+csv "$c")"
done
# The goal of issue #32, from the medians of the per-round ratios above.
verdict=""
for c in $conns; do
	r=$(ratio stampede wrk "$c" | cut -d' ' -f1)
	awk -v r="$r" 'BEGIN { exit !(r <= 1.0) }' || verdict+=" CPU ${r}x wrk at $c connections;"
done
r=$(rratio stampede wrk "$cmax" | cut -d' ' -f1)
awk -v r="$r" 'BEGIN { exit !(r <= 2.0) }' || verdict+=" RSS ${r}x wrk at $cmax connections;"
[ -n "$verdict" ] || verdict=" met"
echo
echo "goal (issue #32: CPU per request <= 1.0x wrk at every count, peak RSS <= 2x wrk at $cmax):$verdict"

echo
echo "the bare Go loop (bench/httpbare), per round: its CPU per request, bare / wrk (the goroutine model's cost), stampede / bare (stampede's own)"
printf '| %-5s | %-22s | %-18s | %-18s | %-18s |\n' conns "bare µs/req" "bare/wrk CPU" "stampede/bare CPU" "bare RSS"
printf '|%s|\n' "-------|------------------------|--------------------|--------------------|--------------------"
for c in $conns; do
	printf '| %-5s | %-22s | %-18s | %-18s | %-18s |\n' "$c" "$(col cpu bare "$c")" "$(ratio bare wrk "$c")" "$(ratio stampede bare "$c")" "$(col rss bare "$c")"
done
echo
echo "the bare Go event loop (bench/httpevloop), per round: its CPU per request, evloop / wrk (the floor of an event-loop client in Go), stampede / evloop"
printf '| %-5s | %-22s | %-18s | %-18s | %-18s |\n' conns "evloop µs/req" "evloop/wrk CPU" "stampede/evloop CPU" "evloop RSS"
printf '|%s|\n' "-------|------------------------|--------------------|--------------------|--------------------"
for c in $conns; do
	printf '| %-5s | %-22s | %-18s | %-18s | %-18s |\n' "$c" "$(col cpu evloop "$c")" "$(ratio evloop wrk "$c")" "$(ratio stampede evloop "$c")" "$(col rss evloop "$c")"
done
if [ -n "$VEGETA" ]; then
	echo
	echo "vegeta 12.13, per round: its CPU per request, stampede / vegeta"
	printf '| %-5s | %-22s | %-18s | %-18s |\n' conns "vegeta µs/req" "stampede/vegeta CPU" "vegeta RSS"
	printf '|%s|\n' "-------|------------------------|--------------------|--------------------"
	for c in $conns; do
		printf '| %-5s | %-22s | %-18s | %-18s |\n' "$c" "$(col cpu vegeta "$c")" "$(ratio stampede vegeta "$c")" "$(col rss vegeta "$c")"
	done
fi
echo
echo "stampede's two VU models, per round: the event loop (the default) against a goroutine per VU (--http-goroutines)"
printf '| %-5s | %-22s | %-18s | %-18s | %-18s |\n' conns "goroutines µs/req" "goroutines/wrk CPU" "loop/goroutines CPU" "goroutines RSS"
printf '|%s|\n' "-------|------------------------|--------------------|--------------------|--------------------"
for c in $conns; do
	printf '| %-5s | %-22s | %-18s | %-18s | %-18s |\n' "$c" "$(col cpu stampede-goroutines "$c")" "$(ratio stampede-goroutines wrk "$c")" "$(ratio stampede stampede-goroutines "$c")" "$(col rss stampede-goroutines "$c")"
done
