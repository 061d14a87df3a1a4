package k8s

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/golden"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

var start = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// TestManifestRoundTrip renders the manifest, parses it back with the
// Kubernetes API types and checks what the pods will run.
func TestManifestRoundTrip(t *testing.T) {
	tests := []struct {
		name      string
		spec      Spec
		wantPVC   string
		wantArgs  []string
		wantCPU   string
		wantLimit string
	}{
		{
			name: "logs mode",
			spec: Spec{Image: "ghcr.io/acme/stampede:1.0", Parallelism: 4, StartAt: start,
				RunArgs: []string{"go.Go1Step", "-u", "400", "-d", "1m", "--target", "postgres://db/ldbc"}},
			wantArgs: []string{"k8s", "worker", "--segments", "4", "--start-at", "2025-06-01T12:00:00Z", "--results", "/results/stampede", "--stream",
				"--", "run", "go.Go1Step", "-u", "400", "-d", "1m", "--target", "postgres://db/ldbc"},
		},
		{
			name: "results volume, resources, secret",
			spec: Spec{Name: "nebula-sf10", Namespace: "bench", Image: "stampede:dev", Parallelism: 17, StartAt: start,
				ResultsPVC: "bench-results", CPU: "2", Memory: "2Gi", SecretEnv: "stampede-target",
				RunArgs: []string{"--rate", "100000", "-d", "5m"}},
			wantPVC: "bench-results", wantCPU: "2", wantLimit: "2Gi",
			wantArgs: []string{"k8s", "worker", "--segments", "17", "--start-at", "2025-06-01T12:00:00Z", "--results", "/results/nebula-sf10",
				"--", "run", "--rate", "100000", "-d", "5m"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Manifest(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			var job batchv1.Job
			if err := yaml.UnmarshalStrict(b, &job); err != nil {
				t.Fatalf("manifest does not parse as a batch/v1 Job: %v\n%s", err, b)
			}
			if job.APIVersion != "batch/v1" || job.Kind != "Job" {
				t.Errorf("apiVersion/kind = %s/%s", job.APIVersion, job.Kind)
			}
			if job.Name != tt.spec.name() || job.Namespace != tt.spec.Namespace {
				t.Errorf("name %q namespace %q", job.Name, job.Namespace)
			}
			n := int32(tt.spec.Parallelism)
			s := job.Spec
			if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
				t.Errorf("completionMode = %v, want Indexed", s.CompletionMode)
			}
			if s.Completions == nil || *s.Completions != n || s.Parallelism == nil || *s.Parallelism != n {
				t.Errorf("completions/parallelism = %v/%v, want %d", s.Completions, s.Parallelism, n)
			}
			if s.BackoffLimitPerIndex == nil || *s.BackoffLimitPerIndex != 0 {
				t.Errorf("backoffLimitPerIndex = %v, want 0", s.BackoffLimitPerIndex)
			}
			if sc := s.Template.Spec.SecurityContext; sc == nil || sc.FSGroup == nil || *sc.FSGroup != 65532 {
				t.Errorf("securityContext = %+v, want fsGroup 65532 (the image's user)", sc)
			}
			if s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
				t.Errorf("restartPolicy = %s", s.Template.Spec.RestartPolicy)
			}
			if job.Annotations[StartAtAnnotation] != "2025-06-01T12:00:00Z" {
				t.Errorf("annotations = %v", job.Annotations)
			}
			cs := s.Template.Spec.Containers
			if len(cs) != 1 {
				t.Fatalf("%d containers", len(cs))
			}
			c := cs[0]
			if c.Image != tt.spec.Image || !reflect.DeepEqual(c.Command, []string{"stampede"}) {
				t.Errorf("image %q command %v", c.Image, c.Command)
			}
			if !reflect.DeepEqual(c.Args, tt.wantArgs) {
				t.Errorf("args =\n%q\nwant\n%q", c.Args, tt.wantArgs)
			}
			if len(c.VolumeMounts) != 1 || c.VolumeMounts[0].MountPath != ResultsMount {
				t.Errorf("mounts %v", c.VolumeMounts)
			}
			vols := s.Template.Spec.Volumes
			if len(vols) != 1 || vols[0].Name != c.VolumeMounts[0].Name {
				t.Fatalf("volumes %v", vols)
			}
			if tt.wantPVC != "" {
				if vols[0].PersistentVolumeClaim == nil || vols[0].PersistentVolumeClaim.ClaimName != tt.wantPVC {
					t.Errorf("volume %+v, want claim %s", vols[0], tt.wantPVC)
				}
			} else if vols[0].EmptyDir == nil {
				t.Errorf("volume %+v, want emptyDir", vols[0])
			}
			if tt.wantCPU != "" {
				if q := c.Resources.Requests[corev1.ResourceCPU]; q.String() != tt.wantCPU {
					t.Errorf("cpu request %s", q.String())
				}
				if q := c.Resources.Limits[corev1.ResourceMemory]; q.String() != tt.wantLimit {
					t.Errorf("memory limit %s", q.String())
				}
				if _, ok := c.Resources.Limits[corev1.ResourceCPU]; ok {
					t.Error("a CPU limit would throttle the generator")
				}
			}
			if tt.spec.SecretEnv != "" && (len(c.EnvFrom) != 1 || c.EnvFrom[0].SecretRef.Name != tt.spec.SecretEnv) {
				t.Errorf("envFrom %v", c.EnvFrom)
			}
			if sel := s.Template.Spec.TopologySpreadConstraints; len(sel) != 1 || !reflect.DeepEqual(sel[0].LabelSelector.MatchLabels, s.Template.Labels) {
				t.Errorf("spread constraints %v", sel)
			}
		})
	}
}

