package workload

import (
	"fmt"
	"sort"
	"strings"

	"github.com/stampede-bench/stampede/internal/usage"
)

// Profiles is a family's table of named profiles: sets of option settings
// (the seed's high-throughput and high-reliability configurations, for
// instance) applied to an Options value of type O. The user's own choices
// win: an option given by its flag, or, for options built in Go, changed
// from the family's defaults, keeps its value.
type Profiles[O any] struct {
	// Flag is the option that chooses a profile, e.g. "kafka-profile".
	Flag string
	List []Profile[O]
	// Defaults returns the family's default options.
	Defaults func() O
	// Applied, when not nil, returns the profile that the options'
	// ApplyProfile set on o ("" if none).
	Applied func(o *O) string
}

// Profile is one named set of settings.
type Profile[O any] struct {
	Name     string
	Settings []Setting[O]
}

// Setting is one option a profile sets. Build it with Set.
type Setting[O any] struct {
	// Option names the option as its flag does ("replication-factor").
	Option string
	// Value is the profile's value, as text (for docs and notes).
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

// Find returns the profile called name, or a usage error naming the flag
// and the valid names: --kafka-profile "fast": want high-reliability or
// high-throughput.
func (ps Profiles[O]) Find(name string) (Profile[O], error) {
	names := make([]string, 0, len(ps.List))
	for _, p := range ps.List {
		if p.Name == name {
			return p, nil
		}
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return Profile[O]{}, usage.Errorf("--%s %q: want %s", ps.Flag, name, strings.Join(names, " or "))
}

// Apply sets every setting of profile name on o.
func (ps Profiles[O]) Apply(o *O, name string) error {
	p, err := ps.Find(name)
	if err != nil {
		return err
	}
	for _, s := range p.Settings {
		s.set(o)
	}
	return nil
}

// Resolve applies profile name to the settings of o the user did not
// choose: explicit reports the options given by flag; with explicit nil,
// the options changed from Defaults count as given (ChangedIn).
func (ps Profiles[O]) Resolve(o *O, name string, explicit func(option string) bool) error {
	p, err := ps.Find(name)
	if err != nil {
		return err
	}
	if explicit == nil {
		explicit = ps.ChangedIn(*o)
	}
	for _, s := range p.Settings {
		if !explicit(s.Option) {
			s.set(o)
		}
	}
	return nil
}

// ChangedIn returns a function reporting the profile settings (of any
// profile) whose value in o differs from Defaults: what a program chose
// when it built o.
func (ps Profiles[O]) ChangedIn(o O) func(option string) bool {
	def := ps.Defaults()
	return func(option string) bool {
		for _, p := range ps.List {
			if changed(p, &o, &def, option) {
				return true
			}
		}
		return false
	}
}

// Given tells whether the user chose option of o, whose profile name is
// already resolved: by its flag (explicit), or, with explicit nil, by a
// value other than the profile's own.
func (ps Profiles[O]) Given(o *O, name string, explicit func(option string) bool, option string) bool {
	if explicit != nil {
		return explicit(option)
	}
	p, err := ps.Find(name)
	if err != nil {
		return false
	}
	def := ps.Defaults()
	for _, s := range p.Settings {
		s.set(&def)
	}
	return changed(p, o, &def, option)
}

// changed tells whether option, one of p's settings, differs between o
// and def.
func changed[O any](p Profile[O], o, def *O, option string) bool {
	for _, s := range p.Settings {
		if s.Option == option {
			return !s.isDefault(o, def)
		}
	}
	return false
}

// WithProfile returns o with profile name applied to the settings for
// which explicit is false; with explicit nil, to those still at their
// Defaults value, unless Applied says the profile was applied already.
func (ps Profiles[O]) WithProfile(o O, name string, explicit func(option string) bool) (O, error) {
	if explicit == nil && ps.Applied != nil && ps.Applied(&o) == name {
		_, err := ps.Find(name)
		return o, err
	}
	err := ps.Resolve(&o, name, explicit)
	return o, err
}

// Options returns the options each profile sets, by profile name.
func (ps Profiles[O]) Options() map[string][]string {
	out := map[string][]string{}
	for _, p := range ps.List {
		for _, st := range p.Settings {
			out[p.Name] = append(out[p.Name], st.Option)
		}
	}
	return out
}
