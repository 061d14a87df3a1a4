//go:build linux && (amd64 || arm64)

package lab

import (
	"context"
	"fmt"
	"net"
	"os"
	"runtime"
	"syscall"
)

// Dial opens a connection from the hub namespace (the bridge's address)
// to addr inside the lab. The socket is created on an OS thread that was
// moved into the hub namespace and is never used again: the goroutine
// exits still locked to it, so the runtime discards the thread.
func (f *Fabric) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	type result struct {
		c   net.Conn
		err error
	}
	ch := make(chan result, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: see above
		fd, err := os.Open("/var/run/netns/" + f.Hub)
		if err != nil {
			ch <- result{nil, fmt.Errorf("lab namespace: %w", err)}
			return
		}
		defer fd.Close()
		if _, _, e := syscall.RawSyscall(sysSetns, fd.Fd(), syscall.CLONE_NEWNET, 0); e != 0 {
			ch <- result{nil, fmt.Errorf("enter lab namespace: %w", e)}
			return
		}
		var d net.Dialer
		c, err := d.DialContext(ctx, network, addr)
		ch <- result{c, err}
	}()
	r := <-ch
	return r.c, r.err
}

// inNS runs fn on an OS thread moved into namespace ns (a name under
// /var/run/netns); the thread is discarded afterwards.
func inNS(ns string, fn func()) error {
	ch := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread dies with the goroutine
		fd, err := os.Open("/var/run/netns/" + ns)
		if err != nil {
			ch <- fmt.Errorf("lab namespace: %w", err)
			return
		}
		defer fd.Close()
		if _, _, e := syscall.RawSyscall(sysSetns, fd.Fd(), syscall.CLONE_NEWNET, 0); e != 0 {
			ch <- fmt.Errorf("enter lab namespace %s: %w", ns, e)
			return
		}
		fn()
		ch <- nil
	}()
	return <-ch
}

// Dialer adapts Dial to nats.go's CustomDialer.
type Dialer struct {
	F   *Fabric
	Ctx context.Context
}

// Dial implements nats.CustomDialer.
func (d Dialer) Dial(network, addr string) (net.Conn, error) { return d.F.Dial(d.Ctx, network, addr) }
