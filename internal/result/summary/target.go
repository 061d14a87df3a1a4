package summary

import "github.com/stampede-bench/stampede/internal/metrics"

// target writes the --monitor summary of sc, one wrapped entry per source:
//
//	target node: CPU avg 35% max 61% of 2 cores; mem 3.1 GiB of 7.8 GiB; net peak 12.0 MB/s (eth0), …
func (c *console) target(sc *metrics.ScenarioSnapshot) {
	sts := c.opts.Target[sc.Name]
	if len(sts) == 0 {
		return
	}
	for _, st := range sts {
		lead := "target " + st.Source + ": "
		for i, l := range wrap(lead+st.Line(), c.opts.Width-width(subIndent)) {
			if i > 0 {
				l = "    " + l
			}
			c.line(subIndent + l)
		}
	}
	c.line("")
}
