package metric

import "testing"

func TestWithTag(t *testing.T) {
	for _, tc := range []struct{ name, key, value, want string }{
		{"http_req_duration", "status", "200", "http_req_duration{status:200}"},
		{"http_req_duration{expected_response:true}", "scenario", "s", "http_req_duration{expected_response:true,scenario:s}"},
		{"", "k", "v", "{k:v}"},
	} {
		if got := WithTag(tc.name, tc.key, tc.value); got != tc.want {
			t.Errorf("WithTag(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
