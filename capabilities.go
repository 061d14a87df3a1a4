package stampede

import "github.com/stampede-bench/stampede/family"

// What a family can do beyond running scenarios: optional interfaces the
// command line asks the catalog for, the same for a family of yours as
// for a built-in one. It never names a family. Package family documents
// each.

// Commander is implemented by families that contribute commands to the
// command line (the graph family's gen and load, kafka serve, nats
// serve); see package family.
type Commander = family.Commander

// Command describes a contributed command or a group of them; see
// package family.
type Command = family.Command

// CommandEnv is what a contributed command's Run gets; see package
// family.
type CommandEnv = family.CommandEnv

// ClusterResizer is implemented by families whose embedded cluster is
// sized by one of their run flags: `stampede sweep --nodes` then sets it
// per step; see package family.
type ClusterResizer = family.ClusterResizer

// StandInCluster is implemented by families whose embedded cluster is a
// stand-in inside each run; see package family.
type StandInCluster = family.StandInCluster

// RateTrender is implemented by families with per-second rate trends that
// `stampede merge` rebuilds from the merged counters; see package family.
type RateTrender = family.RateTrender

// RateTrend is one per-second trend and its counter; see package family.
type RateTrend = family.RateTrend
