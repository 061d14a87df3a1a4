package ldbcfile

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// InteractiveParamPath is the path of the LDBC SNB Interactive substitution
// parameter file of complex read query n, as the Hadoop datagen writes
// it: substitution_parameters/interactive_<n>_param.txt, '|'-separated with
// a header line (IC1: personId|firstName, IC2: personId|maxDate, IC13:
// person1Id|person2Id).
func InteractiveParamPath(n int) string {
	return DirParams + "/interactive_" + strconv.Itoa(n) + "_param.txt"
}

// ReadIDColumns reads a '|'-separated file with a header line and calls fn
// with the ids in the named columns of every row, in the order of names
// (other columns are ignored). A header without one of the names is an
// error; a row whose ids do not parse is a malformed line.
func (rd Reader) ReadIDColumns(r io.Reader, names []string, fn func(ids []int64) error) error {
	br := bufio.NewReader(r)
	header, err := br.ReadString('\n')
	if err != nil && err != io.EOF {
		return err
	}
	header = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(header, "\xef\xbb\xbf"), "\n"), "\r")
	cols := strings.Split(header, string(Separator))
	idx := make([]int, len(names))
	for i, n := range names {
		if idx[i] = slices.Index(cols, n); idx[i] < 0 {
			return fmt.Errorf("header %q has no column %s", Cut(header), n)
		}
	}
	ids := make([]int64, len(names))
	return rd.ReadRecords(io.MultiReader(strings.NewReader(header+"\n"), br), header, func(f [][]byte) error {
		for i, c := range idx {
			var err error
			if ids[i], err = ParseID(f[c]); err != nil {
				return malformed(names[i], err)
			}
		}
		return fn(ids)
	})
}
