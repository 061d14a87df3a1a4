package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/internal/k8s"
	"github.com/stampede-bench/stampede/internal/plugins"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/run"
)

func newK8sCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "k8s",
		Short: "Generate load from many machines with a Kubernetes Indexed Job",
		Long: `Generate load from as many machines as it takes, with Kubernetes as the
cluster manager: "stampede k8s manifest" writes an Indexed Job whose pod i
runs segment i+1/N of the plan (stampede run --segment), all starting at one
--start-at; "stampede k8s collect" pulls the result directories out of the
pods' logs; "stampede merge" combines them exactly. See docs/scale.md.`,
	}
	cmd.AddCommand(newK8sManifestCmd(env), newK8sWorkerCmd(env), newK8sCollectCmd(env))
	return cmd
}

func newK8sManifestCmd(env *Env) *cobra.Command {
	var (
		spec       k8s.Spec
		startAt    string
		startDelay time.Duration
		output     string
		pull       string
		secretFile string
	)
	cmd := &cobra.Command{
		Use:   "manifest --parallelism N --image IMAGE [flags] -- [SCENARIO...] [RUN FLAGS...]",
		Short: "Write the Indexed Job that runs N segments of a plan in N pods",
		Long: `Write a batch/v1 Job (completionMode: Indexed, completions = parallelism = N)
whose pod with JOB_COMPLETION_INDEX i runs

  stampede run RUN_ARGS --segment i+1/N --start-at T --out /results/NAME/i

through "stampede k8s worker". Everything after -- is passed to stampede run.
Every pod starts at T: --start-at (RFC 3339 or now+D) or, by default, now +
--start-delay; apply the manifest well before T so that images are pulled
and pods scheduled in time (a pod that starts more than 5s late fails rather
than run out of step).

Results: with --results-pvc NAME (a ReadWriteMany claim) each pod writes its
result directory to /results/NAME/i on it; otherwise each pod prints it, as a
base64 tarball between markers, at the end of its log (requests.csv left
out) for "stampede k8s collect". Credentials belong in a Secret
(--env-from-secret, e.g. with STAMPEDE_TARGET), not in the manifest.`,
		Example: plugins.K8sManifestExample,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 && args[0] == "run" {
				args = args[1:] // "-- run SCENARIO ..." means the same as "-- SCENARIO ..."
			}
			if len(args) == 0 {
				return usagef("k8s manifest needs the run arguments after --, e.g. -- %s", plugins.RunArgsExample)
			}
			if err := checkRunArgs(env, args); err != nil {
				return err
			}
			for _, o := range []struct{ flag, path string }{{"-o", output}, {"--secret-file", secretFile}} {
				if o.path != "" && o.path != "-" {
					if err := run.CheckWritableFile(o.path); err != nil {
						return usagef("%s %s: %v", o.flag, o.path, err)
					}
				}
			}
			var err error
			if spec.StartAt, err = run.CommonStart(startAt, startDelay, cmd.Flags().Changed("start-delay"), time.Now()); err != nil {
				return err
			}
			spec.ImagePullPolicy = corev1.PullPolicy(pull)
			return k8s.WriteJob(spec, args, output, secretFile, env.Stdout, env.Stderr)
		},
	}
	fs := cmd.Flags()
	fs.IntVarP(&spec.Parallelism, "parallelism", "n", 0, "number of segments, pods and machines (required)")
	fs.StringVar(&spec.Image, "image", "", "container image with stampede as its \"stampede\" command (required; see Dockerfile)")
	fs.StringVar(&spec.Name, "name", k8s.DefaultName, "Job name; also the results subdirectory")
	fs.StringVar(&spec.Namespace, "namespace", "", "namespace of the Job (default: kubectl's)")
	fs.StringVar(&startAt, "start-at", "", "common start time of every pod: RFC 3339 or now+D")
	fs.DurationVar(&startDelay, "start-delay", 2*time.Minute, "start this long after the manifest is written (when no --start-at)")
	fs.StringVar(&spec.ResultsPVC, "results-pvc", "", "PersistentVolumeClaim (ReadWriteMany) for /results; default: results in the pods' logs")
	fs.StringVar(&spec.CPU, "cpu", "", "CPU request per pod, e.g. 2 (no limit: a throttled generator measures itself)")
	fs.StringVar(&spec.Memory, "memory", "", "memory request and limit per pod, e.g. 2Gi")
	fs.StringVar(&spec.SecretEnv, "env-from-secret", "", "Secret whose keys become environment variables (e.g. STAMPEDE_TARGET)")
	fs.StringVar(&pull, "pull-policy", "IfNotPresent", "imagePullPolicy: Always, IfNotPresent or Never")
	fs.StringVar(&secretFile, "secret-file", "", "write the Secret holding the run arguments' credentials to FILE (mode 0600; kubectl apply it before the Job)")
	fs.StringVarP(&output, "output", "o", "-", "write the manifest to FILE instead of stdout")
	return cmd
}