func TestManifestGolden(t *testing.T) {
	b, err := Manifest(Spec{Image: "stampede:dev", Parallelism: 4, StartAt: start, CPU: "2", Memory: "1Gi",
		RunArgs: []string{"http.Request", "--target", "http://10.0.0.5:8080/", "--rate", "20000", "-d", "1m", "--no-csv"}})
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "job.golden.yaml", b)
	if bytes.Contains(b, []byte("status:")) {
		t.Error("manifest has a status block")
	}
}

func TestSpecValidate(t *testing.T) {
	ok := Spec{Image: "i", Parallelism: 2, StartAt: start}
	tests := []struct {
		name string
		mod  func(*Spec)
		want string
	}{
		{"no image", func(s *Spec) { s.Image = "" }, "image"},
		{"zero parallelism", func(s *Spec) { s.Parallelism = 0 }, "parallelism"},
		{"no start", func(s *Spec) { s.StartAt = time.Time{} }, "start"},
		{"bad name", func(s *Spec) { s.Name = "Bench_1" }, "DNS label"},
		{"bad cpu", func(s *Spec) { s.CPU = "two" }, "--cpu"},
		{"negative cpu", func(s *Spec) { s.CPU = "-1" }, `--cpu "-1": must be greater than or equal to 0`},
		{"negative memory", func(s *Spec) { s.Memory = "-2Gi" }, `--memory "-2Gi": must be greater than or equal to 0`},
		{"namespace with an underscore", func(s *Spec) { s.Namespace = "NS_bad" }, `--namespace "NS_bad": a lowercase RFC 1123 label`},
		{"image with a space", func(s *Spec) { s.Image = "x y" }, `--image "x y" is not an image reference`},
		{"image upper case", func(s *Spec) { s.Image = "Acme/stampede" }, "is not an image reference"},
		{"image with a trailing space", func(s *Spec) { s.Image = "x " }, "is not an image reference"},
		{"parallelism past Kubernetes' limit", func(s *Spec) { s.Parallelism = 100000000 }, "at most 100000 pods in an Indexed Job"},
		{"pvc name", func(s *Spec) { s.ResultsPVC = "Results PVC" }, "--results-pvc"},
		{"secret name", func(s *Spec) { s.SecretEnv = "a/b" }, "--env-from-secret"},
	}
	for _, img := range []string{"stampede", "ghcr.io/acme/stampede:1.0", "localhost:5000/a/b_c__d-e:v1.2-rc",
		"[::1]:5000/x", "x@sha256:" + strings.Repeat("ab", 32), "registry.example.com/team/app:latest@sha256:" + strings.Repeat("0", 64)} {
		s := ok
		s.Image = img
		if err := s.Validate(); err != nil {
			t.Errorf("image %q refused: %v", img, err)
		}
	}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ok
			tt.mod(&s)
			if _, err := Manifest(s); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// TestArchiveRoundTrip prints two result directories into logs, with
// noise and kubectl-style prefixes interleaved, and reads them back.
func TestArchiveRoundTrip(t *testing.T) {
	src := t.TempDir()
	files := map[string]string{
		"snapshot.json":           `{"version":1}`,
		"series.jsonl":            strings.Repeat(`{"scenario":"a","sec":1}`+"\n", 500),
		"profiles/a.cpu.pprof":    "\x00\x01binary",
		"requests.csv":            "timestamp,query\n1,q\n",
		"options.json":            `{"segment":"1/2"}`,
		"../outside-is-not-taken": "",
	}
	for name, body := range files {
		p := filepath.Join(src, filepath.FromSlash(name))
		if strings.HasPrefix(name, "..") {
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var a, b bytes.Buffer
	if _, err := WriteArchive(&a, src, "seg-1-of-2", func(rel string) bool { return rel == "requests.csv" }); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteArchive(&b, src, "seg 2/2", nil); err != nil {
		t.Fatal(err)
	}
	// Pod 1 plain, pod 2 prefixed and interleaved with pod 3's noise.
	var logs bytes.Buffer
	logs.WriteString("builtin.Noop: 100 iterations\nresults: /results/x/0\n")
	logs.Write(a.Bytes())
	bl := strings.Split(strings.TrimSpace(b.String()), "\n")
	for i, l := range bl {
		logs.WriteString("[pod/stampede-1-abc/stampede] " + l + "\r\n")
		if i%3 == 0 {
			logs.WriteString("[pod/stampede-0-xyz/stampede] progress line\n")
		}
	}
	out := t.TempDir()
	dirs, err := ReadArchives(&logs, out)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(out, "seg-1-of-2"), filepath.Join(out, "seg_2_2")}
	if !reflect.DeepEqual(dirs, want) {
		t.Fatalf("dirs = %v, want %v", dirs, want)
	}
	for name, body := range files {
		if strings.HasPrefix(name, "..") {
			continue
		}
		for i, d := range dirs {
			got, err := os.ReadFile(filepath.Join(d, filepath.FromSlash(name)))
			if i == 0 && name == "requests.csv" {
				if err == nil {
					t.Errorf("skipped file was archived")
				}
				continue
			}
			if err != nil || string(got) != body {
				t.Errorf("%s/%s = %q, %v", d, name, got, err)
			}
		}
	}
	if _, err := ReadArchives(bytes.NewReader(a.Bytes()), out); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("extracting over an existing result: %v", err)
	}
	cut := a.Bytes()[:len(a.Bytes())/2]
	if _, err := ReadArchives(bytes.NewReader(cut), t.TempDir()); err == nil || !strings.Contains(err.Error(), "cut off") {
		t.Errorf("truncated log: %v", err)
	}
}
