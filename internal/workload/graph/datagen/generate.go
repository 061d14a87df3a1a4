package datagen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// generator carries the state of one Generate call through its stages.
type generator struct {
	seed    int64
	workers int
	dicts   *dicts
	degrees degreeModel
	persons []person // index = seq, the low bits of the person id
	graph   *graph
	act     *activityPlan
	text    *corpus
	// mergeForeign writes the CsvMergeForeign layout (Config.Layout).
	mergeForeign bool
	// updates splits the network into bulk files and update streams
	// (Config.UpdateStreams); sorters order each stream's operations.
	updates    bool
	sorters    [updateStreamCount]*sorter
	sortBudget int // bytes per sorted run; 0: defaultSortBudget
}

// stage is one step of generation. Stages run in order; later ones may use
// what earlier ones left in the generator. Messages and forums (posts,
// comments, likes) are meant to become further stages after "person files",
// reading g.persons and g.graph and writing their own files through o.
type stage struct {
	name string
	run  func(ctx context.Context, o *outputs) error
}

// personChunk is the number of persons generated or written per unit of
// parallel work.
const personChunk = 4096

// Generate writes an LDBC SNB social network for cfg.SF into cfg.Out and
// returns what it wrote. It is deterministic in (cfg.SF, cfg.Seed), uses
// cfg.Workers goroutines, and stops early with ctx.Err() (wrapped) when ctx
// ends. It writes into a staging directory (PartialSuffix) that becomes
// cfg.Out only when every file is complete; a failed or interrupted call
// removes it (and the parents of cfg.Out it made), and the next call
// removes one a killed process left (cfg.Note says so). Bad input gives a
// usage error (package usage) before anything is written.
func Generate(ctx context.Context, cfg Config) (Stats, error) {
	t0 := time.Now()
	n, err := cfg.validate()
	if err != nil {
		return Stats{}, err
	}
	if err := removeAbandoned(cfg.Out, cfg.Note); err != nil {
		return Stats{}, err
	}
	if err := prepareOut(cfg.Out, cfg.Force); err != nil {
		return Stats{}, err
	}
	stage, err := openStaging(cfg.Out)
	if err != nil {
		return Stats{}, err
	}
	st, err := generateInto(ctx, cfg, n, stage.dir, t0)
	if err == nil {
		err = stage.publish(cfg.Out)
	}
	if err != nil {
		stage.discard()
		return Stats{}, err
	}
	return st, nil
}

// generateInto writes the data set into dir (the staging directory).
func generateInto(ctx context.Context, cfg Config, n int, dir string, t0 time.Time) (Stats, error) {
	d, err := newDicts()
	if err != nil {
		return Stats{}, err
	}
	g := &generator{
		seed:    cfg.Seed,
		workers: cfg.workers(),
		dicts:   d,
		degrees: newDegreeModel(n),

		mergeForeign: cfg.Layout == LayoutCsvMergeForeign,
		updates:      cfg.UpdateStreams,
		sortBudget:   cfg.sortBudget,
	}
	g.startUpdates(dir)
	defer g.closeUpdates()
	o := &outputs{root: dir, progress: cfg.Progress, manifest: &manifest{path: filepath.Join(dir, ManifestName)}}
	if err := o.manifest.write(nil); err != nil {
		return Stats{}, fmt.Errorf("manifest: %w", err)
	}
	stages := []stage{
		{"static files", g.writeStatic},
		{"persons", func(ctx context.Context, _ *outputs) error { return g.generatePersons(ctx, n) }},
		{"knows", func(ctx context.Context, _ *outputs) error { return g.generateKnows(ctx) }},
		{"person files", g.writeDynamic},
		{"activity", g.generateActivity},
		{"substitution parameters", g.writeParams},
		{"interactive parameters", g.writeInteractiveParams},
	}
	if g.updates {
		stages = append(stages, stage{"update streams", g.writeUpdateStreams})
	}
	for _, st := range stages {
		if err := st.run(ctx, o); err != nil {
			_ = o.closeAll()
			return Stats{}, fmt.Errorf("%s: %w", st.name, err)
		}
	}
	if err := o.closeAll(); err != nil {
		return Stats{}, err
	}
	if err := o.manifest.finish(dir); err != nil {
		return Stats{}, fmt.Errorf("manifest: %w", err)
	}
	st := Stats{
		Persons: int64(n),
		Knows:   g.graph.edges(),
		Files:   o.rowCounts(),
		Elapsed: time.Since(t0),
	}
	if g.updates {
		st.Persons, st.Knows = st.Files[ldbcfile.PersonPath], st.Files[ldbcfile.PersonKnowsPersonPath]
	}
	return st, nil
}