// checkRunArgs rejects run arguments the worker sets and parses the rest
// with the run command's flags, so that a typo fails here and not in N
// pods.
func checkRunArgs(env *Env, args []string) error {
	if err := k8s.CheckRunArgs(args); err != nil {
		return err
	}
	if _, _, err := planFromRunArgs(env, args, args); err != nil {
		return usagef("run arguments: %v", err)
	}
	return nil
}

func newK8sWorkerCmd(env *Env) *cobra.Command {
	var (
		segments  int
		startAt   string
		results   string
		stream    bool
		streamCSV bool
	)
	cmd := &cobra.Command{
		Use:   "worker --segments N --start-at T --results DIR [--stream] -- run [SCENARIO...] [RUN FLAGS...]",
		Short: "Run this pod's segment (the container command of the manifest)",
		Long: `Run the segment of this pod of an Indexed Job: JOB_COMPLETION_INDEX i selects
segment i+1 of --segments, the result directory is DIR/i. With --stream the
result directory is printed at the end of the log for "stampede k8s collect"
(requests.csv only with --stream-csv: kubelet rotates logs at 10 MiB by
default). Failed thresholds do not fail the pod — they are judged on the
merged result (stampede merge) — so one segment never stops the others.`,
		Hidden: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 || args[0] != "run" {
				return usagef("worker needs -- run [SCENARIO...] [RUN FLAGS...]")
			}
			if segments < 1 {
				return usagef("--segments must be ≥ 1")
			}
			raw := env.Getenv(k8s.IndexEnv)
			idx, err := strconv.Atoi(raw)
			if err != nil || idx < 0 || idx >= segments {
				return usagef("%s=%q: want a completion index 0..%d (is this pod part of an Indexed Job?)", k8s.IndexEnv, raw, segments-1)
			}
			dir := filepath.Join(results, strconv.Itoa(idx))
			f, plan, err := planFromRunArgs(env, args[1:], env.args)
			if err != nil {
				return err
			}
			if plan, err = plan.ForWorker(executor.Segment{Index: idx + 1, Count: segments}, dir, startAt, time.Now()); err != nil {
				return err
			}
			err = runMeasured(cmd.Context(), env, f, plan) // a run in this process, with the self-check
			var ee *ExitError
			if errors.As(err, &ee) && ee.Code == ExitThresholdsFailed {
				fmt.Fprintf(env.Stderr, "segment %d/%d: thresholds failed here; they are judged on the merged result\n", idx+1, segments)
				err = nil
			}
			if stream && resultdir.IsResult(dir) {
				label, leaveOut := fmt.Sprintf("%s-%d", filepath.Base(results), idx), resultdir.RequestsFile
				if streamCSV {
					leaveOut = ""
				}
				if serr := k8s.StreamResult(env.Stdout, env.Stderr, dir, label, leaveOut); serr != nil && err == nil {
					err = serr
				}
			}
			return err
		},
	}
	fs := cmd.Flags()
	fs.IntVar(&segments, "segments", 0, "number of segments (the Job's completions)")
	fs.StringVar(&startAt, "start-at", "", "common start time (RFC 3339)")
	fs.StringVar(&results, "results", k8s.ResultsMount, "directory for this pod's result directory (DIR/INDEX)")
	fs.BoolVar(&stream, "stream", false, "print the result directory into the log at the end")
	fs.BoolVar(&streamCSV, "stream-csv", false, "with --stream, include requests.csv")
	return cmd
}

func newK8sCollectCmd(env *Env) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "collect [LOGFILE...] -o DIR",
		Short: "Extract the result directories printed into pod logs",
		Long: `Extract the result directories that "stampede k8s worker --stream" printed
at the end of the pods' logs (read from LOGFILEs, or stdin) into DIR/NAME-i,
ready for "stampede merge DIR -o MERGED". Logs of several pods may be
concatenated, and kubectl's --prefix is understood.`,
		Example: `  kubectl logs -l app.kubernetes.io/instance=stampede --tail=-1 --prefix --max-log-requests 100 \
      | stampede k8s collect -o results/job-1
  stampede merge results/job-1 -o results/job-1-merged`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usagef("collect needs -o DIR")
			}
			dirs, err := k8s.Collect(args, cmd.InOrStdin(), out)
			if err != nil {
				return err
			}
			for _, d := range dirs {
				fmt.Fprintln(env.Stdout, d)
			}
			fmt.Fprintf(env.Stderr, "collected %d result directories; next: stampede merge %s -o MERGED\n", len(dirs), out)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "directory to extract the result directories into")
	return cmd
}
