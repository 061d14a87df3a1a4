package secret

import (
	"reflect"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	for _, tc := range []struct {
		name   string
		redact func([]string) []string
		in     string
		want   string
	}{
		{"URL password", RedactArgs, "--target postgres://u:pw@db/x", "--target postgres://u:xxxxx@db/x"},
		{"URL in a flag", RedactArgs, "--target=http://u:pw@h/", "--target=http://u:xxxxx@h/"},
		{"secret flag", RedactArgs, "--nebula-password hunter2 --api-token=abc", "--nebula-password xxxxx --api-token=xxxxx"},
		{"names, not secrets", RedactArgs, "--secret-header X-Custom --header X-Custom:_v1 --secret-file creds.yaml", "--secret-header X-Custom --header X-Custom:_xxxxx --secret-file creds.yaml"},
		{"secret tags", RedactArgs, "--secret-tag=build --tag apitoken=v2 --tag=build=v3 --tag team=blue", "--secret-tag=build --tag apitoken=xxxxx --tag=build=xxxxx --tag team=blue"},
		{"env values", RedactEnvArgs, "-e TOKEN=abc --env=K=v -eX=y --env A=b", "-e TOKEN=xxxxx --env=K=xxxxx -eX=xxxxx --env A=xxxxx"},
		{"only tags", RedactTagArgs, "--tag apitoken=v2 --target=http://u:pw@h/", "--tag apitoken=xxxxx --target=http://u:pw@h/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// "X-Custom:_v1" is one argument, "X-Custom: v1".
			in := strings.Fields(tc.in)
			for i := range in {
				in[i] = strings.ReplaceAll(in[i], "_", " ")
			}
			want := strings.Fields(tc.want)
			for i := range want {
				want[i] = strings.ReplaceAll(want[i], "_", " ")
			}
			if got := tc.redact(in); !reflect.DeepEqual(got, want) {
				t.Errorf("got  %q\nwant %q", got, want)
			}
		})
	}
}

func TestSecretNames(t *testing.T) {
	for name, want := range map[string]bool{"nebula-password": true, "secret-header": true, "api-token": true, "target": false, "vus": false} {
		if got := IsSecretFlag(name); got != want {
			t.Errorf("IsSecretFlag(%q) = %v, want %v", name, got, want)
		}
	}
	tags := RedactTags(map[string]string{"apitoken": "a", "db_password": "b", "build": "c", "team": "d"}, []string{"build"})
	if want := map[string]string{"apitoken": "xxxxx", "db_password": "xxxxx", "build": "xxxxx", "team": "d"}; !reflect.DeepEqual(tags, want) {
		t.Errorf("RedactTags = %v, want %v", tags, want)
	}
}
