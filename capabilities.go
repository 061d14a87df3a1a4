package stampede

import "github.com/stampede-bench/stampede/internal/workload"

// What a family can do beyond running scenarios: optional interfaces the
// command line asks the catalog for, the same for a family of yours as
// for a built-in one. It never names a family.

// Commander is implemented by families that contribute commands to the
// command line (the graph family's gen and load, kafka serve, nats
// serve): Commands() []Command, fresh values per command line.
type Commander = workload.Commander

// Command describes a contributed command or a group of them: Use, Short,
// Long, Example, Hidden, MaxArgs, Flags (binds its flags), Run and Sub. A
// group whose name another family already gave adds its subcommands to
// it.
type Command = workload.Command

// CommandEnv is what a contributed command's Run gets: Args, the
// CommandLine, Stdin, Stdout, Stderr, StderrTerminal (draw progress only
// then), Getenv and Changed (whether the user gave a flag).
type CommandEnv = workload.CommandEnv

// ClusterResizer is implemented by families whose embedded cluster is
// sized by one of their run flags (NodesFlag): `stampede sweep --nodes`
// then sets it per step; ResizeNote completes the refusal when it cannot.
type ClusterResizer = workload.ClusterResizer

// StandInCluster is implemented by families whose embedded cluster is a
// stand-in inside each run: RefuseNodeSweep(scenario) returns the usage
// error for a node sweep on it that a --before-step hook would resize.
type StandInCluster = workload.StandInCluster

// RateTrender is implemented by families with per-second rate trends
// (RateTrends) that `stampede merge` rebuilds from the merged counters.
type RateTrender = workload.RateTrender

// RateTrend is one per-second trend and its counter:
//
//	Trend, Counter string // metric names, with tags as the series spells them
//	Sparse         bool   // the trend appears in only some runs (one phase of a scenario)
type RateTrend = workload.RateTrend
