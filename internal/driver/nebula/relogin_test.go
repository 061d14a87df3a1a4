package nebula_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
	"github.com/stampede-bench/stampede/internal/driver/nebula/nebulatest"
)

// A session graphd dropped while the connection stays open fails one call
// with E_SESSION_INVALID; the connection then logs in again on the same
// socket (no new connection), with the space current again, and the
// driver counts the re-login. Without it every later call would fail to
// the end of the run.
func TestReloginAfterSessionInvalid(t *testing.T) {
	c := startCluster(t, 1, nebulatest.Options{})
	srv := c.Servers[0]
	d, err := open(t, "nebula://root:nebula@"+c.Addrs()[0]+"/g", driver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	conn, err := d.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	op := &driver.Op{Query: "GO 1 STEP FROM 1 OVER KNOWS YIELD dst(edge)"}
	do := func(want string) {
		t.Helper()
		res := conn.Do(t.Context(), op)
		if want == "" && (res.Err != nil || res.Rows != 1) {
			t.Fatalf("rows %d, err %v; want 1 row", res.Rows, res.Err)
		}
		if want != "" && (res.Err == nil || !strings.Contains(res.Err.Error(), want)) {
			t.Fatalf("err %v, want %s", res.Err, want)
		}
	}
	do("")
	// Open's probe of the server signs its session out on a connection
	// of its own; under load the server may not have handled that yet.
	for deadline := time.Now().Add(10 * time.Second); srv.Sessions() > 1 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	accepted, auths := srv.Accepted.Load(), srv.Authenticated.Load()
	for round := 1; round <= 3; round++ {
		if n := srv.DropSessions(); n != 1 {
			t.Fatalf("dropped %d sessions, want the connection's one", n)
		}
		do("E_SESSION_INVALID(-1002)")
		do("") // logged in again, USE g again
		do("")
		if got := srv.Authenticated.Load() - auths; got != int64(round) {
			t.Errorf("round %d: %d new authentications", round, got)
		}
		if srv.Accepted.Load() != accepted {
			t.Errorf("round %d: a new connection was opened; want a login on the open one", round)
		}
		r := d.(driver.Recoverer).Recoveries()
		if r.Relogins != int64(round) || r.Reconnects != 0 {
			t.Errorf("round %d: recoveries %+v", round, r)
		}
	}
}

// A session the server says timed out (E_SESSION_TIMEOUT) is logged in
// again the same way.
func TestReloginAfterSessionTimeout(t *testing.T) {
	timedOut := true
	opts := nebulatest.Options{Fail: func(stmt string) (graphsvc.ErrorCode, string, bool) {
		if timedOut && strings.HasPrefix(stmt, "GO") {
			timedOut = false
			return graphsvc.ErrorCode_E_SESSION_TIMEOUT, "Session timeout", true
		}
		return 0, "", false
	}}
	c := startCluster(t, 1, opts)
	d, err := open(t, "nebula://root:nebula@"+c.Addrs()[0]+"/g", driver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	conn, err := d.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	op := &driver.Op{Query: "GO 1 STEP FROM 1 OVER KNOWS YIELD dst(edge)"}
	if res := conn.Do(t.Context(), op); res.Err == nil || !strings.Contains(res.Err.Error(), "E_SESSION_TIMEOUT") {
		t.Fatalf("err %v", res.Err)
	}
	if res := conn.Do(t.Context(), op); res.Err != nil || res.Rows != 1 {
		t.Fatalf("after the timeout: rows %d, err %v", res.Rows, res.Err)
	}
	if r := d.(*nebula.Driver).Recoveries(); r.Relogins != 1 {
		t.Errorf("recoveries %+v", r)
	}
}
