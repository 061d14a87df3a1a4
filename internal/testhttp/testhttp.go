// Package testhttp holds HTTP servers for tests of more than one package.
package testhttp

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// CountingServer starts a server of h for t (closed when t ends) and
// returns its URL and the number of connections it has accepted so far.
func CountingServer(t testing.TB, h http.Handler) (url string, conns *atomic.Int64) {
	t.Helper()
	conns = new(atomic.Int64)
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, conns
}
