package k6js

import (
	"context"
	"encoding/csv"
	"net"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/vu"
)

// nebulaShared is k6/x/nebulagraph's state common to every VU, as the
// xk6-nebula extension keeps one pool for the test: the options of
// setOption, the CSV rows getData hands out (in turn, from the start
// again at the end) and the per-request output file.
type nebulaShared struct {
	mu      sync.Mutex
	opt     map[string]string
	rows    [][]string
	next    atomic.Int64
	out     *csv.Writer
	outFile *os.File
	used    atomic.Bool
}

// nebulaState is a VU's sessions.
type nebulaState struct {
	conns []driver.Conn
}

// nebulaOptions are the setOption keys implemented.
var nebulaOptions = map[string]bool{
	"address": true, "space": true, "user": true, "username": true, "password": true,
	"csv_path": true, "csv_delimiter": true, "csv_with_header": true, "output": true,
	"max_size": true, "timeout_us": true,
}

// NebulaColumns are the columns of the output file (configOutput, option
// output): NebulaGraph-Bench's.
var NebulaColumns = []string{"timestamp", "nGQL", "latency", "responseTime", "isSucceed", "rows", "errorMsg"}

// nebulaModule is "k6/x/nebulagraph" (xk6-nebula) on stampede's
// NebulaGraph driver.
func (v *vm) nebulaModule() goja.Value {
	ns := v.sh.nebula
	ns.used.Store(true)
	return v.newModule("k6/x/nebulagraph", map[string]any{
		"setOption": func(o *goja.Object) {
			opt := map[string]string{}
			for _, k := range o.Keys() {
				if !nebulaOptions[k] {
					keys := make([]string, 0, len(nebulaOptions))
					for n := range nebulaOptions {
						keys = append(keys, n)
					}
					sort.Strings(keys)
					v.refuse("%s: nebulagraph option %q is not supported by stampede (supported: %s)", v.sh.script.Path, k, strings.Join(keys, ", "))
				}
				opt[k] = o.Get(k).String()
			}
			ns.mu.Lock()
			ns.opt = opt
			ns.mu.Unlock()
			if p := opt["csv_path"]; p != "" {
				delim := opt["csv_delimiter"]
				if delim == "" {
					delim = ","
				}
				v.nebulaCSV(p, delim, opt["csv_with_header"] == "true")
			}
			if p := opt["output"]; p != "" {
				v.nebulaOutput(p)
			}
		},
		"init":         func(call goja.FunctionCall) goja.Value { return v.nebulaPool(call.Argument(0)) },
		"initWithSize": func(call goja.FunctionCall) goja.Value { return v.nebulaPool(call.Argument(0)) },
	})
}

// nebulaPool is the pool object init() returns.
func (v *vm) nebulaPool(addr goja.Value) goja.Value {
	ns := v.sh.nebula
	address := ""
	if !goja.IsUndefined(addr) && !goja.IsNull(addr) {
		address = addr.String()
	} else {
		ns.mu.Lock()
		address = ns.opt["address"]
		ns.mu.Unlock()
	}
	if address == "" {
		v.throw("nebulagraph: init() needs an address (init(\"host:9669\", size) or setOption({address}))")
	}
	p := v.rt.NewObject()
	p.Set("getSession", func(call goja.FunctionCall) goja.Value {
		ns.mu.Lock()
		user, pass, space := ns.opt["user"], ns.opt["password"], ns.opt["space"]
		if user == "" {
			user = ns.opt["username"]
		}
		ns.mu.Unlock()
		if a := call.Argument(0); !goja.IsUndefined(a) {
			user = a.String()
		}
		if a := call.Argument(1); !goja.IsUndefined(a) {
			pass = a.String()
		}
		if user == "" {
			user, pass = "root", "nebula"
		}
		return v.nebulaSession(address, user, pass, space)
	})
	p.Set("configCSV", func(path, delim string, withHeader bool) { v.nebulaCSV(path, delim, withHeader) })
	p.Set("configOutput", func(path string) { v.nebulaOutput(path) })
	p.Set("close", func() {})
	return p
}

// nebulaCSV loads the rows getData hands out.
func (v *vm) nebulaCSV(path, delim string, withHeader bool) {
	ns := v.sh.nebula
	b, err := readBounded(path, MaxOpenSize)
	if err != nil {
		v.throw("nebulagraph: csv %s: %v", path, err)
	}
	r := csv.NewReader(strings.NewReader(string(b)))
	if len(delim) > 0 {
		r.Comma = []rune(delim)[0]
	}
	r.FieldsPerRecord, r.LazyQuotes = -1, true
	rows, err := r.ReadAll()
	if err != nil {
		v.throw("nebulagraph: csv %s: %v", path, err)
	}
	if withHeader && len(rows) > 0 {
		rows = rows[1:]
	}
	if len(rows) == 0 {
		v.throw("nebulagraph: csv %s has no rows", path)
	}
	ns.mu.Lock()
	ns.rows = rows
	ns.mu.Unlock()
}

