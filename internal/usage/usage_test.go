package usage

import (
	"errors"
	"fmt"
	"io"
	"testing"
)

func TestErrorfKeepsTextAndMarks(t *testing.T) {
	err := Errorf("--vus %d: need vus ≥ %d", 0, 1)
	if got, want := err.Error(), "--vus 0: need vus ≥ 1"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !Is(err) || !errors.Is(err, ErrBadInput) {
		t.Errorf("Errorf result is not a usage error")
	}
	var ue *Error
	if !errors.As(err, &ue) || ue.Error() != err.Error() {
		t.Errorf("errors.As(*Error) = %v, %v", ue, err)
	}
}

func TestErrorfWrapsCause(t *testing.T) {
	cause := errors.New("already loaded")
	err := Errorf("%w: target holds a graph", cause)
	if !errors.Is(err, cause) || !Is(err) {
		t.Errorf("Errorf(%%w) = %v: Is(cause) %v, usage %v", err, errors.Is(err, cause), Is(err))
	}
}

func TestWrap(t *testing.T) {
	if Wrap(nil) != nil {
		t.Errorf("Wrap(nil) != nil")
	}
	plain := io.ErrUnexpectedEOF
	if Is(plain) || errors.Is(plain, ErrBadInput) {
		t.Errorf("plain error counts as usage error")
	}
	w := Wrap(plain)
	if !Is(w) || !errors.Is(w, io.ErrUnexpectedEOF) || w.Error() != plain.Error() {
		t.Errorf("Wrap(plain) = %v: usage %v, cause %v", w, Is(w), errors.Is(w, io.ErrUnexpectedEOF))
	}
	if again := Wrap(w); again != w {
		t.Errorf("Wrap(usage error) wrapped again: %#v", again)
	}
}

func TestSurvivesOuterWrapping(t *testing.T) {
	inner := Errorf("bad stage %q", "x")
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"fmt %w", fmt.Errorf("gen ldbc: %w", inner), true},
		{"fmt %v loses it", fmt.Errorf("gen ldbc: %v", inner), false},
		{"joined", errors.Join(io.EOF, inner), true},
		{"nil", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Is(tc.err); got != tc.want {
				t.Errorf("Is(%v) = %v, want %v", tc.err, got, tc.want)
			}
			if got := errors.Is(tc.err, ErrBadInput); got != tc.want {
				t.Errorf("errors.Is(%v, ErrBadInput) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}
