package nats

import (
	"strings"

	"github.com/stampede-bench/stampede/families/nats/natsopt"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// Options are the nats family's settings, declared in the public package
// natsopt. Each field's comment gives its unit, its default
// (DefaultOptions) and the run flag that sets it. Start from
// DefaultOptions, change fields, then Validate.
type Options = natsopt.Options

// Flag names a profile may set, as natsopt's profile table spells them
// (TestProfileSettingsAreFlags).
const (
	flagReplicas = "nats-replicas"
	flagMode     = "nats-publish"
	flagFsync    = "nats-fsync"
)

// DefaultOptions returns the defaults of a bare `stampede run
// nats.Publish`: the high-throughput profile.
func DefaultOptions() Options { return natsopt.DefaultOptions() }

// streamNames lists the load streams.
func streamNames(o *Options) []string { return workload.NumberedNames(o.StreamPrefix, o.Streams) }

// subjectOf is stream PREFIX-i's subject, PREFIX.i.
func subjectOf(stream string) string {
	i := strings.LastIndexByte(stream, '-')
	if i < 0 {
		return stream
	}
	return stream[:i] + "." + stream[i+1:]
}

// killSpec is the parsed --kill-node.
func killSpec(o *Options) (msgload.KillSpec, error) {
	return msgload.ParseKill(o.KillNode, o.KillWhich)
}

// faulting tells whether the run has a fault window: churn or a kill.
func faulting(o *Options) bool {
	k, _ := killSpec(o)
	return o.Churning() || k.Enabled()
}
