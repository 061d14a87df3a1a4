package workload

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/usage"
)

// resizer is a family whose embedded cluster a run flag sizes.
type resizer struct {
	fakeFamily
	flag string
}

func (r *resizer) NodesFlag() string  { return r.flag }
func (r *resizer) ResizeNote() string { return r.name + ".* resize themselves" }

// standIn is a family whose embedded cluster is a stand-in, with commands
// and rate trends.
type standIn struct{ fakeFamily }

func (s *standIn) RefuseNodeSweep(scenario string) error {
	return usage.Errorf("%s: stand-in", scenario)
}
func (s *standIn) Commands() []Command { return []Command{{Use: "serve"}} }
func (s *standIn) RateTrends() []RateTrend {
	return []RateTrend{{Trend: "msgs_per_s", Counter: "msgs"}}
}

func TestCapabilities(t *testing.T) {
	a := &resizer{fakeFamily{"a", []Info{{Name: "a.One"}, {Name: "a.Two"}}}, "a-nodes"}
	b := &resizer{fakeFamily{"b", []Info{{Name: "b.One"}}}, "b-nodes"}
	s := &standIn{fakeFamily{"s", []Info{{Name: "s.One"}}}}
	plain := &fakeFamily{"plain", []Info{{Name: "p.One"}}}
	c := NewCatalog(a, plain, b, s)
	for _, tc := range []struct {
		names    []string
		wantFlag string
		wantErr  string
	}{
		{[]string{"a.One", "a.Two"}, "a-nodes", ""},
		{[]string{"b.One"}, "b-nodes", ""},
		{[]string{"a.One", "b.One"}, "", ""}, // two flags: no one resize
		{[]string{"a.One", "p.One"}, "", ""},
		{[]string{"p.One", "s.One"}, "", "s.One: stand-in"},
		{[]string{"nosuch"}, "", ""},
		{nil, "", ""},
	} {
		if got := c.NodesFlag(tc.names); got != tc.wantFlag {
			t.Errorf("NodesFlag(%v) = %q, want %q", tc.names, got, tc.wantFlag)
		}
		err := c.RefuseNodeSweep(tc.names)
		if (err == nil) != (tc.wantErr == "") || (err != nil && (!usage.Is(err) || !strings.Contains(err.Error(), tc.wantErr))) {
			t.Errorf("RefuseNodeSweep(%v) = %v, want %q", tc.names, err, tc.wantErr)
		}
	}
	if got := c.ResizeNotes(); got != "a.* resize themselves, b.* resize themselves" {
		t.Errorf("ResizeNotes = %q", got)
	}
	if got := c.Commands(); len(got) != 1 || got[0].Use != "serve" {
		t.Errorf("Commands = %+v, want the stand-in's serve", got)
	}
	if got, want := c.RateTrends(), []RateTrend{{Trend: "msgs_per_s", Counter: "msgs"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("RateTrends = %+v, want %+v", got, want)
	}
	if got := NewCatalog(plain).ResizeNotes(); got != "" {
		t.Errorf("ResizeNotes without resizers = %q", got)
	}
}
