package cli

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/stampede-bench/stampede/internal/k8s"
)

// credential is one run argument value taken out of a Job's args.
type credential struct {
	key, value string
}

// moveCredentials replaces every run argument value that holds a
// credential — a URL with a password or a secret query parameter, the
// value of a secret flag, a secret header or tag, every -e/--env value
// (hidden in recorded arguments too: redactEnvArgs) — by
// $(STAMPEDE_CRED_N), which Kubernetes expands from the environment
// variable of that name (set from the credential Secret). What precedes
// the value's "=" stays visible (-e API_TOKEN=$(STAMPEDE_CRED_1)). It
// returns the new arguments and the values.
func moveCredentials(args []string) ([]string, []credential) {
	red := redactEnvArgs(redactArgs(args))
	out := make([]string, len(args))
	var creds []credential
	for i, a := range args {
		out[i] = a
		if red[i] == a {
			continue
		}
		key := "STAMPEDE_CRED_" + strconv.Itoa(len(creds)+1)
		ref := "$(" + key + ")"
		if keep, ok := strings.CutSuffix(red[i], "=xxxxx"); ok && strings.HasPrefix(a, keep+"=") {
			// KEY=value, --flag=KEY=value: only the value moves
			creds = append(creds, credential{key, a[len(keep)+1:]})
			out[i] = keep + "=" + ref
		} else if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(red[i], k+"=") {
			creds = append(creds, credential{key, v})
			out[i] = k + "=" + ref
		} else {
			creds = append(creds, credential{key, a})
			out[i] = ref
		}
	}
	return out, creds
}

// writeCredentials writes the credential Secret to file (mode 0600), or,
// without a file, tells the user which Secret the Job needs. Nothing is
// written when there are no credentials.
func writeCredentials(env *Env, spec k8s.Spec, creds []credential, file string) error {
	if len(creds) == 0 {
		if file != "" {
			return usagef("--secret-file: the run arguments hold no credential")
		}
		return nil
	}
	keys := make([]string, len(creds))
	data := map[string]string{}
	for i, c := range creds {
		keys[i] = c.key
		data[c.key] = c.value
	}
	if file == "" {
		fmt.Fprintf(env.Stderr, "the run arguments hold %d credentials: the Job reads them from Secret %s (keys %s); write it with --secret-file FILE, or create it yourself\n",
			len(creds), spec.CredentialSecret, strings.Join(keys, ", "))
		return nil
	}
	b, err := k8s.SecretManifest(spec.CredentialSecret, spec.Namespace, data)
	if err != nil {
		return err
	}
	if err := os.WriteFile(file, b, 0o600); err != nil {
		return usagef("--secret-file: %v", err)
	}
	fmt.Fprintf(env.Stderr, "wrote %s (mode 0600): Secret %s with %d credentials; kubectl apply -f %s before the Job\n", file, spec.CredentialSecret, len(creds), file)
	return nil
}
