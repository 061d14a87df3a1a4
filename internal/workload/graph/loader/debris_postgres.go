package loader

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// stagingComment marks a staging schema whose load holds its advisory
// lock (stagingLockKey) while it runs. Schemas without it were made by an
// older stampede that took no lock: they are reported, never dropped.
const stagingComment = "stampede load staging area; its load holds advisory lock stagingLockKey(name)"

// stagingLockTag is the top 16 bits of the advisory lock keys of staging
// schemas ("st"), below them the schema's 48 random bits.
const stagingLockTag = 0x7374

// stagingLockKey is the advisory lock a load holds on its staging schema
// for as long as its session lives; 0 for a name that is not a staging
// schema's.
func stagingLockKey(schema string) int64 {
	hexPart, ok := strings.CutPrefix(schema, StagingPrefix)
	if !ok || len(hexPart) != 12 {
		return 0
	}
	n, err := strconv.ParseUint(hexPart, 16, 64)
	if err != nil {
		return 0
	}
	return int64(stagingLockTag)<<48 | int64(n)
}

// removeDebris drops the staging schemas of loads that were killed: named
// StagingPrefix + 12 hex digits, holding nothing but the loader's tables
// (and their indexes and sequences), with no session holding their
// advisory lock. A schema a running load holds, or one holding anything
// else, is left alone. It returns one line per schema removed (or found
// and left, when an older stampede made it).
func (s *pgSink) removeDebris(ctx context.Context) ([]string, error) {
	c := s.conns[0]
	rows, err := c.Query(ctx, `SELECT n.nspname::text,
		coalesce((SELECT array_agg(cl.relname::text) FROM pg_class cl WHERE cl.relnamespace = n.oid AND cl.relkind NOT IN ('i', 'S', 't', 'I')), '{}'),
		coalesce((SELECT sum(pg_total_relation_size(cl.oid)) FROM pg_class cl WHERE cl.relnamespace = n.oid AND cl.relkind IN ('r', 'p')), 0)::bigint,
		(SELECT count(*) FROM pg_proc p WHERE p.pronamespace = n.oid) + (SELECT count(*) FROM pg_type t WHERE t.typnamespace = n.oid AND t.typrelid = 0 AND t.typelem = 0),
		coalesce(obj_description(n.oid, 'pg_namespace'), '')
		FROM pg_namespace n WHERE starts_with(n.nspname, $1)`, StagingPrefix)
	if err != nil {
		return nil, err
	}
	type cand struct {
		name   string
		rels   []string
		size   int64
		others int64
		note   string
	}
	var cands []cand
	var cd cand
	if _, err := pgx.ForEachRow(rows, []any{&cd.name, &cd.rels, &cd.size, &cd.others, &cd.note}, func() error {
		cands = append(cands, cd)
		return nil
	}); err != nil {
		return nil, err
	}
	ours := TableNames()
	var removed []string
	for _, cd := range cands {
		key := stagingLockKey(cd.name)
		if key == 0 || cd.others > 0 || slices.ContainsFunc(cd.rels, func(r string) bool { return !slices.Contains(ours, r) }) {
			continue // not a schema the loader made
		}
		if cd.note != stagingComment {
			// An older stampede's: it took no lock, so whether its load
			// still runs cannot be told.
			removed = append(removed, fmt.Sprintf("left schema %s: it looks like the staging area of a killed load by an older stampede, which took no lock to tell a running load by; DROP SCHEMA %s CASCADE when no load runs", cd.name, cd.name))
			continue
		}
		var got bool
		if err := c.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", key).Scan(&got); err != nil {
			return removed, err
		}
		if !got {
			continue // a running load
		}
		_, err := c.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{cd.name}.Sanitize()+" CASCADE") // another load may drop it first
		if _, uerr := c.Exec(ctx, "SELECT pg_advisory_unlock($1)", key); err == nil {
			err = uerr
		}
		if err != nil {
			// Not this load's failure: say so and go on.
			removed = append(removed, fmt.Sprintf("could not drop schema %s, the staging area of a load that was killed: %v", cd.name, err))
			continue
		}
		removed = append(removed, fmt.Sprintf("removed schema %s (%d tables, %s), the staging area of a load that was killed", cd.name, len(cd.rels), byteSize(cd.size)))
	}
	return removed, nil
}
