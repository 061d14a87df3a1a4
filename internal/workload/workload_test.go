package workload

import (
	"context"
	"errors"
	"strings"
	"testing"
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
	if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "did you mean go.Go1Step") {
		t.Errorf("err = %v", err)
	}
	if _, _, ok := c.Find("nope"); ok {
		t.Error("found an unknown scenario")
	}
}
