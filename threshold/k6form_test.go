package threshold

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestParseK6Map(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string // Threshold.String() of each
		aborts  map[string][]Abort
		wantErr string
	}{
		{name: "string and list", in: `{"http_req_duration": ["p(95)<200", {"threshold": "p(99)<500", "abortOnFail": true, "delayAbortEval": "10s"}], "checks": "rate>0.99"}`,
			want:   []string{"checks: rate>0.99", "http_req_duration: p(95)<200; p(99)<500"},
			aborts: map[string][]Abort{"http_req_duration": {{Expr: 1, Delay: 10 * time.Second}}}},
		{name: "comma list in one string", in: `{"http_req_duration": "p(95)<200, p(99)<500"}`, want: []string{"http_req_duration: p(95)<200; p(99)<500"}},
		{name: "tag filters", in: `{"http_req_duration{expected_response:true}": ["p(90)<100"], "http_req_duration{status:200}": ["max<1000"], "http_req_duration{name:\"login\"}": ["avg<50"]}`,
			want: []string{`http_req_duration{expected_response:true}: p(90)<100`, `http_req_duration{name:login}: avg<50`, `http_req_duration{status:200}: max<1000`}},
		{name: "scenario tag", in: `{"iterations{scenario:readers}": ["count==6"]}`, want: []string{"iterations{scenario:readers}: count==6"}},
		{name: "delay in ms", in: `{"checks": [{"threshold": "rate>0.9", "abortOnFail": true, "delayAbortEval": 1500}]}`, want: []string{"checks: rate>0.9"},
			aborts: map[string][]Abort{"checks": {{Expr: 0, Delay: 1500 * time.Millisecond}}}},
		{name: "bad expression", in: `{"checks": ["rate>>0.9x"]}`, wantErr: "checks"},
		{name: "unknown object field", in: `{"checks": [{"threshold": "rate>0.9", "abortOnFial": true}]}`, wantErr: "abortOnFial"},
		{name: "object without threshold", in: `{"checks": [{"abortOnFail": true}]}`, wantErr: `needs "threshold"`},
		{name: "bad delay", in: `{"checks": [{"threshold": "rate>0.9", "delayAbortEval": "soon"}]}`, wantErr: "delayAbortEval"},
		{name: "not a string nor list", in: `{"checks": 3}`, wantErr: "want a string or a list"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(tc.in), &m); err != nil {
				t.Fatal(err)
			}
			ts, err := ParseK6Map(m)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, th := range ts {
				got = append(got, th.String())
				if want := tc.aborts[th.Metric]; len(want) != len(th.Aborts) || len(want) > 0 && want[0] != th.Aborts[0] {
					t.Errorf("%s aborts %v, want %v", th.Metric, th.Aborts, want)
				}
				if _, err := Parse(th.String()); err != nil {
					t.Errorf("String() %q does not parse back: %v", th.String(), err)
				}
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAbortAt(t *testing.T) {
	ts := []Threshold{{Aborts: []Abort{{Delay: 5 * time.Second}}}, {Aborts: []Abort{{Delay: time.Second}}}}
	if d, ok := AbortAt(ts); !ok || d != time.Second {
		t.Errorf("AbortAt = %v %v, want 1s true", d, ok)
	}
	if _, ok := AbortAt([]Threshold{{}}); ok {
		t.Error("AbortAt found an abort where none is")
	}
}

func FuzzParseK6(f *testing.F) {
	for _, s := range []string{`"p(95)<200"`, `["p(95)<200", {"threshold": "p(99)<500", "abortOnFail": true, "delayAbortEval": "10s"}]`, `"rate>0.9, rate<1"`, `[{"threshold":""}]`} {
		f.Add("http_req_duration{status:200}", s)
	}
	f.Fuzz(func(t *testing.T, key, raw string) {
		th, err := ParseK6(key, json.RawMessage(raw))
		if err != nil {
			return
		}
		if len(th.Exprs) == 0 {
			t.Fatalf("%q %q: no expression without an error", key, raw)
		}
		for _, a := range th.Aborts {
			if a.Expr < 0 || a.Expr >= len(th.Exprs) || a.Delay < 0 {
				t.Fatalf("bad abort %+v of %d expressions", a, len(th.Exprs))
			}
		}
	})
}
