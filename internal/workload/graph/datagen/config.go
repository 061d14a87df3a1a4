// Package datagen generates an LDBC SNB social network (persons, their
// attributes and the knows graph, plus the static places, organisations,
// tags and tag classes) natively and deterministically, in the CsvBasic
// layout of ldbc_snb_datagen_hadoop, together with curated substitution
// parameters for stampede's graph scenarios, and optionally LDBC's
// Interactive update streams (Config.UpdateStreams). See docs/datagen.md.
//
// The output depends only on Config.SF and Config.Seed: the same pair gives
// byte-identical files whatever Config.Workers is.
package datagen

import (
	"math"
	"runtime"
	"time"

	"github.com/stampede-bench/stampede/internal/usage"
)

// badConfig is how every error Generate returns for bad input (an unknown
// scale factor, a missing, unwritable or non-empty output directory, a
// negative worker count) is made: a usage error (package usage) whose
// message starts "invalid configuration: ".
func badConfig(format string, args ...any) error {
	return usage.Errorf("invalid configuration: "+format, args...)
}

// Config says what to generate and where.
type Config struct {
	// SF is the LDBC scale factor: 0.1, 0.3, 1, 3, 10, 30 or 100, or any
	// value in (0, 0.1) for small test data sets (see PersonsForSF).
	SF float64
	// Out is the output directory; it is created if missing and must be
	// empty unless Force is set.
	Out string
	// Seed selects the data set; the same (SF, Seed) always gives the same
	// bytes. The CLI default is 42.
	Seed int64
	// Workers is the number of goroutines that generate and format rows;
	// 0 means runtime.NumCPU(). It changes speed, never output.
	Workers int
	// Force allows an Out that holds a data set Generate wrote before:
	// the files its manifest (ManifestName) lists are removed first. An
	// Out holding any other file, or a listed file that changed since, is
	// refused with a usage error and nothing is removed.
	Force bool
	// Layout is the CSV layout of the Hadoop datagen to write:
	// LayoutCsvBasic ("" means it too) or LayoutCsvMergeForeign, which puts
	// the one-to-one relations of the person and static files into columns
	// of their entity (person.place, place.isPartOf, organisation.place,
	// tag.hasType, tagclass.isSubclassOf), and those of the activity files
	// into the forum, post and comment files (forum.moderator,
	// post.creator, post.Forum.id, post.place, comment.creator,
	// comment.place, comment.replyOfPost, comment.replyOfComment), as the
	// Hadoop datagen does, and writes no file for them.
	Layout string
	// UpdateStreams splits the network at LDBC's cut-over, 90% into the
	// simulated period: what was created after it is left out of the bulk
	// files (and of the substitution parameters) and written as insert
	// operations to the update streams updateStream_0_0_person.csv (IU1,
	// IU8) and updateStream_0_0_forum.csv (IU2..IU7) in social_network/,
	// as ldbc_snb_datagen_hadoop does. Off: every entity is in the bulk
	// files and no stream is written.
	UpdateStreams bool
	// Progress, when set, is called with the total number of data rows
	// written so far (headers excluded), from one goroutine at a time,
	// after every written chunk (at most a few hundred calls per file).
	Progress func(rowsWritten int64)
	// Note, when set, receives one line for each thing Generate did that
	// the user did not ask for: removing the staging directory an
	// interrupted or killed generation into Out left (nil: not told).
	Note func(line string)

	// sortBudget overrides the bytes an update stream sorter holds before
	// writing a run (tests force runs with a small one).
	sortBudget int
}

// The layouts Generate writes (see Config.Layout).
const (
	LayoutCsvBasic        = "CsvBasic"
	LayoutCsvMergeForeign = "CsvMergeForeign"
)

// Stats tells what Generate wrote.
type Stats struct {
	// Persons is the number of persons in the data set (insert persons
	// excluded); Knows the number of friendships, each counted once. With
	// update streams, those in the bulk files.
	Persons, Knows int64
	// Files maps the path of every written file, relative to Out (see
	// package ldbcfile), to its number of data rows (header excluded).
	Files map[string]int64
	// Elapsed is the wall time of Generate.
	Elapsed time.Duration
}

// scaleRow is one line of the LDBC scale-factor table: persons exactly as
// the LDBC SNB specification lists them, knows edges where it lists them
// (0 = not listed; interpolated, see avgDegree).
type scaleRow struct {
	sf      float64
	persons int
	knows   int64
}

// scaleTable returns the LDBC SNB Interactive table of persons and
// person_knows_person edges per scale factor, ascending.
func scaleTable() []scaleRow {
	return []scaleRow{
		{0.1, 1_700, 18_074},
		{0.3, 3_900, 0},
		{1, 11_000, 226_515},
		{3, 27_000, 0},
		{10, 73_000, 2_431_407},
		{30, 184_000, 0},
		{100, 499_000, 24_842_767},
	}
}

// Test scale factors below the smallest LDBC one get round(SF*personsPerSF)
// persons, at least minTestPersons.
const (
	personsPerSF   = 11_000
	minTestPersons = 20
	minLDBCSF      = 0.1
)

// PersonsForSF returns the number of persons of scale factor sf: the LDBC
// number for 0.1, 0.3, 1, 3, 10, 30 and 100, and max(20, round(sf*11000))
// for test scale factors in (0, 0.1). Any other sf is a usage error
// (package usage).
func PersonsForSF(sf float64) (int, error) {
	if math.IsNaN(sf) || sf <= 0 || math.IsInf(sf, 0) {
		return 0, badConfig("scale factor %v must be positive", sf)
	}
	if sf < minLDBCSF {
		return max(minTestPersons, int(math.Round(sf*personsPerSF))), nil
	}
	for _, r := range scaleTable() {
		if math.Abs(sf-r.sf) < 1e-9 {
			return r.persons, nil
		}
	}
	return 0, badConfig("scale factor %v is not an LDBC one (use 0.1, 0.3, 1, 3, 10, 30, 100, or below 0.1 for tests)", sf)
}

// workers resolves Config.Workers.
func (c Config) workers() int {
	if c.Workers == 0 {
		return runtime.NumCPU()
	}
	return c.Workers
}

// validate checks the fields that need no file system access.
func (c Config) validate() (persons int, err error) {
	persons, err = PersonsForSF(c.SF)
	if err != nil {
		return 0, err
	}
	if c.Out == "" {
		return 0, badConfig("no output directory")
	}
	if c.Layout != "" && c.Layout != LayoutCsvBasic && c.Layout != LayoutCsvMergeForeign {
		return 0, badConfig("layout %q is neither %s nor %s", c.Layout, LayoutCsvBasic, LayoutCsvMergeForeign)
	}
	if c.Workers < 0 {
		return 0, badConfig("workers %d must be 0 (all CPUs) or more", c.Workers)
	}
	return persons, nil
}
