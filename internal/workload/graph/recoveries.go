package graph

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/stampede-bench/stampede/internal/driver"
)

// recoveryTally notes what the target's driver recovered by itself while
// one scenario ran (driver.Recoverer): the counts when its first VU
// connected are the base.
type recoveryTally struct {
	base atomic.Pointer[driver.Recoveries]
}

// started records the base once, when the scenario's first VU connects.
func (r *recoveryTally) started(drv driver.Driver) {
	if rc, ok := drv.(driver.Recoverer); ok && r != nil && r.base.Load() == nil {
		now := rc.Recoveries()
		r.base.CompareAndSwap(nil, &now)
	}
}

// notes is the scenario's note of its recoveries, none when there were
// none.
func (r *recoveryTally) notes(name string, drv driver.Driver) []string {
	rc, ok := drv.(driver.Recoverer)
	if r == nil || !ok {
		return nil
	}
	base := r.base.Load()
	if base == nil {
		return nil
	}
	d := rc.Recoveries().Sub(*base)
	var parts []string
	if d.Relogins > 0 {
		parts = append(parts, fmt.Sprintf("%d sessions logged in again after the server dropped them (E_SESSION_INVALID/E_SESSION_TIMEOUT; the call that found out failed)", d.Relogins))
	}
	if d.Reconnects > 0 {
		parts = append(parts, fmt.Sprintf("%d reconnects after broken connections", d.Reconnects))
	}
	if len(parts) == 0 {
		return nil
	}
	return []string{name + ": the driver recovered " + strings.Join(parts, ", ")}
}
