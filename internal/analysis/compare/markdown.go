package compare

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown renders r as GitHub-flavoured Markdown, paste-ready like
// the seed's table: the environments side by side, warnings and notes, then
// per scenario a table with a column per metric and side and a row per
// run, Mean, STDDEVP, STDDEVP/Mean, change, p, CI and verdict.
func (r *Report) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "| environment | %s | %s | |\n|---|---|---|---|\n", mdCell(r.Base.Name), mdCell(r.Cand.Name))
	fmt.Fprintf(bw, "| runs | %s | %s | |\n", mdRuns(r.Base), mdRuns(r.Cand))
	for _, e := range r.envRows() {
		mark := ""
		if e.differs() {
			mark = "≠"
		}
		base, cand := mdCell(e.base), mdCell(e.cand)
		if e.label == "target" {
			base, cand = mdCode(e.base), mdCode(e.cand)
		}
		fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", e.label, base, cand, mark)
	}
	if len(r.Warnings)+len(r.Notes) > 0 {
		fmt.Fprintln(bw)
	}
	for _, s := range r.Warnings {
		fmt.Fprintf(bw, "> **WARNING:** %s\n\n", mdText(s))
	}
	for _, s := range r.Notes {
		fmt.Fprintf(bw, "- %s\n", mdText(s))
	}
	for _, s := range r.Scenarios {
		g := r.grid(s)
		fmt.Fprintf(bw, "\n**%s**\n\n", mdText(s.Name))
		var head, rule strings.Builder
		head.WriteString("| run |")
		rule.WriteString("|---|")
		for _, t := range g.metrics {
			fmt.Fprintf(&head, " %s %s | %s %s |", mdCell(t), mdCell(r.Base.Name), mdCell(t), mdCell(r.Cand.Name))
			rule.WriteString("--:|--:|")
		}
		fmt.Fprintf(bw, "%s\n%s\n", head.String(), rule.String())
		for _, row := range g.rows {
			cells := make([]string, len(row))
			for i, c := range row {
				cells[i] = mdCell(c)
			}
			fmt.Fprintf(bw, "| %s |\n", strings.Join(cells, " | "))
		}
		if len(s.Notes) > 0 {
			fmt.Fprintln(bw)
		}
		for _, n := range s.Notes {
			fmt.Fprintf(bw, "- %s\n", mdText(n))
		}
	}
	fmt.Fprintf(bw, "\n%s\n", mdText(strings.Join(r.legend(), " ")))
	return bw.Flush()
}

// mdCell makes s safe inside a table cell.
func mdCell(s string) string { return strings.ReplaceAll(mdText(s), "|", `\|`) }

// mdText escapes asterisks, which would start emphasis. Underscores are
// left alone: inside words (find_path.FindShortestPath) GitHub ignores them.
func mdText(s string) string { return strings.ReplaceAll(s, `*`, `\*`) }

// mdCode is s as a code span, safe inside a table cell.
func mdCode(s string) string {
	if s == "" {
		return ""
	}
	return "`" + strings.ReplaceAll(s, "|", `\|`) + "`"
}

// mdRuns is "`path` (5 runs)".
func mdRuns(s SideInfo) string {
	n := len(s.Runs)
	if n == 1 {
		return mdCode(s.Path) + " (1 run)"
	}
	return fmt.Sprintf("%s (%d runs)", mdCode(s.Path), n)
}
