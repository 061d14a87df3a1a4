#!/usr/bin/env bash
# `stampede gen ldbc` with and without --update-streams, rounds interleaved
# (A B A B ...) so both see the same machine load.
#
#   bench/gen_ldbc_updates.sh [SF]        default SF 1
#
# Env: ROUNDS (default 3), WORKERS (default all CPUs), OUT (scratch
# directory, default a mktemp dir, removed at the end).
# Prints per run: wall, user and sys seconds, peak RSS, load average before
# the run, output size; then the median wall and CPU (user+sys) of each and
# their ratio.
set -euo pipefail

cd "$(dirname "$0")/.."
SF=${1:-1}
ROUNDS=${ROUNDS:-3}
WORKERS=${WORKERS:-$(nproc)}
SCRATCH=${OUT:-$(mktemp -d -t stampede-genup-XXXXXX)}
trap 'rm -rf "$SCRATCH"' EXIT
BIN="$SCRATCH/stampede"
go build -o "$BIN" ./cmd/stampede

echo "cpu: $(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1), $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2 " GiB"}'), $(go version | cut -d' ' -f3)"
echo "sf $SF, workers $WORKERS, rounds $ROUNDS"
printf '%-8s %5s %8s %8s %8s %9s %8s %s\n' variant round wall_s user_s sys_s rss_MiB size load_before
declare -A WALL CPU
for r in $(seq 1 "$ROUNDS"); do
	for v in plain streams; do
		flag=""
		[ "$v" = streams ] && flag="--update-streams"
		rm -rf "$SCRATCH/out"
		load=$(cut -d' ' -f1 /proc/loadavg)
		/usr/bin/time -f '%e %U %S %M' -o "$SCRATCH/time" \
			"$BIN" gen ldbc --sf "$SF" --out "$SCRATCH/out" --workers "$WORKERS" --quiet $flag >/dev/null
		read -r wall user sys rss <"$SCRATCH/time"
		size=$(du -sh "$SCRATCH/out" | cut -f1)
		printf '%-8s %5d %8.2f %8.2f %8.2f %9d %8s %s\n' "$v" "$r" "$wall" "$user" "$sys" $((rss / 1024)) "$size" "$load"
		WALL[$v]+="$wall "
		CPU[$v]+="$(echo "$user + $sys" | bc) "
	done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for v in plain streams; do
	echo "$v: median wall $(echo "${WALL[$v]}" | median) s, median CPU $(echo "${CPU[$v]}" | median) s"
done
pw=$(echo "${WALL[plain]}" | median); sw=$(echo "${WALL[streams]}" | median)
pc=$(echo "${CPU[plain]}" | median); sc=$(echo "${CPU[streams]}" | median)
echo "streams/plain: wall $(echo "scale=2; $sw / $pw" | bc)x, CPU $(echo "scale=2; $sc / $pc" | bc)x"