// prepareOut checks that out can take a data set: absent, empty, or (with
// force) emptied of a data set Generate wrote there before.
func prepareOut(out string, force bool) error {
	if fi, err := os.Stat(out); err == nil {
		if !fi.IsDir() {
			return badConfig("output %s is not a directory", out)
		}
		empty, err := isEmptyDir(out)
		if err != nil {
			return badConfig("output directory: %v", err)
		}
		if !empty {
			if !force {
				return badConfig("output directory %s is not empty (--force replaces a data set stampede wrote there, and nothing else)", out)
			}
			if err := clearOwnFiles(out); err != nil {
				return err
			}
		}
	}
	return nil
}

// unwrapPath drops the path from *PathError messages that already name it.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}

func isEmptyDir(dir string) (bool, error) {
	f, err := os.Open(dir)
	if err != nil {
		return false, err
	}
	defer f.Close()
	_, err = f.Readdirnames(1)
	if errors.Is(err, io.EOF) {
		return true, nil
	}
	return false, err
}

// generatePersons draws the core attributes and target degrees of the n
// persons, in parallel by chunks of person indexes.
func (g *generator) generatePersons(ctx context.Context, n int) error {
	g.persons = make([]person, n)
	span := endMs - startMs - knowsWindowMs
	// Degree quantiles are stratified: person s draws its quantile from
	// stratum strata[s] of n equal ones, a seeded permutation, so the
	// total of the heavy-tailed degrees is on target even for small n.
	r := newRNG()
	r.reset(g.seed, streamPerson, math.MaxUint64)
	strata := r.Perm(n)
	chunks := (n + personChunk - 1) / personChunk
	err := g.parallel(ctx, chunks, func(r *rng, _ *[]int32, c int) {
		for s := c * personChunk; s < min(n, (c+1)*personChunk); s++ {
			p := g.newPerson(r, int64(s), startMs, span)
			p.degree = uint16(g.degrees.target((float64(strata[s]) + r.Float64()) / float64(n)))
			g.persons[s] = p
		}
	})
	if err != nil {
		return err
	}
	g.graph, err = newGraph(g.persons)
	return err
}

// knowsWindowMs keeps the last persons' join dates this far before the end
// of the period so that their friendships have time to happen.
const knowsWindowMs = 30 * dayMs

// writeDynamic streams the person files: chunks of persons are formatted in
// parallel and written in index order.
func (g *generator) writeDynamic(ctx context.Context, o *outputs) error {
	var files [dynamicFiles]*outFile
	for i, spec := range dynamicFileSpecs() {
		if g.mergeForeign {
			switch i {
			case fileLocatedIn:
				continue // a column of the person file
			case filePerson:
				spec[1] = ldbcfile.PersonMergeForeignHeader
			}
		}
		f, err := o.create(spec[0], spec[1])
		if err != nil {
			return err
		}
		files[i] = f
	}
	n := len(g.persons)
	chunks := (n + personChunk - 1) / personChunk
	return ordered(ctx, g.workers, chunks, func() *rowChunk { return &rowChunk{} },
		func(r *rng, c *rowChunk, i int) {
			c.reset()
			for s := i * personChunk; s < min(n, (i+1)*personChunk); s++ {
				g.appendPersonRows(r, c, uint32(s))
			}
		},
		func(c *rowChunk, _ int) error {
			for k, f := range files {
				if f == nil {
					continue
				}
				if err := o.write(f, c.buf[k], c.rows[k]); err != nil {
					return err
				}
			}
			o.report()
			if g.updates {
				return g.sorters[streamPersonUpdates].add(&c.ev)
			}
			return nil
		})
}
