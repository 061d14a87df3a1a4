// Package lab builds a lab fabric on one Linux machine: a network
// namespace per host (broker node or load generator), each joined to a
// bridge in a hub namespace through a veth pair whose two ends are shaped
// by tc (tbf rate, netem delay/loss/jitter where the kernel has netem),
// and a cgroup v1 cpu quota (cpu.cfs_quota_us) per host, with cpuacct for
// what the host used.
//
// Addresses come from 198.18.0.0/24 (RFC 2544's benchmarking range), are
// assigned only inside namespaces the lab created, and have no route out:
// no namespace gets a default route and nothing is attached to the host's
// own interfaces. The lab's own control traffic (reading stream state,
// creating streams) enters the hub namespace from this process through
// Dial, which opens the socket on a thread moved into the hub namespace.
//
// Everything a fabric creates is recorded as it is created, in memory and
// in a ledger file, and removed by Down in reverse order: processes in the
// host cgroups are killed, namespaces (and with them every veth and qdisc)
// deleted, cgroups removed. Clean removes what a lab whose owner process
// died left behind. The package needs root, ip(8) and tc(8); Preflight
// says in one line what is missing.
package lab
