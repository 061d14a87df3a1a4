#!/usr/bin/env bash
# bench/import.sh — import speed of `stampede load`, against psql's \copy of
# the same files in the same run, for LDBC persons + knows.
#
#   eval "$(scripts/postgres-for-tests.sh)"     # or set PG_URL yourself
#   bench/import.sh [SF]                        # default SF 1
#
# Steps, each timed with the wall clock:
#   1. stampede gen ldbc --sf SF (skipped when the data is there)
#   2. a persons+knows-only copy of the data set (the other files keep only
#      their header, so both tools load the same rows)
#   3. psql: CREATE TABLE (no keys) + \copy person + \copy knows   = "plain COPY"
#      then the same keys/indexes and ANALYZE stampede builds       = "COPY + indexes"
#   4. stampede load --drop into PostgreSQL (validation, concurrent COPY,
#      keys, ANALYZE, count verification)
#   5. stampede load into a fresh SQLite file
# ROUNDS times (default 3), interleaved, and prints the median seconds and
# rows/s of each and stampede's rate as a share of psql's plain COPY.
set -euo pipefail
cd "$(dirname "$0")/.."

SF=${1:-1}
PG_URL=${PG_URL:-${STAMPEDE_TEST_POSTGRES:?set PG_URL or eval scripts/postgres-for-tests.sh}}
WORK=${WORK:-/tmp/stampede-bench-import}
BIN=$WORK/stampede
mkdir -p "$WORK"
go build -o "$BIN" ./cmd/stampede

DATA=$WORK/sf$SF
if [ ! -f "$DATA/social_network/dynamic/person_0_0.csv" ]; then
	"$BIN" gen ldbc --sf "$SF" --out "$DATA" --quiet >/dev/null
fi
PK=$WORK/sf$SF-person-knows
rm -rf "$PK" && cp -r "$DATA" "$PK"
for f in "$PK"/social_network/static/*.csv "$PK"/social_network/dynamic/*.csv; do
	case "$(basename "$f")" in
	person_0_0.csv | person_knows_person_0_0.csv) ;;
	*) head -n 1 "$f" >"$f.tmp" && mv "$f.tmp" "$f" ;;
	esac
done
persons=$(($(wc -l <"$PK/social_network/dynamic/person_0_0.csv") - 1))
knows=$(($(wc -l <"$PK/social_network/dynamic/person_knows_person_0_0.csv") - 1))
rows=$((persons + knows))

now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc -l; }

psql_q() { psql "$PG_URL" -X -q -v ON_ERROR_STOP=1 "$@" 2> >(grep -v 'NOTICE' >&2); }
drop_all() {
	psql_q -c "DROP TABLE IF EXISTS stampede_meta, person, person_knows_person, person_islocatedin_place, person_hasinterest_tag, person_studyat_organisation, person_workat_organisation, person_email_emailaddress, person_speaks_language, place, place_ispartof_place, organisation, organisation_islocatedin_place, tagclass, tagclass_issubclassof_tagclass, tag, tag_hastype_tagclass"
}

ROUNDS=${ROUNDS:-3}
copy_t=() copyix_t=() pg_t=() sq_t=()
for round in $(seq 1 "$ROUNDS"); do
	# --- psql \copy baseline: same empty key-less tables as stampede creates
	drop_all
	psql_q -c "CREATE TABLE person (id BIGINT NOT NULL, firstname TEXT NOT NULL, lastname TEXT NOT NULL, gender TEXT NOT NULL, birthday DATE NOT NULL, creationdate TIMESTAMPTZ NOT NULL, locationip TEXT NOT NULL, browserused TEXT NOT NULL)" \
		-c "CREATE TABLE person_knows_person (person1id BIGINT NOT NULL, person2id BIGINT NOT NULL, creationdate TIMESTAMPTZ NOT NULL)"
	t0=$(now)
	psql_q -c "\\copy person FROM '$PK/social_network/dynamic/person_0_0.csv' WITH (FORMAT csv, DELIMITER '|', HEADER true)" \
		-c "\\copy person_knows_person FROM '$PK/social_network/dynamic/person_knows_person_0_0.csv' WITH (FORMAT csv, DELIMITER '|', HEADER true)"
	t1=$(now)
	# the keys, indexes and statistics stampede builds, one after the other
	psql_q -c "SET maintenance_work_mem = '256MB'" -c "ALTER TABLE person ADD PRIMARY KEY (id)" -c "ALTER TABLE person_knows_person ADD PRIMARY KEY (person1id, person2id)" \
		-c "CREATE INDEX person_knows_person_ix1 ON person_knows_person (person2id, person1id)" -c "ANALYZE person (id), person_knows_person (person1id, person2id)"
	t2=$(now)
	copy_t+=("$(secs "$t0" "$t1")")
	copyix_t+=("$(secs "$t0" "$t2")")

	# --- stampede load into PostgreSQL (everything: validation, COPY, keys, ANALYZE, counts)
	drop_all
	t0=$(now)
	"$BIN" load --target "$PG_URL" --data "$PK" --drop -q >"$WORK/load-pg-$round.txt"
	t1=$(now)
	pg_t+=("$(secs "$t0" "$t1")")

	# --- stampede load into a new SQLite file
	rm -f "$WORK/sf$SF.db" "$WORK/sf$SF.db-wal" "$WORK/sf$SF.db-shm"
	t0=$(now)
	"$BIN" load --target "sqlite://$WORK/sf$SF.db" --data "$PK" -q >"$WORK/load-sqlite-$round.txt"
	t1=$(now)
	sq_t+=("$(secs "$t0" "$t1")")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
copy_s=$(median "${copy_t[@]}")
copyix_s=$(median "${copyix_t[@]}")
st_pg_s=$(median "${pg_t[@]}")
st_sq_s=$(median "${sq_t[@]}")

rate() { printf '%.0f' "$(echo "$rows / $1" | bc -l)"; }
pct() { printf '%.0f' "$(echo "100 * $2 / $1" | bc -l)"; }
cat <<OUT
SF $SF: $persons persons + $knows knows = $rows rows; median of $ROUNDS interleaved rounds
($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), PostgreSQL $(psql "$PG_URL" -XAtc 'show server_version' | cut -d' ' -f1))
tool                                seconds    rows/s   vs plain COPY
psql \\copy (plain COPY, no keys)   $(printf '%8.2f' "$copy_s")  $(printf '%8s' "$(rate "$copy_s")")   100%
psql \\copy + keys + ANALYZE        $(printf '%8.2f' "$copyix_s")  $(printf '%8s' "$(rate "$copyix_s")")   $(pct "$copyix_s" "$copy_s")%
stampede load postgres (all steps)  $(printf '%8.2f' "$st_pg_s")  $(printf '%8s' "$(rate "$st_pg_s")")   $(pct "$st_pg_s" "$copy_s")%
stampede load sqlite   (all steps)  $(printf '%8.2f' "$st_sq_s")  $(printf '%8s' "$(rate "$st_sq_s")")
stampede phases (last round): postgres: $(tail -n 1 "$WORK/load-pg-$ROUNDS.txt")
                              sqlite:   $(tail -n 1 "$WORK/load-sqlite-$ROUNDS.txt")
OUT
drop_all
