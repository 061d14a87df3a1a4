#!/usr/bin/env bash
# kafka_many_topics.sh — 200 topics × 1 producer each on the embedded
# cluster (in process, records kept), 200 VUs for 10 s. It must run without
# errors and the summary must be out within 2 s after the run ends.
# (Formerly the MANY_TOPICS part of kafka_vs_kcat.sh, whose comparison with
# kcat is now bench/msg_vs_peers.sh.)
#
# Usage: bench/kafka_many_topics.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/kafka_many_topics.XXXXXX)
trap 'rm -rf "$work"' EXIT
go build -o "$work/stampede" ./cmd/stampede
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$work/stampede" run kafka.Produce --topics 200 --producers 1 -u 200 -d 10s --no-csv --no-report \
	--out "$work/many" >"$work/many.txt" 2>&1
done_at=$(date +%s.%N)
python3 - "$work/many/snapshot.json" "$done_at" <<'PY'
import json, sys, datetime
snap = json.load(open(sys.argv[1]))
sc = snap["scenarios"][0]
end = datetime.datetime.fromisoformat(sc["end"].replace("Z", "+00:00")).timestamp()
start = datetime.datetime.fromisoformat(sc["start"].replace("Z", "+00:00")).timestamp()
c = sc["counters"]
after = float(sys.argv[2]) - end
print(f"200 topics × 1 producer, 200 VUs, 10 s: {c['messages']} messages, {c['messages'] / (end - start):.0f} msgs/s, "
      f"errors {c.get('errors', 0)}, summary and exit {after:.2f} s after the run ended")
sys.exit(0 if c.get("errors", 0) == 0 and after < 2 else 1)
PY
grep -E 'per topic|topic_msgs_per_s' -A2 "$work/many.txt" | head -6
