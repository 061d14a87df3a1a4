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
# ROUNDS times (default 2), interleaved; prints each round and the medians.
set -euo pipefail
cd "$(dirname "$0")/.."

SF=${1:-1}
PG_URL=${PG_URL:-${STAMPEDE_TEST_POSTGRES:?set PG_URL}}
WORK=${WORK:-/tmp/stampede-bench-import-full}
ROUNDS=${ROUNDS:-2}
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

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); SF $SF, $rows rows"
psql_t=() st_t=()
for round in $(seq 1 "$ROUNDS"); do
	psql_q -c "DROP TABLE IF EXISTS $tables"
	psql_q -f "$WORK/pre.sql" >/dev/null
	t0=$(now)
	for f in "$DATA"/social_network/static/*.csv "$DATA"/social_network/dynamic/*.csv; do
		t=$(basename "$f" _0_0.csv | tr 'A-Z' 'a-z')
		psql_q -c "\\copy $t FROM '$f' WITH (FORMAT csv, DELIMITER '|', HEADER true, QUOTE E'\\x01', NULL E'\\x02')"
	done
	t1=$(now)
	psql_q -c "SET maintenance_work_mem = '256MB'" -f "$WORK/post.sql" -c "$analyze" >/dev/null
	t2=$(now)
	psql_t+=("$(secs "$t0" "$t2")")
	echo "round $round: psql COPY $(secs "$t0" "$t1")s + keys/ANALYZE $(secs "$t1" "$t2")s = $(secs "$t0" "$t2")s"

	t0=$(now)
	"$BIN" load --target "$PG_URL" --data "$DATA" --drop -q >"$WORK/load-$round.txt"
	t1=$(now)
	st_t+=("$(secs "$t0" "$t1")")
	echo "round $round: stampede load $(secs "$t0" "$t1")s ($(grep -h phases "$WORK/load-$round.txt" || true))"
done
med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
p=$(med "${psql_t[@]}") s=$(med "${st_t[@]}")
printf 'median: psql %.1fs (%.0f rows/s)  stampede %.1fs (%.0f rows/s)  stampede/psql speed %.2fx\n' \
	"$p" "$(echo "$rows / $p" | bc -l)" "$s" "$(echo "$rows / $s" | bc -l)" "$(echo "$p / $s" | bc -l)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
