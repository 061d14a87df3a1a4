#!/usr/bin/env bash
# bench/autofdo_postgres.sh — the second seed's AutoFDO workflow, end to end,
# on a real C database: PostgreSQL from Debian's source package, built twice
# from one tree with gcc-11, profiled under stampede's five graph scenarios
# with perf, rebuilt with -fauto-profile, and judged by runs alternated
# between the two builds.
#
#   sudo bench/autofdo_postgres.sh [WORK]        # default WORK /tmp/stampede-autofdo
#
# Steps (each skipped when its output is already in WORK, so a second call
# resumes):
#   1. apt-get source postgresql-15 (the installed version, else the newest)
#   2. build "default": ./configure CC=gcc-11 CFLAGS="-O2 -g -gdwarf-4"
#      (RelWithDebInfo-style), VPATH build in WORK/build-default
#   3. initdb one data directory, start the default build on 127.0.0.1:PORT,
#      stampede gen ldbc + stampede load (SF, default 0.1)
#   4. one stampede run of the five scenarios with
#      --profile 'cmd=perf record -a -e cpu-clock -o {out}' (system-wide:
#      PostgreSQL forks a backend per connection when the scenario starts,
#      and perf -p samples such later forks without their names or
#      mappings, so create_gcov could not map them; create_gcov keeps only
#      the samples of the pg-default binary)
#   5. create_gcov --use_lbr=false --gcov_version=1 per scenario, then
#      profile_merger --gcov_version=1 into WORK/merged.afdo
#   6. build "afdo": the same configure, plus -fauto-profile=WORK/merged.afdo
#      (only the server, src/backend: the other programs are the default's)
#   7. RUNS (5) runs per build, the builds alternated A B B A ..., each run
#      all five scenarios with --warmup and --monitor pid=pg-BUILD (target CPU
#      per operation); the server restarted for every run on the same data
#   8. stampede compare default afdo: the seed's table (per-run avg and p95,
#      Mean, STDDEVP, STDDEVP/Mean, afdo/default) with a Mann-Whitney U
#      p-value and a confidence interval, and the environment table; written
#      to WORK/compare.md and WORK/compare.txt
#
# Environment (defaults): SF [0.1], RUNS [5], VUS [20], DURATION [15s] per
# scenario and run, WARMUP [3s], PROFILE_DURATION [30s] per scenario,
# PORT [15499], SCENARIOS [the five of the seed].
#
# Needs root (perf on the server's processes; the server runs as the
# postgres user), gcc-11, perf (linux-perf), create_gcov and profile_merger
# (autofdo), apt-get source access (deb-src lines: the script adds a
# deb-src list for Debian's own archive when there is none). Missing
# prerequisites: one line, exit 2. Nothing is left running: the server is
# stopped on exit, error and Ctrl+C.
#
# The two server binaries are copies named pg-default and pg-afdo, so their
# processes have names of their own (ps -o comm) and Debian's own PostgreSQL,
# if it runs, is neither profiled nor monitored.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

WORK=${1:-/tmp/stampede-autofdo}
SF=${SF:-0.1}
RUNS=${RUNS:-5}
VUS=${VUS:-20}
DURATION=${DURATION:-15s}
WARMUP=${WARMUP:-3s}
PROFILE_DURATION=${PROFILE_DURATION:-30s}
PORT=${PORT:-15499}
SCENARIOS=${SCENARIOS:-go.Go1Step go.Go2Step go.Go3Step find_path.FindShortestPath insert.InsertPersonScenario}
CFLAGS_BASE="-O2 -g -gdwarf-4"

die() { echo "autofdo_postgres.sh: $*" >&2; exit 2; }
say() { echo "== $*"; }

# --- prerequisites: one line naming everything missing -----------------
missing=()
[ "$(id -u)" = 0 ] || missing+=("root")
for c in gcc-11 perf create_gcov profile_merger apt-get make go; do
	command -v "$c" >/dev/null 2>&1 || missing+=("$c")
