package datagen

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/fslock"
	"github.com/stampede-bench/stampede/internal/usage"
)

// An interrupted Generate leaves nothing: not the data set, not its
// staging directory, not the parent directories it made.
func TestGenerateInterruptedLeavesNothing(t *testing.T) {
	for _, existing := range []bool{false, true} {
		name := map[bool]string{false: "new out", true: "existing empty out"}[existing]
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			out := filepath.Join(root, "a", "b", "sf")
			if existing {
				if err := os.MkdirAll(out, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			_, err := Generate(ctx, Config{SF: 0.1, Out: out, Workers: 2, Progress: func(int64) { cancel() }})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			want := []string(nil)
			if existing {
				want = []string{"a", "a/b", "a/b/sf"}
			}
			if got := walk(t, root); strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("left behind %v, want %v", got, want)
			}
		})
	}
}

// A finished Generate publishes a complete set; Complete tells a complete
// set from what a killed generation left.
func TestGeneratePublishesComplete(t *testing.T) {
	for _, existing := range []bool{false, true} {
		t.Run(map[bool]string{false: "rename", true: "move entries"}[existing], func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "sf")
			if existing {
				os.Mkdir(out, 0o755)
			}
			if _, err := Generate(context.Background(), Config{SF: 0.01, Out: out, Workers: 2}); err != nil {
				t.Fatal(err)
			}
			if err := Complete(out); err != nil {
				t.Errorf("Complete: %v", err)
			}
			for _, p := range partialDirs(out) {
				if _, err := os.Stat(p); err == nil {
					t.Errorf("%s left", p)
				}
			}
			// What a kill -9 in the middle of a write looks like.
			m := filepath.Join(out, ManifestName)
			b, _ := os.ReadFile(m)
			lines := strings.Split(string(b), "\n")
			_, rel, _ := strings.Cut(lines[1], "\t")
			lines[1] = "-\t" + rel
			os.WriteFile(m, []byte(strings.Join(lines, "\n")), 0o644)
			if err := Complete(out); err == nil || !strings.Contains(err.Error(), "still being written") {
				t.Errorf("Complete of a half-written set: %v", err)
			}
		})
	}
	if err := Complete(t.TempDir()); err != nil {
		t.Errorf("a directory without a manifest (LDBC's own data): %v", err)
	}
}

// What a killed Generate left is removed by the next one, which says so;
// a staging directory that is locked (being written) or holds a file
// stampede did not write is never removed.
func TestGenerateRemovesAbandonedStaging(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, partial string) (cleanup func())
		want    string // "" = removed with a note
	}{
		{"abandoned", func(t *testing.T, p string) func() { return nil }, ""},
		{"empty", func(t *testing.T, p string) func() {
			os.Remove(filepath.Join(p, ManifestName))
			os.RemoveAll(filepath.Join(p, "social_network"))
			return nil
		}, ""},
		{"being written", func(t *testing.T, p string) func() {
			l, err := fslock.TryLock(p)
			if err != nil {
				t.Fatal(err)
			}
			return func() { l.Unlock() }
		}, "another stampede gen is writing"},
		{"holds a user file", func(t *testing.T, p string) func() {
			os.WriteFile(filepath.Join(p, "social_network", "mine.txt"), []byte("x"), 0o644)
			return nil
		}, "which stampede did not write"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "sf")
			partial := partialDirs(out)[0]
			os.MkdirAll(filepath.Join(partial, "social_network"), 0o755)
			m := &manifest{path: filepath.Join(partial, ManifestName)}
			m.add("social_network/person_0_0.csv")
			os.WriteFile(filepath.Join(partial, "social_network", "person_0_0.csv"), []byte("id|"), 0o644)
			if c := tc.prepare(t, partial); c != nil {
				defer c()
			}
			var notes []string
			_, err := Generate(context.Background(), Config{SF: 0.01, Out: out, Workers: 2, Note: func(s string) { notes = append(notes, s) }})
			if tc.want != "" {
				if !usage.Is(err) || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want a usage error with %q", err, tc.want)
				}
				if _, err := os.Stat(partial); err != nil {
					t.Errorf("the staging directory was removed: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(notes) != 1 || !strings.Contains(notes[0], "removed "+partial) {
				t.Errorf("notes %q, want one saying %s was removed", notes, partial)
			}
			if err := Complete(out); err != nil {
				t.Error(err)
			}
		})
	}
}

func walk(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, _ os.DirEntry, err error) error {
		if err == nil && p != root {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}
