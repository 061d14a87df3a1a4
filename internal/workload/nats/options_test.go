package nats

import (
	"reflect"
	"testing"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/families/nats/natsopt"
	"github.com/stampede-bench/stampede/internal/workload/workloadtest"
)

func TestDefaultOptionsAreTheFlagDefaults(t *testing.T) {
	d := DefaultOptions()
	if err := d.Validate(); err != nil {
		t.Fatalf("defaults do not validate: %v", err)
	}
	f := New(DefaultOptions())
	workloadtest.FlagDefaults(t, f.BindFlags, map[string]string{
		"nats-profile": "high-throughput", "nats-nodes": "3", "nats-replicas": "1", "nats-publish": "async",
		"nats-async-window": "500", "nats-fsync": "default", "nats-publish-timeout": "5s",
		"nats-stream-max-bytes": "1073741824", "stream-churn-interval": "0s", "nats-max-rate-errors": "0.001",
	})
	if !reflect.DeepEqual(f.opts, d) {
		t.Errorf("binding the flags changed the options:\n%+v\n%+v", f.opts, d)
	}
}

func TestValidateOptions(t *testing.T) {
	workloadtest.Validate(t, DefaultOptions, (*Options).Validate, []workloadtest.Case[Options]{
		{"defaults", func(*Options) {}, ""},
		{"profile", func(o *Options) { o.Profile = "fast" }, `--nats-profile "fast": want high-reliability or high-throughput`},
		{"nodes", func(o *Options) { o.Nodes = 16 }, "--nats-nodes must be between 1 and 15"},
		{"prefix", func(o *Options) { o.StreamPrefix = "a.b" }, `--stream-prefix "a.b": use letters, digits, '_' and '-'`},
		{"replicas", func(o *Options) { o.Replicas = 6 }, "--nats-replicas must be between 1 and 5 (JetStream's limit)"},
		{"storage", func(o *Options) { o.Storage = "tape" }, `--nats-storage "tape": want file or memory`},
		{"publish", func(o *Options) { o.PublishMode = "maybe" }, `--nats-publish "maybe": want async or sync`},
		{"fsync", func(o *Options) { o.Fsync = "never" }, `--nats-fsync "never": want always or default`},
		{"max bytes", func(o *Options) { o.MaxBytes = 0 }, "--nats-stream-max-bytes must be > 0 or -1 (unlimited)"},
		{"unlimited bytes", func(o *Options) { o.MaxBytes = -1 }, ""},
		{"timeouts", func(o *Options) { o.E2ETimeout = 0 }, "--nats-publish-timeout and --nats-e2e-timeout must be > 0"},
	})
}

type settings struct {
	Replicas     int
	Mode, Fsync  string
	fsyncIsGiven bool
}

func settingsOf(o Options, explicit func(string) bool) settings {
	return settings{o.Replicas, o.PublishMode, o.Fsync, given(&o, explicit, flagFsync)}
}

// TestProfileAndFlags: the profile fills what the flags do not give;
// explicit flags win, also when they give the default value.
func TestProfileAndFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want settings
	}{
		{nil, settings{1, "async", "default", false}},
		{[]string{"--nats-profile", "high-reliability"}, settings{3, "sync", "always", false}},
		{[]string{"--nats-replicas", "1", "--nats-profile", "high-reliability"}, settings{1, "sync", "always", false}},
		{[]string{"--nats-profile", "high-reliability", "--nats-fsync", "default", "--nats-publish", "async"}, settings{3, "async", "default", true}},
		{[]string{"--nats-fsync", "default"}, settings{1, "async", "default", true}},
	} {
		f := family(t, tc.args...)
		o, err := f.effective()
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if got := settingsOf(o, f.explicit); got != tc.want {
			t.Errorf("%v: %+v, want %+v", tc.args, got, tc.want)
		}
	}
}

// TestProfileAndOptions: the same for options built in Go.
func TestProfileAndOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts func() Options
		want settings
	}{
		{"defaults", DefaultOptions, settings{1, "async", "default", false}},
		{"profile named", func() Options { o := DefaultOptions(); o.Profile = ProfileHighReliability; return o }, settings{3, "sync", "always", false}},
		{"changed setting wins", func() Options {
			o := DefaultOptions()
			o.Profile, o.Replicas = ProfileHighReliability, 5
			return o
		}, settings{5, "sync", "always", false}},
		{"fsync chosen", func() Options { o := DefaultOptions(); o.Fsync = "always"; return o }, settings{1, "async", "always", true}},
		{"ApplyProfile, then back to a default", func() Options {
			o := DefaultOptions()
			if err := o.ApplyProfile(ProfileHighReliability); err != nil {
				t.Fatal(err)
			}
			o.Fsync = "default"
			return o
		}, settings{3, "sync", "default", true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := New(tc.opts())
			o, err := f.effective()
			if err != nil {
				t.Fatal(err)
			}
			if got := settingsOf(o, f.explicit); got != tc.want {
				t.Errorf("%+v, want %+v", got, tc.want)
			}
		})
	}
}

// The profile table, declared in natsopt, names its settings by the flags
// this package binds.
func TestProfileSettingsAreFlags(t *testing.T) {
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	New(DefaultOptions()).BindFlags(fs)
	for name, opts := range natsopt.ProfileOptions() {
		for _, opt := range opts {
			if fs.Lookup(opt) == nil {
				t.Errorf("profile %s sets %s, which is no flag of the family", name, opt)
			}
		}
	}
}
