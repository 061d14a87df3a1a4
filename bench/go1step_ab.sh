#!/usr/bin/env bash
# bench/go1step_ab.sh — `stampede run go.Go1Step --target sqlite://…`
# against a bare Go loop of the same SQL (bench/go1step_bare: database/sql,
# the same DSN and pragmas, the same person ids round-robin, the same VUs,
# a per-query context.WithTimeout of 60 s like stampede's default
# --timeout), on the same database file. CPU per query from the kernel's
# accounting (/usr/bin/time: user + system of the whole process, start-up
# and stampede's answer checks and graph check included).
#
#   bench/go1step_ab.sh [ROUNDS] [DURATION] [VUS] [SF]    # default 5 10s 50 1
#
# Tools, rotated every round: stampede --no-csv, stampede (per-request
# CSV, the default), bare (timeout), bare0 (no timeout: the floor).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
DUR=${2:-10s}
VUS=${3:-50}
SF=${4:-1}
[ "$ROUNDS" -ge 5 ] || { echo "go1step_ab.sh: need at least 5 rounds" >&2; exit 2; }
WORK=${WORK:-/tmp/stampede-bench-go1step-ab}
mkdir -p "$WORK"
go build -o "$WORK/stampede" ./cmd/stampede
go build -o "$WORK/bare" ./bench/go1step_bare

# Generate and load the data set once (not measured).
rm -rf "$WORK/warm"
"$WORK/stampede" run go.Go1Step --sf "$SF" --data-dir "$WORK/data" -u 1 -d 1s --out "$WORK/warm" --no-report -q >/dev/null
DB=$WORK/data/ldbc-sf$SF.db
DATA=$WORK/data/ldbc-sf$SF
[ -f "$DB" ] && [ -d "$DATA" ] || { echo "go1step_ab.sh: no $DB / $DATA" >&2; exit 1; }

echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores; SF$SF, $VUS VUs, $DUR per run"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
tools=(stampede-nocsv stampede-csv bare bare0)
declare -A cpq
for r in $(seq 1 "$ROUNDS"); do
	line="round $r:"
	for k in 0 1 2 3; do
		tool=${tools[$(((k + r) % 4))]}
		out=$WORK/out-$tool
		rm -rf "$out"
		case $tool in
		stampede-*)
			extra=()
			[ "$tool" = stampede-nocsv ] && extra=(--no-csv)
			/usr/bin/time -f "%U %S" -o "$WORK/time" "$WORK/stampede" run go.Go1Step --target "sqlite://$DB" --sf "$SF" \
				--data-dir "$WORK/data" -u "$VUS" -d "$DUR" --out "$out" --no-report -q "${extra[@]}" >"$WORK/summary"
			n=$(awk '/^ +iterations\.+:/ {print $2; exit}' "$WORK/summary")
			errs=$(awk '/^ +errors\.+:/ {print $2; exit}' "$WORK/summary")
			;;
		bare | bare0)
			to=60s
			[ "$tool" = bare0 ] && to=0
			/usr/bin/time -f "%U %S" -o "$WORK/time" "$WORK/bare" -db "$DB" -data "$DATA" -vus "$VUS" -d "$DUR" -timeout "$to" >"$WORK/summary"
			n=$(awk '{print $2}' "$WORK/summary")
			errs=$(awk '{print $4}' "$WORK/summary")
			;;
		esac
		[ "${n:-0}" -gt 0 ] && [ "${errs:-1}" = 0 ] || { echo "go1step_ab.sh: $tool measured nothing or failed (queries ${n:-?}, errors ${errs:-?})" >&2; exit 1; }
		us=$(awk -v n="$n" '{printf "%.2f", ($1 + $2) * 1e6 / n}' "$WORK/time")
		cpq[$tool,$r]=$us
		line+=" $tool ${us}µs ($n)"
	done
	echo "$line"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

stats() { sort -g | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2; printf "median %.3f [%.3f-%.3f]", m, a[1], a[NR]}'; }
for tool in "${tools[@]}"; do
	echo "$tool CPU µs/query: $(for r in $(seq 1 "$ROUNDS"); do echo "${cpq[$tool,$r]}"; done | stats)"
done
ratio() { for r in $(seq 1 "$ROUNDS"); do echo "${cpq[$1,$r]} ${cpq[$2,$r]}" | awk '{print $1/$2}'; done | stats; }
echo "stampede-nocsv / bare (per round): $(ratio stampede-nocsv bare)"
echo "stampede-csv / bare (per round):   $(ratio stampede-csv bare)"
echo "stampede-nocsv / bare0 (per round): $(ratio stampede-nocsv bare0)"
echo "bare / bare0 (per round):           $(ratio bare bare0)"
