package labrun

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/stampede-bench/stampede/internal/lab"
	"github.com/stampede-bench/stampede/internal/natscluster"
)

// generator is one running `stampede run nats.Publish` process.
type generator struct {
	pair    Pair
	cmd     *exec.Cmd
	stderr  *strings.Builder
	summary string
	done    chan struct{}
}

// generatorArgs is the command line of pair p's generator: the nats
// family's own flags, nothing else.
func generatorArgs(c *Config, p Pair, node *lab.Host, d time.Duration) []string {
	name := "p" + strconv.Itoa(p.Index)
	return []string{"run", "nats.Publish",
		"--target", "nats://" + node.Addr.String() + ":" + strconv.Itoa(clientPort),
		"-u", strconv.Itoa(c.VUs), "-d", d.String(),
		"--nats-profile", c.Profile, "--nats-publish", "async",
		"--nats-async-window", strconv.Itoa(c.AsyncWindow),
		"--nats-replicas", strconv.Itoa(c.Replicas()),
		"--stream-prefix", name, "--streams", strconv.Itoa(c.StreamsPerPair),
		"--nats-message-size", strconv.Itoa(c.MessageSize),
		"--nats-stream-max-bytes", strconv.Itoa(maxStreamBytes),
		"-q", "--no-csv", "--no-report", "--no-summary",
		"--data-dir", filepath.Join(c.Dir, "gen-data"),
		"--out", filepath.Join(c.Dir, "gen-"+name),
		"--summary-export", filepath.Join(c.Dir, "gen-"+name+".json"),
	}
}

// startGenerators launches one generator per pair on its client host.
// They run for d unless stopped earlier.
func startGenerators(c *Config, f *lab.Fabric, nodes, clients []*lab.Host, d time.Duration) ([]*generator, error) {
	var gens []*generator
	for _, p := range c.Pairs() {
		args := generatorArgs(c, p, nodes[p.Node], d)
		cmd := f.Command(clients[p.Client], c.Exe, args...)
		cmd.Dir = c.Dir
		var stderr strings.Builder
		cmd.Stderr = natscluster.HeadWriter(&stderr, 4096)
		if err := cmd.Start(); err != nil {
			return gens, fmt.Errorf("lab generator p%d: %w", p.Index, err)
		}
		g := &generator{pair: p, cmd: cmd, stderr: &stderr, summary: args[len(args)-1], done: make(chan struct{})}
		go func() { _ = cmd.Wait(); close(g.done) }()
		gens = append(gens, g)
	}
	return gens, nil
}

// exited tells whether g has ended.
func (g *generator) exited() bool {
	select {
	case <-g.done:
		return true
	default:
		return false
	}
}

// stopGenerators interrupts every generator (Ctrl+C: it writes its
// summary and exits 130) and waits up to 15 s.
func stopGenerators(gens []*generator) {
	for _, g := range gens {
		if !g.exited() {
			_ = syscall.Kill(g.cmd.Process.Pid, syscall.SIGINT)
		}
	}
	deadline := time.After(15 * time.Second)
	for _, g := range gens {
		select {
		case <-g.done:
		case <-deadline:
			return
		}
	}
}

// clientCount is what a generator's own summary says.
type clientCount struct {
	// Messages are the PubAcks it received; Rate per second of its run.
	Messages int64
	Rate     float64
	// Errors are failed publishes (iterations that failed).
	Errors int64
}

// readSummary reads the messages counter of a generator's k6-style
// summary export.
func readSummary(path string) (clientCount, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return clientCount{}, err
	}
	if len(b) > 64<<20 {
		return clientCount{}, fmt.Errorf("%s: too large", path)
	}
	var s struct {
		Metrics map[string]map[string]float64 `json:"metrics"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return clientCount{}, fmt.Errorf("%s: %w", path, err)
	}
	m, ok := s.Metrics["messages"]
	if !ok {
		return clientCount{}, fmt.Errorf("%s: no messages counter", path)
	}
	cc := clientCount{Messages: int64(m["count"]), Rate: m["rate"]}
	if e, ok := s.Metrics["errors"]; ok {
		cc.Errors = int64(e["count"])
	}
	return cc, nil
}
