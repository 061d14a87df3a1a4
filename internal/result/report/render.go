package report

import (
	"embed"
	"fmt"
	"html/template"
	"io"
)

//go:embed assets/report.html.tmpl assets/report.css assets/chart.js assets/report.js
var assets embed.FS

// page is what the template fills in.
type page struct {
	Title, Generator  string
	CSS               template.CSS
	ChartJS, ReportJS template.JS
	Payload           template.JS
	// Events is the URL of the live page's server-sent events ("": a
	// report, drawn once).
	Events string
}

// Render writes the HTML page of p.
func Render(w io.Writer, p *Payload) error { return render(w, p, "") }

// RenderLive writes the live dashboard's page: the page of Render, drawn
// first from p, then again from every "payload" event of the
// server-sent event stream at events (a URL path).
func RenderLive(w io.Writer, p *Payload, events string) error { return render(w, p, events) }

func render(w io.Writer, p *Payload, events string) error {
	tmpl, err := template.ParseFS(assets, "assets/report.html.tmpl")
	if err != nil {
		return fmt.Errorf("report template: %w", err)
	}
	data, err := marshalPayload(p)
	if err != nil {
		return fmt.Errorf("report data: %w", err)
	}
	read := func(name string) string {
		b, err := assets.ReadFile("assets/" + name)
		if err != nil {
			panic(err) // embedded at build time
		}
		return string(b)
	}
	gen := p.Generator
	if gen == "" {
		gen = "stampede"
	}
	return tmpl.Execute(w, page{
		Title: p.Title, Generator: gen,
		CSS:     template.CSS(read("report.css")),
		ChartJS: template.JS(read("chart.js")), ReportJS: template.JS(read("report.js")),
		Payload: template.JS(data), Events: events,
	})
}
