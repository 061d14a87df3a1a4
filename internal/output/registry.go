package output

import "github.com/stampede-bench/stampede/output"

// The output registry is package output's (public, documented there):
// Params, what an output is made from; Factory, what makes one kind of
// output; Registry, the factories by name.
type (
	Params   = output.Params
	Factory  = output.Factory
	Registry = output.Registry
)

// ErrUnknown is wrapped by the error for a name no factory has.
var ErrUnknown = output.ErrUnknown

// NewRegistry returns a registry holding fs (output.NewRegistry).
func NewRegistry(fs ...Factory) (*Registry, error) { return output.NewRegistry(fs...) }
