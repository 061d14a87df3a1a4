// Package cputime reads the CPU time this process has used: user plus
// system, every thread, from the kernel's accounting (getrusage(2)). It is
// the figure stampede's self-checks and its benchmarks' cpu-ns/op report,
// steadier than wall time on a shared machine.
package cputime
