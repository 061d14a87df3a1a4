//go:build !linux

package httpdrv

import (
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
)

// Loop is Linux's event loop (epoll); elsewhere NewLoop returns none and
// VUs run a goroutine each.
type Loop struct{}

// LoopConn is a connection of a Loop.
type LoopConn struct{ Owner int }

// NewLoop returns nil: no event loop on this system.
func (d *Driver) NewLoop() (*Loop, error) { return nil, nil }

func (l *Loop) NewConn() *LoopConn                                       { panic("no loop") }
func (l *Loop) Wait(time.Duration, func(*LoopConn, driver.Result)) error { panic("no loop") }
func (l *Loop) Close() error                                             { return nil }
func (lc *LoopConn) Start(*driver.Op) (bool, driver.Result)              { panic("no loop") }
func (lc *LoopConn) End() time.Time                                      { return time.Time{} }
func (lc *LoopConn) Close() error                                        { return nil }
func (lc *LoopConn) LastTimings() *Timings                               { return &Timings{} }
