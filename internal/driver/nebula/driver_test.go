package nebula_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
	"github.com/stampede-bench/stampede/internal/driver/nebula/nebulatest"
)

// startCluster starts n stand-in graphds with a space "g" holding a small
// KNOWS graph: 1-2, 2-3, 3-4 (directed as listed).
func startCluster(t *testing.T, n int, opts nebulatest.Options) *nebulatest.Cluster {
	t.Helper()
	c, err := nebulatest.StartCluster(n, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	ctx := context.Background()
	cfg := &nebula.Config{Addrs: c.Addrs()[:1], User: "root", Password: "nebula", ClientVersion: "3.0.0", ConnectTimeout: 5 * time.Second}
	s, err := nebula.Dial(ctx, cfg.Addrs[0], cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, q := range []string{
		"CREATE SPACE IF NOT EXISTS g(partition_num=3, replica_factor=1, vid_type=INT64)",
		"USE g",
		"CREATE TAG IF NOT EXISTS Person(firstName string)",
		"CREATE EDGE IF NOT EXISTS KNOWS(creationDate datetime)",
		`INSERT VERTEX Person(firstName) VALUES 1:("a"), 2:("b"), 3:("c"), 4:("d")`,
		`INSERT EDGE KNOWS(creationDate) VALUES 1->2:(datetime("2010-01-01T00:00:00.000")), 2->3:(datetime("2010-01-01T00:00:00.000")), 3->4:(datetime("2010-01-01T00:00:00.000"))`,
	} {
		r, err := s.Execute(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if r.ErrorCode != graphsvc.ErrorCode_SUCCEEDED {
			t.Fatalf("%s: %s", q, r.ErrorMsg)
		}
	}
	return c
}

func open(t *testing.T, raw string, opts driver.Options) (driver.Driver, error) {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return nebula.Open(context.Background(), u, opts)
}

func mustOpen(t *testing.T, raw string, opts driver.Options) driver.Driver {
	t.Helper()
	d, err := open(t, raw, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func TestParseConfig(t *testing.T) {
	env := map[string]string{"NEBULA_USER": "u", "NEBULA_PASSWORD": "envpw"}
	cases := []struct {
		name, raw, err string
		addrs          []string
		user, pass     string
		space, version string
	}{
		{name: "two hosts", raw: "nebula://root:secret@h1:9669,h2:9779/sf1", addrs: []string{"h1:9669", "h2:9779"}, user: "root", pass: "secret", space: "sf1", version: "3.0.0"},
		{name: "default port and env credentials", raw: "nebula://h1/sf1?client_version=3.8.0", addrs: []string{"h1:9669"}, user: "u", pass: "envpw", space: "sf1", version: "3.8.0"},
		{name: "no host", raw: "nebula:///sf1", err: "no graphd address"},
		{name: "bad port", raw: "nebula://h1:99999/sf1", err: "bad port"},
		{name: "unknown parameter", raw: "nebula://root:secret@h1/sf1?x=1", err: `unknown parameter "x"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u, err := url.Parse(tc.raw)
			if err != nil {
				t.Fatal(err)
			}
			c, err := nebula.ParseConfig(u, func(k string) string { return env[k] })
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				if strings.Contains(err.Error(), "secret") {
					t.Fatalf("error shows the password: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(c.Addrs, ",") != strings.Join(tc.addrs, ",") || c.User != tc.user || c.Password != tc.pass || c.Space != tc.space || c.ClientVersion != tc.version {
				t.Fatalf("got %+v", c)
			}
			if strings.Contains(c.Redacted, "secret") {
				t.Fatalf("redacted URL shows the password: %s", c.Redacted)
			}
		})
	}
}

func TestDoRowsLatencyAndErrorCodes(t *testing.T) {
	c := startCluster(t, 1, nebulatest.Options{})
	d := mustOpen(t, "nebula://root:nebula@"+c.Addrs()[0]+"/g", driver.Options{})
	conn, err := d.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := context.Background()
	res := conn.Do(ctx, &driver.Op{Query: "GO 2 STEPS FROM $1 OVER KNOWS BIDIRECT YIELD DISTINCT dst(edge)", Args: []any{int64(2)}})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	// 2 steps from 2 over undirected 1-2-3-4: {2 (back), 4}.
	if res.Rows != 2 || !res.HasLatency || res.ServerLatency <= 0 {
		t.Fatalf("got %+v", res)
	}
	res = conn.Do(ctx, &driver.Op{Query: "GO 1 STEP FORM 1 OVER KNOWS"})
	if res.Err == nil || !strings.HasPrefix(res.Err.Error(), "E_SYNTAX_ERROR(-1004): ") {
		t.Fatalf("syntax error reported as %v", res.Err)
	}
	var se *nebula.ServerError
	if !errors.As(res.Err, &se) || se.Code != graphsvc.ErrorCode_E_SYNTAX_ERROR {
		t.Fatalf("not a ServerError: %#v", res.Err)
	}
	// The connection is still usable after a statement error.
	var hops int64
	res = conn.(*nebula.Conn).DoScan(ctx, &driver.Op{Query: "FIND SHORTEST PATH FROM 1 TO 4 OVER KNOWS BIDIRECT UPTO 6 STEPS YIELD path AS p"}, &hops)
	if res.Err != nil || res.Rows != 1 || hops != 3 {
		t.Fatalf("shortest path: %+v hops %d", res, hops)
	}
	if v, err := d.(driver.Versioner).Version(ctx); err != nil || !strings.Contains(v, "stand-in") {
		t.Fatalf("version %q, %v", v, err)
	}
}

func TestServerErrorNamesCodes(t *testing.T) {
	c := startCluster(t, 1, nebulatest.Options{Fail: func(q string) (graphsvc.ErrorCode, string, bool) {
		if strings.HasPrefix(q, "INSERT VERTEX Person(firstName) VALUES 9:") {
			return graphsvc.ErrorCode_E_CONSENSUS_ERROR, "Storage Error: Consensus error", true
		}
		return 0, "", false
	}})
	d := mustOpen(t, "nebula://root:nebula@"+c.Addrs()[0]+"/g", driver.Options{})
	conn, _ := d.Conn(context.Background())
	defer conn.Close()
	res := conn.Do(context.Background(), &driver.Op{Query: `INSERT VERTEX Person(firstName) VALUES 9:("x")`})
	if res.Err == nil || res.Err.Error() != "E_CONSENSUS_ERROR(-3001): Storage Error: Consensus error" || !res.HasLatency {
		t.Fatalf("got %+v", res)
	}
	if got := nebula.CodeName(graphsvc.ErrorCode(-4242)); got != "ErrorCode(-4242)" {
		t.Fatalf("unknown code named %q", got)
	}
}

func TestHandshakeAndAuthFailures(t *testing.T) {
	c := startCluster(t, 1, nebulatest.Options{})
	addr := c.Addrs()[0]
	cases := []struct{ name, url, want string }{
		{"client version rejected", "nebula://root:nebula@" + addr + "/g?client_version=2.0.0", "client version handshake with " + addr + ": E_CLIENT_SERVER_INCOMPATIBLE(-3061)"},
		{"bad password", "nebula://root:wrongpw@" + addr + "/g", "authenticate as root at " + addr + ": E_BAD_USERNAME_PASSWORD(-1001)"},
		{"no such space", "nebula://root:nebula@" + addr + "/nope", "use space nope at " + addr + ": E_SPACE_NOT_FOUND(-5)"},
		{"nothing listening", "nebula://root:nebula@127.0.0.1:1/g", "connect 127.0.0.1:1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := open(t, tc.url, driver.Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "wrongpw") {
				t.Fatalf("error shows the password: %v", err)
			}
		})
	}
	if n := waitSessions(c.Servers[0], 0); n != 0 {
		t.Fatalf("%d sessions left open by the failed and the checking opens", n)
	}
}

func TestTimeoutThenReconnect(t *testing.T) {
	c := startCluster(t, 1, nebulatest.Options{Delay: func(q string) time.Duration {
		if strings.Contains(q, "slow") {
			return 300 * time.Millisecond
		}
		return 0
	}})
	d := mustOpen(t, "nebula://root:nebula@"+c.Addrs()[0]+"/g", driver.Options{Timeout: 50 * time.Millisecond})
	conn, _ := d.Conn(context.Background())
	defer conn.Close()
	ctx := context.Background()
	t0 := time.Now()
	res := conn.Do(ctx, &driver.Op{Query: "FETCH PROP ON Person 1 YIELD Person.firstName AS slow"})
	if el := time.Since(t0); el > 250*time.Millisecond {
		t.Fatalf("timeout took %v", el)
	}
	var te *driver.TimeoutError
	if !errors.As(res.Err, &te) || res.Err.Error() != "timeout after 50ms" {
		t.Fatalf("got %v", res.Err)
	}
	res = conn.Do(ctx, &driver.Op{Query: "FETCH PROP ON Person 1 YIELD Person.firstName"})
	if res.Err != nil || res.Rows != 1 {
		t.Fatalf("after the timeout: %+v", res)
	}
}

func TestBrokenConnectionReconnectsWithBackoff(t *testing.T) {
	c := startCluster(t, 1, nebulatest.Options{})
	srv := c.Servers[0]
	d := mustOpen(t, "nebula://root:nebula@"+srv.Addr()+"/g", driver.Options{})
	conn, _ := d.Conn(context.Background())
	defer conn.Close()
	ctx := context.Background()
	op := &driver.Op{Query: "FETCH PROP ON Person 1 YIELD Person.firstName"}
	if res := conn.Do(ctx, op); res.Err != nil {
		t.Fatal(res.Err)
	}
	// The check session of Open is signed out before the cut (a signout
	// still in flight when a graphd dies is lost, as on a real one).
	if n := waitSessions(srv, 1); n != 1 {
		t.Fatalf("%d sessions before the cut", n)
	}
	srv.KillConns()
	res := conn.Do(ctx, op)
	if res.Err == nil || !strings.HasPrefix(res.Err.Error(), "connection broken: ") {
		t.Fatalf("after the cut: %v", res.Err)
	}
	if strings.Contains(res.Err.Error(), "127.0.0.1") {
		t.Fatalf("error names an address (errors would not group): %v", res.Err)
	}
	res = conn.Do(ctx, op)
	if res.Err != nil || res.Rows != 1 {
		t.Fatalf("reconnect: %+v", res)
	}
	// The session the cut left behind was signed out on the new connection.
	if n := waitSessions(srv, 1); n != 1 {
		t.Fatalf("%d sessions open, want 1 (orphan not signed out)", n)
	}
}

func TestReconnectBacksOffWhileDown(t *testing.T) {
	c := startCluster(t, 1, nebulatest.Options{})
	srv := c.Servers[0]
	d := mustOpen(t, "nebula://root:nebula@"+srv.Addr()+"/g", driver.Options{})
	conn, _ := d.Conn(context.Background())
	defer conn.Close()
	srv.Close() // down for good
	ctx := context.Background()
	op := &driver.Op{Query: "FETCH PROP ON Person 1 YIELD Person.firstName"}
	conn.Do(ctx, op) // breaks
	t0 := time.Now()
	var errs []string
	for range 4 {
		errs = append(errs, conn.Do(ctx, op).Err.Error())
	}
	// Attempts: immediate, then waits of 50, 100 and 200 ms.
	if el := time.Since(t0); el < 300*time.Millisecond {
		t.Fatalf("4 reconnects in %v: no backoff", el)
	}
	for _, e := range errs {
		if e != "reconnect: dial: connect: connection refused" {
			t.Fatalf("reconnect error %q", e)
		}
	}
	cctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if res := conn.Do(cctx, op); !errors.Is(res.Err, context.DeadlineExceeded) {
		t.Fatalf("a stopping run waits out the backoff: %v", res.Err)
	}
}

func TestConnsBalancedOverAddresses(t *testing.T) {
	c := startCluster(t, 3, nebulatest.Options{})
	d := mustOpen(t, "nebula://root:nebula@"+strings.Join(c.Addrs(), ",")+"/g", driver.Options{})
	var conns []driver.Conn
	for range 6 {
		cn, err := d.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, cn)
	}
	for i, s := range c.Servers {
		if n := s.Conns(); n != 2 {
			t.Errorf("graphd %d has %d connections, want 2", i, n)
		}
	}
	for _, cn := range conns {
		if res := cn.Do(context.Background(), &driver.Op{Query: "GO 1 STEP FROM 1 OVER KNOWS YIELD dst(edge)"}); res.Err != nil || res.Rows != 1 {
			t.Fatalf("%+v", res)
		}
		cn.Close()
	}
	for i, s := range c.Servers {
		if n := waitSessions(s, 0); n != 0 {
			t.Errorf("graphd %d: %d sessions not signed out", i, n)
		}
	}
}

// waitSessions waits up to 2 s for a graphd to hold want sessions (signout
// is a oneway call: it lands after Close returns) and returns the count.
func waitSessions(s *nebulatest.Server, want int) int {
	deadline := time.Now().Add(2 * time.Second)
	for s.Sessions() != want && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	return s.Sessions()
}
