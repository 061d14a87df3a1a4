package workload

import (
	"fmt"
	"sort"
	"strings"
)

// Profile is a named set of option settings of a family (the seed's
// high-throughput and high-reliability configurations, for instance). O is
// the family's Options type.
type Profile[O any] struct {
	Name     string
	Settings []Setting[O]
}

// Setting is one option a profile sets. Build it with Set.
type Setting[O any] struct {
	// Option names the option as its flag does ("replication-factor"):
	// an option the user gave explicitly keeps the user's value.
	Option string
	// Value is the profile's value, as a flag would spell it (for docs).
	Value string

	set       func(*O)
	isDefault func(o, def *O) bool
}

// Set returns the setting "option = v" of the field field points to.
func Set[O any, V comparable](option string, field func(*O) *V, v V) Setting[O] {
	return Setting[O]{
		Option:    option,
		Value:     fmt.Sprint(v),
		set:       func(o *O) { *field(o) = v },
		isDefault: func(o, def *O) bool { return *field(o) == *field(def) },
	}
}

// Apply sets p's settings on o, except the options explicit reports as
// given by the user (explicit may be nil: every setting is applied).
func (p Profile[O]) Apply(o *O, explicit func(option string) bool) {
	for _, s := range p.Settings {
		if explicit == nil || !explicit(s.Option) {
			s.set(o)
		}
	}
}

// ApplyUnless applies p to o except the options explicit reports as given;
// with explicit nil, except those whose value in o differs from def's
// (a Go program's options, where "given" means "changed from the
// default").
func (p Profile[O]) ApplyUnless(o *O, explicit func(option string) bool, def *O) {
	if explicit == nil {
		explicit = p.Changed(o, def)
	}
	p.Apply(o, explicit)
}

// Changed returns an explicit function for Apply that reports an option as
// given when o's value differs from def's: a Go program that changed an
// option from its default keeps it, as an explicit flag does.
func (p Profile[O]) Changed(o, def *O) func(option string) bool {
	return func(option string) bool {
		for _, s := range p.Settings {
			if s.Option == option {
				return !s.isDefault(o, def)
			}
		}
		return false
	}
}

// FindProfile returns the profile called name. The error names flag, the
// option that chose it, and the valid names: "--kafka-profile "fast": want
// high-reliability or high-throughput".
func FindProfile[O any](profiles []Profile[O], flag, name string) (Profile[O], error) {
	names := make([]string, 0, len(profiles))
	for _, p := range profiles {
		if p.Name == name {
			return p, nil
		}
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return Profile[O]{}, Usagef("--%s %q: want %s", flag, name, strings.Join(names, " or "))
}
