// Package pgtest gives tests a private PostgreSQL schema on the server that
// STAMPEDE_TEST_POSTGRES names (see scripts/postgres-for-tests.sh). Without
// it tests skip locally and fail in CI (env CI non-empty), so CI cannot go
// green without having run them.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stampede-bench/stampede/internal/testenv"
)

// EnvVar names the variable holding the server URL.
const EnvVar = "STAMPEDE_TEST_POSTGRES"

// URL returns the server URL, skipping (or in CI failing) t without one.
func URL(t testing.TB) string {
	t.Helper()
	raw := os.Getenv(EnvVar)
	if raw == "" {
		testenv.Missing(t, "%s not set: eval \"$(scripts/postgres-for-tests.sh)\" to run PostgreSQL tests", EnvVar)
	}
	return raw
}

// Schema creates a fresh schema for t, dropped at cleanup, and returns the
// server URL with search_path set to it, so that tests of several packages
// can share one database at the same time.
func Schema(t testing.TB) string {
	t.Helper()
	raw := URL(t)
	var b [6]byte
	rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, raw)
	if err != nil {
		t.Fatalf("connect to %s: %v", EnvVar, err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "create schema "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, raw)
		if err != nil {
			return
		}
		defer c.Close(ctx)
		c.Exec(ctx, "drop schema "+schema+" cascade")
	})
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
