//go:build !(linux && (amd64 || arm64))

package lab

import (
	"context"
	"errors"
	"net"
)

// Dial needs setns(2): Linux on amd64 or arm64 only.
func (f *Fabric) Dial(context.Context, string, string) (net.Conn, error) {
	return nil, errors.New("lab: entering a network namespace needs Linux on amd64 or arm64")
}

func inNS(string, func()) error {
	return errors.New("lab: entering a network namespace needs Linux on amd64 or arm64")
}

// Dialer adapts Dial to nats.go's CustomDialer.
type Dialer struct {
	F   *Fabric
	Ctx context.Context
}

// Dial implements nats.CustomDialer.
func (d Dialer) Dial(network, addr string) (net.Conn, error) { return d.F.Dial(d.Ctx, network, addr) }
