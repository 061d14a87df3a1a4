package cli

import "github.com/stampede-bench/stampede/internal/engine"

// describeExecutor is a short human description of an executor config
// (engine.Config.Describe).
func describeExecutor(c engine.Config) string { return c.Describe() }
