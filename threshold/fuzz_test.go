package threshold

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzParse: Parse never panics, errors are one line, and an accepted
// threshold's String parses back to the same threshold (tags included).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"responseTime: p(95)<200", "http_req_duration{expected_response:true}: p(95)<200",
		"http_req_duration{expected_response:true,scenario:http.Request}: avg<1; max<9",
		"checks{check:status is 200}: rate>0.99", "errors: count===0", "x{a:b,c:d}: p(99.9)<=1e3",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		th, err := Parse(spec)
		if err != nil {
			if strings.Contains(err.Error(), "\n") && !strings.Contains(spec, "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		again, err := Parse(th.String())
		if err != nil || !reflect.DeepEqual(again, th) {
			t.Fatalf("Parse(%q) = %+v; its String %q parses to %+v, %v", spec, th, th.String(), again, err)
		}
	})
}
