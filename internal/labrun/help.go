package labrun

// The help texts of `stampede lab`, which runs this package's experiments.
const (
	// CommandShort is the command's one-line description.
	CommandShort = "Reproduce the seed's scaling law in miniature: real JetStream nodes on shaped links and CPU quotas (root)"
	// CommandLong is the command's description.
	CommandLong = `Build a lab on this machine — one network namespace per broker node and per
client, veth pairs into a bridge, each link shaped by tc (tbf rate, netem
delay/loss/jitter where the kernel has netem), each host's CPU capped by a
cgroup v1 quota — run real nats-server JetStream nodes and stampede
generators in it, and measure every step from the lab's own counters:
bytes and packets per link, CPU per host from its cgroup, acknowledged
messages per stream on its leader. The verdict of each step names what
bounded it (node link, node CPU, client link, client CPU), from those
numbers; each series gets a linear fit with R², and the report states the
per-node capacity model and what it predicts for the seed's fleet.

Presets: nodes (TPS vs node count, clients = --clients-per-node × nodes),
clients (TPS vs clients at --nodes N: where the curve bends), topics
(TPS vs streams per node), budgets (nodes again with a CPU quota below what
the link allows: change one budget, watch the curve follow).

Needs root, ip and tc (iproute2), cgroup v1 cpu and cpuacct. Everything it
creates is removed on exit, on error and on Ctrl+C; 'stampede lab clean'
removes what a killed lab left.`
	// CommandExample is the command's examples.
	CommandExample = `  stampede lab nodes --nodes 1,2,3,4,5,6 --link 10mbit
  stampede lab clients --nodes 3
  stampede lab budgets --nodes 1,2,3 --cpu-bound-cpu 0.015
  stampede lab nodes --profile high-reliability --nodes 3,4,5,6`
)
