package ngqlload

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"time"

	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/ldbc/loader"
)

// Inspect reports what a space holds, like loader.Inspect for SQL
// targets: its load record when a load completed, nil when the space does
// not exist, and an error wrapping loader.ErrIncomplete when it exists
// without a completed load. An unreachable target is a usage error.
func Inspect(ctx context.Context, target string, getenv func(string) string) (*loader.Meta, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, usage.Errorf("bad target URL")
	}
	cfg, err := nebula.ParseConfig(u, getenv)
	if err != nil {
		return nil, usage.Errorf("%v", err)
	}
	if cfg.Space == "" {
		return nil, usage.Errorf("target %s names no space: want nebula://user:pass@host:9669/SPACE", cfg.Redacted)
	}
	s, err := nebula.Dial(ctx, cfg.Addrs[0], cfg)
	if err != nil {
		var se *nebula.ServerError
		if errors.As(err, &se) && se.Code == graphsvc.ErrorCode_E_SPACE_NOT_FOUND {
			return nil, nil
		}
		return nil, usage.Errorf("cannot open target %s: %v", cfg.Redacted, err)
	}
	defer s.Close()
	r, err := s.Execute(ctx, fetchMeta)
	if err != nil {
		return nil, err
	}
	if r.ErrorCode != graphsvc.ErrorCode_SUCCEEDED || r.Data == nil || len(r.Data.Rows) == 0 {
		return nil, loader.ErrIncomplete
	}
	v := r.Data.Rows[0].Values
	if len(v) < 6 {
		return nil, loader.ErrIncomplete
	}
	m := &loader.Meta{Fingerprint: string(v[0].SVal), Data: string(v[5].SVal)}
	for i, dst := range []*int64{&m.Persons, &m.Knows, &m.Failed} {
		if x := v[1+i]; x.IVal != nil {
			*dst = *x.IVal
		} else if x.SVal != nil {
			*dst, _ = strconv.ParseInt(string(x.SVal), 10, 64)
		}
	}
	m.LoadedAt, _ = time.Parse(time.RFC3339, string(v[4].SVal))
	return m, nil
}
