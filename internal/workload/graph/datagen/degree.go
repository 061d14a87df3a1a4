package datagen

import "math"

// The degree model.
//
// Each person draws a target number of friends from a Facebook-like
// distribution, as LDBC does: LDBC scales the Facebook degree distribution
// (Ugander et al. 2011: mean 190, median about 100, heavy tail) to a mean
// that grows with the network, mean = round(n^(0.512-0.028*log10 n)), and
// its tail ends near 1,760 friends at SF10. Here the Facebook shape is a zero-inflated
// log-normal with the same mean/median ratio (sigma = 1.13, so
// mean/median = exp(sigma^2/2) = 1.89) and 1% of persons without friends.
//
// The scale of the log-normal is solved numerically so that the mean target
// degree, divided by the share the knows passes realise, gives LDBC's knows
// counts (see avgDegree, newDegreeModel and docs/datagen.md).
const (
	degreeSigma   = 1.13
	isolatedShare = 0.01
	maxFriends    = 20_000 // a safety bound (uint16), far above any drawn target
	// Above degreeKnee the log-normal tail is tempered to
	// knee*(x/knee)^degreeTail, which puts the largest degree of SF10
	// near LDBC's ~1,760 instead of a hard cap.
	degreeKnee      = 700
	degreeTail      = 0.5
	ldbcMeanExp     = 0.512
	ldbcMeanExpSlop = 0.028
)

// ldbcMeanDegree is LDBC's mean-degree formula for n persons, unrounded.
func ldbcMeanDegree(n int) float64 {
	x := float64(n)
	return math.Pow(x, ldbcMeanExp-ldbcMeanExpSlop*math.Log10(x))
}

// avgDegree is the mean realised degree (2*knows/persons) the generator
// aims at for n persons: LDBC's formula times a correction r(n) that makes
// it hit the knows counts of the LDBC tables exactly at SF 0.1, 1, 10 and
// 100. r is interpolated linearly in log10(n) between those anchors and
// held constant outside them.
func avgDegree(n int) float64 {
	var xs, rs []float64
	for _, row := range scaleTable() {
		if row.knows == 0 {
			continue
		}
		xs = append(xs, math.Log10(float64(row.persons)))
		rs = append(rs, 2*float64(row.knows)/float64(row.persons)/ldbcMeanDegree(row.persons))
	}
	x := math.Log10(float64(n))
	r := rs[0]
	switch {
	case x >= xs[len(xs)-1]:
		r = rs[len(rs)-1]
	case x > xs[0]:
		for i := 1; i < len(xs); i++ {
			if x <= xs[i] {
				t := (x - xs[i-1]) / (xs[i] - xs[i-1])
				r = rs[i-1] + t*(rs[i]-rs[i-1])
				break
			}
		}
	}
	return math.Min(ldbcMeanDegree(n)*r, float64(n-1)/2)
}

// realisation is the share of the target degrees that the knows passes
// realise (persons at the end of a block may find no partner with room
// left), measured on this generator: 0.997-0.999 from SF 0.1 to SF 100 with
// any seed. Targets are divided by it.
const realisation = 0.998

// degreeModel draws target degrees for a network of n persons.
type degreeModel struct {
	scale float64 // median of the log-normal part
	limit int     // min(maxFriends, n-1)
}

// newDegreeModel picks the log-normal scale for which the expected target,
// after rounding, the floor of 1 and the cap, is avgDegree(n)/realisation
// (found by bisection over a quantile grid), so that realised knows counts
// land on LDBC's.
func newDegreeModel(n int) degreeModel {
	m := degreeModel{limit: max(1, min(maxFriends, n-1))}
	want := avgDegree(n) / realisation / (1 - isolatedShare)
	const grid = 4096
	z := make([]float64, grid)
	for k := range z {
		z[k] = math.Sqrt2 * math.Erfinv(2*(float64(k)+0.5)/grid-1)
	}
	mean := func(scale float64) float64 {
		var s float64
		for _, zk := range z {
			s += float64(m.clamp(scale * math.Exp(degreeSigma*zk)))
		}
		return s / grid
	}
	lo, hi := 0.0, float64(maxFriends)
	for range 60 {
		mid := (lo + hi) / 2
		if mean(mid) < want {
			lo = mid
		} else {
			hi = mid
		}
	}
	m.scale = (lo + hi) / 2
	return m
}

func (m degreeModel) clamp(x float64) int {
	if x > degreeKnee {
		x = degreeKnee * math.Pow(x/degreeKnee, degreeTail)
	}
	return max(1, min(int(math.Round(x)), m.limit))
}

// target maps a quantile u in [0,1) to a target degree: 0 below
// isolatedShare, the log-normal quantile above.
func (m degreeModel) target(u float64) int {
	if u < isolatedShare {
		return 0
	}
	v := (u - isolatedShare) / (1 - isolatedShare)
	z := math.Sqrt2 * math.Erfinv(2*v-1)
	return m.clamp(m.scale * math.Exp(degreeSigma*z))
}
