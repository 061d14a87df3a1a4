package summary

import (
	"fmt"
	"strings"
)

// failures heads the summary with every scenario whose error rate is above
// metrics.FailureThreshold: its error percentage and its most frequent
// error with the full cause, before any throughput or latency figure.
func (c *console) failures() {
	any := false
	for _, sc := range c.snap.Scenarios {
		f := sc.Failure()
		if f == nil {
			continue
		}
		any = true
		head := fmt.Sprintf("%s FAILED  %s: %s of %d %s failed", failMark, sc.Name, fmtPct(f.Rate), f.Ops, f.What)
		for i, l := range wrapAll(head, c.opts.Width-width(indent)) {
			if i > 0 {
				l = "  " + l
			}
			c.line(indent + c.st.paint(l, bold, red))
		}
		if f.Unreachable != "" {
			c.wrapped(subIndent, f.Unreachable, red)
		}
		if f.Top.Msg != "" {
			lead := subIndent + fmt.Sprintf("top error (%d×): ", f.Top.N)
			c.wrapped(lead, f.Top.Msg, red)
		}
	}
	if any {
		c.line("")
	}
}

// wrapped writes lead followed by text wrapped to the width, continuation
// lines indented under the text; nothing of text is cut.
func (c *console) wrapped(lead, text string, colors ...string) {
	room := c.opts.Width - width(lead)
	if room < 20 {
		room = 20
	}
	for i, l := range wrapAll(text, room) {
		if i == 0 {
			c.line(lead + c.st.paint(l, colors...))
			continue
		}
		c.line(strings.Repeat(" ", width(lead)) + c.st.paint(l, colors...))
	}
}

// wrapAll breaks text into lines of at most n columns at spaces, breaking
// words longer than n instead of cutting them.
func wrapAll(text string, n int) []string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(clip(text, 1<<30)) {
		for width(word) > n {
			r := []rune(word)
			if cur != "" {
				lines = append(lines, cur)
				cur = ""
			}
			lines = append(lines, string(r[:n]))
			word = string(r[n:])
		}
		switch {
		case word == "":
		case cur == "":
			cur = word
		case width(cur)+1+width(word) <= n:
			cur += " " + word
		default:
			lines = append(lines, cur)
			cur = word
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
