package metrics

// Gauge sets gauge id of the recorder's scenario to v (a k6 script's
// Gauge.add). Unlike the other methods it does not batch: the value goes
// to the aggregator at once, so a gauge is for occasional values, not for
// every operation.
func (r *Recorder) Gauge(id ID, v float64) {
	r.agg.SetGauge(r.scenario, id, v)
}
