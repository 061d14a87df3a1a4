package nebula_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/nebula/nebulatest"
)

// The driver bounds a call with the socket's deadline and a watcher of
// the run's context registered once per session, instead of a context
// and a timer per call: these tests check that a run's end still cuts a
// call short, and that a context's deadline still counts.

func slowCluster(t *testing.T) *nebulatest.Cluster {
	return startCluster(t, 1, nebulatest.Options{Delay: func(q string) time.Duration {
		if strings.Contains(q, "slow") {
			return 2 * time.Second
		}
		return 0
	}})
}

const (
	fastQuery = "FETCH PROP ON Person 1 YIELD Person.firstName"
	slowQuery = "FETCH PROP ON Person 1 YIELD Person.firstName AS slow"
)

func TestCancelCutsCallShort(t *testing.T) {
	c := slowCluster(t)
	d := mustOpen(t, "nebula://root:nebula@"+c.Addrs()[0]+"/g", driver.Options{}) // no timeout
	conn, _ := d.Conn(context.Background())
	defer conn.Close()
	ctx, cancel := context.WithCancel(context.Background())
	if res := conn.Do(ctx, &driver.Op{Query: fastQuery}); res.Err != nil || res.Rows != 1 {
		t.Fatalf("%+v", res)
	}
	time.AfterFunc(50*time.Millisecond, cancel)
	t0 := time.Now()
	res := conn.Do(ctx, &driver.Op{Query: slowQuery})
	if el := time.Since(t0); el > time.Second {
		t.Fatalf("cancel took %v", el)
	}
	if !errors.Is(res.Err, context.Canceled) {
		t.Fatalf("got %v", res.Err)
	}
	// The next run's context works, on a new connection.
	if res := conn.Do(context.Background(), &driver.Op{Query: fastQuery}); res.Err != nil || res.Rows != 1 {
		t.Fatalf("after the cancel: %+v", res)
	}
}

func TestCancelBetweenCallsKeepsSession(t *testing.T) {
	c := slowCluster(t)
	srv := c.Servers[0]
	d := mustOpen(t, "nebula://root:nebula@"+srv.Addr()+"/g", driver.Options{Timeout: 5 * time.Second})
	conn, _ := d.Conn(context.Background())
	defer conn.Close()
	ctx, cancel := context.WithCancel(context.Background())
	if res := conn.Do(ctx, &driver.Op{Query: fastQuery}); res.Err != nil {
		t.Fatal(res.Err)
	}
	accepted := srv.Accepted.Load()
	cancel()
	if res := conn.Do(ctx, &driver.Op{Query: fastQuery}); !errors.Is(res.Err, context.Canceled) {
		t.Fatalf("a call on an ended run: %v", res.Err)
	}
	// Nothing was sent, so the session is intact: no reconnect.
	for range 3 {
		if res := conn.Do(context.Background(), &driver.Op{Query: fastQuery}); res.Err != nil || res.Rows != 1 {
			t.Fatalf("%+v", res)
		}
	}
	if n := srv.Accepted.Load(); n != accepted {
		t.Fatalf("%d new connections after a cancel between calls", n-accepted)
	}
}

func TestContextDeadlineBeforeTimeout(t *testing.T) {
	c := slowCluster(t)
	d := mustOpen(t, "nebula://root:nebula@"+c.Addrs()[0]+"/g", driver.Options{Timeout: 10 * time.Second})
	conn, _ := d.Conn(context.Background())
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	res := conn.Do(ctx, &driver.Op{Query: slowQuery})
	if el := time.Since(t0); el > time.Second {
		t.Fatalf("the context's deadline took %v", el)
	}
	if !errors.Is(res.Err, context.DeadlineExceeded) {
		t.Fatalf("got %v", res.Err)
	}
}
