package monitor

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// processPage is a process-exporter page with three groups.
const processPage = `# TYPE namedprocess_namegroup_cpu_seconds_total counter
namedprocess_namegroup_cpu_seconds_total{groupname="nebula-graphd",mode="user"} 10
namedprocess_namegroup_cpu_seconds_total{groupname="nebula-graphd",mode="system"} 2
namedprocess_namegroup_cpu_seconds_total{groupname="nebula-storaged",mode="user"} 5
namedprocess_namegroup_cpu_seconds_total{groupname="sshd",mode="user"} 100
# TYPE namedprocess_namegroup_memory_bytes gauge
namedprocess_namegroup_memory_bytes{groupname="nebula-graphd",memtype="resident"} 1000
namedprocess_namegroup_memory_bytes{groupname="nebula-storaged",memtype="resident"} 500
namedprocess_namegroup_memory_bytes{groupname="sshd",memtype="resident"} 7
# TYPE namedprocess_namegroup_num_threads gauge
namedprocess_namegroup_num_threads{groupname="nebula-graphd"} 8
namedprocess_namegroup_num_threads{groupname="sshd"} 1
`

func servePage(t *testing.T, page string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(page)) }))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestParseSpecGroups(t *testing.T) {
	sp, err := ParseSpec("process=http://h:9256/metrics#group=nebula-graphd,extra_total,group=nebula-storaged")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(sp.Groups, ",") != "nebula-graphd,nebula-storaged" || strings.Join(sp.Metrics, ",") != "extra_total" {
		t.Errorf("groups %q metrics %q", sp.Groups, sp.Metrics)
	}
	if _, err := ParseSpec("process=http://h:9256/metrics#group="); err == nil {
		t.Error("an empty group= is accepted")
	}
}

// Only the named groups are read: sshd's CPU, memory and threads are not
// the target's.
func TestScrapeKeepsNamedGroups(t *testing.T) {
	u := servePage(t, processPage)
	for _, c := range []struct {
		name        string
		frag        string
		cpu, rss    float64
		groups      []string
		notIn       string
		threadsWant float64
	}{
		{"named", "#group=nebula-graphd,group=nebula-storaged", 17, 1500, []string{"nebula-graphd", "nebula-storaged"}, "sshd", 8},
		{"all", "", 117, 1507, []string{"nebula-graphd", "nebula-storaged", "sshd"}, "", 9},
	} {
		t.Run(c.name, func(t *testing.T) {
			sp, err := ParseSpec("process=" + u + "/metrics" + c.frag)
			if err != nil {
				t.Fatal(err)
			}
			s := newScraper(sp, http.DefaultClient)
			r, err := s.read(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var cpu float64
			for k, v := range r.counters {
				if strings.HasPrefix(k, "proc_cpu:") {
					cpu += v
					if c.notIn != "" && strings.Contains(k, c.notIn) {
						t.Errorf("%s read", k)
					}
				}
			}
			var rss, threads float64
			for k, v := range r.gauges {
				if strings.HasPrefix(k, ProcRSS+":") {
					rss += v
				}
				if strings.HasPrefix(k, ProcThreads+":") {
					threads += v
				}
			}
			if cpu != c.cpu || rss != c.rss || threads != c.threadsWant {
				t.Errorf("cpu %v rss %v threads %v; want %v %v %v", cpu, rss, threads, c.cpu, c.rss, c.threadsWant)
			}
		})
	}
}

// Groups named that the page does not have are bad input before the run,
// with what the page has; an endpoint that does not answer is not.
func TestCheckGroups(t *testing.T) {
	u := servePage(t, processPage)
	for _, c := range []struct {
		name, spec, err string
	}{
		{"one matches", "process=" + u + "/metrics#group=nebula-graphd,group=nebula-metad", ""},
		{"none matches", "process=" + u + "/metrics#group=graphd", "no process-exporter group named graphd: it has nebula-graphd, nebula-storaged, sshd"},
		{"not process-exporter", "node=" + servePage(t, "# TYPE node_load1 gauge\nnode_load1 1\n") + "/metrics#group=graphd", "it has none (is it process-exporter?)"},
		{"endpoint down", "process=http://127.0.0.1:1/metrics#group=graphd", ""},
		{"no groups named", "process=" + u + "/metrics", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			sp, err := ParseSpec(c.spec)
			if err != nil {
				t.Fatal(err)
			}
			err = Check([]Spec{sp})
			switch {
			case c.err == "" && err != nil:
				t.Errorf("Check: %v", err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("Check: %v, want %q", err, c.err)
			}
		})
	}
}

// The groups summed reach the summary and the scenario's note.
func TestGroupsNote(t *testing.T) {
	dir := t.TempDir()
	var lines []byte
	now := time.Now()
	for i := 1; i <= 2; i++ {
		b, err := json.Marshal(Sample{Time: now.Add(time.Duration(i) * time.Second), Source: "process", DT: 1,
			Values: map[string]float64{ProcCPU: 1, ProcCPU + ":nebula-graphd": 0.75, ProcCPU + ":nebula-storaged": 0.25}})
		if err != nil {
			t.Fatal(err)
		}
		lines = append(append(lines, b...), '\n')
	}
	if err := os.WriteFile(filepath.Join(dir, File), lines, 0o644); err != nil {
		t.Fatal(err)
	}
	all, err := Summarize(dir, []Window{{}}, SummarizeOptions{})
	if err != nil || len(all) != 1 || len(all[0]) != 1 {
		t.Fatalf("Summarize = %v, %v", all, err)
	}
	st := all[0][0]
	if strings.Join(st.Groups, ",") != "nebula-graphd,nebula-storaged" || !strings.Contains(st.GroupsNote(), "groups nebula-graphd, nebula-storaged") {
		t.Errorf("groups %q, note %q", st.Groups, st.GroupsNote())
	}
}
