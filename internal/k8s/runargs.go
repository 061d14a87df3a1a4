package k8s

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/secret"
	"github.com/stampede-bench/stampede/internal/usage"
)

// Credential is one run argument value taken out of a Job's args, to be
// set from the credential Secret's key Key.
type Credential struct {
	Key, Value string
}

// MoveCredentials replaces every run argument value that holds a
// credential — a URL with a password or a secret query parameter, the
// value of a secret flag, a secret header or tag, every -e/--env value
// (hidden in recorded arguments too: secret.RedactEnvArgs) — by
// $(STAMPEDE_CRED_N), which Kubernetes expands from the environment
// variable of that name (set from the credential Secret). What precedes
// the value's "=" stays visible (-e API_TOKEN=$(STAMPEDE_CRED_1)). It
// returns the new arguments and the values.
func MoveCredentials(args []string) ([]string, []Credential) {
	red := secret.RedactEnvArgs(secret.RedactArgs(args))
	out := make([]string, len(args))
	var creds []Credential
	for i, a := range args {
		out[i] = a
		if red[i] == a {
			continue
		}
		key := "STAMPEDE_CRED_" + strconv.Itoa(len(creds)+1)
		ref := "$(" + key + ")"
		if keep, ok := strings.CutSuffix(red[i], "=xxxxx"); ok && strings.HasPrefix(a, keep+"=") {
			// KEY=value, --flag=KEY=value: only the value moves
			creds = append(creds, Credential{key, a[len(keep)+1:]})
			out[i] = keep + "=" + ref
		} else if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(red[i], k+"=") {
			creds = append(creds, Credential{key, v})
			out[i] = k + "=" + ref
		} else {
			creds = append(creds, Credential{key, a})
			out[i] = ref
		}
	}
	return out, creds
}

// WriteCredentials writes the credential Secret of spec to file (mode
// 0600), or, without a file, tells the user on w which Secret the Job
// needs. Nothing is written when there are no credentials.
func WriteCredentials(w io.Writer, spec Spec, creds []Credential, file string) error {
	if len(creds) == 0 {
		if file != "" {
			return usage.Errorf("--secret-file: the run arguments hold no credential")
		}
		return nil
	}
	keys := make([]string, len(creds))
	data := map[string]string{}
	for i, c := range creds {
		keys[i] = c.Key
		data[c.Key] = c.Value
	}
	if file == "" {
		fmt.Fprintf(w, "the run arguments hold %d credentials: the Job reads them from Secret %s (keys %s); write it with --secret-file FILE, or create it yourself\n",
			len(creds), spec.CredentialSecret, strings.Join(keys, ", "))
		return nil
	}
	b, err := SecretManifest(spec.CredentialSecret, spec.Namespace, data)
	if err != nil {
		return err
	}
	if err := os.WriteFile(file, b, 0o600); err != nil {
		return usage.Errorf("--secret-file: %v", err)
	}
	fmt.Fprintf(w, "wrote %s (mode 0600): Secret %s with %d credentials; kubectl apply -f %s before the Job\n", file, spec.CredentialSecret, len(creds), file)
	return nil
}

// runFlagsSetByWorker are the run flags the worker sets for each pod.
var runFlagsSetByWorker = []string{"segment", "start-at", "out"}

// CheckRunArgs refuses run arguments that the worker sets for each pod
// (--segment, --start-at, --out): a usage error.
func CheckRunArgs(args []string) error {
	for _, a := range args {
		for _, name := range runFlagsSetByWorker {
			if a == "--"+name || strings.HasPrefix(a, "--"+name+"=") {
				return usage.Errorf("--%s is set by the worker for each pod; leave it out of the run arguments", name)
			}
		}
	}
	return nil
}

// WriteJob writes the Job of spec running runArgs (stampede run's
// arguments, as given) to output ("" or "-": stdout), headed by a comment
// with the redacted arguments and the start time; the credentials among
// the arguments move into the credential Secret (MoveCredentials,
// WriteCredentials to secretFile). Messages go to stderr.
func WriteJob(spec Spec, runArgs []string, output, secretFile string, stdout, stderr io.Writer) error {
	var creds []Credential
	spec.RunArgs, creds = MoveCredentials(runArgs)
	spec.CredentialSecret = spec.Name + "-credentials"
	for _, c := range creds {
		spec.Credentials = append(spec.Credentials, c.Key)
	}
	b, err := Manifest(spec)
	if err != nil {
		return usage.Wrap(err)
	}
	if err := WriteCredentials(stderr, spec, creds, secretFile); err != nil {
		return err
	}
	head := fmt.Sprintf("# stampede k8s manifest: %d segments of `stampede run %s`\n# all start at %s: apply before then (kubectl apply -f FILE)\n",
		spec.Parallelism, strings.Join(secret.RedactArgs(runArgs), " "), spec.StartAt.UTC().Format(time.RFC3339))
	b = append([]byte(head), b...)
	if output == "" || output == "-" {
		_, err = stdout.Write(b)
		return err
	}
	if err := os.WriteFile(output, b, 0o644); err != nil {
		return usage.Errorf("-o %s: write manifest: %v", output, err)
	}
	fmt.Fprintf(stderr, "wrote %s: %d pods start at %s (in %s); kubectl apply -f %s\n",
		output, spec.Parallelism, spec.StartAt.UTC().Format(time.RFC3339), time.Until(spec.StartAt).Round(time.Second), output)
	return nil
}
