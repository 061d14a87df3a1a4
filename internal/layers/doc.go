// Package layers holds no code: its test encodes the layer order of
// stampede's packages and fails when a package imports one above it (or a
// peer beside it), so that imports keep pointing down. See layers_test.go
// for the table and how to place a new package.
package layers
