#!/usr/bin/env bash
# CPU cost of the live web dashboard (--web-dashboard): builtin.Noop at a
# constant arrival rate, without and with the dashboard (one client
# following its event stream, as a browser would), alternated round by
# round (off/on, then on/off) so that a shared machine's noise hits both.
#
#   bench/webdash.sh [RATE] [SECONDS] [ROUNDS]      defaults: 20000 10 6
#
# The figure is the stampede process's own CPU (user+system, getrusage of
# the child) per operation, and its ratio on/off; medians and ranges over
# the rounds, the CPU model and the load average before and after. Needs
# python3 and curl.
set -euo pipefail
cd "$(dirname "$0")/.."
rate=${1:-20000}
secs=${2:-10}
rounds=${3:-6}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/stampede" ./cmd/stampede
python3 - "$work" "$rate" "$secs" "$rounds" <<'PY'
import json, os, socket, statistics, subprocess, sys, time
work, rate, secs, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
bin = os.path.join(work, "stampede")

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

def one(label, dash):
    out = os.path.join(work, label)
    args = [bin, "run", "builtin.Noop", "--rate", rate, "-u", "20", "--max-vus", "200", "-d", secs + "s",
            "--no-csv", "--no-report", "--quiet", "--out", out]
    port = free_port()
    if dash:
        args += ["--web-dashboard", "--web-dashboard-port", str(port)]
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = None
    if dash:  # a browser's event stream, read to the end of the run
        for _ in range(600):
            try:
                socket.create_connection(("127.0.0.1", port), 0.1).close(); break
            except OSError:
                time.sleep(0.05)
        client = subprocess.Popen(["curl", "-sN", "--retry", "30", "--retry-connrefused", "--retry-delay", "0", "-o", os.path.join(work, label + ".events"), f"http://127.0.0.1:{port}/events"])
    _, status, ru = os.wait4(p.pid, 0)  # the stampede process's own CPU, not curl's
    p.returncode = os.waitstatus_to_exitcode(status)
    if client:
        client.wait(timeout=10)
    if p.returncode != 0:
        sys.exit(f"{label}: exit {p.returncode}")
    cpu = ru.ru_utime + ru.ru_stime
    snap = json.load(open(os.path.join(out, "snapshot.json")))
    it = sum(sc["counters"].get("iterations", 0) for sc in snap["scenarios"])
    events = 0
    if dash:
        try:
            events = open(os.path.join(work, label + ".events"), "rb").read().count(b"\nevent: payload")
        except OSError:
            events = 0
    return cpu, it, events

def loadavg():
    return open("/proc/loadavg").read().split()[:3]

model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"# CPU: {model}, {os.cpu_count()} threads; load before: {' '.join(loadavg())}")
print(f"# builtin.Noop --rate {rate} for {secs}s, {rounds} rounds alternated (off/on, on/off)")
print("round\tmode\tCPU s\titerations\tµs CPU/op\tevents received")
res = {False: [], True: []}
ratios, extra = [], []  # on/off CPU per op; on-off CPU ms per second of run
cpus = {}
for r in range(1, rounds + 1):
    order = [False, True] if r % 2 else [True, False]
    got = {}
    for dash in order:
        cpu, it, ev = one(f"r{r}-{'on' if dash else 'off'}", dash)
        per = 1e6 * cpu / max(it, 1)
        got[dash] = per
        cpus[dash] = cpu
        res[dash].append(per)
        print(f"{r}\t{'on' if dash else 'off'}\t{cpu:.2f}\t{it}\t{per:.3f}\t{ev if dash else '-'}")
    ratios.append(got[True] / got[False])
    extra.append(1e3 * (cpus[True] - cpus[False]) / float(secs))
def rng(xs): return f"[{min(xs):.3f}–{max(xs):.3f}]"
print()
for dash in (False, True):
    xs = res[dash]
    print(f"{'on ' if dash else 'off'}: median {statistics.median(xs):.3f} µs CPU/op {rng(xs)}")
print(f"on/off ratio per round: median {statistics.median(ratios):.3f} {rng(ratios)}")
print(f"on-off CPU per second of run: median {statistics.median(extra):.1f} ms {rng(extra)}")
print(f"# load after: {' '.join(loadavg())}")
PY
