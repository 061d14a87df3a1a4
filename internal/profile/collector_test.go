package profile

import (
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/usage"
)

func TestParseSpec(t *testing.T) {
	env := map[string]string{"NEBULA_PID": "305516", PIDEnv: "77"}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		name string
		spec string
		want string // String() of the collector
		pid  string
		out  string
	}{
		{"pprof", "pprof=http://localhost:6060", "pprof http://localhost:6060/debug/pprof/profile", "", ""},
		{"pprof with credentials", "pprof=http://user:pw@db:6060", "pprof http://db:6060/debug/pprof/profile", "", ""},
		{
			"perf with pid option", "cmd=perf record -p {pid} -b -o {out};pid=305516,305707",
			"cmd perf record -p {pid} -b -o {out}", "305516,305707", DefaultCmdOut,
		},
		{
			"pid from a named variable", "cmd=perf record -p {pid} -o {out}; pid=$NEBULA_PID",
			"cmd perf record -p {pid} -o {out}", "305516", DefaultCmdOut,
		},
		{
			"pid from " + PIDEnv, "cmd=perf record -p {pid} -o {out}",
			"cmd perf record -p {pid} -o {out}", "77", DefaultCmdOut,
		},
		{
			"semicolons in the command, out option", "cmd=sleep 1; perf record -a -o {out};out={scenario}.data;pid=1",
			"cmd sleep 1; perf record -a -o {out}", "1", "{scenario}.data",
		},
		{"no pid needed", "cmd=my-profiler --out {out}", "cmd my-profiler --out {out}", "", DefaultCmdOut},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseSpecEnv(tt.spec, getenv)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.(interface{ String() string }).String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			if cc, ok := c.(*CmdCollector); ok {
				if cc.PID != tt.pid || cc.Out != tt.out {
					t.Errorf("PID, Out = %q, %q, want %q, %q", cc.PID, cc.Out, tt.pid, tt.out)
				}
			}
		})
	}
}

func TestParseSpecErrors(t *testing.T) {
	getenv := func(k string) string {
		if k == "BAD" {
			return "nope"
		}
		return ""
	}
	tests := []struct {
		name, spec, wantText string
	}{
		{"empty", "", "want pprof=URL or cmd=COMMAND"},
		{"no kind", "http://localhost:6060", "want pprof=URL or cmd=COMMAND"},
		{"unknown kind", "perf=record", `unknown kind "perf"`},
		{"pprof without URL", "pprof=", "need an http:// or https:// URL"},
		{"pprof without scheme", "pprof=localhost:6060", "need an http:// or https:// URL"},
		{"pprof ftp", "pprof=ftp://u:topsecret@h/", "pprof=ftp://h/"},
		{"pprof unparsable with secret", "pprof=http://u:topsecret@h:port", "needs a URL like"},
		{"cmd empty", "cmd=", "cmd= needs a command"},
		{"cmd only options", "cmd=;pid=1", "cmd= needs a command"},
		{"{pid} without a pid", "cmd=perf record -p {pid}", "no pid= option and $" + PIDEnv + " is unset"},
		{"pid not a number", "cmd=perf record -p {pid};pid=graphd", `pid= gives pid "graphd"`},
		{"pid variable not a number", "cmd=perf record -p {pid};pid=$BAD", `$BAD gives pid "nope"`},
		{"pid variable unset", "cmd=perf record -p {pid};pid=$UNSET", `$UNSET gives pid ""`},
		{"pid twice", "cmd=x;pid=1;pid=2", "pid= given twice"},
		{"out uses pid", "cmd=x -o {out};out={pid}.data", "only {scenario} may be used in out="},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseSpecEnv(tt.spec, getenv)
			if !usage.Is(err) {
				t.Fatalf("ParseSpecEnv = %v, %v; want a usage error", c, err)
			}
			if !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("err = %q, want it to contain %q", err, tt.wantText)
			}
			if strings.Contains(err.Error(), "topsecret") {
				t.Errorf("err = %q shows a password", err)
			}
		})
	}
}

func TestShellQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"go.Go1Step", "go.Go1Step"},
		{"305516,305707", "305516,305707"},
		{"/tmp/out/x.perf.data", "/tmp/out/x.perf.data"},
		{"/tmp/with space", "'/tmp/with space'"},
		{"it's", `'it'\''s'`},
		{"", "''"},
		{"$(rm -rf /)", "'$(rm -rf /)'"},
	}
	for _, tt := range tests {
		if got := shellQuote(tt.in); got != tt.want {
			t.Errorf("shellQuote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
