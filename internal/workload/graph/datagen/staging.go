package datagen

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stampede-bench/stampede/internal/fslock"
)

// PartialSuffix ends the name of the directory Generate writes into before
// the data set is complete: the sibling ".BASE" + PartialSuffix of Out
// when Out does not exist yet, else Out/PartialSuffix. The finished set
// is renamed (or, into an existing Out, moved entry by entry with the
// manifest last) into Out; an interrupted one is removed, so Out is a
// complete data set or absent.
const PartialSuffix = ".stampede-partial"

// staging is the directory one Generate call writes into, locked while it
// runs (fslock) so that another call can tell it from an abandoned one.
type staging struct {
	dir  string
	lock *fslock.Lock
	// sibling is true for ".BASE.stampede-partial" next to Out (published
	// with one rename), false for Out/.stampede-partial.
	sibling bool
	// made are the parent directories of Out this call created, deepest
	// last; removed again when nothing is published.
	made []string
}

// partialDirs returns the two places an interrupted Generate into out may
// have left its staging directory.
func partialDirs(out string) []string {
	clean := filepath.Clean(out)
	return []string{
		filepath.Join(filepath.Dir(clean), "."+filepath.Base(clean)+PartialSuffix),
		filepath.Join(clean, PartialSuffix),
	}
}

// removeAbandoned removes the staging directories an interrupted or killed
// Generate into out left, and says so through note. It removes only what
// it can prove is its own: an unlocked directory holding a stampede
// manifest and nothing but the files it lists (and the update-stream
// sorter's runs); a locked one means another Generate is writing out now.
func removeAbandoned(out string, note func(string)) error {
	for _, dir := range partialDirs(out) {
		fi, err := os.Lstat(dir)
		if err != nil {
			continue // absent (or out's parent is no directory: prepareOut says so)
		}
		if !fi.IsDir() {
			return badConfig("%s is in the way of the data set being generated (not a directory stampede made): remove it", dir)
		}
		lock, err := fslock.TryLock(dir)
		if errors.Is(err, fslock.ErrHeld) {
			return badConfig("another stampede gen is writing %s now (%s is locked): wait for it, or choose another directory", out, dir)
		}
		if err != nil {
			return badConfig("%s was left by an interrupted generation, but cannot be checked (%v): remove it", dir, err)
		}
		err = checkOwnPartial(dir)
		if err == nil {
			err = os.RemoveAll(dir)
		}
		lock.Unlock()
		if err != nil {
			return err
		}
		if note != nil {
			note(fmt.Sprintf("removed %s, an incomplete data set an interrupted generation left", dir))
		}
	}
	return nil
}

// checkOwnPartial checks that dir holds only what Generate writes: its
// manifest and the files it lists, their folders, and sorter runs.
func checkOwnPartial(dir string) error {
	listed, err := readManifest(filepath.Join(dir, ManifestName))
	if errors.Is(err, fs.ErrNotExist) {
		if empty, eerr := isEmptyDir(dir); eerr == nil && empty {
			return nil // killed before it wrote anything
		}
		return badConfig("%s looks like an interrupted generation but has no %s: remove it yourself", dir, ManifestName)
	}
	if err != nil {
		return badConfig("%v", err)
	}
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		top, _, _ := strings.Cut(rel, "/")
		switch {
		case rel == "." || rel == ManifestName || rel == ManifestName+".tmp":
			return nil
		case strings.HasPrefix(top, ".stampede-sort-"):
			return nil
		case d.IsDir():
			return nil
		}
		if _, ok := listed[rel]; !ok || !d.Type().IsRegular() {
			return badConfig("%s looks like an interrupted generation but holds %s, which stampede did not write: remove it yourself", dir, rel)
		}
		return nil
	})
}

// openStaging makes and locks the directory this Generate writes into.
// out has passed prepareOut's checks (absent, or an empty directory).
func openStaging(out string) (*staging, error) {
	s := &staging{}
	if _, err := os.Stat(out); err != nil {
		s.sibling = true
		s.dir = partialDirs(out)[0]
		made, err := mkdirAllTracked(filepath.Dir(s.dir))
		s.made = made
		if err != nil {
			s.removeMade()
			return nil, badConfig("cannot create output directory: %v", unwrapPath(err))
		}
	} else {
		s.dir = partialDirs(out)[1]
	}
	if err := os.Mkdir(s.dir, 0o755); err != nil {
		s.removeMade()
		if s.sibling {
			return nil, badConfig("cannot create output directory %s: %v", out, unwrapPath(err))
		}
		return nil, badConfig("output directory %s is not writable: %v", out, unwrapPath(err))
	}
	lock, err := fslock.TryLock(s.dir)
	if err != nil && !errors.Is(err, fslock.ErrUnsupported) {
		s.discard()
		return nil, fmt.Errorf("lock %s: %w", s.dir, err)
	}
	s.lock = lock
	return s, nil
}

// publish moves the finished data set into out: one rename of the
// sibling, or (into an existing out) every entry with the manifest last,
// then removes the staging directory.
func (s *staging) publish(out string) error {
	defer s.lock.Unlock()
	if s.sibling {
		if err := os.Rename(s.dir, out); err != nil {
			return fmt.Errorf("publish the data set: %w", err)
		}
		return nil
	}
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if e.Name() != ManifestName {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	names = append(names, ManifestName)
	for _, n := range names {
		if err := os.Rename(filepath.Join(s.dir, n), filepath.Join(out, n)); err != nil {
			return fmt.Errorf("publish the data set: %w", err)
		}
	}
	return os.Remove(s.dir)
}

// discard removes the staging directory and the parents this call made.
func (s *staging) discard() {
	os.RemoveAll(s.dir)
	s.lock.Unlock()
	s.removeMade()
}

func (s *staging) removeMade() {
	for i := len(s.made) - 1; i >= 0; i-- {
		if os.Remove(s.made[i]) != nil {
			return
		}
	}
}

// mkdirAllTracked is os.MkdirAll that returns the directories it created,
// outermost first.
func mkdirAllTracked(dir string) ([]string, error) {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	slices.Reverse(missing)
	var made []string
	for _, d := range missing {
		if err := os.Mkdir(d, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return made, err
		}
		made = append(made, d)
	}
	return made, nil
}

// Complete checks that dir, a data set directory, is not the remains of an
// interrupted generation: no staging directory inside it, and, when it has
// a stampede manifest, every listed file present and finished (a data set
// without a manifest, such as LDBC's own, passes). The error
// says what is missing.
func Complete(dir string) error {
	if _, err := os.Stat(partialDirs(dir)[1]); err == nil {
		return fmt.Errorf("%s is an incomplete data set (an interrupted generation left %s)", dir, PartialSuffix)
	}
	listed, err := readManifest(filepath.Join(dir, ManifestName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for rel, size := range listed {
		_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel)))
		switch {
		case err != nil:
			return fmt.Errorf("%s is an incomplete data set: %s is missing", dir, rel)
		case size < 0:
			return fmt.Errorf("%s is an incomplete data set: %s was still being written when its generation stopped", dir, rel)
		}
		// A file edited since (another size) is the user's business:
		// its load fingerprint differs, and --force refuses to remove it.
	}
	return nil
}
