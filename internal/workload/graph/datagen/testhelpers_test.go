package datagen

import (
	"context"
	"math"
)

// KnowsForSF returns the number of knows edges the generator aims at for
// scale factor sf (it lands within a few percent): the LDBC number where the
// specification lists one, an interpolation elsewhere (see avgDegree).
func KnowsForSF(sf float64) (int64, error) {
	n, err := PersonsForSF(sf)
	if err != nil {
		return 0, err
	}
	return int64(math.Round(float64(n) * avgDegree(n) / 2)), nil
}

// buildGraph runs the in-memory stages only (persons and knows) for n
// persons; tests and benchmarks use it to check the graph without files.
func buildGraph(ctx context.Context, n int, seed int64, workers int) (*generator, error) {
	d, err := newDicts()
	if err != nil {
		return nil, err
	}
	g := &generator{seed: seed, workers: max(1, workers), dicts: d, degrees: newDegreeModel(n)}
	if err := g.generatePersons(ctx, n); err != nil {
		return nil, err
	}
	return g, g.generateKnows(ctx)
}
