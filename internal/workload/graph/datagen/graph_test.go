package datagen

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestGraphStatistics checks persons, knows and degree statistics per SF
// against the LDBC numbers. SF 30 and 100 take several seconds and are
// skipped with -short.
func TestGraphStatistics(t *testing.T) {
	tests := []struct {
		sf   float64
		long bool
	}{
		{0.1, false}, {0.3, false}, {1, false}, {3, false}, {10, false}, {30, true}, {100, true},
	}
	for _, tc := range tests {
		t.Run(sfName(tc.sf), func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("large SF skipped in -short mode")
			}
			n, _ := PersonsForSF(tc.sf)
			g, err := buildGraph(context.Background(), n, 42, 2)
			if err != nil {
				t.Fatal(err)
			}
			if len(g.persons) != n {
				t.Fatalf("persons = %d, want %d", len(g.persons), n)
			}
			want, _ := KnowsForSF(tc.sf)
			for _, row := range scaleTable() {
				if row.sf == tc.sf && row.knows != 0 && want != row.knows {
					t.Fatalf("KnowsForSF = %d, LDBC says %d", want, row.knows)
				}
			}
			knows := g.graph.edges()
			if ratio := float64(knows) / float64(want); ratio < 0.95 || ratio > 1.05 {
				t.Errorf("knows = %d, want %d ±5%% (ratio %.3f)", knows, want, ratio)
			}
			st := degreeStats(g)
			t.Logf("n=%d knows=%d (want %d) mean=%.1f median=%d p99=%d max=%d isolated=%.2f%% LDBC formula mean=%.0f",
				n, knows, want, st.mean, st.median, st.p99, st.max, 100*st.isolated, math.Round(ldbcMeanDegree(n)))
			if st.max > maxFriends {
				t.Errorf("max degree %d > %d", st.max, maxFriends)
			}
			if float64(st.median) >= st.mean {
				t.Errorf("median %d >= mean %.1f: not a right-skewed (Facebook-like) distribution", st.median, st.mean)
			}
			if float64(st.p99) < 4*st.mean {
				t.Errorf("p99 %d < 4 x mean %.1f: tail too light", st.p99, st.mean)
			}
			if st.isolated < 0.005 || st.isolated > 0.05 {
				t.Errorf("isolated share %.3f outside [0.5%%, 5%%]", st.isolated)
			}
			if f := ldbcMeanDegree(n); st.mean < 0.85*f || st.mean > 1.1*f {
				t.Errorf("mean degree %.1f far from LDBC's %.1f", st.mean, f)
			}
		})
	}
}

type degStats struct {
	mean             float64
	median, p99, max int
	isolated         float64
}

func degreeStats(g *generator) degStats {
	d := make([]int, len(g.graph.deg))
	var sum, zero int
	for i, x := range g.graph.deg {
		d[i] = int(x)
		sum += int(x)
		if x == 0 {
			zero++
		}
	}
	slices.Sort(d)
	n := len(d)
	return degStats{
		mean: float64(sum) / float64(n), median: d[n/2], p99: d[n*99/100], max: d[n-1],
		isolated: float64(zero) / float64(n),
	}
}

func sfName(sf float64) string {
	return "sf" + formatFloat(sf)
}

