package driver

// Recoveries counts what a driver did by itself to keep its connections
// usable during a run.
type Recoveries struct {
	// Reconnects are new connections opened after a broken one.
	Reconnects int64
	// Relogins are sessions authenticated again on an open connection
	// after the server dropped the session (NebulaGraph's
	// E_SESSION_INVALID, E_SESSION_TIMEOUT).
	Relogins int64
}

// Sub is r minus base, field by field.
func (r Recoveries) Sub(base Recoveries) Recoveries {
	return Recoveries{Reconnects: r.Reconnects - base.Reconnects, Relogins: r.Relogins - base.Relogins}
}

// Recoverer is implemented by drivers that count their recoveries; safe
// for concurrent use.
type Recoverer interface {
	Recoveries() Recoveries
}
