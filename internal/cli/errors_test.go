package cli

import (
	"errors"
	"testing"
)

func TestOneLine(t *testing.T) {
	err := errors.New("cannot connect: first\n  second  try\nfirst")
	if got := oneLine(err); got != "cannot connect: first; second try; first" {
		t.Errorf("oneLine = %q", got)
	}
	if got := oneLine(errors.New("a\nb\nb")); got != "a; b" {
		t.Errorf("oneLine dedupe = %q", got)
	}
}

func TestOneLineAfterColon(t *testing.T) {
	if got := oneLine(errors.New("failed to connect:\nhost a: refused\nhost a: refused")); got != "failed to connect: host a: refused" {
		t.Errorf("oneLine = %q", got)
	}
}
