package msgload

import "context"

// Ref is where a broker stored one acknowledged message: the index of the
// topic or stream among the run's, the partition (0 for NATS) and the
// offset or stream sequence from the acknowledgement.
type Ref struct {
	Part      int
	Partition int32
	Seq       int64
}

// Holder answers whether the broker still holds an acknowledged message.
// Ledger.Verify asks it about every message that was acknowledged but not
// consumed in time: only a definite "no" (false, nil) counts as lost; an
// error leaves the message unconfirmed.
type Holder interface {
	Holds(ctx context.Context, ref Ref) (bool, error)
}

// NodeKiller is implemented by an embedded cluster whose nodes a fault can
// crash: Kill sends SIGKILL to node i (0-based) and waits for it to end,
// Restart starts it again with its store and waits until it is healthy.
// Leader names the node that leads topic or stream part (-1 when unknown).
type NodeKiller interface {
	Nodes() int
	Kill(i int) error
	Restart(ctx context.Context, i int) error
	Leader(ctx context.Context, part int) int
	NodeName(i int) string
}
