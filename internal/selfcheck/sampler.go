package selfcheck

import (
	"runtime"
	"sync"
	"time"
)

// Usage is a reading of the process: cumulative CPU time (user+system) and
// resident memory in bytes; HostBusy and HostTotal are the machine's
// cumulative busy and total CPU time in any unit (zero when unknown).
type Usage struct {
	CPU                 time.Duration
	RSS                 int64
	HostBusy, HostTotal uint64
	// Throttle is the CPU throttling of the process's cgroups, by
	// directory (nil when unknown).
	Throttle map[string]Throttle
}

// Source reads the process usage; ProcessUsage is the real one.
type Source func() (Usage, error)

// Sampler takes a sample every interval in its own goroutine. Latest is
// safe for concurrent use; Stop ends the sampling.
type Sampler struct {
	src      Source
	cores    int
	interval time.Duration

	mu      sync.Mutex
	samples []Sample

	stop chan struct{}
	done chan struct{}
	once sync.Once
}

// Start begins sampling src every interval (default 1s) for a process that
// may use cores cores (default GOMAXPROCS). A Source error skips that
// sample.
func Start(src Source, cores int, interval time.Duration) *Sampler {
	if cores <= 0 {
		cores = runtime.GOMAXPROCS(0)
	}
	if interval <= 0 {
		interval = time.Second
	}
	s := &Sampler{src: src, cores: cores, interval: interval, stop: make(chan struct{}), done: make(chan struct{})}
	go s.loop()
	return s
}

func (s *Sampler) loop() {
	defer close(s.done)
	t := time.NewTicker(s.interval)
	defer t.Stop()
	prev, err := s.src()
	prevAt := time.Now()
	ok := err == nil
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
		}
		u, err := s.src()
		now := time.Now()
		if err != nil {
			ok = false
			continue
		}
		if ok {
			smp, long := sampleOf(prev, u, now.Sub(prevAt), s.cores)
			if !long {
				// Too short to divide by (a tick that waited behind a
				// busy scheduler, then the next one at once): keep prev,
				// so that the next sample spans the whole interval.
				continue
			}
			smp.Time = now
			s.mu.Lock()
			s.samples = append(s.samples, smp)
			s.mu.Unlock()
		}
		prev, prevAt, ok = u, now, true
	}
}

// MinInterval is the shortest interval a sample is computed from: 100 ms.
// CPU time is accounted in scheduler ticks, so a fraction of a shorter
// interval can be off by orders of magnitude (one tick over 33 µs is
// 30,000%).
const MinInterval = 100 * time.Millisecond

// sampleOf computes the sample of the interval el between readings prev
// and u for a process that may use cores cores; ok is false when el is
// below MinInterval. CPU is never above 1 (all the usable cores), nor
// below 0; Host likewise.
func sampleOf(prev, u Usage, el time.Duration, cores int) (smp Sample, ok bool) {
	if el < MinInterval {
		return Sample{}, false
	}
	cpu := float64(u.CPU-prev.CPU) / float64(el) / float64(max(cores, 1))
	smp = Sample{CPU: min(max(cpu, 0), 1), RSS: u.RSS}
	if dt := u.HostTotal - prev.HostTotal; u.HostTotal > prev.HostTotal && u.HostBusy >= prev.HostBusy {
		smp.Host = min(float64(u.HostBusy-prev.HostBusy)/float64(dt), 1)
	}
	smp.Throttled, smp.Held = throttledOf(prev.Throttle, u.Throttle, el)
	return smp, true
}

// Latest returns the most recent sample, if any.
func (s *Sampler) Latest() (Sample, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.samples) == 0 {
		return Sample{}, false
	}
	return s.samples[len(s.samples)-1], true
}

// Stop ends sampling and returns every sample taken. It may be called more
// than once.
func (s *Sampler) Stop() *Report {
	s.once.Do(func() { close(s.stop) })
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return &Report{Cores: s.cores, Threshold: Threshold, Samples: append([]Sample(nil), s.samples...)}
}
