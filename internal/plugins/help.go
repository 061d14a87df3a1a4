package plugins

// The help texts of the stampede binary that show its built-in families
// at work (scenario names, family flags, the targets they open). The
// command line prints them; they live here, beside the list of the
// families they name, so that the command line itself names none.
const (
	// RootShort is the root command's one-line description.
	RootShort = "Load and benchmark harness for graph databases and message queues"
	// RootLong is the root command's description.
	RootLong = `stampede generates LDBC-style data, loads it into a target, drives concurrent
workloads (graph k-hop, shortest path, inserts; Kafka produce and consume),
measures them with HDR histograms and writes nebula-bench CSV, k6-style
summaries and HTML reports.`
	// RunLong is stampede run's description.
	RunLong = `Run scenarios against a target (or the embedded default) and measure them.

With no scenario, runs the default graph set (go.Go1Step, go.Go2Step,
go.Go3Step, find_path.FindShortestPath, insert.InsertPersonScenario) on an
embedded SQLite database loaded with generated LDBC SF0.1 data, 50 VUs for
10s each. See "stampede scenarios" for the list.

Executors follow k6: -u/-d give constant-vus, -i shared-iterations, --rate
constant-arrival-rate, -s stages ramping-vus (with --rate:
ramping-arrival-rate); --executor picks one explicitly. Flags override
--config, STAMPEDE_<FLAG> environment variables override the config too.`
	// RunExample is stampede run's examples.
	RunExample = `  stampede run
  stampede run go.Go1Step go.Go2Step -u 200 -d 30s
  stampede run find_path.FindShortestPath --target postgres://user@127.0.0.1/ldbc
  stampede run kafka.Produce --rate 50000 -d 1m --kafka-profile high-reliability
  stampede run http.Request --target http://127.0.0.1:8080/ -u 50 -d 10s`
	// TargetUsage is the usage of stampede run's --target.
	TargetUsage = "target URL: sqlite://PATH, postgres://..., nebula://user:pass@h1:9669,h2:9669/SPACE, kafka://h1:9092,h2:9092, http://... (default: embedded)"
	// SweepLong is stampede sweep's description.
	SweepLong = `Run the same workload once per step of one dimension and analyse the curve:

  --vus 50,100,200,300,500        closed model, VUs per step (nebula-bench's levels)
  --rate 1000,2000,4000           open model, iterations per --time-unit per step
  --nodes 1,3,5 --before-step CMD cluster sizes; CMD ({nodes}, {step}, {value},
                                  {target} substituted, run by sh -c) must resize
                                  the cluster and finish before the step starts
  --targets 'URL1 URL2'           one target per step, separated by spaces (with
                                  --nodes: one per size)

Each step is a normal "stampede run" in its own result directory
PARENT/step-NN-VALUE (--out PARENT, default stampede-results/sweep-TIMESTAMP);
every other run flag (-d, --executor, --target, --threshold, workload flags...)
is passed to each step. Afterwards sweep prints a table per scenario — load,
throughput, p50, p99, errors, Little's-law concurrency L = throughput × mean
iteration time against the configured VUs, generator CPU — names the knee
(the first step where throughput grows less than 10% while p99 grows more
than 50%) and says whether the client or the target saturated first. Node
sweeps add throughput per node and scaling efficiency against the smallest
cluster. The analysis is written to PARENT/sweep.json and sweep.txt, the
curves (throughput vs load, latency vs throughput, per node) to
PARENT/report.html unless --no-report;
--from PARENT re-analyses a finished sweep without running it.

A failing --before-step ends the sweep with exit code 1; the steps already
done are kept and analysed.`
	// SweepExample is stampede sweep's examples.
	SweepExample = `  stampede sweep go.Go1Step --vus 50,100,200,300,500 -d 30s --target postgres://bench@db/ldbc
  stampede sweep http.Request --rate 1000,2000,4000,8000 -d 20s --target http://10.0.0.5:8080/
  stampede sweep go.Go2Step --nodes 1,3,5 --before-step 'ansible-playbook resize.yml -e nodes={nodes}' --target postgres://db/ldbc
  stampede sweep --from stampede-results/sweep-2025-01-02T15-04-05`
	// CompareExample is stampede compare's examples.
	CompareExample = `  stampede run http.Request --target http://127.0.0.1:8080/ --repeat 5 --cooldown 10s --out results/old
  stampede run http.Request --target http://127.0.0.1:8080/ --repeat 5 --cooldown 10s --out results/new
  stampede compare results/old results/new
  stampede compare results/old results/new --format md --names default,pgo
  stampede compare results/old results/new --metric responseTime:p99 --metric qps --fail-on-regression 5`
	// K8sManifestExample is stampede k8s manifest's examples.
	K8sManifestExample = `  stampede k8s manifest -n 8 --image ghcr.io/acme/stampede:1.0 --start-delay 3m \
      -- go.Go1Step -u 800 -d 5m --no-csv > job.yaml
  kubectl apply -f job.yaml`
	// RunArgsExample are run arguments shown in messages.
	RunArgsExample = "go.Go1Step -u 800 -d 5m"
)
