package workload

import (
	"context"
	"errors"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/stampede-bench/stampede/flags"
)

// flagFamily is a family with string flags, all with default def.
type flagFamily struct {
	name   string
	flags  []string
	shared []string
	def    string
	// values receives what the flags were set to.
	values map[string]*string
}

func newFlagFamily(name string, flags ...string) *flagFamily {
	return &flagFamily{name: name, flags: flags, values: map[string]*string{}}
}

func (f *flagFamily) Name() string      { return f.name }
func (f *flagFamily) Scenarios() []Info { return nil }
func (f *flagFamily) Open(context.Context, *Env, []string) (*Opened, error) {
	return nil, errors.New("unused")
}
func (f *flagFamily) BindFlags(fs flags.Set) {
	for _, n := range f.flags {
		v := new(string)
		f.values[n] = v
		fs.StringVar(v, n, f.def, f.name+"'s "+n)
	}
}

// sharing declares some of f's flags shared.
type sharing struct{ *flagFamily }

func (s sharing) SharedFlags() []string { return s.shared }

// durationFamily binds one duration flag.
type durationFamily struct {
	flagFamily
	d time.Duration
}

func (f *durationFamily) BindFlags(fs flags.Set) { fs.DurationVar(&f.d, f.flags[0], 0, "") }
func (f *durationFamily) SharedFlags() []string  { return f.flags }

func TestBindFlags(t *testing.T) {
	a, b := newFlagFamily("a", "alpha", "common"), newFlagFamily("b", "beta")
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	fs.String("target", "", "")
	got, err := NewCatalog(a, &fakeFamily{name: "noflags"}, b).BindFlags(fs)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"alpha": "a", "common": "a", "beta": "b"}
	if len(got) != len(want) {
		t.Errorf("flag families %v, want %v", got, want)
	}
	for n, fam := range want {
		if len(got[n]) != 1 || got[n][0] != fam {
			t.Errorf("--%s of families %q, want %q", n, got[n], fam)
		}
	}
	if err := fs.Parse([]string{"--alpha", "1", "--beta", "2", "--target", "x"}); err != nil {
		t.Fatal(err)
	}
	if *a.values["alpha"] != "1" || *b.values["beta"] != "2" {
		t.Errorf("values not set: alpha %q beta %q", *a.values["alpha"], *b.values["beta"])
	}
}

func TestBindFlagsDuplicates(t *testing.T) {
	kafka := func() *flagFamily { return newFlagFamily("kafka", "topics", "message-size") }
	nats := func() *flagFamily { return newFlagFamily("nats", "streams", "message-size") }
	shared := func(f *flagFamily, names ...string) Family { f.shared = names; return sharing{f} }
	tests := []struct {
		name     string
		families []Family
		want     string
	}{
		{"two families", []Family{kafka(), nats()}, "flag --message-size is bound by both the kafka and the nats family; rename one, or declare it shared in both (workload.FlagSharer)"},
		{"shared by one only", []Family{shared(kafka(), "message-size"), nats()}, "flag --message-size is bound by both the kafka and the nats family"},
		{"shared by the other only", []Family{kafka(), shared(nats(), "message-size")}, "flag --message-size is bound by both the kafka and the nats family"},
		{"a command flag", []Family{newFlagFamily("graph", "target")}, "flag --target of the graph family is already a flag of the command"},
		{"different defaults", []Family{shared(kafka(), "message-size"), func() Family { f := nats(); f.def = "x"; return shared(f, "message-size") }()},
			`shared flag --message-size: the kafka family binds it as string (default ""), the nats family as string (default "x")`},
		{"different types", []Family{shared(newFlagFamily("kafka", "churn-for"), "churn-for"), &durationFamily{flagFamily: *newFlagFamily("nats", "churn-for")}},
			`shared flag --churn-for: the kafka family binds it as string (default ""), the nats family as duration (default "0s")`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
			fs.String("target", "", "")
			_, err := NewCatalog(tc.families...).BindFlags(fs)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			n := 0
			fs.VisitAll(func(*pflag.Flag) { n++ })
			if n != 1 {
				t.Errorf("a failed BindFlags added %d flags", n-1)
			}
		})
	}
}

func TestSharedFlagSetsEveryFamily(t *testing.T) {
	k, n := newFlagFamily("kafka", "topics", "message-size"), newFlagFamily("nats", "streams", "message-size")
	k.shared, n.shared = []string{"message-size"}, []string{"message-size"}
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	got, err := NewCatalog(sharing{k}, sharing{n}).BindFlags(fs)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got["message-size"], ",") != "kafka,nats" {
		t.Errorf("shared flag listed under %q, want both families in catalog order", got["message-size"])
	}
	if err := fs.Parse([]string{"--message-size", "512"}); err != nil {
		t.Fatal(err)
	}
	if *k.values["message-size"] != "512" || *n.values["message-size"] != "512" {
		t.Errorf("shared flag set kafka %q, nats %q; want 512 in both", *k.values["message-size"], *n.values["message-size"])
	}
	if !fs.Changed("message-size") {
		t.Error("shared flag not reported changed")
	}
}

// TestOptionsFilesDoNotImportPflag: a family's options (options.go) and
// its Family type stand without a flag library; only flags.go binds them.
func TestOptionsFilesDoNotImportPflag(t *testing.T) {
	files, err := filepath.Glob("*/options.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 5 {
		t.Fatalf("found only %v", files)
	}
	for _, f := range files {
		fset := token.NewFileSet()
		ast, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			if strings.Contains(imp.Path.Value, "pflag") || strings.Contains(imp.Path.Value, "cobra") {
				t.Errorf("%s imports %s", f, imp.Path.Value)
			}
		}
	}
}
