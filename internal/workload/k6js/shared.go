package k6js

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// shared is the state of one script run that every VU reads: set up in
// the init-context probe before the run, read-only afterwards except where
// noted.
type shared struct {
	script *Script
	opts   *Options
	env    map[string]string // __ENV: the -e values
	getenv func(string) string
	seed   int64

	reg     *metrics.Registry
	httpIDs metrics.HTTPIDs
	groupID metrics.ID // group_duration

	// custom are the metrics of k6/metrics, by name; registered by the
	// probe, looked up by the VUs (which must declare the same ones).
	custom map[string]*customMetric
	// subs are the tagged submetrics thresholds ask for, by base metric.
	subs map[string][]submetric
	// checks are the named checks found in the script before the run.
	checks map[string]metrics.ID

	// sharedArrays hold the elements of each SharedArray as JSON,
	// computed once by the probe.
	arrMu        sync.Mutex
	sharedArrays map[string][]string

	// setupData is setup()'s result as JSON ("" when none); setupOnce
	// runs setup once for all scenarios.
	setupOnce sync.Once
	setupErr  error
	setupData string
	// scenariosLeft counts scenarios still running, for the one teardown.
	scenariosLeft atomic.Int64

	nextVU atomic.Int64
	// abort ends the run (test.abort); aborted is its reason.
	abort   func(reason string)
	aborted atomic.Pointer[string]

	log     *logger
	started time.Time
	nebula  *nebulaShared
	// probeOnly marks the state of a runtime that only reads the script
	// (options, handleSummary): it opens no output file.
	probeOnly bool
	// scenarioNames lists the script's scenarios; vusActive counts the
	// VUs that exist (k6/execution's instance.vusActive).
	scenarioNames []string
	vusActive     atomic.Int64
	iterations    atomic.Int64
	// insecure, userAgent and noReuse are the HTTP options in force.
	insecure  bool
	userAgent string
	noReuse   bool
	timeout   time.Duration
	maxRedir  int
	discard   bool
	// batch and batchPerHost bound the parallel requests of one
	// http.batch() call, in all and to one host (k6's options; 20 and 6).
	batch, batchPerHost int
	// clock times requests made outside of an iteration (handleSummary).
	clock metrics.Clock
}

// customMetric is one metric of k6/metrics.
type customMetric struct {
	id     metrics.ID
	kind   metrics.Kind
	isTime bool
	// builtin: a name stampede records itself (see shared.metric).
	builtin bool
}

// submetric is a tagged submetric (metric{k:v,...}) with its filter.
type submetric struct {
	id   metrics.ID
	tags [][2]string
}

// matches reports whether every tag of s is in tags.
func (s submetric) matches(tags map[string]string) bool {
	for _, kv := range s.tags {
		if tags[kv[0]] != kv[1] {
			return false
		}
	}
	return true
}

// logger writes console output and iteration errors to stderr: each
// distinct error message once, console lines at most rate per second.
type logger struct {
	mu      sync.Mutex
	w       io.Writer
	seen    map[string]bool
	sec     int64
	inSec   int
	dropped int64
	rate    int
}

func newLogger(w io.Writer, rate int) *logger {
	return &logger{w: w, seen: map[string]bool{}, rate: rate}
}

// once writes line the first time msg is seen; it reports whether it did.
func (l *logger) once(msg, line string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen[msg] {
		return false
	}
	if len(l.seen) < 10000 {
		l.seen[msg] = true
	}
	fmt.Fprintln(l.w, line)
	return true
}

// line writes a console line, dropping (and counting) lines beyond the
// rate limit of this second.
func (l *logger) line(level, msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now().Unix()
	if now != l.sec {
		if l.dropped > 0 {
			fmt.Fprintf(l.w, "WARN[console] %d console lines dropped (more than %d per second)\n", l.dropped, l.rate)
		}
		l.sec, l.inSec, l.dropped = now, 0, 0
	}
	if l.inSec >= l.rate {
		l.dropped++
		return
	}
	l.inSec++
	fmt.Fprintf(l.w, "%s[console] %s\n", level, msg)
}
