package ldbcfile

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The Hadoop LDBC datagen writes the same network in four CSV layouts.
// CsvBasic (what `stampede gen ldbc` writes) has one file per entity and
// per relation. CsvComposite puts a person's languages and e-mail
// addresses into two ';'-separated columns of the person file instead of
// person_speaks_language and person_email_emailaddress. CsvMergeForeign
// puts each one-to-one relation into a column of its source entity
// (person.place, place.isPartOf, organisation.place, tag.hasType,
// tagclass.isSubclassOf) instead of a relation file.
// CsvCompositeMergeForeign does both. The activity files merge the same
// way in both merge-foreign layouts: forum.moderator, post.creator,
// post.Forum.id (its container), post.place, comment.creator,
// comment.place, comment.replyOfPost and comment.replyOfComment (one of the
// two empty). The knows file and the many-to-many relations are the same
// in every layout.
const (
	PersonCompositeHeader             = PersonHeader + "|language|email"
	PersonMergeForeignHeader          = PersonHeader + "|place"
	PersonCompositeMergeForeignHeader = PersonHeader + "|place|language|email"

	PlaceMergeForeignHeader        = PlaceHeader + "|isPartOf"
	OrganisationMergeForeignHeader = OrganisationHeader + "|place"
	TagMergeForeignHeader          = TagHeader + "|hasType"
	TagClassMergeForeignHeader     = TagClassHeader + "|isSubclassOf"

	ForumMergeForeignHeader   = ForumHeader + "|moderator"
	PostMergeForeignHeader    = PostHeader + "|creator|Forum.id|place"
	CommentMergeForeignHeader = CommentHeader + "|creator|place|replyOfPost|replyOfComment"
)

// ListSeparator separates the values of a multi-valued column of the
// composite layouts (language, email).
const ListSeparator = ';'

// Layouts names the layouts in the order of PersonHeaders.
var Layouts = []string{"CsvBasic", "CsvComposite", "CsvMergeForeign", "CsvCompositeMergeForeign"}

// PersonHeaders are the person-file headers of the layouts, in the order
// of Layouts. The first eight columns are the same in all of them.
var PersonHeaders = []string{PersonHeader, PersonCompositeHeader, PersonMergeForeignHeader, PersonCompositeMergeForeignHeader}

// partName matches the name of a part file: NAME_<thread>_<part>.csv.
var partName = regexp.MustCompile(`^(.+)_([0-9]+)_([0-9]+)\.csv$`)

// Parts returns the files of data set dir that hold the rows of rel (a
// path of Files, such as PersonPath): rel itself and the other parts the
// Hadoop datagen writes when it runs with several threads
// (person_0_0.csv, person_1_0.csv, ...: NAME_<thread>_<part>.csv). Older
// datagen versions write the files directly under social_network/; they
// are found there too. The paths are relative to dir, in (thread, part)
// order. When there is none the error wraps fs.ErrNotExist.
func Parts(dir, rel string) ([]string, error) {
	m := partName.FindStringSubmatch(path.Base(rel))
	if m == nil {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
			return nil, err
		}
		return []string{rel}, nil
	}
	stem := m[1]
	dirs := []string{path.Dir(rel)}
	if path.Dir(rel) != DirSocialNetwork && strings.HasPrefix(rel, DirSocialNetwork+"/") {
		dirs = append(dirs, DirSocialNetwork)
	}
	for _, d := range dirs {
		entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(d)))
		if err != nil {
			continue
		}
		type part struct {
			rel          string
			thread, part int
		}
		var parts []part
		for _, e := range entries {
			pm := partName.FindStringSubmatch(e.Name())
			if pm == nil || pm[1] != stem || e.IsDir() {
				continue
			}
			th, err1 := strconv.Atoi(pm[2])
			pa, err2 := strconv.Atoi(pm[3])
			if err1 != nil || err2 != nil {
				continue
			}
			parts = append(parts, part{d + "/" + e.Name(), th, pa})
		}
		if len(parts) == 0 {
			continue
		}
		slices.SortFunc(parts, func(a, b part) int {
			return cmp.Or(cmp.Compare(a.thread, b.thread), cmp.Compare(a.part, b.part))
		})
		out := make([]string, len(parts))
		for i, p := range parts {
			out[i] = p.rel
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s: %w", rel, fs.ErrNotExist)
}

// DetectLayout names the layout of data set dir from the header of its
// person file ("CsvBasic", ...).
func DetectLayout(dir string) (string, error) {
	parts, err := Parts(dir, PersonPath)
	if err != nil {
		return "", err
	}
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(parts[0])))
	if err != nil {
		return "", err
	}
	defer f.Close()
	buf := make([]byte, 512)
	n, _ := f.Read(buf)
	line, _, _ := strings.Cut(strings.TrimPrefix(string(buf[:n]), "\xef\xbb\xbf"), "\n")
	line = strings.TrimSuffix(line, "\r")
	for i, h := range PersonHeaders {
		if line == h {
			return Layouts[i], nil
		}
	}
	return "", fmt.Errorf("%s: header %q is none of the LDBC person layouts", parts[0], Cut(line))
}
