package ldbcfile

import (
	"strings"
	"testing"
	"time"
)

func TestAppendDateTimeMatchesTimeFormat(t *testing.T) {
	tests := []struct {
		name string
		t    time.Time
	}{
		{"epoch", time.Unix(0, 0)},
		{"ldbc start", time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"leap day", time.Date(2012, 2, 29, 23, 59, 59, 999e6, time.UTC)},
		{"millis", time.Date(2011, 7, 4, 5, 6, 7, 89e6, time.UTC)},
		{"before epoch", time.Date(1969, 12, 31, 23, 0, 0, 1e6, time.UTC)},
		{"birthday", time.Date(1984, 11, 30, 0, 0, 0, 0, time.UTC)},
		{"y2k", time.Date(2000, 3, 1, 12, 0, 0, 0, time.UTC)},
		{"far", time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, want := string(AppendDateTime(nil, tc.t)), tc.t.UTC().Format(DateTimeLayout); got != want {
				t.Errorf("AppendDateTime = %s, want %s", got, want)
			}
			if got, want := string(AppendDate([]byte("x"), tc.t)), "x"+tc.t.UTC().Format(DateLayout); got != want {
				t.Errorf("AppendDate = %s, want %s", got, want)
			}
		})
	}
}

func TestAppendDateTimeEveryDay(t *testing.T) {
	// Every day from 1900 to 2100, at a fixed odd time of day.
	for d := time.Date(1900, 1, 1, 13, 14, 15, 16e6, time.UTC); d.Year() < 2100; d = d.AddDate(0, 0, 1) {
		if got, want := string(AppendDateTimeMillis(nil, d.UnixMilli())), d.Format(DateTimeLayout); got != want {
			t.Fatalf("AppendDateTimeMillis(%d) = %s, want %s", d.UnixMilli(), got, want)
		}
	}
}

func TestParseDateTime(t *testing.T) {
	tests := []struct {
		in      string
		want    time.Time
		wantErr bool
	}{
		{"2010-03-04T05:06:07.089+0000", time.Date(2010, 3, 4, 5, 6, 7, 89e6, time.UTC), false},
		{"2012-02-29T23:59:59.999+0000", time.Date(2012, 2, 29, 23, 59, 59, 999e6, time.UTC), false},
		{"2011-02-29T00:00:00.000+0000", time.Time{}, true}, // not a leap year
		{"2010-03-04T05:06:07.089+0100", time.Time{}, true}, // zone
		{"2010-03-04 05:06:07.089+0000", time.Time{}, true},
		{"2010-03-04T25:06:07.089+0000", time.Time{}, true},
		{"2010-03-04T05:06:07+0000", time.Time{}, true},
		{"", time.Time{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseDateTime([]byte(tc.in))
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if !got.Equal(tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestParseDate(t *testing.T) {
	tests := []struct {
		in      string
		wantErr bool
	}{
		{"1984-07-01", false},
		{"1984-7-01", true},
		{"1984-13-01", true},
		{"1984-00-10", true},
		{"1984-04-31", true},
		{"19840701xx", true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseDate([]byte(tc.in))
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if err == nil && got.Format(DateLayout) != tc.in {
				t.Errorf("got %v", got)
			}
		})
	}
}

func TestParseID(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		wantErr string
	}{
		{"933", 933, ""},
		{"4398046511104", 4398046511104, ""},
		{"0", 0, ""},
		{"9223372036854775807", 9223372036854775807, ""},
		{"9223372036854775808", 0, "out of range"},
		{"-1", 0, "bad id"},
		{"", 0, "bad id"},
		{"12a", 0, "bad id"},
		{"12345678901234567890", 0, "bad id"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseID([]byte(tc.in))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}

func TestFilesUniqueAndUnderDirs(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Files() {
		if seen[f.Path] {
			t.Errorf("duplicate path %s", f.Path)
		}
		seen[f.Path] = true
		dir := DirDynamic
		switch {
		case f.Static:
			dir = DirStatic
		case f.Param:
			dir = DirParams
		}
		if !strings.HasPrefix(f.Path, dir+"/") || !strings.HasSuffix(f.Path, ".csv") {
			t.Errorf("%s: not a .csv under %s", f.Path, dir)
		}
		if f.Header == "" || strings.ContainsAny(f.Header, "\n,") {
			t.Errorf("%s: bad header %q", f.Path, f.Header)
		}
	}
	if len(seen) != 19 {
		t.Errorf("%d files, want 19", len(seen))
	}
}

func BenchmarkAppendDateTimeMillis(b *testing.B) {
	b.ReportAllocs()
	buf := make([]byte, 0, 64)
	ms := time.Date(2011, 7, 4, 5, 6, 7, 89e6, time.UTC).UnixMilli()
	for i := 0; b.Loop(); i++ {
		buf = AppendDateTimeMillis(buf[:0], ms+int64(i)*997)
	}
}

func BenchmarkTimeFormat(b *testing.B) {
	b.ReportAllocs()
	buf := make([]byte, 0, 64)
	t0 := time.Date(2011, 7, 4, 5, 6, 7, 89e6, time.UTC)
	for i := 0; b.Loop(); i++ {
		buf = t0.Add(time.Duration(i)*time.Second).AppendFormat(buf[:0], DateTimeLayout)
	}
}
