package prom

import (
	"sync"
	"time"
)

// maxLinger bounds the default wait for the scrape of the final totals.
const maxLinger = 60 * time.Second

// scrapeLog remembers when /metrics was scraped, so that Stop can wait
// for the scrape that reads the run's final totals.
type scrapeLog struct {
	mu         sync.Mutex
	n          int
	last, prev time.Time
	notify     chan struct{} // closed at the next scrape; nil when nobody waits
}

func (l *scrapeLog) start(now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	l.prev, l.last = l.last, now
	if l.notify != nil {
		close(l.notify)
		l.notify = nil
	}
}

// waitNext returns a channel closed at the next scrape, and the interval
// between the last two scrapes (0 when fewer than two were seen).
func (l *scrapeLog) waitNext() (<-chan struct{}, time.Duration, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.notify == nil {
		l.notify = make(chan struct{})
	}
	var interval time.Duration
	if l.n >= 2 {
		interval = l.last.Sub(l.prev)
	}
	return l.notify, interval, l.n
}

// linger keeps the server up after the run: d > 0 waits d; d == 0 waits
// for one more scrape (the final totals), at most twice the scrape
// interval seen (maxLinger at most; a single scrape so far: maxLinger),
// and not at all when nothing scraped; d < 0 returns at once.
func (s *Server) linger(d time.Duration) {
	if d < 0 {
		return
	}
	if d > 0 {
		time.Sleep(d)
		return
	}
	next, interval, n := s.scrapes.waitNext()
	if n == 0 {
		return
	}
	limit := maxLinger
	if interval > 0 {
		limit = min(2*interval+time.Second, maxLinger)
	}
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-next:
		// The scrape started after the run ended: let it finish (Close
		// waits for scrapes in flight).
	case <-t.C:
	}
}
