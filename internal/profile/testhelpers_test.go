package profile

// MergeFiles merges inputs (files or directories, see Merge) and writes the
// result to out as a gzip-compressed pprof profile, suitable for
// go build -pgo=out. out is replaced atomically: it is written to a
// temporary file in the same directory and renamed.
func MergeFiles(out string, inputs ...string) error {
	p, err := Merge(inputs)
	if err != nil {
		return err
	}
	return WriteFile(out, p)
}
