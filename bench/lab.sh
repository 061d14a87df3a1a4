#!/usr/bin/env bash
# The third seed's scaling law in miniature (stampede lab, needs root):
# 1..6 real nats-server JetStream nodes, each in its own network namespace
# with its link shaped to LINK (tbf) and a 0.25-core cgroup quota, two
# client namespaces per node (same link, 0.25 cores), 2 KB messages, R1
# (high-throughput). ROUNDS rounds, the node order alternating (ascending,
# descending) so that a drift of the shared machine shows up as a spread,
# not as a slope. Per round: cluster acked TPS per node count, the linear
# fit's slope and R², and per-node acked TPS over what the link allows
# after framing (the model's peer figure); then medians and ranges across
# rounds. Load average and CPU model before and after.
#
#   sudo bench/lab.sh [ROUNDS=5] [NODES=1,2,3,4,5,6] [LINK=10mbit] [WINDOW=6s]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
nodes=${2:-1,2,3,4,5,6}
link=${3:-10mbit}
window=${4:-6s}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
go build -o "$tmp/stampede" ./cmd/stampede
rev=$(echo "$nodes" | tr ',' '\n' | tac | paste -sd,)
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: stampede lab nodes --nodes $nodes --link $link --node-cpu 0.25 --client-cpu 0.25 --clients-per-node 2 --window $window (order alternating)"
for r in $(seq 1 "$rounds"); do
  order=$nodes
  [ $((r % 2)) -eq 0 ] && order=$rev
  "$tmp/stampede" lab nodes --nodes "$order" --link "$link" --node-cpu 0.25 --client-cpu 0.25 \
    --clients-per-node 2 --window "$window" --out "$tmp/r$r" --data-dir "$tmp/data" >"$tmp/r$r.txt" 2>"$tmp/r$r.err" \
    || { echo "round $r failed:"; tail -3 "$tmp/r$r.err"; exit 1; }
  jq -r --arg r "$r" '
    .series[0] as $s
    | ($s.points | sort_by(.x)) as $p
    | "round \($r): " + ([$p[] | "\(.x | floor)n \(.step.tps | floor)"] | join(", "))
      + " | slope \($s.fit.slope | floor)/node, R² \($s.fit.r2 * 10000 | round / 10000)"
      + " | per node / link allows: " + ([$p[] | .step as $t | ($t.tps / $t.nodes / $t.link_tps_per_node * 1000 | round / 1000 | tostring)] | join(" "))
      + " | bounds: " + ([$p[] | .step.bound] | unique | join(", "))
      + " | machine busy " + ([$p[] | .step.host_busy * 100 | round] | min | tostring) + "–" + ([$p[] | .step.host_busy * 100 | round] | max | tostring) + "%"' "$tmp/r$r/lab.json"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); $(( $(date +%s) - start )) s"
jq -rs '
  def med: sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
  [.[] | .series[0]] as $ss
  | ($ss | map(.fit.slope)) as $sl | ($ss | map(.fit.r2)) as $r2
  | ([$ss[].points[] | .step | .tps / .nodes / .link_tps_per_node]) as $ratio
  | "across \($ss | length) rounds: slope median \($sl | med | floor) msgs/s per node (range \($sl | min | floor)–\($sl | max | floor)); "
    + "R² median \($r2 | med * 10000 | round / 10000) (range \($r2 | min * 10000 | round / 10000)–\($r2 | max * 10000 | round / 10000)); "
    + "per-node acked / link-allowed median \($ratio | med * 1000 | round / 1000) (range \($ratio | min * 1000 | round / 1000)–\($ratio | max * 1000 | round / 1000)), \($ratio | length) steps",
    (map(.series[0].points[]) | group_by(.x) | map("  \(.[0].x | floor) nodes: cluster TPS median \(map(.step.tps) | med | floor) (range \(map(.step.tps) | min | floor)–\(map(.step.tps) | max | floor))") | .[])
' "$tmp"/r*/lab.json
echo "model (last round):"
sed -n '/^per-node capacity model/,$p' "$tmp/r$rounds.txt" | grep -v '^results:'
