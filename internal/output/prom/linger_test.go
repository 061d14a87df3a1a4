package prom

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// TestLingerUntilFinalScrape: with a scraper polling, Stop keeps the
// endpoint up until one scrape after the run's end, which sees the final
// totals; nobody scraping, or a negative Linger, closes at once.
func TestLingerUntilFinalScrape(t *testing.T) {
	for _, tc := range []struct {
		name     string
		scrape   bool
		linger   time.Duration
		wantWait bool
	}{
		{"scraped: waits for the final scrape", true, 0, true},
		{"nobody scrapes: closes at once", false, 0, false},
		{"negative linger: closes at once", true, -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := NewLive(LiveConfig{Addr: "127.0.0.1:0", Registry: metrics.NewRegistry(), Scenarios: []string{"s"},
				Options: Options{Start: time.Now()}, Linger: tc.linger})
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Start(); err != nil {
				t.Fatal(err)
			}
			url := "http://" + l.srv.Addr() + "/metrics"
			var mu sync.Mutex
			var last string
			done := make(chan struct{})
			var wg sync.WaitGroup
			if tc.scrape {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						if resp, err := http.Get(url); err == nil {
							b, _ := io.ReadAll(resp.Body)
							resp.Body.Close()
							mu.Lock()
							last = string(b)
							mu.Unlock()
						}
						select {
						case <-done:
							return
						case <-time.After(300 * time.Millisecond):
						}
					}
				}()
				time.Sleep(700 * time.Millisecond) // a few scrapes during the run
			}
			l.Observe(&metrics.Point{Scenario: "s", Sec: 0, Time: time.Now(), Counts: map[string]int64{"requests": 4242}})
			start := time.Now()
			if err := l.Stop(); err != nil {
				t.Fatal(err)
			}
			waited := time.Since(start)
			close(done)
			wg.Wait()
			if tc.wantWait {
				mu.Lock()
				defer mu.Unlock()
				if !strings.Contains(last, "4242") {
					t.Errorf("the last scrape did not see the final totals (waited %v)", waited)
				}
				if waited > 2*time.Second {
					t.Errorf("waited %v for a scraper polling every 300ms", waited)
				}
			} else if waited > 200*time.Millisecond {
				t.Errorf("waited %v", waited)
			}
		})
	}
}
