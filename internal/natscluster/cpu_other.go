//go:build !linux

package natscluster

import "time"

func processCPU(int) (time.Duration, bool) { return 0, false }
