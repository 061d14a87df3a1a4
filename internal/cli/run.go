package cli

import (
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/plugins"
	"github.com/stampede-bench/stampede/internal/secret"
	"github.com/stampede-bench/stampede/internal/workload"
)

// runFlags are the options of `stampede run`, k6's names where k6 has one.
type runFlags struct {
	vus         int64
	duration    time.Duration
	iterations  int64
	rate        int64
	timeUnit    time.Duration
	maxVUs      int64
	stages      []string
	executor    string
	warmup      time.Duration
	gracefulStp time.Duration
	concurrent  bool

	target     string
	dataDir    string
	out        []string
	summaryOut string
	csvFile    string
	noCSV      bool
	thresholds []string
	config     string
	seed       int64
	timeout    time.Duration
	backoff    time.Duration
	backoffMax time.Duration
	repeat     int
	cooldown   time.Duration

	quiet   bool
	json    bool
	noColor bool

	profiles   []string
	prometheus string
	linger     time.Duration
	noReport   bool
	segment    string
	startAt    string
	selfProf   string
	// secretHeaders are header names whose values are never written out,
	// besides those redact.IsSecretHeader knows.
	secretHeaders []string
	// secretTags are tag names whose values are redacted in every output,
	// besides those named like secrets (secret.IsSecretTag).
	secretTags []string

	k6       k6Flags  // k6's options (runk6.go)
	monitors []string // --monitor sources on the target side
	nicSpeed string   // --nic-speed, bits per second

	// familyFlagNames are the workload options, recorded in options.json.
	familyFlagNames map[string]bool
	// bindErr is why the families' flags could not be bound (a flag name
	// bound twice); buildPlan reports it.
	bindErr error
	// flagFamily names the families binding each workload flag (for
	// --help, and to refuse a flag of a family that runs no scenario).
	flagFamily map[string][]string
}

func newRunCmd(env *Env) *cobra.Command {
	f := &runFlags{}
	catalog := env.catalog()
	cmd := &cobra.Command{
		Use:     "run [SCENARIO...]",
		Short:   "Run scenarios against a target and measure them",
		Long:    plugins.RunLong,
		Example: plugins.RunExample,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := applyEnv(cmd.Flags(), env.Getenv); err != nil {
				return err
			}
			if err := applyK6Env(cmd.Flags(), env.Getenv); err != nil {
				return err
			}
			return runRun(cmd.Context(), env, f, catalog, cmd.Flags(), args)
		},
	}
	f.register(cmd.Flags(), catalog)
	setRunUsage(cmd, f.flagFamily)
	return cmd
}

