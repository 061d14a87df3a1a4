package metrics

// Observer receives every finished second. It runs on the aggregator
// goroutine: it must return quickly and must not keep p.Hist.
type Observer func(p *Point)