// nebulaOutput opens the per-request output file (once for the test).
func (v *vm) nebulaOutput(path string) {
	ns := v.sh.nebula
	if v.id == 0 && v.sh.probeOnly {
		return // the options probe writes nothing
	}
	ns.mu.Lock()
	defer ns.mu.Unlock()
	if ns.out != nil {
		return
	}
	f, err := os.Create(path)
	if err != nil {
		v.throw("nebulagraph: output %s: %v", path, err)
	}
	ns.outFile, ns.out = f, csv.NewWriter(f)
	ns.out.Write(NebulaColumns)
}

// closeNebula flushes and closes the output file.
func (ns *nebulaShared) close() error {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	if ns.out == nil {
		return nil
	}
	ns.out.Flush()
	err := ns.out.Error()
	if cerr := ns.outFile.Close(); err == nil {
		err = cerr
	}
	ns.out = nil
	return err
}

// nebulaSession opens a session (one stampede NebulaGraph connection).
func (v *vm) nebulaSession(address, user, pass, space string) goja.Value {
	var addrs []string
	for _, a := range strings.Split(address, ",") {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		if _, _, err := net.SplitHostPort(a); err != nil {
			a = net.JoinHostPort(a, nebula.DefaultPort)
		}
		addrs = append(addrs, a)
	}
	cfg := &nebula.Config{Addrs: addrs, User: user, Password: pass, Space: space,
		ClientVersion: nebula.DefaultClientVersion, ConnectTimeout: nebula.DefaultConnectTimeout,
		Redacted: "nebula://" + user + "@" + strings.Join(addrs, ",") + "/" + space}
	ctx := v.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	d := nebula.New(cfg, v.sh.timeout)
	c, err := d.Conn(ctx)
	if err != nil {
		v.throw("nebulagraph: getSession: %v", err)
	}
	if v.neb == nil {
		v.neb = &nebulaState{}
	}
	v.neb.conns = append(v.neb.conns, c)
	s := v.rt.NewObject()
	s.Set("execute", func(stmt string) goja.Value { return v.nebulaExecute(c, stmt) })
	s.Set("getData", func() goja.Value {
		ns := v.sh.nebula
		ns.mu.Lock()
		rows := ns.rows
		ns.mu.Unlock()
		if len(rows) == 0 {
			v.throw("nebulagraph: getData() before configCSV (or setOption csv_path)")
		}
		row := rows[int((ns.next.Add(1)-1)%int64(len(rows)))]
		out := make([]any, len(row))
		for i, x := range row {
			out[i] = x
		}
		return v.rt.ToValue(out)
	})
	s.Set("close", func() {})
	return s
}

// nebulaExecute runs one statement, recorded like every stampede
// NebulaGraph request (responseTime, latency, rows, the per-request log)
// and written to the output file.
func (v *vm) nebulaExecute(c driver.Conn, stmt string) goja.Value {
	ctx := v.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	op := driver.Op{Query: stmt}
	var res driver.Result
	var rt time.Duration
	if v.it != nil {
		start := v.it.Now()
		res = c.Do(ctx, &op)
		end := v.it.RequestAudit(vu.Audit{Label: stmt, Op: &op}, start, res)
		rt = end - start
	} else {
		t0 := time.Now()
		res = c.Do(ctx, &op)
		rt = time.Since(t0)
	}
	lat := int64(0)
	if res.HasLatency {
		lat = int64(res.ServerLatency / time.Microsecond)
	}
	errMsg := ""
	if res.Err != nil {
		errMsg = res.Err.Error()
	}
	ns := v.sh.nebula
	ns.mu.Lock()
	if ns.out != nil && !v.inInit { // as in k6, VUs are initialised before setup() configures the output
		latCol := ""
		if res.HasLatency {
			latCol = strconv.FormatInt(lat, 10)
		}
		ns.out.Write([]string{strconv.FormatInt(time.Now().Unix(), 10), stmt, latCol,
			strconv.FormatInt(int64(rt/time.Microsecond), 10), strconv.FormatBool(res.Err == nil), strconv.FormatInt(res.Rows, 10), errMsg})
	}
	ns.mu.Unlock()
	r := v.rt.NewObject()
	ok, rows, rtUS := res.Err == nil, res.Rows, int64(rt/time.Microsecond)
	r.Set("isSucceed", func() bool { return ok })
	r.Set("getLatency", func() int64 { return lat })
	r.Set("getResponseTime", func() int64 { return rtUS })
	r.Set("getRowSize", func() int64 { return rows })
	r.Set("getErrorMsg", func() string { return errMsg })
	r.Set("isSucceeded", func() bool { return ok })
	return r
}

// closeSessions closes a VU's sessions.
func (s *nebulaState) close() {
	for _, c := range s.conns {
		c.Close()
	}
	s.conns = nil
}
