package stats

// Per-run latencies (ms) from the seed's AutoFDO table (seeds/001): five
// runs each of the default and the AutoFDO-optimized binary.
var (
	fspAvgDefault = []float64{8072.52, 8034.32, 8079.27, 8087.66, 8044.77}
	fspAvgOpt     = []float64{7260.10, 7218.59, 7257.24, 7221.39, 7239.85}
	fspP95Default = []float64{22102.00, 22060.85, 22147.00, 22143.00, 22181.00}
	fspP95Opt     = []float64{19108.00, 19006.00, 19053.00, 19050.00, 19055.00}
	go1AvgDefault = []float64{422.53, 432.37, 437.45, 429.16, 446.38}
	go1AvgOpt     = []float64{418.37, 402.44, 407.98, 408.38, 411.32}
	go1P95Default = []float64{838.00, 866.00, 874.00, 858.00, 901.00}
	go1P95Opt     = []float64{850.00, 815.00, 836.00, 838.00, 837.00}
	go2AvgDefault = []float64{2989.93, 2957.22, 2962.74, 2992.39, 2934.85}
	go2AvgOpt     = []float64{2824.29, 2834.55, 2818.62, 2817.27, 2834.91}
	go2P95Default = []float64{10202.00, 10129.00, 10168.40, 10285.10, 10025.00}
	go2P95Opt     = []float64{9656.95, 9632.40, 9624.70, 9647.50, 9699.65}
	go3AvgDefault = []float64{93551.97, 92418.43, 92587.67, 93371.64, 94046.05}
	go3AvgOpt     = []float64{89406.96, 89977.25, 90339.25, 92458.95, 89943.44}
	go3P95Default = []float64{371359.55, 368868.00, 365390.15, 373578.15, 373392.25}
	go3P95Opt     = []float64{345433.50, 352375.20, 356198.55, 365177.75, 352576.00}
	insAvgDefault = []float64{2022.86, 1966.05, 1985.25, 2026.73, 2007.55}
	insAvgOpt     = []float64{1937.36, 1935.41, 1953.58, 1887.28, 1964.41}
	insP95Default = []float64{2689.00, 2620.45, 2546.00, 2564.00, 2676.00}
	insP95Opt     = []float64{2633.45, 2555.00, 2593.00, 2394.00, 2581.00}
)

// seedColumns pairs the seed's columns by scenario and metric, in the
// seed's order.
var seedColumns = []struct {
	name          string
	defaults, opt []float64
}{
	{"FindShortestPath avg", fspAvgDefault, fspAvgOpt},
	{"FindShortestPath p95", fspP95Default, fspP95Opt},
	{"Go1Step avg", go1AvgDefault, go1AvgOpt},
	{"Go1Step p95", go1P95Default, go1P95Opt},
	{"Go2Step avg", go2AvgDefault, go2AvgOpt},
	{"Go2Step p95", go2P95Default, go2P95Opt},
	{"Go3Step avg", go3AvgDefault, go3AvgOpt},
	{"Go3Step p95", go3P95Default, go3P95Opt},
	{"InsertPerson avg", insAvgDefault, insAvgOpt},
	{"InsertPerson p95", insP95Default, insP95Opt},
}
