package summary

import (
	"fmt"
	"strings"

	"github.com/stampede-bench/stampede/verdict"
)

// failures heads the summary with the verdict of every scenario that did
// not pass (verdict.Of, the one verdict of the run): FAILED or DEGRADED
// with its reasons (the unreachable-target note is one) and its most frequent
// error with the full cause, before any throughput or latency figure.
func (c *console) failures() {
	run := verdict.Of(c.snap)
	any := false
	for i, sc := range c.snap.Scenarios {
		v := run.Scenarios[i]
		if v.Status == verdict.Passed {
			continue
		}
		any = true
		mark, label, color := failMark, "FAILED", red
		if v.Status == verdict.Degraded {
			mark, label, color = "!", "DEGRADED", yellow
		}
		head := fmt.Sprintf("%s %s  %s: %s", mark, label, sc.Name, v.Reason[0].Text)
		for i, l := range wrapAll(head, c.opts.Width-width(indent)) {
			if i > 0 {
				l = "  " + l
			}
			c.line(indent + c.st.paint(l, bold, color))
		}
		for _, r := range v.Reason[1:] {
			c.wrapped(subIndent, r.Text, color)
		}
		if v.Top.Msg != "" {
			lead := subIndent + fmt.Sprintf("top error (%d×): ", v.Top.N)
			c.wrapped(lead, v.Top.Msg, color)
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