// register adds the run flags, with the workload flags of catalog's
// families, to fs, bound to f. A flag bound by two families is kept in
// f.bindErr, which buildPlan reports.
func (f *runFlags) register(fs *pflag.FlagSet, catalog *workload.Catalog) {
	fs.Int64VarP(&f.vus, "vus", "u", 50, "virtual users (preallocated VUs under --rate)")
	fs.DurationVarP(&f.duration, "duration", "d", 10*time.Second, "how long each scenario runs")
	fs.Int64VarP(&f.iterations, "iterations", "i", 0, "total iterations shared by the VUs (shared-iterations)")
	fs.Int64Var(&f.rate, "rate", 0, "iterations per --time-unit (arrival-rate executors)")
	fs.DurationVar(&f.timeUnit, "time-unit", time.Second, "unit of --rate")
	fs.Int64Var(&f.maxVUs, "max-vus", 0, "most VUs an arrival-rate executor may allocate (default 4×--vus)")
	fs.StringArrayVarP(&f.stages, "stage", "s", nil, "ramping stage DURATION:TARGET (repeatable)")
	fs.StringVar(&f.executor, "executor", "", "executor: constant-vus, ramping-vus, per-vu-iterations, shared-iterations, constant-arrival-rate, ramping-arrival-rate")
	fs.DurationVar(&f.warmup, "warmup", 0, "exclude the first part of each scenario from statistics")
	fs.DurationVar(&f.gracefulStp, "graceful-stop", 30*time.Second, "time iterations in progress get to finish at the end")
	fs.BoolVar(&f.concurrent, "concurrent", false, "run the scenarios at the same time instead of one after another")
	fs.StringVar(&f.target, "target", "", plugins.TargetUsage)
	fs.StringVar(&f.dataDir, "data-dir", "stampede-data", "where generated data and embedded databases live")
	fs.StringArrayVar(&f.out, "out", nil, "result directory (default stampede-results/TIMESTAMP), or an output spec like influxdb=http://127.0.0.1:8086/k6")
	fs.StringVar(&f.summaryOut, "summary-export", "", "also write the k6-style summary JSON to FILE")
	fs.StringVar(&f.csvFile, "csv", "", "per-request CSV file (default RESULT_DIR/requests.csv)")
	fs.BoolVar(&f.noCSV, "no-csv", false, "do not write the per-request CSV")
	fs.StringArrayVar(&f.thresholds, "threshold", nil, "k6 threshold, e.g. 'responseTime: p(95)<200' (repeatable; exit 99 when one fails)")
	fs.StringVar(&f.config, "config", "", "YAML config file (flags override it)")
	fs.Int64Var(&f.seed, "seed", 1, "seed for parameter choices")
	fs.DurationVar(&f.timeout, "timeout", 60*time.Second, "timeout of each operation")
	fs.DurationVar(&f.backoff, "backoff", engine.DefaultBackoffMin, "a VU waits this long after an iteration that could not reach the target, doubling per failure up to --backoff-max (closed-model executors; 0 disables)")
	fs.DurationVar(&f.backoffMax, "backoff-max", engine.DefaultBackoffMax, "longest wait of a VU between connection failures")
	fs.IntVar(&f.repeat, "repeat", 1, "run the whole scenario set N times, each in its own result directory")
	fs.DurationVar(&f.cooldown, "cooldown", 0, "pause between repeated runs")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "no progress line and no preparation messages")
	fs.BoolVar(&f.json, "json", false, "print the summary JSON on stdout instead of the console summary")
	fs.BoolVar(&f.noColor, "no-color", false, "no colours even on a terminal")
	fs.StringArrayVar(&f.profiles, "profile", nil, "profile the target during each scenario: pprof=http://HOST:PORT or cmd='perf record -p {pid} -o {out}' (repeatable)")
	fs.StringVar(&f.prometheus, "prometheus", "", "serve live metrics for Prometheus on ADDR, e.g. 127.0.0.1:9464")
	fs.DurationVar(&f.linger, "prometheus-linger", 0, "with --prometheus: keep the endpoint up this long after the run (default: until Prometheus scraped the final totals, at most 2 scrape intervals or 60s; negative: close at once)")
	fs.BoolVar(&f.noReport, "no-report", false, "do not write report.html into the result directory")
	fs.StringVar(&f.segment, "segment", "", "run only segment i/N of every executor (distributed runs; see stampede merge)")
	fs.StringVar(&f.selfProf, "self-profile", "", "write stampede's own CPU profile to FILE (where the generator's time goes)")
	fs.StringVar(&f.startAt, "start-at", "", "wait until this time (RFC 3339, or now+30s) before starting, so segments begin together")
	fs.StringArrayVar(&f.secretHeaders, "secret-header", nil, "header NAME whose value is a credential, never written to any file (Authorization, Cookie, X-Api-Key and the like always are)")
	fs.StringArrayVar(&f.secretTags, "secret-tag", nil, "tag NAME whose value is a credential, written as xxxxx everywhere (tags named like token, key, secret, password always are)")
	fs.StringArrayVar(&f.monitors, "monitor", nil, "watch the target every second: node=http://HOST:9100/metrics (node_exporter), process=URL (process-exporter), NAME=URL#metric,... (any /metrics), pid=PID|NAME (local process) (repeatable)")
	fs.StringVar(&f.nicSpeed, "nic-speed", "", "link speed of the target's NICs, e.g. 1G or 10Gbit, for NIC-bound verdicts when the host does not report it")
	addK6Flags(fs, &f.k6)
	f.familyFlagNames = map[string]bool{}
	// A flag bound twice makes a catalog that cannot run: buildPlan says so.
	f.flagFamily, f.bindErr = catalog.BindFlags(fs)
	for name := range f.flagFamily {
		f.familyFlagNames[name] = true
	}
}

// familyFlags returns the workload flags that the user set, for
// options.json, without credentials.
func (f *runFlags) familyFlags(fs *pflag.FlagSet) map[string]string {
	return secret.FlagValues(fs, f.familyFlagNames, f.secretHeaders)
}
