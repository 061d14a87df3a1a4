// Package k8s describes a distributed stampede run as a Kubernetes
// Indexed Job — one pod per execution segment, all starting at a common
// time — and moves result directories out of pods through their logs.
// Kubernetes is the cluster manager: stampede only writes the manifest and
// runs inside the pods (stampede k8s worker).
package k8s

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// Defaults and fixed names of the manifest.
const (
	DefaultName  = "stampede"
	ResultsMount = "/results"
	// IndexEnv is the variable Kubernetes sets in each pod of an Indexed
	// Job: the pod's completion index, 0..completions-1.
	IndexEnv = "JOB_COMPLETION_INDEX"
	// StartAtAnnotation records the common start time on the Job.
	StartAtAnnotation = "stampede.dev/start-at"
	containerName     = "stampede"
	volumeName        = "results"
)

// Spec is what the Job runs.
type Spec struct {
	// Name of the Job (default "stampede"); a DNS-1123 label.
	Name      string
	Namespace string
	// Image holds the stampede binary as its "stampede" command (see the
	// repository's Dockerfile).
	Image string
	// Parallelism is the number of segments and pods (≥ 1).
	Parallelism int
	// StartAt is when every segment starts (--start-at of each pod).
	StartAt time.Time
	// RunArgs are the arguments of `stampede run` (scenarios and flags)
	// without --segment, --start-at and --out, which the worker adds.
	RunArgs []string
	// ResultsPVC names a PersistentVolumeClaim (ReadWriteMany) mounted at
	// /results; each pod writes /results/NAME/INDEX. Empty: an emptyDir,
	// and each pod prints its result directory into its log (see
	// WriteArchive) for `stampede k8s collect`.
	ResultsPVC string
	// CPU and Memory are the pod's resource requests, e.g. "2", "2Gi"
	// (memory is also the limit; CPU has no limit so that a generator is
	// never throttled). Empty: none.
	CPU, Memory string
	// SecretEnv names a Secret whose keys become environment variables
	// (e.g. STAMPEDE_TARGET with credentials), so none are in the manifest.
	SecretEnv string
	// ImagePullPolicy of the container (default IfNotPresent).
	ImagePullPolicy corev1.PullPolicy
	// Credentials are the keys of the Secret CredentialSecret that hold
	// credentials taken out of RunArgs: each becomes an environment
	// variable of the same name (valueFrom.secretKeyRef), and RunArgs
	// refer to it as $(KEY), which Kubernetes expands. The values never
	// appear in the Job.
	CredentialSecret string
	Credentials      []string
}

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// Validate reports the first problem with s.
func (s Spec) Validate() error {
	var errs []error
	name := s.name()
	if len(name) > 52 || !dnsLabel.MatchString(name) { // 63 minus the pod suffix Kubernetes adds
		errs = append(errs, fmt.Errorf("job name %q must be a DNS label of at most 52 characters (lower case, digits, '-')", name))
	}
	if s.Image == "" {
		errs = append(errs, errors.New("an image is needed (--image), e.g. one built from the repository's Dockerfile"))
	} else if err := checkImage(s.Image); err != nil {
		errs = append(errs, err)
	}
	if s.Parallelism < 1 {
		errs = append(errs, fmt.Errorf("parallelism must be ≥ 1, not %d", s.Parallelism))
	} else if s.Parallelism > MaxIndexedParallelism {
		errs = append(errs, fmt.Errorf("parallelism %d: Kubernetes allows at most %d pods in an Indexed Job", s.Parallelism, MaxIndexedParallelism))
	}
	if s.Namespace != "" {
		if err := checkDNS("namespace", s.Namespace, true); err != nil {
			errs = append(errs, err)
		}
	}
	for _, n := range []struct{ flag, v string }{{"results-pvc", s.ResultsPVC}, {"env-from-secret", s.SecretEnv}} {
		if n.v != "" {
			if err := checkDNS(n.flag, n.v, false); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if s.StartAt.IsZero() {
		errs = append(errs, errors.New("a common start time is needed"))
	}
	switch s.ImagePullPolicy {
	case "", corev1.PullAlways, corev1.PullIfNotPresent, corev1.PullNever:
	default:
		errs = append(errs, fmt.Errorf("--pull-policy %q: want Always, IfNotPresent or Never", s.ImagePullPolicy))
	}
	if len(s.Credentials) > 0 && !dnsLabel.MatchString(s.CredentialSecret) {
		errs = append(errs, fmt.Errorf("credential Secret name %q must be a DNS label", s.CredentialSecret))
	}
	for _, q := range []struct{ flag, v string }{{"cpu", s.CPU}, {"memory", s.Memory}} {
		if q.v != "" {
			if err := checkQuantity(q.flag, q.v); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

func (s Spec) name() string {
	if s.Name == "" {
		return DefaultName
	}
	return s.Name
}

// ResultsDir is where the pods write their result directories:
// /results/NAME, one INDEX directory per pod below it.
func (s Spec) ResultsDir() string { return path.Join(ResultsMount, s.name()) }

// WorkerArgs are the container arguments: stampede k8s worker with the
// segment count, start time and results directory, then -- run RUN_ARGS.
func (s Spec) WorkerArgs() []string {
	args := []string{"k8s", "worker",
		"--segments", strconv.Itoa(s.Parallelism),
		"--start-at", s.StartAt.UTC().Format(time.RFC3339),
		"--results", s.ResultsDir()}
	if s.ResultsPVC == "" {
		args = append(args, "--stream")
	}
	return append(append(args, "--", "run"), s.RunArgs...)
}

// Job builds the Indexed Job for s.
func Job(s Spec) (*batchv1.Job, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	n := int32(s.Parallelism)
	zero := int32(0)
	nonroot := int64(65532)
	indexed := batchv1.IndexedCompletion
	labels := map[string]string{
		"app.kubernetes.io/name":     "stampede",
		"app.kubernetes.io/instance": s.name(),
	}
	pull := s.ImagePullPolicy
	if pull == "" {
		pull = corev1.PullIfNotPresent
	}
	c := corev1.Container{
		Name:                     containerName,
		Image:                    s.Image,
		ImagePullPolicy:          pull,
		Command:                  []string{"stampede"},
		Args:                     s.WorkerArgs(),
		VolumeMounts:             []corev1.VolumeMount{{Name: volumeName, MountPath: ResultsMount}},
		TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
	}
	if s.CPU != "" || s.Memory != "" {
		c.Resources.Requests = corev1.ResourceList{}
		if s.CPU != "" {
			c.Resources.Requests[corev1.ResourceCPU] = resource.MustParse(s.CPU)
		}
		if s.Memory != "" {
			m := resource.MustParse(s.Memory)
			c.Resources.Requests[corev1.ResourceMemory] = m
			c.Resources.Limits = corev1.ResourceList{corev1.ResourceMemory: m}
		}
	}
	for _, k := range s.Credentials {
		c.Env = append(c.Env, corev1.EnvVar{Name: k, ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
			LocalObjectReference: corev1.LocalObjectReference{Name: s.CredentialSecret}, Key: k}}})
	}
	if s.SecretEnv != "" {
		c.EnvFrom = []corev1.EnvFromSource{{SecretRef: &corev1.SecretEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: s.SecretEnv}}}}
	}
	vol := corev1.Volume{Name: volumeName}
	if s.ResultsPVC != "" {
		vol.PersistentVolumeClaim = &corev1.PersistentVolumeClaimVolumeSource{ClaimName: s.ResultsPVC}
	} else {
		vol.EmptyDir = &corev1.EmptyDirVolumeSource{}
	}
	job := &batchv1.Job{
		TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: metav1.ObjectMeta{
			Name: s.name(), Namespace: s.Namespace, Labels: labels,
			Annotations: map[string]string{StartAtAnnotation: s.StartAt.UTC().Format(time.RFC3339)},
		},
		Spec: batchv1.JobSpec{
			CompletionMode: &indexed,
			Completions:    &n,
			Parallelism:    &n,
			// A segment that fails is not retried (it would start after
			// --start-at) and does not stop the other segments.
			BackoffLimitPerIndex: &zero,
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					RestartPolicy: corev1.RestartPolicyNever,
					// The Dockerfile's user (distroless nonroot) may write
					// to the results volume.
					SecurityContext: &corev1.PodSecurityContext{FSGroup: &nonroot},
					Containers:      []corev1.Container{c},
					Volumes:         []corev1.Volume{vol},
					// One generator per node where possible.
					TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{
						MaxSkew: 1, TopologyKey: "kubernetes.io/hostname",
						WhenUnsatisfiable: corev1.ScheduleAnyway,
						LabelSelector:     &metav1.LabelSelector{MatchLabels: labels},
					}},
				},
			},
		},
	}
	return job, nil
}

// Manifest renders the Job for s as YAML.
func Manifest(s Spec) ([]byte, error) {
	job, err := Job(s)
	if err != nil {
		return nil, err
	}
	// Through a map to leave out the empty status block.
	j, err := json.Marshal(job)
	if err != nil {
		return nil, fmt.Errorf("render job: %w", err)
	}
	var doc map[string]any
	if err := json.Unmarshal(j, &doc); err != nil {
		return nil, fmt.Errorf("render job: %w", err)
	}
	delete(doc, "status")
	b, err := yaml.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("render job: %w", err)
	}
	return b, nil
}
