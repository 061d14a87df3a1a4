package ngqlload

import "testing"

func TestVID(t *testing.T) {
	for _, c := range []struct {
		k    Kind
		id   int64
		want int64
	}{
		{KindPerson, 933, 933},
		{KindPerson, 4398046511104, 4398046511104},
		{KindPlace, 0, 1 << 56},
		{KindOrganisation, 7954, 2<<56 | 7954},
		{KindTagClass, 70, 3<<56 | 70},
		{KindTag, 3, 288230376151711747},
		{KindForum, 1 << 20, 5<<56 | 1<<20},
		{KindPost, 1236950581248, 6<<56 | 1236950581248},
		{KindComment, 1236950581249, 6<<56 | 1236950581249},
		{KindMessage, MaxID, 7<<56 - 1},
	} {
		if got := VID(c.k, c.id); got != c.want {
			t.Errorf("VID(%v, %d) = %d, want %d", c.k, c.id, got, c.want)
		}
		k, id := SplitVID(c.want)
		if k != c.k || id != c.id {
			t.Errorf("SplitVID(%d) = %v, %d; want %v, %d", c.want, k, id, c.k, c.id)
		}
		if c.want < 0 || c.want == MetaVID {
			t.Errorf("VID(%v, %d) = %d: negative", c.k, c.id, c.want)
		}
	}
	// The same LDBC id of every kind gives distinct vids.
	seen := map[int64]Kind{}
	for k := range Kind(kindCount) {
		v := VID(k, 42)
		if o, dup := seen[v]; dup {
			t.Fatalf("VID(%v, 42) = VID(%v, 42)", k, o)
		}
		seen[v] = k
	}
	for _, c := range []struct {
		id int64
		ok bool
	}{{0, true}, {MaxID, true}, {MaxID + 1, false}, {-1, false}} {
		if InRange(c.id) != c.ok {
			t.Errorf("InRange(%d) = %v", c.id, !c.ok)
		}
	}
	if KindTag.String() != "Tag" || Kind(9).String() != "Kind(9)" {
		t.Error(KindTag.String(), Kind(9).String())
	}
}
