package graph

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/redact"
	"github.com/stampede-bench/stampede/vu"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/sqlite"
	"github.com/stampede-bench/stampede/internal/progress/termbar"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/graph/datagen"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/graph/loader"
)

// validate checks the options and the custom scenario files.
func (f *Family) validate() error {
	if err := checkRanges(&f.opts); err != nil {
		return err
	}
	if f.customErr != nil {
		return usage.Errorf("%v", f.customErr)
	}
	var err error
	f.dates, f.limit, err = parse(&f.opts)
	return err
}

// DataDir is the data set directory the family uses: --data, or
// DATA_DIR/ldbc-sfSF.
func (f *Family) DataDir(env *workload.Env) string {
	if f.opts.Data != "" {
		return f.opts.Data
	}
	return filepath.Join(env.DataDir, "ldbc-sf"+strconv.FormatFloat(f.opts.SF, 'f', -1, 64))
}

// Open prepares the data set and the target and returns the scenarios.
func (f *Family) Open(ctx context.Context, env *workload.Env, names []string) (*workload.Opened, error) {
	f.Scenarios() // parse --scenario-file if not done yet
	if err := f.validate(); err != nil {
		return nil, err
	}
	if err := f.checkUserData(); err != nil {
		return nil, err
	}
	target, embedded := env.Target, env.Target == ""
	dir := f.DataDir(env)
	if !embedded && f.opts.Data == "" {
		// A loaded target knows where its data set was loaded from.
		if d := f.loadedFrom(ctx, env, target); d != "" {
			dir = d
		}
	}
	if err := f.ensureData(ctx, env, dir); err != nil {
		return nil, err
	}
	if embedded {
		if err := os.MkdirAll(env.DataDir, 0o755); err != nil {
			return nil, usage.Errorf("--data-dir: %v", err)
		}
		target = sqlite.URL(filepath.Join(env.DataDir, filepath.Base(filepath.Clean(dir))+".db"))
	}
	u, d, err := f.parseTarget(target)
	if err != nil {
		return nil, err
	}
	meta, err := f.ensureLoaded(ctx, env, dir, target, embedded, slices.ContainsFunc(names, needsActivity))
	if err != nil {
		return nil, err
	}
	drv, err := f.drivers.Open(ctx, u, driver.Options{PoolSize: max(env.MaxVUs, 1), Timeout: env.Timeout, Getenv: env.Getenv})
	if err != nil {
		return nil, usage.Errorf("cannot open target %s: %v", redact.URL(target), err)
	}
	opened, err := f.build(ctx, env, names, dir, d, drv, meta)
	if err != nil {
		drv.Close()
		return nil, err
	}
	opened.Target = redact.URL(target)
	opened.InProcess = u.Scheme == "sqlite" // SQLite runs inside stampede
	if v, ok := drv.(driver.Versioner); ok {
		if ver, err := v.Version(ctx); err == nil {
			opened.TargetVersion = ver
		}
	}
	layout := meta.Layout
	if layout == "" {
		layout = "CsvBasic"
	}
	opened.Notes = append([]string{fmt.Sprintf("graph data %s (%s): %d persons, %d knows", dir, layout, meta.Persons, meta.Knows)}, opened.Notes...)
	opened.Notes = append(opened.Notes, nebulaNotes(u.Scheme, opened.TargetVersion)...)
	if embedded {
		opened.Notes = append(opened.Notes, "embedded SQLite target (one writer: inserts queue on its write lock)")
	}
	opened.Close = drv.Close
	return opened, nil
}

// parseTarget checks that target is one of the family's (sqlite://,
// postgres://, nebula://) and returns it with its dialect; the error is a
// usage error.
func (f *Family) parseTarget(target string) (*url.URL, dialect, error) {
	if raw, err := url.Parse(target); err == nil && raw.Scheme != "" && dialectFor(raw.Scheme) == nil {
		return nil, nil, usage.Errorf("graph scenarios need a sqlite://, postgres:// or nebula:// target, not %s (name a scenario of that target's family; see stampede scenarios)", raw.Scheme)
	}
	u, err := f.drivers.ParseTarget(target)
	if err != nil {
		return nil, nil, usage.Errorf("%v", err)
	}
	return u, dialectFor(u.Scheme), nil
}

// loadedFrom returns the data set directory a target was loaded from,
// when the target says and the directory is here; "" otherwise (errors
// are reported by the checks that follow).
func (f *Family) loadedFrom(ctx context.Context, env *workload.Env, target string) string {
	if _, err := f.drivers.ParseTarget(target); err != nil {
		return ""
	}
	meta, err := inspect(ctx, target, env.Getenv)
	if err != nil || meta == nil || meta.Data == "" {
		return ""
	}
	if _, err := ldbcfile.Parts(meta.Data, ldbcfile.PersonPath); err != nil {
		return ""
	}
	return meta.Data
}

