package k8s

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

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
// value of a secret flag, a secret header — by $(STAMPEDE_CRED_N), which
// Kubernetes expands from the environment variable of that name (set from
// the credential Secret). It returns the new arguments and the values.
func MoveCredentials(args []string) ([]string, []Credential) {
	red := secret.RedactArgs(args)
	out := make([]string, len(args))
	var creds []Credential
	for i, a := range args {
		out[i] = a
		if red[i] == a {
			continue
		}
		key := "STAMPEDE_CRED_" + strconv.Itoa(len(creds)+1)
		ref := "$(" + key + ")"
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "--") {
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
