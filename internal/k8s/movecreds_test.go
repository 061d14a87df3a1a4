package k8s

import (
	"strings"
	"testing"
)

// TestMoveCredentialsEnv: every -e/--env value (redacted in recorded
// arguments too) leaves a k8s manifest's args for the credential Secret,
// its key staying visible; other arguments are kept as given.
func TestMoveCredentialsEnv(t *testing.T) {
	tests := []struct {
		args      []string
		want      string
		credValue []string
	}{
		{[]string{"k6.run", "s.js", "-e", "API_TOKEN=PLANTED1"}, "k6.run s.js -e API_TOKEN=$(STAMPEDE_CRED_1)", []string{"PLANTED1"}},
		{[]string{"http.Request", "--env", "BASE=http://h/?a=b"}, "http.Request --env BASE=$(STAMPEDE_CRED_1)", []string{"http://h/?a=b"}},
		{[]string{"http.Request", "--env=DB_PASSWORD=PLANTED2", "-eUSER=PLANTED3"}, "http.Request --env=DB_PASSWORD=$(STAMPEDE_CRED_1) -eUSER=$(STAMPEDE_CRED_2)", []string{"PLANTED2", "PLANTED3"}},
		{[]string{"builtin.Noop", "-u", "2", "--tag", "team=blue"}, "builtin.Noop -u 2 --tag team=blue", nil},
	}
	for _, tc := range tests {
		out, creds := MoveCredentials(tc.args)
		if got := strings.Join(out, " "); got != tc.want {
			t.Errorf("MoveCredentials(%q):\n got %s\nwant %s", tc.args, got, tc.want)
		}
		var vals []string
		for _, c := range creds {
			vals = append(vals, c.Value)
		}
		if strings.Join(vals, "|") != strings.Join(tc.credValue, "|") {
			t.Errorf("MoveCredentials(%q): Secret values %q, want %q", tc.args, vals, tc.credValue)
		}
	}
}