// ensureData generates the data set into dir unless it holds persons
// (stampede's or LDBC's; which parameters the scenarios use is decided
// when they are built). Generation refuses a directory holding files
// stampede did not write, so a real data set is never overwritten.
func (f *Family) ensureData(ctx context.Context, env *workload.Env, dir string) error {
	if _, err := ldbcfile.Parts(dir, ldbcfile.PersonPath); err == nil {
		err := datagen.Complete(dir)
		if err == nil {
			return nil
		}
		// Only a set stampede generated under --data-dir gets here (a
		// --data set is checked by checkUserData); --force below removes
		// only the files its manifest lists.
		env.Logf("%v: removing it and generating it again", err)
	}
	env.Logf("generating LDBC SF%s into %s", strconv.FormatFloat(f.opts.SF, 'f', -1, 64), dir)
	st, err := datagen.Generate(ctx, datagen.Config{SF: f.opts.SF, Out: dir, Seed: DataSeed, Force: true, Note: func(s string) { env.Logf("%s", s) }})
	if err != nil {
		if usage.Is(err) {
			return usage.Errorf("generate %s: %v", dir, err)
		}
		return fmt.Errorf("generate %s: %w", dir, err)
	}
	env.Logf("generated %d persons, %d knows in %s", st.Persons, st.Knows, st.Elapsed.Round(1e6))
	return nil
}

// ensureLoaded checks that target holds dir's graph. The embedded target
// is (re)loaded when it does not; another target is refused with the
// command that loads it.
// ensureLoaded returns the load record of target, loading dir into the
// embedded target first when it holds other data. The embedded target gets
// the forum and message tables only when an interactive scenario needs
// them (activity): the person-graph scenarios load in a tenth of the rows.
func (f *Family) ensureLoaded(ctx context.Context, env *workload.Env, dir, target string, embedded, activity bool) (*loader.Meta, error) {
	fp, err := loader.Fingerprint(dir)
	if err != nil {
		return nil, usage.Errorf("data set %s: %v", dir, err)
	}
	meta, err := inspect(ctx, target, env.Getenv)
	if err != nil && !errors.Is(err, loader.ErrIncomplete) {
		return nil, err
	}
	if meta != nil && meta.Fingerprint == fp && (meta.Activity || !activity || !embedded) {
		return meta, nil
	}
	if !embedded {
		if meta == nil {
			return nil, usage.Errorf("target %s holds no complete LDBC load: run stampede load --target URL --data %s", redact.URL(target), dir)
		}
		return nil, usage.Errorf("target %s was loaded from other data (%s) than %s: point --data at the loaded data set, or load this one with stampede load (--drop replaces the graph tables once the new load has verified)", redact.URL(target), meta.Data, dir)
	}
	env.Logf("loading %s into %s", dir, redact.URL(target))
	cfg := loader.Config{Target: target, Data: dir, Drop: true, Getenv: env.Getenv, Dates: f.dates, MaxRejected: f.limit,
		FailedRows:      filepath.Join(env.DataDir, filepath.Base(filepath.Clean(dir))+".failed_rows.csv"),
		PersonGraphOnly: !activity, Note: func(line string) { env.Logf("%s", line) }}
	if !env.Quiet {
		cfg.Progress = termbar.New(env.Stderr, "validating, loading", "rows")
	}
	st, err := loader.Load(ctx, cfg)
	if err != nil {
		return nil, err
	}
	env.Logf("loaded %d rows in %s", st.Loaded, st.Elapsed.Round(1e6))
	if st.Failed > 0 {
		env.Logf("%d rows were not loaded (allowed by --max-rejected): see %s", st.Failed, st.FailedRows)
	}
	return &st.Meta, nil
}

