package stampede

import (
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// Counter is a custom counter metric of a run: a family registers it in
// Open (NewCounter) and its VUs add to it (Iteration.Add). The summaries
// show its count and rate per second; a threshold such as
// 'cache_misses: count<10' judges it.
type Counter struct{ id metrics.ID }

// Trend is a custom trend metric of durations: registered in Open
// (NewTrend), observed by the VUs (Iteration.Observe). The summaries show
// its statistics in milliseconds like responseTime's; a threshold such as
// 'queue_wait: p(95)<20' judges it.
type Trend struct{ id metrics.ID }

// Check is a named check: registered in Open (NewCheck), recorded by the
// VUs (Iteration.Check) in its own rate and in k6's checks rate. The k6
// summary lists it under its name.
type Check struct{ id metrics.ID }

// NewCounter registers the counter name for the run env belongs to. Call
// it from Family.Open; a name the run has already (a built-in metric or
// one registered before) is an error.
func NewCounter(env *Env, name string) (Counter, error) {
	id, err := env.Metrics.Add(metrics.Def{Name: name, Kind: metrics.KindCounter})
	return Counter{id}, err
}

// NewTrend registers the trend name, of durations, for the run env
// belongs to. Call it from Family.Open; a name the run has already is an
// error.
func NewTrend(env *Env, name string) (Trend, error) {
	id, err := env.Metrics.Add(metrics.Def{Name: name, Kind: metrics.KindTrend, Unit: metrics.UnitMicros})
	return Trend{id}, err
}

// NewCheck registers the check name (e.g. "status is 200") for the run
// env belongs to. Call it from Family.Open; a name the run has already is
// an error.
func NewCheck(env *Env, name string) (Check, error) {
	id, err := env.Metrics.Add(metrics.CheckMetric(name))
	return Check{id}, err
}

// Add adds n to counter c, at the run clock's now.
func (i Iteration) Add(c Counter, n int64) { i.it.Rec.Add(c.id, i.it.Now(), n) }

// Observe records d in trend t (kept in microseconds), at the run clock's
// now.
func (i Iteration) Observe(t Trend, d time.Duration) {
	i.it.Rec.Trend(t.id, i.it.Now(), d.Microseconds())
}

// Check records one pass/fail of the named check c, in its own rate and
// in the checks rate.
func (i Iteration) Check(c Check, ok bool) { i.it.CheckAs(c.id, ok) }
