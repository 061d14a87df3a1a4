//go:build !unix

package selfcheck

import "errors"

// ProcessUsage is unavailable on this platform: the sampler records nothing.
func ProcessUsage() (Usage, error) {
	return Usage{}, errors.New("selfcheck: process CPU time is not available on this platform")
}
