//go:build !unix

package fslock

import "os"

func tryLock(*os.File) error { return ErrUnsupported }
