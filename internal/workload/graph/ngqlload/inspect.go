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
	"github.com/stampede-bench/stampede/internal/workload/graph/loader"
)

// Inspect reports what a space holds, like loader.Inspect for SQL
// targets: its load record when a load completed, nil when the space does
// not exist, and an error wrapping loader.ErrIncomplete when it exists
// without a completed load. An unreachable target is a usage error.
func Inspect(ctx context.Context, target string, getenv func(string) string) (*loader.Meta, error) {
	r, err := InspectRecord(ctx, target, getenv)
	if r == nil {
		return nil, err
	}
	return &r.Meta, err
}

// Record is a space's load record.
type Record struct {
	Meta loader.Meta
	// Counts are the rows written by tag and edge type (names of Types);
	// nil in a record of a stampede that loaded persons and friendships
	// only.
	Counts map[string]int64
}

// InspectRecord is Inspect returning the whole load record.
func InspectRecord(ctx context.Context, target string, getenv func(string) string) (*Record, error) {
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
	rec := &Record{Meta: loader.Meta{Fingerprint: string(v[0].SVal), Data: string(v[5].SVal)}}
	m := &rec.Meta
	ints := []*int64{&m.Persons, &m.Knows, &m.Failed}
	for i, dst := range ints {
		if x := v[1+i]; x.IVal != nil {
			*dst = *x.IVal
		} else if x.SVal != nil {
			*dst, _ = strconv.ParseInt(string(x.SVal), 10, 64)
		}
	}
	m.LoadedAt, _ = time.Parse(time.RFC3339, string(v[4].SVal))
	if len(v) >= 9 {
		if v[6].SVal != nil {
			rec.Counts = parseCounts(string(v[6].SVal))
			m.Activity = rec.Counts[ForumTag]+rec.Counts[PostTag]+rec.Counts[CommentTag] > 0
		}
		if v[7].IVal != nil {
			m.MaxPersonID = *v[7].IVal
		}
		m.Layout = string(v[8].SVal)
	}
	return rec, nil
}
