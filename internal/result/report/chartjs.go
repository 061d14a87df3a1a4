package report

// ChartJS is the report's dependency-free SVG line chart script, for
// other pages that draw with it (the lab's report): it defines
// StampedeChart.chart(parent, spec), spec as documented at its top.
func ChartJS() string {
	b, err := assets.ReadFile("assets/chart.js")
	if err != nil {
		panic(err) // embedded at build time
	}
	return string(b)
}
