package compare

import (
	"io"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/usage"
)

// TestRequestRefusesBadInput: every bad value is a usage error naming its
// flag, before any result directory is read (the directories here do not
// exist).
func TestRequestRefusesBadInput(t *testing.T) {
	ok := Request{Base: "/nonexistent/a", Candidate: "/nonexistent/b", Names: "base,candidate", Format: "text", Alpha: 0.05}
	for _, tc := range []struct {
		change func(*Request)
		want   string
	}{
		{func(r *Request) { r.Format = "pdf" }, "--format"},
		{func(r *Request) { r.Alpha = 1 }, "--alpha"},
		{func(r *Request) { r.FailSet, r.FailPct = true, -1 }, "--fail-on-regression"},
		{func(r *Request) { r.Names = "same,same" }, "--names"},
		{func(r *Request) { r.Names = "a,b,c" }, "--names"},
		{func(r *Request) { r.Metrics = []string{"nosuch:stat"} }, "--metric"},
		{func(*Request) {}, "cannot compare"},
	} {
		r := ok
		tc.change(&r)
		_, _, _, err := r.Run(io.Discard, io.Discard)
		if !usage.Is(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want a usage error about %s", r, err, tc.want)
		}
	}
}
