package loader

import (
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// Meta is what a completed load records in the stampede_meta table.
type Meta struct {
	// Fingerprint identifies the person and knows files that were loaded
	// (see Fingerprint).
	Fingerprint string
	// Persons and Knows are the rows loaded into person and
	// person_knows_person (friendships, each once).
	Persons, Knows int64
	// Failed is the number of rows rejected into the failed-rows file.
	Failed   int64
	LoadedAt time.Time
	// Data is the absolute path of the data set directory that was loaded
	// (on the machine that loaded it).
	Data string
	// MaxPersonID is the largest person id of the data set: persons the
	// insert scenario adds later have larger ids (0: not recorded).
	MaxPersonID int64
	// Layout names the CSV layout of the person file ("CsvBasic", ...).
	Layout string
	// Activity is set when the forum and message tables were loaded too
	// (not with Config.PersonGraphOnly, nor from a person-graph data set).
	Activity bool
}

func (m Meta) pairs() [][2]string {
	return [][2]string{
		{"format", "ldbc-snb-csvbasic/1"},
		{"fingerprint", m.Fingerprint},
		{"persons", strconv.FormatInt(m.Persons, 10)},
		{"knows", strconv.FormatInt(m.Knows, 10)},
		{"failed", strconv.FormatInt(m.Failed, 10)},
		{"loaded_at", m.LoadedAt.UTC().Format(time.RFC3339)},
		{"data", m.Data},
		{"max_person_id", strconv.FormatInt(m.MaxPersonID, 10)},
		{"layout", m.Layout},
		{"activity", strconv.FormatBool(m.Activity)},
	}
}

func metaFrom(kv map[string]string) *Meta {
	m := &Meta{Fingerprint: kv["fingerprint"], Data: kv["data"]}
	m.Persons, _ = strconv.ParseInt(kv["persons"], 10, 64)
	m.Knows, _ = strconv.ParseInt(kv["knows"], 10, 64)
	m.Failed, _ = strconv.ParseInt(kv["failed"], 10, 64)
	m.LoadedAt, _ = time.Parse(time.RFC3339, kv["loaded_at"])
	m.MaxPersonID, _ = strconv.ParseInt(kv["max_person_id"], 10, 64)
	m.Layout = kv["layout"]
	m.Activity, _ = strconv.ParseBool(kv["activity"])
	return m
}

// Fingerprint identifies the graph of a data set: the sizes and CRC-32C of
// its person and knows files (every part of them). A target whose recorded
// fingerprint differs holds other data than dir.
func Fingerprint(dir string) (string, error) {
	var files []string
	for _, rel := range []string{ldbcfile.PersonPath, ldbcfile.PersonKnowsPersonPath} {
		parts, err := ldbcfile.Parts(dir, rel)
		if err != nil {
			return "", fmt.Errorf("fingerprint: %w", err)
		}
		files = append(files, parts...)
	}
	out := ""
	for _, p := range files {
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			return "", fmt.Errorf("fingerprint: %w", err)
		}
		h := crc32.New(crc32.MakeTable(crc32.Castagnoli))
		n, err := io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", fmt.Errorf("fingerprint %s: %w", p, err)
		}
		if out != "" {
			out += ","
		}
		out += fmt.Sprintf("%d:%08x", n, h.Sum32())
	}
	return out, nil
}
