package workload

import (
	"fmt"
	"strconv"
)

// NumberedNames returns n names PREFIX-0 … PREFIX-(n-1), zero-padded to
// one width so that they sort in order (PREFIX-00 … PREFIX-11): the
// topics or streams a messaging family spreads its load over.
func NumberedNames(prefix string, n int) []string {
	out := make([]string, n)
	w := len(strconv.Itoa(n - 1))
	for i := range out {
		out[i] = fmt.Sprintf("%s-%0*d", prefix, w, i)
	}
	return out
}
