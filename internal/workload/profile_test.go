package workload

import (
	"errors"
	"testing"

	"github.com/stampede-bench/stampede/internal/usage"
)

type toyOptions struct {
	Replicas int
	Acks     string
	Other    int
}

func toyProfiles() Profiles[toyOptions] {
	rep := func(o *toyOptions) *int { return &o.Replicas }
	acks := func(o *toyOptions) *string { return &o.Acks }
	return Profiles[toyOptions]{Flag: "toy-profile", Defaults: func() toyOptions { return toyOptions{Replicas: 1, Acks: "1"} },
		List: []Profile[toyOptions]{
			{Name: "fast", Settings: []Setting[toyOptions]{Set("replicas", rep, 1), Set("acks", acks, "1")}},
			{Name: "safe", Settings: []Setting[toyOptions]{Set("replicas", rep, 3), Set("acks", acks, "all")}},
		}}
}

func TestProfilesResolve(t *testing.T) {
	ps := toyProfiles()
	given := func(names ...string) func(string) bool {
		return func(o string) bool {
			for _, n := range names {
				if n == o {
					return true
				}
			}
			return false
		}
	}
	for _, tc := range []struct {
		name     string
		in       toyOptions
		profile  string
		explicit func(string) bool
		want     toyOptions
	}{
		{"flags: none given", toyOptions{1, "1", 0}, "safe", given(), toyOptions{3, "all", 0}},
		{"flags: given default wins", toyOptions{1, "1", 7}, "safe", given("replicas"), toyOptions{1, "all", 7}},
		{"flags: all given", toyOptions{2, "0", 0}, "safe", given("replicas", "acks"), toyOptions{2, "0", 0}},
		{"go: defaults", toyOptions{1, "1", 0}, "safe", nil, toyOptions{3, "all", 0}},
		{"go: changed wins", toyOptions{5, "1", 0}, "safe", nil, toyOptions{5, "all", 0}},
		{"go: fast over defaults", toyOptions{1, "1", 0}, "fast", nil, toyOptions{1, "1", 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.in
			if err := ps.Resolve(&o, tc.profile, tc.explicit); err != nil {
				t.Fatal(err)
			}
			if o != tc.want {
				t.Errorf("%+v, want %+v", o, tc.want)
			}
		})
	}
	o := toyOptions{}
	if err := ps.Resolve(&o, "turbo", nil); err == nil || err.Error() != `--toy-profile "turbo": want fast or safe` || !errors.Is(err, usage.ErrBadInput) {
		t.Errorf("unknown profile: %v", err)
	}
	if err := ps.Apply(&o, "safe"); err != nil || o.Replicas != 3 || o.Acks != "all" {
		t.Errorf("Apply: %+v, %v", o, err)
	}
}

func TestProfilesGiven(t *testing.T) {
	ps := toyProfiles()
	resolved := toyOptions{3, "all", 0} // safe, nothing changed
	if ps.Given(&resolved, "safe", nil, "acks") {
		t.Error("the profile's own value counted as given")
	}
	chosen := toyOptions{3, "1", 0}
	if !ps.Given(&chosen, "safe", nil, "acks") {
		t.Error("a value other than the profile's not counted as given")
	}
	if !ps.Given(&resolved, "safe", func(string) bool { return true }, "acks") || ps.Given(&chosen, "safe", func(string) bool { return false }, "acks") {
		t.Error("explicit not obeyed")
	}
}

func TestProfilesChangedIn(t *testing.T) {
	ps := toyProfiles()
	chosen := ps.ChangedIn(toyOptions{Replicas: 2, Acks: "1", Other: 9})
	if !chosen("replicas") || chosen("acks") || chosen("other") {
		t.Errorf("ChangedIn: replicas %t acks %t other %t; want true false false", chosen("replicas"), chosen("acks"), chosen("other"))
	}
}
