package compare

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Column gaps of the terminal table: between the two sides of a metric,
// and between metrics.
const (
	gapSides   = 2
	gapMetrics = 4
)

// WriteText renders r as a terminal table: the sides and their
// environments, warnings and notes, then per scenario the seed's table
// with values right-aligned, its notes, and a legend.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%-*s %s\n", len(r.Cand.Name)+1, r.Base.Name+":", runsSummary(r.Base))
	fmt.Fprintf(bw, "%-*s %s\n", len(r.Cand.Name)+1, r.Cand.Name+":", runsSummary(r.Cand))
	if rows := r.envRows(); len(rows) > 0 {
		fmt.Fprintln(bw)
		cells := [][]string{{"environment", r.Base.Name, r.Cand.Name, ""}}
		for _, e := range rows {
			mark := ""
			if e.differs() {
				mark = "≠"
			}
			cells = append(cells, []string{e.label, e.base, e.cand, mark})
		}
		writeColumns(bw, cells)
	}
	if len(r.Warnings)+len(r.Notes) > 0 {
		fmt.Fprintln(bw)
	}
	for _, s := range r.Warnings {
		fmt.Fprintf(bw, "WARNING: %s\n", s)
	}
	for _, s := range r.Notes {
		fmt.Fprintf(bw, "note: %s\n", s)
	}
	for _, s := range r.Scenarios {
		fmt.Fprintln(bw)
		writeGrid(bw, s.Name, r.Base.Name, r.Cand.Name, r.grid(s))
		for _, n := range s.Notes {
			fmt.Fprintf(bw, "note: %s\n", n)
		}
	}
	fmt.Fprintln(bw)
	for _, l := range r.legend() {
		fmt.Fprintln(bw, l)
	}
	return bw.Flush()
}

// writeGrid aligns g: labels left, values right, each metric's title over
// its two columns, spanning cells right-aligned across both.
func writeGrid(w io.Writer, title, baseName, candName string, g grid) {
	w0 := width(title)
	for _, row := range g.rows {
		w0 = max(w0, width(row[0]))
	}
	type pair struct{ base, cand int }
	pairs := make([]pair, len(g.metrics))
	for j, t := range g.metrics {
		p := pair{width(baseName), width(candName)}
		spanW := width(t)
		for i, row := range g.rows {
			b, c := row[1+2*j], row[2+2*j]
			if g.span[i] {
				spanW = max(spanW, width(c))
				continue
			}
			p.base, p.cand = max(p.base, width(b)), max(p.cand, width(c))
		}
		if extra := spanW - (p.base + gapSides + p.cand); extra > 0 {
			p.base += extra / 2
			p.cand += extra - extra/2
		}
		pairs[j] = p
	}
	line := func(cells func(b *strings.Builder)) {
		var b strings.Builder
		cells(&b)
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(func(b *strings.Builder) {
		b.WriteString(padRight(title, w0))
		for j, t := range g.metrics {
			b.WriteString(strings.Repeat(" ", gapMetrics))
			b.WriteString(padRight(t, pairs[j].base+gapSides+pairs[j].cand))
		}
	})
	line(func(b *strings.Builder) {
		b.WriteString(padRight("run", w0))
		for j := range g.metrics {
			b.WriteString(strings.Repeat(" ", gapMetrics))
			b.WriteString(padLeft(baseName, pairs[j].base))
			b.WriteString(strings.Repeat(" ", gapSides))
			b.WriteString(padLeft(candName, pairs[j].cand))
		}
	})
	for i, row := range g.rows {
		line(func(b *strings.Builder) {
			b.WriteString(padRight(row[0], w0))
			for j := range g.metrics {
				b.WriteString(strings.Repeat(" ", gapMetrics))
				if g.span[i] {
					b.WriteString(padLeft(row[2+2*j], pairs[j].base+gapSides+pairs[j].cand))
					continue
				}
				b.WriteString(padLeft(row[1+2*j], pairs[j].base))
				b.WriteString(strings.Repeat(" ", gapSides))
				b.WriteString(padLeft(row[2+2*j], pairs[j].cand))
			}
		})
	}
}

// width is the display width of s, one column per rune (µ, Δ, − included).
func width(s string) int { return utf8.RuneCountInString(s) }

func padRight(s string, n int) string { return s + strings.Repeat(" ", max(0, n-width(s))) }
func padLeft(s string, n int) string  { return strings.Repeat(" ", max(0, n-width(s))) + s }

// writeColumns writes rows left-aligned in columns two spaces apart.
func writeColumns(w io.Writer, rows [][]string) {
	var widths []int
	for _, row := range rows {
		for j, c := range row {
			if j == len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], width(c))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for j, c := range row {
			b.WriteString(padRight(c, widths[j]+2))
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}
