//go:build !unix

package bounded

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs") }
