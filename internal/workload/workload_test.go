package workload

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/usage"
)

type fakeFamily struct {
	name  string
	infos []Info
}

func (f fakeFamily) Name() string      { return f.name }
func (f fakeFamily) Scenarios() []Info { return f.infos }
func (f fakeFamily) Open(context.Context, *Env, []string) (*Opened, error) {
	return nil, errors.New("unused")
}

func TestCatalog(t *testing.T) {
	graph := &fakeFamily{"graph", []Info{{Name: "go.Go1Step", Default: true}, {Name: "go.Go2Step", Default: true}, {Name: "fetch.FetchTag"}}}
	mq := &fakeFamily{"kafka", []Info{{Name: "kafka.Produce"}}}
	c := NewCatalog(graph, mq)
	if got := strings.Join(c.Defaults(), ","); got != "go.Go1Step,go.Go2Step" {
		t.Errorf("defaults = %s", got)
	}
	groups, err := c.Resolve([]string{"kafka.Produce", "go.Go2Step", "go.Go1Step"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(groups[graph], ","); got != "go.Go2Step,go.Go1Step" {
		t.Errorf("graph group keeps the user's order: %s", got)
	}
	_, err = c.Resolve([]string{"go.Go1step"})
	if !usage.Is(err) || !strings.Contains(err.Error(), "did you mean go.Go1Step") {
		t.Errorf("err = %v", err)
	}
	if _, _, ok := c.Find("nope"); ok {
		t.Error("found an unknown scenario")
	}
}

func TestNumberedNames(t *testing.T) {
	for _, tc := range []struct {
		n          int
		first, end string
	}{{1, "p-0", "p-0"}, {10, "p-0", "p-9"}, {11, "p-00", "p-10"}, {1000, "p-000", "p-999"}} {
		got := NumberedNames("p", tc.n)
		if len(got) != tc.n || got[0] != tc.first || got[len(got)-1] != tc.end {
			t.Errorf("NumberedNames(p, %d) = %s … %s (%d)", tc.n, got[0], got[len(got)-1], len(got))
		}
	}
}
