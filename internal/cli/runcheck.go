package cli

import (
	"strings"
	"time"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/internal/engine"
)

// checkExecutorFlags refuses executor flag values that cannot be meant,
// instead of silently running something else: -u 0 (except as the start
// of a ramp), a zero or negative --time-unit, --max-vus below --vus, and
// negative counts. changed tells which flags the user set.
func checkExecutorFlags(f *runFlags, changed func(string) bool) error {
	ramping := f.executor == engine.RampingVUs || (f.executor == "" && len(f.stages) > 0 && !changed("rate"))
	switch {
	case f.vus < 0 || (f.vus == 0 && !ramping):
		return usagef("-u/--vus %d: need vus ≥ 1", f.vus)
	case f.iterations < 0:
		return usagef("-i/--iterations %d must not be negative", f.iterations)
	case changed("iterations") && f.iterations == 0:
		return usagef("-i/--iterations 0: need at least 1 iteration")
	case changed("rate") && f.rate < 1:
		return usagef("--rate %d: need at least 1 iteration per --time-unit", f.rate)
	case changed("time-unit") && f.timeUnit <= 0:
		return usagef("--time-unit %s: must be > 0, e.g. 1s", f.timeUnit)
	case changed("duration") && f.duration <= 0:
		return usagef("-d/--duration %s: must be > 0", f.duration)
	case changed("max-vus") && f.maxVUs < 1:
		return usagef("--max-vus %d: need at least 1", f.maxVUs)
	case changed("max-vus") && f.maxVUs < f.vus:
		return usagef("--max-vus %d is below -u/--vus %d (the VUs allocated up front); raise --max-vus or lower -u", f.maxVUs, f.vus)
	case f.backoff < 0 || f.backoffMax < 0:
		return usagef("--backoff and --backoff-max must not be negative")
	case f.backoff > 0 && f.backoffMax < f.backoff:
		return usagef("--backoff-max %s is below --backoff %s", f.backoffMax, f.backoff)
	case changed("warmup") && f.warmup < 0:
		return usagef("--warmup %s must not be negative", f.warmup)
	case f.cooldown < 0:
		return usagef("--cooldown %s must not be negative", f.cooldown)
	case f.cooldown > maxCooldown:
		return usagef("--cooldown %s is longer than the limit of %s", f.cooldown, maxCooldown)
	case changed("executor") && !knownExecutor(f.executor):
		return usagef("unknown executor %q (known: %s)", f.executor, strings.Join(executor.Names(), ", "))
	}
	return nil
}

// maxCooldown is the longest --cooldown between repeated runs: 24h.
const maxCooldown = 24 * time.Hour

func knownExecutor(name string) bool {
	for _, n := range executor.Names() {
		if n == name {
			return true
		}
	}
	return false
}
