#!/usr/bin/env bash
# postgres-for-tests.sh makes a local PostgreSQL ready for stampede's tests
# and prints the one line to eval:
#
#   eval "$(scripts/postgres-for-tests.sh)"   # sets STAMPEDE_TEST_POSTGRES
#
# It installs Debian's postgresql package when the server is missing
# (apt-get, quietly), starts the cluster when it is down, creates the role
# "stampede" and a throwaway database "stampede_test" (dropped and created
# anew on every call) on 127.0.0.1, and prints
#   export STAMPEDE_TEST_POSTGRES=postgres://stampede:...@127.0.0.1:PORT/stampede_test?sslmode=disable
# Everything else goes to stderr. Needs root (or sudo) for the install and
# to act as the postgres OS user. Idempotent.
set -euo pipefail

log() { echo "postgres-for-tests: $*" >&2; }

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

as_postgres() {
	if [ "$(id -u)" = 0 ]; then
		su postgres -s /bin/bash -c "$(printf '%q ' "$@")"
	else
		sudo -u postgres "$@"
	fi
}

if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
	log "installing postgresql (apt-get)"
	export DEBIAN_FRONTEND=noninteractive
	as_root apt-get update -qq >&2
	as_root apt-get install -y -qq postgresql >&2
fi

# The newest installed cluster; create one when the package left none.
cluster=$(pg_lsclusters -h 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$cluster" ]; then
	ver=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
	log "creating cluster $ver/main"
	as_root pg_createcluster "$ver" main >&2
	cluster=$(pg_lsclusters -h | sort -V | tail -n 1)
fi
read -r ver name port status _ <<<"$cluster"
if [ "$status" != online ]; then
	log "starting cluster $ver/$name on port $port"
	as_root pg_ctlcluster "$ver" "$name" start >&2 || as_root service postgresql start >&2
fi
for _ in $(seq 1 50); do
	if as_postgres pg_isready -q -h 127.0.0.1 -p "$port"; then break; fi
	sleep 0.2
done
as_postgres pg_isready -q -h 127.0.0.1 -p "$port" || { log "server on port $port does not answer"; exit 1; }

pass=${STAMPEDE_TEST_POSTGRES_PASSWORD:-stampede-test-pw}
# Local socket as the postgres superuser (peer auth) for administration.
psql_su() { as_postgres psql -X -q -v ON_ERROR_STOP=1 -p "$port" -d postgres "$@" >&2; }

psql_su -c "DO \$\$BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'stampede') THEN
    CREATE ROLE stampede LOGIN PASSWORD '$pass';
  ELSE
    ALTER ROLE stampede LOGIN PASSWORD '$pass';
  END IF;
END\$\$;"
psql_su -c "DROP DATABASE IF EXISTS stampede_test WITH (FORCE)"
psql_su -c "CREATE DATABASE stampede_test OWNER stampede"

echo "export STAMPEDE_TEST_POSTGRES='postgres://stampede:$pass@127.0.0.1:$port/stampede_test?sslmode=disable'"
