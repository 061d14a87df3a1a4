#!/usr/bin/env bash
# nebula_client_cost.sh — the NebulaGraph driver's client cost per simple
# query (issue #14), this tree against an older one, rounds interleaved.
#
# Per round, in this order:
#   new: BenchmarkClientInMemory/{own,apache}   no socket: Conn.Do + record
#        against a canned graphd in memory (the client's own work)
#   new: BenchmarkDoRecordedCanned/{own,apache}, BenchmarkTCPRoundTripCanned
#        over loopback to a canned graphd in another process, and the bare
#        round trip of the same request and answer bytes (the peer)
#   new: BenchmarkCannedPaired/{own,apache}: the same two in one process,
#        blocks of 200 queries alternating, reporting the difference
#        (overhead-µs/op): the least noisy of the socket measurements
#   new: BenchmarkDoRecorded, BenchmarkTCPRoundTripPeer  (stand-in graphd;
#        63-byte echo peer), as in the earlier #14 section
#   old: BenchmarkDoRecorded, BenchmarkTCPRoundTripPeer  of OLD_TREE
# cpu-µs/op is getrusage(user+sys) of the benchmark process / queries; the
# servers run in other processes. Medians per benchmark at the end.
#
# Usage: bench/nebula_client_cost.sh [ROUNDS] [OLD_TREE]
#   ROUNDS    default 5
#   OLD_TREE  a checkout to compare with (default /work/main); only built
#   env CPU   GOMAXPROCS of the benchmarks (default 1)
#       N     socket queries per benchmark (default 20000)
set -euo pipefail
ROUNDS=${1:-5}
OLD=${2:-/work/main}
CPU=${CPU:-1}
N=${N:-20000}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/new.test" ./internal/driver/nebula
(cd "$OLD" && go test -c -o "$tmp/old.test" ./internal/driver/nebula)
echo "new: $(git rev-parse --short HEAD)  old: $(git -C "$OLD" rev-parse --short HEAD)  GOMAXPROCS $CPU  $N queries  $(nproc) cores"
cd internal/driver/nebula
out=$tmp/out
for r in $(seq "$ROUNDS"); do
	echo "round $r: load average $(cut -d' ' -f1-3 /proc/loadavg)"
	"$tmp/new.test" -test.run '^$' -test.bench 'ClientInMemory' -test.benchtime $((N * 5))x -test.cpu "$CPU" -test.benchmem | sed 's/^/new /' | grep Benchmark | tee -a "$out"
	"$tmp/new.test" -test.run '^$' -test.bench 'Canned|DoRecorded$|TCPRoundTripPeer' -test.benchtime "${N}x" -test.cpu "$CPU" -test.benchmem | sed 's/^/new /' | grep Benchmark | tee -a "$out"
	"$tmp/old.test" -test.run '^$' -test.bench 'DoRecorded$|TCPRoundTripPeer' -test.benchtime "${N}x" -test.cpu "$CPU" -test.benchmem | sed 's/^/old /' | grep Benchmark | tee -a "$out"
done
echo
echo "medians over $ROUNDS rounds (ns/op wall, cpu-µs/op, allocs/op):"
awk '
	{
		key = $1 " " $2; sub(/-[0-9]+$/, "", key)
		ns[key] = ns[key] " " $4
		cpu[key] = cpu[key] " " (($7 == "cpu-µs/op") ? $6 : $4 / 1000)
		for (i = 5; i < NF; i++) if ($(i+1) == "allocs/op") al[key] = $i
	}
	function median(s,   a, n, i, j, t) {
		n = split(s, a, " ")
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
		return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	/overhead-µs\/op/ { for (i = 5; i < NF; i++) { if ($(i+1) == "driver-µs/op") dr[key] = dr[key] " " $i; if ($(i+1) == "peer-µs/op") pe[key] = pe[key] " " $i; if ($(i+1) == "overhead-µs/op") ov[key] = ov[key] " " $i } }
	END {
		for (k in ns) if (!(k in ov)) printf "%-50s %10.0f %8.2f %4s\n", k, median(ns[k]), median(cpu[k]), al[k]
		for (k in ov) printf "%-50s driver %.2f  peer %.2f  overhead %.2f cpu-µs/op (rounds:%s)\n", k, median(dr[k]), median(pe[k]), median(ov[k]), ov[k]
	}
' "$out" | sort
