#!/usr/bin/env bash
# bench/import_full.sh — `stampede load` of the whole LDBC network (persons,
# forums, posts, comments, likes, tags, static files: every CsvBasic file)
# into PostgreSQL, against psql doing the same complete job in the same run.
#
#   PG_URL=postgres://... bench/import_full.sh [SF]      # default SF 1
#
# The psql job: CREATE the same tables (taken with pg_dump from a stampede
# load, pre-data section), \copy every file, then the same keys and indexes
# (pg_dump post-data section, one after the other) and the same ANALYZE.
# The stampede job: stampede load --drop (client-side validation, concurrent
# binary COPY, keys and indexes, ANALYZE, count verification).
# ROUNDS times (default 5), the order alternated round by round (odd rounds
# psql first, even rounds stampede first); prints each round, the per-round
# ratio, and the medians with their ranges, the processor and the load.
set -euo pipefail
cd "$(dirname "$0")/.."

SF=${1:-1}
PG_URL=${PG_URL:-${STAMPEDE_TEST_POSTGRES:?set PG_URL}}
WORK=${WORK:-/tmp/stampede-bench-import-full}
ROUNDS=${ROUNDS:-5}
BIN=$WORK/stampede
mkdir -p "$WORK"
go build -o "$BIN" ./cmd/stampede
DATA=$WORK/sf$SF
if [ ! -f "$DATA/social_network/dynamic/forum_0_0.csv" ]; then
	rm -rf "$DATA"
	"$BIN" gen ldbc --sf "$SF" --out "$DATA" --quiet >/dev/null
fi
rows=0
for f in "$DATA"/social_network/*/*.csv; do rows=$((rows + $(wc -l <"$f") - 1)); done

psql_q() { psql "$PG_URL" -X -q -v ON_ERROR_STOP=1 "$@" 2> >(grep -v 'NOTICE' >&2); }
now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc -l; }

# The schema stampede creates, split into tables and keys.
"$BIN" load --target "$PG_URL" --data "$DATA" --drop -q >/dev/null
tables=$(psql_q -At -c "SELECT string_agg(tablename, ', ') FROM pg_tables WHERE schemaname = 'public'")
pg_dump "$PG_URL" -s -n public -T stampede_meta --section=pre-data | grep -v -E '^(CREATE|ALTER|COMMENT ON) SCHEMA' >"$WORK/pre.sql"
pg_dump "$PG_URL" -s -n public -T stampede_meta --section=post-data >"$WORK/post.sql"
analyze="ANALYZE public.person_knows_person (person1id, person2id); ANALYZE public.person (id);"
for t in forum forum_containerof_post forum_hasmember_person forum_hasmoderator_person forum_hastag_tag post \
	post_hascreator_person post_hastag_tag post_islocatedin_place comment comment_hascreator_person comment_hastag_tag \
	comment_islocatedin_place comment_replyof_comment comment_replyof_post person_likes_comment person_likes_post; do
	analyze="$analyze ANALYZE public.$t;"
done

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, load before $(cut -d' ' -f1-3 /proc/loadavg); SF $SF, $rows rows"
run_psql() {
	psql_q -c "DROP TABLE IF EXISTS $tables"
	psql_q -f "$WORK/pre.sql" >/dev/null
	local t0 t1 t2
	t0=$(now)
	for f in "$DATA"/social_network/static/*.csv "$DATA"/social_network/dynamic/*.csv; do
		t=$(basename "$f" _0_0.csv | tr 'A-Z' 'a-z')
		psql_q -c "\\copy $t FROM '$f' WITH (FORMAT csv, DELIMITER '|', HEADER true, QUOTE E'\\x01', NULL E'\\x02')"
	done
	t1=$(now)
	psql_q -c "SET maintenance_work_mem = '256MB'" -f "$WORK/post.sql" -c "$analyze" >/dev/null
	t2=$(now)
	psql_last=$(secs "$t0" "$t2")
	echo "round $round: psql COPY $(secs "$t0" "$t1")s + keys/ANALYZE $(secs "$t1" "$t2")s = ${psql_last}s"
}
run_stampede() {
	local t0 t1
	t0=$(now)
	"$BIN" load --target "$PG_URL" --data "$DATA" --drop -q >"$WORK/load-$round.txt"
	t1=$(now)
	st_last=$(secs "$t0" "$t1")
	echo "round $round: stampede load ${st_last}s ($(tr "\r" "\n" <"$WORK/load-$round.txt" | grep -h phases | tail -1 || true))"
}
psql_t=() st_t=() ratio=()
for round in $(seq 1 "$ROUNDS"); do
	if ((round % 2)); then run_psql; run_stampede; else run_stampede; run_psql; fi
	psql_t+=("$psql_last") st_t+=("$st_last")
	ratio+=("$(echo "$psql_last / $st_last" | bc -l)")
	printf 'round %d: stampede/psql speed %.2fx\n' "$round" "${ratio[-1]}"
done
med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
lo() { printf '%s\n' "$@" | sort -g | head -1; }
hi() { printf '%s\n' "$@" | sort -g | tail -1; }
p=$(med "${psql_t[@]}") s=$(med "${st_t[@]}")
printf 'median of %d rounds: psql %.1fs [%.1f-%.1f] (%.0f rows/s)  stampede %.1fs [%.1f-%.1f] (%.0f rows/s)\n' "$ROUNDS" \
	"$p" "$(lo "${psql_t[@]}")" "$(hi "${psql_t[@]}")" "$(echo "$rows / $p" | bc -l)" \
	"$s" "$(lo "${st_t[@]}")" "$(hi "${st_t[@]}")" "$(echo "$rows / $s" | bc -l)"
printf 'stampede/psql speed, per round pair: median %.2fx [%.2f-%.2f]\n' "$(med "${ratio[@]}")" "$(lo "${ratio[@]}")" "$(hi "${ratio[@]}")"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
