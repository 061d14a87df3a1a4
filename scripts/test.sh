#!/usr/bin/env bash
# Runs every stampede test on a fresh machine. It installs and starts what
# the tests need when it is missing (Debian packages: PostgreSQL for the
# SQL driver tests, Chromium for the HTML report test, kcat for the kafka serve
# test), then runs go vet
# and go test over the whole module. CI runs exactly this (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v kcat >/dev/null 2>&1 || missing+=(kcat)
command -v influxd >/dev/null 2>&1 || missing+=(influxdb)     # InfluxDB output tests (a real 1.x server)
command -v prometheus >/dev/null 2>&1 || missing+=(prometheus) # remote-write output tests (a real server)
command -v perf >/dev/null 2>&1 || missing+=(linux-perf)  # profiler attach tests (internal/profile)
# node_exporter and process-exporter for the --monitor tests (internal/monitor, run --monitor).
[ -x /usr/bin/prometheus-node-exporter ] || missing+=(prometheus-node-exporter)
[ -x /usr/bin/prometheus-process-exporter ] || missing+=(prometheus-process-exporter)
if ! command -v pg_ctlcluster >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
	missing+=(postgresql)
fi
if ((${#missing[@]})); then
	echo "test.sh: installing ${missing[*]}" >&2
	if [[ $(id -u) -eq 0 ]]; then SUDO=(); else SUDO=(sudo); fi
	"${SUDO[@]}" apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# PostgreSQL: started if needed, a throwaway database on 127.0.0.1; the
# script prints `export STAMPEDE_TEST_POSTGRES=...`.
if [[ -x scripts/postgres-for-tests.sh ]]; then
	eval "$(scripts/postgres-for-tests.sh)"
fi
export STAMPEDE_CHROMIUM="${STAMPEDE_CHROMIUM:-$(command -v chromium)}"

test -z "$(gofmt -l cmd internal)" || { echo "gofmt needed:"; gofmt -l cmd internal; exit 1; }
go vet ./...
go test -count=1 -timeout 20m ./...