done
id postgres >/dev/null 2>&1 || missing+=("the postgres user (apt-get install postgresql-common)")
if ((${#missing[@]})); then
	die "missing: ${missing[*]} (Debian: apt-get install gcc-11 linux-perf autofdo make postgresql-common)"
fi
if ! perf stat -e cpu-clock true >/dev/null 2>&1; then
	die "perf cannot count cpu-clock here (kernel.perf_event_paranoid? running in a container without perf events?)"
fi

mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
chmod 755 "$WORK"
bin=$WORK/bin
mkdir -p "$bin"
data=$WORK/data
url="postgres://postgres@127.0.0.1:$PORT/ldbc?sslmode=disable"

server_pid=
stop_server() {
	if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
		kill -INT "$server_pid" 2>/dev/null || true # fast shutdown
		for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$server_pid" 2>/dev/null || true
	fi
	server_pid=
}
trap stop_server EXIT
trap 'stop_server; exit 130' INT TERM

# start_server BUILD: run WORK/BUILD/bin/pg-BUILD on the data directory and
# wait until it accepts connections.
start_server() {
	local exe=$inst/bin/pg-$1
	su postgres -s /bin/sh -c "exec '$exe' -D '$data' -p $PORT -k '$WORK/sock' -c listen_addresses=127.0.0.1 -c shared_buffers=256MB -c max_connections=200 -c synchronous_commit=off" \
		>>"$WORK/server-$1.log" 2>&1 &
	for _ in $(seq 300); do
		if [ -f "$data/postmaster.pid" ] && "$inst/bin/pg_isready" -q -h 127.0.0.1 -p "$PORT"; then
			server_pid=$(head -1 "$data/postmaster.pid")
			return 0
		fi
		sleep 0.1
	done
	die "pg-$1 did not start on port $PORT (see $WORK/server-$1.log)"
}

# --- 1. source --------------------------------------------------------------
src=$(ls -d "$WORK"/postgresql-15-*/ 2>/dev/null | head -1 || true)
if [ -z "$src" ]; then
	say "fetch the Debian source of postgresql-15"
	if ! apt-get source --print-uris -qq postgresql-15 >/dev/null 2>&1; then
		echo "   adding a deb-src list for Debian's archive (/etc/apt/sources.list.d/stampede-src.sources)"
		# shellcheck disable=SC1091
		. /etc/os-release
		cat >/etc/apt/sources.list.d/stampede-src.sources <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $VERSION_CODENAME $VERSION_CODENAME-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
		apt-get update -qq >/dev/null
	fi
	ver=$(dpkg-query -W -f '${Version}' postgresql-15 2>/dev/null || true)
	(cd "$WORK" && { [ -n "$ver" ] && apt-get source -qq "postgresql-15=$ver" >/dev/null 2>&1 || apt-get source -qq postgresql-15 >/dev/null; })
	src=$(ls -d "$WORK"/postgresql-15-*/ | head -1)
fi
src=${src%/}
echo "source: $src"

# --- builds -----------------------------------------------------------------
# Both builds are configured with the same prefix, WORK/default, so the
# optimized server finds the same share/ and lib/ files: "default" is built
# and installed whole (initdb, pg_isready, createdb come from it), "afdo"
# only the server (src/backend), copied next to it as pg-afdo.
inst=$WORK/default

# build NAME CFLAGS: a VPATH build of $src in WORK/build-NAME, skipped when
# its .cflags file already says CFLAGS; leaves WORK/default/bin/pg-NAME.
build() {
	local name=$1 flags=$2 dir=$WORK/build-$1
	if [ -x "$inst/bin/pg-$name" ] && [ "$(cat "$dir/.cflags" 2>/dev/null)" = "$flags" ]; then
		echo "   $name: built already ($flags)"
		return
	fi
	say "build $name: CC=gcc-11 CFLAGS=\"$flags\" (minutes; log in $dir/make.log)"
	rm -rf "$dir"
	mkdir -p "$dir"
	local t0=$SECONDS
	(cd "$dir" && "$src/configure" --prefix="$inst" --without-readline --without-zlib --without-icu --without-llvm \
		CC=gcc-11 CFLAGS="$flags" >configure.log 2>&1) || die "configure of $name failed (see $dir/configure.log)"
	if [ "$name" = default ]; then
		rm -rf "$inst"
		(cd "$dir" && make -s -j"$(nproc)" >make.log 2>&1 && make -s install >install.log 2>&1) || die "build of $name failed (see $dir/make.log)"
	else
		(cd "$dir" && make -s -j"$(nproc)" -C src/backend >make.log 2>&1) || die "build of $name failed (see $dir/make.log)"
	fi
	cp -f "$dir/src/backend/postgres" "$inst/bin/pg-$name"
	echo "$flags" >"$dir/.cflags"
	echo "   $name built in $((SECONDS - t0)) s"
}

say "build stampede"
go build -o "$bin/stampede" ./cmd/stampede
build default "$CFLAGS_BASE"

# --- 3. data ----------------------------------------------------------------
if [ ! -f "$WORK/loaded" ]; then
	say "initdb, LDBC SF$SF, load"
	rm -rf "$data" "$WORK/sock"
	mkdir -p "$data" "$WORK/sock"
	chown postgres "$data" "$WORK/sock"
	su postgres -s /bin/sh -c "'$inst/bin/initdb' -D '$data' --auth=trust -U postgres -E UTF8 --no-locale" >"$WORK/initdb.log" 2>&1 ||
		die "initdb failed (see $WORK/initdb.log)"
	start_server default
	"$inst/bin/createdb" -h 127.0.0.1 -p "$PORT" -U postgres ldbc
	[ -d "$WORK/sf$SF" ] || "$bin/stampede" gen ldbc --sf "$SF" --out "$WORK/sf$SF" --quiet
	"$bin/stampede" load --target "$url" --data "$WORK/sf$SF" -q
	stop_server
	touch "$WORK/loaded"
fi

# --- 4. profile -------------------------------------------------------------
# shellcheck disable=SC2086
if [ ! -f "$WORK/merged.afdo" ]; then
	say "profile the default build: $SCENARIOS ($PROFILE_DURATION each, perf record -a -e cpu-clock)"
	rm -rf "$WORK/profile-run"
	start_server default
	"$bin/stampede" run $SCENARIOS --target "$url" -u "$VUS" -d "$PROFILE_DURATION" --no-csv -q \
		--profile "cmd=perf record -a -e cpu-clock -o {out}" \
		--out "$WORK/profile-run" >"$WORK/profile-run.txt"
	stop_server

	# --- 5. gcov profiles, merged ---------------------------------------------
	say "create_gcov per scenario, profile_merger"
	afdos=()
	for f in "$WORK"/profile-run/profiles/*.perf.data; do
		out=${f%.perf.data}.afdo
		samples=$(perf report -i "$f" --stdio --sort dso 2>/dev/null | awk '/pg-default/ {print $1; exit}')
		create_gcov --binary="$inst/bin/pg-default" --profile="$f" --gcov="$out" \
			--use_lbr=false --gcov_version=1 >"$out.log" 2>&1 || die "create_gcov failed for $f (see $out.log)"
		echo "   $(basename "$f"): pg-default share of samples ${samples:-?} -> $(basename "$out") ($(stat -c %s "$out") bytes)"
		afdos+=("$out")
	done
	profile_merger --gcov_version=1 --output_file="$WORK/merged.afdo" "${afdos[@]}" >"$WORK/merge.log" 2>&1 ||
		die "profile_merger failed (see $WORK/merge.log)"
	echo "   merged.afdo: $(stat -c %s "$WORK/merged.afdo") bytes"
fi

# --- 6. the optimized build -------------------------------------------------
build afdo "$CFLAGS_BASE -fauto-profile=$WORK/merged.afdo"

# --- 7. runs, alternated ----------------------------------------------------
say "$RUNS runs per build, alternated, $DURATION per scenario (warm-up $WARMUP), $VUS VUs"
for i in $(seq "$RUNS"); do
	order="default afdo"
	if [ $((i % 2)) -eq 0 ]; then order="afdo default"; fi
	for b in $order; do
		dir=$(printf '%s/runs/%s/run-%02d' "$WORK" "$b" "$i")
		if [ -f "$dir/summary.json" ]; then
			echo "   run $i $b: done already"
			continue
		fi
		rm -rf "$dir"
		mkdir -p "$(dirname "$dir")"
		start_server "$b"
		echo "   run $i $b -> $dir (load $(cut -d' ' -f1 /proc/loadavg))"
		# A run whose scenarios fail still leaves its result directory; the
		# comparison below shows its errors.
		# shellcheck disable=SC2086
		"$bin/stampede" run $SCENARIOS --target "$url" -u "$VUS" -d "$DURATION" --warmup "$WARMUP" \
			--monitor "pid=pg-$b" --no-csv --no-report -q --out "$dir" >"$dir.txt" 2>&1 || echo "   (run $i $b exited $?: see $dir.txt)"
		stop_server
		sleep 2
	done
done

# --- 8. the table -----------------------------------------------------------
say "compare (environment, then per scenario: each run's value, Mean, STDDEVP, STDDEVP/Mean, afdo/default, p, CI)"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; PMU: $(ls /sys/bus/event_source/devices | tr '\n' ' ')"
"$bin/stampede" compare "$WORK/runs/default" "$WORK/runs/afdo" --names default,afdo \
	--metric responseTime:avg --metric responseTime:p95 --metric qps --metric target_cpu --format md >"$WORK/compare.md"
"$bin/stampede" compare "$WORK/runs/default" "$WORK/runs/afdo" --names default,afdo \
	--metric responseTime:avg --metric responseTime:p95 --metric qps --metric target_cpu | tee "$WORK/compare.txt"
echo "tables: $WORK/compare.md, $WORK/compare.txt"
