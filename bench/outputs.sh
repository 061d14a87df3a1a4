#!/usr/bin/env bash
# Throughput cost of the live outputs: builtin.Noop at a constant arrival
# rate (default 100,000/s), with no live output and with Prometheus
# (scraped every second) plus InfluxDB (a local HTTP sink) on, interleaved
# A/B in one session so the noise of a shared machine hits both alike.
# Then the same without a rate limit (closed model), where any cost would
# show directly as lost throughput.
#
#   bench/outputs.sh [RATE] [SECONDS] [PAIRS]      defaults: 100000 20 3
#
# Reports per run achieved ops/s, dropped iterations, the generator's own
# CPU (selfcheck.json) and ops per core-second (throughput per CPU the
# generator actually got: the fair comparison on a shared machine). Needs
# python3 and curl.
set -euo pipefail
cd "$(dirname "$0")/.."
rate=${1:-100000}
secs=${2:-20}
pairs=${3:-3}
work=$(mktemp -d)
bin=$work/stampede
go build -o "$bin" ./cmd/stampede

# InfluxDB stand-in: accepts every write, counts lines.
cat >"$work/sink.py" <<'PY'
import http.server, sys
lines = 0
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        global lines
        n = int(self.headers.get("Content-Length", 0))
        lines += self.rfile.read(n).count(b"\n")
        self.send_response(204); self.end_headers()
    def log_message(self, *a): pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
PY
python3 "$work/sink.py" >"$work/sink.port" &
sink=$!
scraper=
trap 'kill $sink 2>/dev/null; [[ -n $scraper ]] && kill $scraper 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [[ -s $work/sink.port ]] && break; sleep 0.1; done
sinkport=$(cat "$work/sink.port")
promport=$((20000 + RANDOM % 20000))

summary() { # dir label
	python3 - "$1" "$2" <<'PY'
import json, sys
d, label = sys.argv[1], sys.argv[2]
snap = json.load(open(d + "/snapshot.json"))
sc = snap["scenarios"][0]
from datetime import datetime
def t(s):
    s = s.rstrip("Z"); s = s[:26]
    return datetime.fromisoformat(s)
dur = (t(sc["end"]) - t(sc["start"])).total_seconds()
it = sc["counters"].get("iterations", 0)
dropped = sc["counters"].get("dropped_iterations", 0)
try:
    sc = json.load(open(d + "/selfcheck.json"))
    cpu = [s["cpu"] for s in sc["samples"]]
    cpu, cores = sum(cpu) / len(cpu), sc["cores"]
except Exception:
    cpu, cores = float("nan"), 1
# ops per core-second: throughput normalised by the CPU the generator got,
# which on a shared machine varies more than any output costs.
print(f"{label}\t{it/dur:12.0f}\t{dropped:10d}\t{100*cpu:6.1f}%\t{it/dur/(cpu*cores):14.0f}")
PY
}

run() { # label dir extra-args...
	local label=$1 dir=$2
	shift 2
	"$bin" run builtin.Noop "$@" --no-csv --no-report --quiet --out "$dir" >/dev/null
	summary "$dir" "$label"
}

scrape() { while :; do curl -s "http://127.0.0.1:$promport/metrics" >/dev/null 2>&1 || true; sleep 1; done; }

echo "# open model: --rate $rate for ${secs}s, $pairs pairs (off, on)"
printf 'run\tops/s\tdropped\tgenerator CPU\tops per core-second\n'
for i in $(seq "$pairs"); do
	run "off-$i" "$work/rate-off-$i" --rate "$rate" -u 50 --max-vus 400 -d "${secs}s"
	scrape & scraper=$!
	run "on-$i" "$work/rate-on-$i" --rate "$rate" -u 50 --max-vus 400 -d "${secs}s" \
		--prometheus "127.0.0.1:$promport" --out "influxdb=http://127.0.0.1:$sinkport/stampede"
	kill $scraper; wait $scraper 2>/dev/null || true; scraper=
done

echo
echo "# closed model: 4 VUs flat out for ${secs}s, $pairs pairs (off, on)"
printf 'run\tops/s\tdropped\tgenerator CPU\tops per core-second\n'
for i in $(seq "$pairs"); do
	run "off-$i" "$work/closed-off-$i" -u 4 -d "${secs}s"
	scrape & scraper=$!
	run "on-$i" "$work/closed-on-$i" -u 4 -d "${secs}s" \
		--prometheus "127.0.0.1:$promport" --out "influxdb=http://127.0.0.1:$sinkport/stampede"
	kill $scraper; wait $scraper 2>/dev/null || true; scraper=
done
