package cli

import (
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/run"
)

// parsePlan parses args as `stampede run` does and translates them at now.
func parsePlan(t *testing.T, args []string, now time.Time) (run.Plan, error) {
	t.Helper()
	f, catalog := &runFlags{}, newCatalog()
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs, catalog)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("parse %q: %v", args, err)
	}
	return buildPlan(planInput{
		flags: f, changed: fs.Changed, catalog: catalog, args: fs.Args(),
		commandLine: append([]string{"run"}, args...), workloadOptions: f.familyFlags(fs),
		getenv: func(string) string { return "" }, now: now,
	})
}

// TestBuildPlan: what the run flags translate into, and the usage errors
// they stop at. buildPlan has no side effects, so each case also builds
// its plan twice and expects the same value.
func TestBuildPlan(t *testing.T) {
	now := time.Date(2026, 11, 30, 17, 14, 0, 0, time.UTC)
	noop := func(c engine.Config) engine.Config {
		c.GracefulStop = 30 * time.Second
		return c.Defaults()
	}
	tests := []struct {
		name    string
		args    []string
		check   func(t *testing.T, p run.Plan)
		wantErr string
	}{
		{name: "bare run: the default graph scenarios into a timestamped directory", args: nil, check: func(t *testing.T, p run.Plan) {
			if got := strings.Join(p.Names(), ","); !strings.Contains(got, "go.Go1Step") {
				t.Errorf("scenarios %s", got)
			}
			if want := filepath.Join("stampede-results", "2026-11-30T17-14-00"); p.Out != want {
				t.Errorf("out %q, want %q", p.Out, want)
			}
			if p.Repeat != 1 || p.Segment != (executor.Segment{}) || !p.StartAt.IsZero() || p.Thresholds.Len() != 0 {
				t.Errorf("plan %+v", p)
			}
			if p.Backoff != (engine.Backoff{Min: engine.DefaultBackoffMin, Max: engine.DefaultBackoffMax}) {
				t.Errorf("backoff %+v", p.Backoff)
			}
		}},
		{name: "executor flags", args: []string{"builtin.Noop", "-u", "10", "-d", "5s", "--out", "r"}, check: func(t *testing.T, p run.Plan) {
			want := noop(engine.Config{Executor: engine.ConstantVUs, VUs: 10, Duration: 5 * time.Second})
			if len(p.Scenarios) != 1 || !reflect.DeepEqual(p.Scenarios[0].Config, want) {
				t.Errorf("scenarios %+v, want %+v", p.Scenarios, want)
			}
			if p.Scenarios[0].Family == nil || p.Scenarios[0].Family.Name() != "builtin" {
				t.Errorf("family %v", p.Scenarios[0].Family)
			}
		}},
		{name: "thresholds are parsed once into the plan", args: []string{"builtin.Noop", "--threshold", "iterations: count>0", "--threshold", "iterations: rate>1"}, check: func(t *testing.T, p run.Plan) {
			if p.Thresholds.Len() != 2 || len(p.Thresholds.List()) != 1 || len(p.Thresholds.List()[0].Exprs) != 2 {
				t.Errorf("thresholds %+v", p.Thresholds)
			}
		}},
		{name: "segment scales the executors", args: []string{"builtin.Noop", "-u", "4", "--segment", "2/4"}, check: func(t *testing.T, p run.Plan) {
			if p.Segment != (executor.Segment{Index: 2, Count: 4}) || p.Scenarios[0].Config.VUs != 1 {
				t.Errorf("segment %v, config %+v", p.Segment, p.Scenarios[0].Config)
			}
		}},
		{name: "start-at is an absolute time", args: []string{"builtin.Noop", "--start-at", "now+30s"}, check: func(t *testing.T, p run.Plan) {
			if !p.StartAt.Equal(now.Add(30 * time.Second)) {
				t.Errorf("start at %v", p.StartAt)
			}
		}},
		{name: "output flags become output specs, in start order", args: []string{"builtin.Noop", "--out", "json=s.json", "--csv", "r.csv", "--no-report", "--summary-export", "x.json", "--prometheus", ":9464", "--prometheus-linger", "5s"}, check: func(t *testing.T, p run.Plan) {
			want := []run.OutputSpec{{Kind: "requests", Arg: "r.csv"}, {Kind: "series"}, {Kind: "summary-export", Arg: "x.json"},
				{Kind: "prometheus", Arg: "127.0.0.1:9464", Options: map[string]string{"linger": "5s"}}, {Kind: "json", Arg: "s.json"}}
			if !reflect.DeepEqual(p.Outputs, want) {
				t.Errorf("outputs %+v\nwant    %+v", p.Outputs, want)
			}
		}},
		{name: "no-csv leaves the request CSV out", args: []string{"builtin.Noop", "--no-csv"}, check: func(t *testing.T, p run.Plan) {
			if want := []run.OutputSpec{{Kind: "series"}, {Kind: "report"}}; !reflect.DeepEqual(p.Outputs, want) {
				t.Errorf("outputs %+v", p.Outputs)
			}
		}},
		{name: "outputs, tags and k6 options", args: []string{"builtin.Noop", "--out", "res", "--out", "influxdb=http://127.0.0.1:8086/k6", "--tag", "env=ci", "-e", "K=v", "--summary-trend-stats", "avg,p(99)", "--no-thresholds"}, check: func(t *testing.T, p run.Plan) {
			want := []run.OutputSpec{{Kind: "requests"}, {Kind: "series"}, {Kind: "report"}, {Kind: "influxdb", Arg: "http://127.0.0.1:8086/k6"}}
			if p.Out != "res" || !reflect.DeepEqual(p.Outputs, want) {
				t.Errorf("out %q outputs %+v", p.Out, p.Outputs)
			}
			if p.Tags["env"] != "ci" || p.Vars["K"] != "v" || !reflect.DeepEqual(p.TrendStats, []string{"avg", "p(99)"}) || !p.NoThresholds {
				t.Errorf("tags %v vars %v trend %v", p.Tags, p.Vars, p.TrendStats)
			}
		}},
		{name: "the command line is recorded without credentials", args: []string{"builtin.Noop", "--target", "postgres://u:pw@127.0.0.1/db", "-e", "TOKEN=abc"}, check: func(t *testing.T, p run.Plan) {
			line := strings.Join(p.CommandLine, " ")
			if strings.Contains(line, "pw") || strings.Contains(line, "abc") || !strings.HasPrefix(line, "run builtin.Noop") {
				t.Errorf("command line %q", line)
			}
			if p.Target != "postgres://u:pw@127.0.0.1/db" {
				t.Errorf("target %q", p.Target)
			}
		}},
		{name: "--backoff 0 disables waiting", args: []string{"builtin.Noop", "--backoff", "0"}, check: func(t *testing.T, p run.Plan) {
			if p.Backoff.Min >= 0 {
				t.Errorf("backoff %+v", p.Backoff)
			}
		}},
		{name: "unknown scenario", args: []string{"go.Go1step"}, wantErr: "did you mean go.Go1Step"},
		{name: "bad repeat", args: []string{"builtin.Noop", "--repeat", "0"}, wantErr: "--repeat"},
		{name: "bad segment", args: []string{"builtin.Noop", "--segment", "5/4"}, wantErr: "between 1 and N"},
		{name: "start-at long past", args: []string{"builtin.Noop", "--start-at", "2001-01-01T00:00:00Z"}, wantErr: "in the past"},
		{name: "two result directories", args: []string{"builtin.Noop", "--out", "a", "--out", "b"}, wantErr: "two result directories"},
		{name: "bad threshold", args: []string{"builtin.Noop", "--threshold", "iterations"}, wantErr: "threshold"},
		{name: "bad target", args: []string{"builtin.Noop", "--target", "gopher://x"}, wantErr: "gopher"},
		{name: "bad tag", args: []string{"builtin.Noop", "--tag", "novalue"}, wantErr: "KEY=VALUE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := parsePlan(t, tt.args, now)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || exitCode(err) != ExitUsage {
					t.Fatalf("err = %v (exit %d), want a usage error with %q", err, exitCode(err), tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, p)
			again, err := parsePlan(t, tt.args, now)
			if err != nil || !reflect.DeepEqual(again.Names(), p.Names()) || !reflect.DeepEqual(again.CommandLine, p.CommandLine) || again.Out != p.Out {
				t.Errorf("a second translation differs: %+v, %v", again, err)
			}
		})
	}
}