// build makes the named scenarios.
func (f *Family) build(ctx context.Context, env *workload.Env, names []string, dir string, d dialect, drv driver.Driver, meta *loader.Meta) (*workload.Opened, error) {
	need := map[string]bool{}
	customs := map[string]customSpec{}
	for _, c := range f.custom {
		customs[c.Name] = c
	}
	builtin := false
	for _, n := range names {
		need[n] = true
		if _, ok := customs[n]; !ok {
			builtin = true
		}
	}
	p, err := loadParams(dir, f.dates, need[Go1Step] || need[Go2Step] || need[Go3Step] || need[FetchTag], need[FindShortestPath] || need[IC13], need[InsertPerson])
	if err != nil {
		return nil, usage.Errorf("data set %s: substitution parameters: %v", dir, err)
	}
	var ref *refGraph
	var notes []string
	// Parameter notes go only under the scenarios that read them.
	scNotes := map[string][]string{}
	for _, src := range []struct {
		label, from string
		for_        []string
	}{
		{"go.*/fetch.FetchTag", p.khopFrom, []string{Go1Step, Go2Step, Go3Step, FetchTag}},
		{FindShortestPath, p.pairsFrom, []string{FindShortestPath, IC13}},
		{InsertPerson, p.insertFrom, []string{InsertPerson}},
	} {
		if src.from == "" {
			continue
		}
		for _, n := range src.for_ {
			if need[n] {
				scNotes[n] = append(scNotes[n], "parameters of "+src.label+": "+src.from)
			}
		}
	}
	if f.opts.CheckSample > 0 && builtin {
		if ref, err = loadRefGraph(dir, f.dates); err != nil {
			return nil, err
		}
		notes = append(notes, fmt.Sprintf("answers of every %s iteration of each VU checked against an in-memory reference", ordinal(f.opts.CheckSample)))
		if ref.skipped > 0 {
			notes = append(notes, fmt.Sprintf("the data set has %d person/knows rows that are not in the graph (rejected by the load with --max-rejected, and skipped by the reference)", ref.skipped))
		}
	}
	if _, nebula := d.(ngqlDialect); nebula {
		// Counting a NebulaGraph space takes a STATS job; the load record
		// (written by stampede load after SHOW STATS verified it) stands in.
		notes = append(notes, fmt.Sprintf("target graph not counted before measuring (NebulaGraph needs a STATS job): its load record says %d persons, %d knows", meta.Persons, meta.Knows))
	} else {
		counted, err := checkTarget(ctx, drv, dir, ref, meta)
		if err != nil {
			return nil, err
		}
		notes = append(notes, counted)
	}
	var answerCheck, writeCheck metrics.ID
	if f.opts.CheckSample > 0 && env.Metrics != nil {
		answerCheck = env.Metrics.MustAdd(metrics.CheckMetric(CheckAnswer))
		writeCheck = env.Metrics.MustAdd(metrics.CheckMetric(CheckWrite))
	}
	base := func(name string, n int) common {
		check := answerCheck
		if name == InsertPerson || name == InsertEdge || name == BatchInsertEdge {
			check = writeCheck
		}
		return common{name: name, drv: drv, ref: ref, every: int64(f.opts.CheckSample), dialect: d, checkID: check,
			feed: newFeeder(n, f.opts.ParamOrder, env.Seed^int64(nameHash(name))), rec: &recoveryTally{}}
	}
	out := map[string]vu.Scenario{}
	bench, err := f.benchScenarios(names, dir, base, p.khop)
	if err != nil {
		return nil, err
	}
	for n, sc := range bench {
		out[n] = sc
	}
	var inter interactiveState
	var interNotes []string // concern the interactive.* scenarios only
	for _, n := range names {
		if out[n] != nil {
			continue
		}
		switch n {
		case Go1Step, Go2Step, Go3Step:
			steps := map[string]int{Go1Step: 1, Go2Step: 2, Go3Step: 3}[n]
			c := base(n, len(p.khop))
			c.labels = personLabels(n, p.khop)
			out[n] = newGoStep(c, steps, p.khop)
		case FindShortestPath:
			c := base(n, len(p.pairs))
			c.labels = pairLabels(n, p.pairs)
			out[n] = newShortestPath(c, f.opts.MaxDepth, p.pairs)
		case InsertPerson:
			c := base(n, len(p.insert))
			c.labels = []string{n + " batch=" + strconv.Itoa(f.opts.BatchSize)}
			out[n] = &insertPersons{common: c, batch: f.opts.BatchSize, persons: p.insert}
		case FetchTag:
			c := base(n, len(p.khop))
			c.labels = personLabels(n, p.khop)
			out[n] = newFetchPerson(c, p.khop)
		default:
			if isInteractive(n) {
				sc, more, err := f.buildInteractive(n, &inter, base, d, dir, ref, p.pairs)
				if err != nil {
					return nil, err
				}
				out[n] = sc
				interNotes = append(interNotes, more...)
				continue
			}
			spec, ok := customs[n]
			if !ok {
				return nil, usage.Errorf("graph has no scenario %q", n)
			}
			c, err := newCustom(spec, d, dir)
			if err != nil {
				return nil, err
			}
			c.common = base(n, len(c.rows))
			out[n] = c
		}
	}
	for _, n := range names {
		if isInteractive(n) {
			scNotes[n] = append(scNotes[n], interNotes...)
		}
	}
	return &workload.Opened{Scenarios: out, Notes: notes, ScenarioNotes: scNotes}, nil
}

func nameHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

func ordinal(n int) string {
	switch {
	case n == 1:
		return "1st"
	case n%10 == 2 && n%100 != 12:
		return strconv.Itoa(n) + "nd"
	case n%10 == 3 && n%100 != 13:
		return strconv.Itoa(n) + "rd"
	case n%10 == 1 && n%100 != 11:
		return strconv.Itoa(n) + "st"
	}
	return strconv.Itoa(n) + "th"
}
