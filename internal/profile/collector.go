package profile

import (
	"context"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/usage"
)

// Collector records a profile of the target while one scenario runs.
// The engine calls Start just before the scenario and Stop right after it,
// once per scenario, never concurrently; Start after Stop begins a new
// recording. Implementations: PprofCollector, CmdCollector.
type Collector interface {
	// Start begins recording for scope s and returns once recording is
	// under way (or failed to start). Dir is created if needed.
	Start(ctx context.Context, s Scope) error
	// Stop ends the recording started by Start and returns the profile
	// files written under the scope's Dir. It returns when the files are
	// complete or ctx is done, whichever comes first.
	Stop(ctx context.Context) (files []string, err error)
}

// Scope is what a Collector needs to know about the scenario it profiles.
type Scope struct {
	// Scenario names the scenario, e.g. "go.Go1Step"; file names derive
	// from it (characters outside [A-Za-z0-9._-] become '_').
	Scenario string
	// Dir is the directory profiles are written to, created if missing;
	// empty means the current directory.
	Dir string
	// Duration is how long the scenario is expected to run; collectors
	// that must say up front how long to record (pprof) use it, rounded
	// up to whole seconds, at least 1 s.
	Duration time.Duration
}

// badSpec makes the error for a --profile value ParseSpec cannot use: a
// usage error (package usage) whose message starts "bad profile spec: ".
func badSpec(format string, args ...any) error {
	return usage.Errorf("bad profile spec: "+format, args...)
}

// PIDEnv is the environment variable that supplies {pid} when a cmd spec
// has no pid= option.
const PIDEnv = "STAMPEDE_PROFILE_PID"

// ParseSpecEnv builds a Collector from a --profile value:
//
//	pprof=URL   fetch URL/debug/pprof/profile?seconds=N during each
//	            scenario (see PprofCollector); URL is http or https and may
//	            carry user:password, sent as basic auth and never shown.
//	cmd=COMMAND[;pid=PID][;out=NAME]
//	            run COMMAND with /bin/sh -c during each scenario and
//	            interrupt it afterwards (see CmdCollector). In COMMAND,
//	            {pid} is PID, {scenario} the scenario name and {out} the
//	            output file, Dir/NAME; NAME defaults to
//	            "{scenario}.perf.data" and may use {scenario}. PID is a
//	            process id or a comma-separated list (perf -p takes one),
//	            $VAR to read it from the environment, or tree:NAME for
//	            every process named NAME and its descendants at the
//	            scenario's start (a server's forked workers; ones forked
//	            later are best caught with perf record -a); without pid=,
//	            {pid} comes from $STAMPEDE_PROFILE_PID. A perf command is
//	            waited for until it holds its perf events, so it is
//	            attached before the scenario's first operation, and one
//	            that fails to start is an error before the scenario runs.
//
// Only trailing ";pid=" and ";out=" segments are options, so COMMAND may
// itself contain ';'. getenv reads the environment. Errors are usage errors (package usage).
func ParseSpecEnv(spec string, getenv func(string) string) (Collector, error) {
	kind, rest, ok := strings.Cut(strings.TrimSpace(spec), "=")
	switch {
	case !ok || kind == "":
		return nil, usage.Errorf("bad profile spec %q: want pprof=URL or cmd=COMMAND", redactSpec(spec))
	case kind == "pprof":
		return NewPprofCollector(rest)
	case kind == "cmd":
		return parseCmd(rest, getenv)
	}
	return nil, badSpec("unknown kind %q (want pprof=URL or cmd=COMMAND)", kind)
}

// cmdOption matches a trailing option segment of a cmd spec.
var cmdOption = regexp.MustCompile(`^\s*(pid|out)=(.*?)\s*$`)

// procName matches a process name for pid=tree:NAME.
var procName = regexp.MustCompile(`^[A-Za-z0-9_.:+@-]{1,64}$`)

// pidList matches what {pid} may become.
var pidList = regexp.MustCompile(`^[0-9]+(,[0-9]+)*$`)

func parseCmd(rest string, getenv func(string) string) (*CmdCollector, error) {
	segs := strings.Split(rest, ";")
	opts := map[string]string{}
	for len(segs) > 1 {
		m := cmdOption.FindStringSubmatch(segs[len(segs)-1])
		if m == nil {
			break
		}
		if _, dup := opts[m[1]]; dup {
			return nil, badSpec("%s= given twice", m[1])
		}
		opts[m[1]] = m[2]
		segs = segs[:len(segs)-1]
	}
	c := &CmdCollector{Command: strings.TrimSpace(strings.Join(segs, ";")), Out: opts["out"]}
	if c.Command == "" {
		return nil, badSpec("cmd= needs a command")
	}
	if c.Out == "" {
		c.Out = DefaultCmdOut
	}
	if strings.Contains(c.Out, "{pid}") || strings.Contains(c.Out, "{out}") {
		return nil, badSpec("out=%s: only {scenario} may be used in out=", c.Out)
	}

	pid, given := opts["pid"]
	if name, ok := strings.CutPrefix(pid, "tree:"); ok {
		if !procName.MatchString(name) {
			return nil, badSpec("pid=tree:%s: want a process name (what ps -o comm shows)", name)
		}
		c.Tree = name
		return c, nil
	}
	source := "pid="
	if name, ok := strings.CutPrefix(pid, "$"); ok {
		pid, source = getenv(name), "$"+name
	}
	if !given && strings.Contains(c.Command, "{pid}") {
		pid, source = getenv(PIDEnv), "$"+PIDEnv
		if pid == "" {
			return nil, badSpec("command uses {pid} but there is no pid= option and $%s is unset", PIDEnv)
		}
	}
	if (given || pid != "") && !pidList.MatchString(pid) {
		return nil, badSpec("%s gives pid %q, want a number or comma-separated numbers", source, pid)
	}
	c.PID = pid
	return c, nil
}

// redactSpec hides anything that could be a credential in a spec echoed
// in an error: everything after the first '='.
func redactSpec(spec string) string {
	if kind, _, ok := strings.Cut(spec, "="); ok {
		return kind + "=…"
	}
	if len(spec) > 40 {
		return spec[:40] + "…"
	}
	return spec
}

// fileName turns a scenario name into a safe file name stem.
func fileName(scenario string) string {
	if scenario == "" {
		return "scenario"
	}
	b := []byte(scenario)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

// ensureDir creates dir (and parents) unless it is empty.
func ensureDir(dir string) error {
	if dir == "" {
		return nil
	}
	return os.MkdirAll(dir, 0o755)
}
