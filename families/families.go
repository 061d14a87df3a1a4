// Package families is the catalog of stampede's built-in workload
// families (Builtins), for a command line (cmdline.Main) that offers them
// all. Each family is a package of its own below this one (graph, http,
// builtin, kafka, nats), built from typed options: a Go program imports
// the ones it runs and links only those. The package stampede imports
// none of them.
package families

import (
	"github.com/stampede-bench/stampede"
	"github.com/stampede-bench/stampede/internal/plugins"
)

// Builtins returns a catalog of stampede's own families: graph/LDBC
// (go.Go1Step, find_path.FindShortestPath, ...), http, builtin (Noop,
// Sleep), kafka and nats, each made anew for every command (their options
// are the command's flags). Add a program's own families with Add.
func Builtins() *stampede.Catalog {
	c := stampede.NewCatalog()
	for _, f := range plugins.Constructors() {
		c.AddFunc(f)
	}
	return c
}