// TestGraphInvariants checks that the knows graph is simple and symmetric
// and that ids are unique and non-negative.
func TestGraphInvariants(t *testing.T) {
	g, err := buildGraph(context.Background(), 11_000, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[int64]bool{}
	for s, p := range g.persons {
		if p.id < 0 || ids[p.id] {
			t.Fatalf("person %d: bad or duplicate id %d", s, p.id)
		}
		ids[p.id] = true
		if p.id&(1<<idSeqBits-1) != int64(s) {
			t.Fatalf("person %d: id %d does not carry its index", s, p.id)
		}
		if p.created < startMs || p.created >= endMs {
			t.Fatalf("person %d: created %d outside 2010-2013", s, p.created)
		}
		if int(g.graph.deg[s]) > int(p.degree) {
			t.Fatalf("person %d: degree %d over target %d", s, g.graph.deg[s], p.degree)
		}
		f := slices.Clone(g.graph.friends(uint32(s)))
		slices.Sort(f)
		for i, x := range f {
			if x == uint32(s) {
				t.Fatalf("person %d knows itself", s)
			}
			if i > 0 && f[i-1] == x {
				t.Fatalf("person %d knows %d twice", s, x)
			}
			if !slices.Contains(g.graph.friends(x), uint32(s)) {
				t.Fatalf("%d knows %d but not the other way", s, x)
			}
		}
	}
}

// TestClustering checks that friends of friends overlap far more than in a
// uniform random graph of the same size and number of edges, and more than
// the degree distribution alone explains (a random graph with the same
// degrees).
func TestClustering(t *testing.T) {
	n, _ := PersonsForSF(1)
	g, err := buildGraph(context.Background(), n, 42, 2)
	if err != nil {
		t.Fatal(err)
	}
	ours := adjacency(n, func(s int) []uint32 { return g.graph.friends(uint32(s)) })
	random := uniformGraph(n, g.graph.edges(), 1)
	sameDegrees := configurationGraph(ours, 1)

	ccOurs, hop2Ours := clusteringAndHop2(ours)
	ccRand, _ := clusteringAndHop2(random)
	ccConf, hop2Rand := clusteringAndHop2(sameDegrees)
	t.Logf("mean local clustering: generated %.4f, uniform random %.4f (x%.0f), same degrees %.4f; mean 2-hop size: %.0f vs %.0f with the same degrees",
		ccOurs, ccRand, ccOurs/ccRand, ccConf, hop2Ours, hop2Rand)
	if ccOurs < 10*ccRand {
		t.Errorf("clustering %.4f is not far above uniform random %.4f", ccOurs, ccRand)
	}
	if ccOurs < 0.05 {
		t.Errorf("clustering %.4f too low for a social network", ccOurs)
	}
	if ccOurs < 2*ccConf {
		t.Errorf("clustering %.4f not well above a random graph with the same degrees (%.4f)", ccOurs, ccConf)
	}
}

func adjacency(n int, friends func(int) []uint32) [][]uint32 {
	adj := make([][]uint32, n)
	for s := range adj {
		adj[s] = friends(s)
	}
	return adj
}

// uniformGraph is G(n, m): m distinct random pairs.
func uniformGraph(n int, m int64, seed uint64) [][]uint32 {
	r := rand.New(rand.NewPCG(seed, seed))
	adj := make([][]uint32, n)
	seen := map[[2]uint32]bool{}
	for int64(len(seen)) < m {
		a, b := uint32(r.IntN(n)), uint32(r.IntN(n))
		if a == b {
			continue
		}
		if a > b {
			a, b = b, a
		}
		if seen[[2]uint32{a, b}] {
			continue
		}
		seen[[2]uint32{a, b}] = true
		adj[a] = append(adj[a], b)
		adj[b] = append(adj[b], a)
	}
	return adj
}

// configurationGraph rewires adj at random keeping every degree (stub
// matching; self loops and repeated pairs are dropped).
func configurationGraph(adj [][]uint32, seed uint64) [][]uint32 {
	r := rand.New(rand.NewPCG(seed, seed))
	var stubs []uint32
	for s, f := range adj {
		for range f {
			stubs = append(stubs, uint32(s))
		}
	}
	r.Shuffle(len(stubs), func(i, j int) { stubs[i], stubs[j] = stubs[j], stubs[i] })
	out := make([][]uint32, len(adj))
	seen := map[[2]uint32]bool{}
	for i := 0; i+1 < len(stubs); i += 2 {
		a, b := min(stubs[i], stubs[i+1]), max(stubs[i], stubs[i+1])
		if a == b || seen[[2]uint32{a, b}] {
			continue
		}
		seen[[2]uint32{a, b}] = true
		out[a] = append(out[a], b)
		out[b] = append(out[b], a)
	}
	return out
}

// clusteringAndHop2 returns the mean local clustering coefficient and the
// mean number of persons exactly 2 hops away, over the first 1,000 persons
// with at least two friends.
func clusteringAndHop2(adj [][]uint32) (cc, hop2 float64) {
	mark := make([]int32, len(adj))
	for i := range mark {
		mark[i] = -1
	}
	seen := make([]int32, len(adj))
	for i := range seen {
		seen[i] = -1
	}
	samples := 0
	for s := 0; s < len(adj) && samples < 1000; s++ {
		k := len(adj[s])
		if k < 2 {
			continue
		}
		samples++
		for _, f := range adj[s] {
			mark[f] = int32(s)
		}
		tri, two := 0, 0
		seen[s] = int32(s)
		for _, f := range adj[s] {
			seen[f] = int32(s)
		}
		for _, f := range adj[s] {
			for _, ff := range adj[f] {
				if mark[ff] == int32(s) {
					tri++
				}
				if seen[ff] != int32(s) {
					seen[ff] = int32(s)
					two++
				}
			}
		}
		cc += float64(tri) / float64(k*(k-1))
		hop2 += float64(two)
	}
	return cc / float64(samples), hop2 / float64(samples)
}
