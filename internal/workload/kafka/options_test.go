package kafka

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/families/kafka/kafkaopt"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/workloadtest"
)

func TestDefaultOptionsAreTheFlagDefaults(t *testing.T) {
	d := DefaultOptions()
	if err := d.Validate(); err != nil {
		t.Fatalf("defaults do not validate: %v", err)
	}
	f := New(DefaultOptions())
	// Spot checks of documented defaults and units.
	workloadtest.FlagDefaults(t, f.BindFlags, map[string]string{
		"kafka-profile": "high-throughput", "brokers": "3", "partitions": "1", "replication-factor": "1",
		"acks": "1", "linger": "0s", "batch-bytes": "1000012", "message-size": "2048",
		"delivery-timeout": "30s", "produce-retries": "-1", "e2e-timeout": "10s",
		"embedded-retention": "67108864", "max-rate-errors": "0.001", "topic-config": "[]",
	})
	if !reflect.DeepEqual(f.opts, d) {
		t.Errorf("binding the flags changed the options:\n%+v\n%+v", f.opts, d)
	}
}

func TestValidateOptions(t *testing.T) {
	workloadtest.Validate(t, DefaultOptions, (*Options).Validate, []workloadtest.Case[Options]{
		{"defaults", func(*Options) {}, ""},
		{"profile", func(o *Options) { o.Profile = "fast" }, `--kafka-profile "fast": want high-reliability or high-throughput`},
		{"brokers", func(o *Options) { o.Brokers = 0 }, "--brokers must be ≥ 1"},
		{"topic prefix", func(o *Options) { o.TopicPrefix = "a/b" }, `--topic-prefix "a/b": use letters, digits, '.', '_' and '-'`},
		{"acks", func(o *Options) { o.Acks = "2" }, `--acks "2": want 0, 1 or all`},
		{"idempotence needs acks=all", func(o *Options) { o.Idempotence = "true" }, "--idempotence=true needs --acks all (Kafka requires it)"},
		{"idempotent in flight", func(o *Options) { o.Acks = "all"; o.MaxInFlight = 1 }, "--max-in-flight 1: idempotent producers keep 5 in flight (Kafka's limit); use --idempotence=false to change it"},
		{"window and batch", func(o *Options) { o.Window = 2; o.PerIteration = 2 }, "--produce-window and --messages-per-iteration: use one of them (a window keeps one message per iteration)"},
		{"delivery timeout", func(o *Options) { o.DeliveryTimeout = time.Millisecond }, "--delivery-timeout must be ≥ 1s (franz-go's minimum)"},
		{"min ISR above RF", func(o *Options) { o.MinInsyncReplicas = 2 }, "min.insync.replicas 2 is above the replication factor 1: a broker rejects every acks=all write to such a topic (NOT_ENOUGH_REPLICAS); lower --min-insync-replicas or raise --replication-factor"},
		{"topic config", func(o *Options) { o.TopicConfigs = []string{"x"} }, `--topic-config "x": want KEY=VALUE`},
		{"batch holds a message", func(o *Options) { o.BatchBytes = 1000 }, "--batch-bytes 1000 cannot hold one 2048-byte message"},
		{"payload", func(o *Options) { o.Payload = "zeros" }, `--payload "zeros": want random or compressible`},
	})
}

// settings are the options a profile governs.
type settings struct {
	RF        int16
	Parts     int32
	Acks      string
	MinISR    int
	FlushMsgs int64
}

func settingsOf(o Options) settings {
	return settings{o.ReplicationFactor, o.Partitions, o.Acks, o.MinInsyncReplicas, o.FlushMessages}
}

var (
	throughput  = settings{1, 1, "1", 0, 0}
	reliability = settings{3, 3, "all", 2, 1}
)

// TestProfileAndFlags: a profile fills the options the user did not give;
// explicit flags win, also when they give the default value.
func TestProfileAndFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want settings
	}{
		{nil, throughput},
		{[]string{"--kafka-profile", "high-throughput"}, throughput},
		{[]string{"--kafka-profile", "high-reliability"}, reliability},
		{[]string{"--partitions", "12", "--kafka-profile", "high-reliability"}, settings{3, 12, "all", 2, 1}},
		{[]string{"--kafka-profile", "high-reliability", "--partitions", "1", "--acks", "1", "--min-insync-replicas", "0"}, settings{3, 1, "1", 0, 1}},
		{[]string{"--kafka-profile", "high-reliability", "--replication-factor", "1", "--flush-messages", "0"}, settings{1, 3, "all", 2, 0}},
		{[]string{"--kafka-profile", "high-throughput", "--min-insync-replicas", "1", "--replication-factor", "2"}, settings{2, 1, "1", 1, 0}},
	} {
		f := family(t, tc.args...)
		o, err := f.effective()
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if got := settingsOf(o); got != tc.want {
			t.Errorf("%v: %+v, want %+v", tc.args, got, tc.want)
		}
	}
}

// TestProfileAndOptions: the same rules for a family built from Options:
// the profile fills the settings still at their default.
func TestProfileAndOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts func() Options
		want settings
	}{
		{"defaults", DefaultOptions, throughput},
		{"profile named", func() Options { o := DefaultOptions(); o.Profile = ProfileHighReliability; return o }, reliability},
		{"changed setting wins", func() Options {
			o := DefaultOptions()
			o.Profile, o.Partitions, o.MinInsyncReplicas = ProfileHighReliability, 6, 1
			return o
		}, settings{3, 6, "all", 1, 1}},
		{"ApplyProfile, then back to a default", func() Options {
			o := DefaultOptions()
			if err := o.ApplyProfile(ProfileHighReliability); err != nil {
				t.Fatal(err)
			}
			o.Partitions, o.Acks = 1, "1"
			return o
		}, settings{3, 1, "1", 2, 1}},
		{"ApplyProfile, then another profile named", func() Options {
			o := DefaultOptions()
			if err := o.ApplyProfile(ProfileHighReliability); err != nil {
				t.Fatal(err)
			}
			o.Profile = ProfileHighThroughput
			return o
		}, settings{3, 3, "all", 2, 1}}, // every setting changed from the default wins
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := New(tc.opts()).effective()
			if err != nil {
				t.Fatal(err)
			}
			if got := settingsOf(o); got != tc.want {
				t.Errorf("%+v, want %+v", got, tc.want)
			}
		})
	}
	o := DefaultOptions()
	if err := o.ApplyProfile("fast"); err == nil || !errors.Is(err, usage.ErrBadInput) {
		t.Errorf("ApplyProfile(fast) = %v, want a usage error", err)
	}
}

// TestEffectiveKeepsOptions: applying the profile copies; the family's
// options and their slices are not changed.
func TestEffectiveKeepsOptions(t *testing.T) {
	f := family(t, "--kafka-profile", "high-reliability", "--topic-config", "a=b")
	o, err := f.effective()
	if err != nil {
		t.Fatal(err)
	}
	o.TopicConfigs[0] = "changed"
	if f.opts.Partitions != 1 || f.opts.TopicConfigs[0] != "a=b" {
		t.Errorf("effective() changed the family's options: %+v", f.opts)
	}
}

// TestProfileOptionsAndFlags: a family built from Options whose flags are
// then bound (a program's own main): what the program changed from the
// defaults and what the user gives by flag both win over the profile.
func TestProfileOptionsAndFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts func(*Options)
		args []string
		want settings
	}{
		{"program's profile", func(o *Options) { o.Profile = ProfileHighReliability }, nil, reliability},
		{"program's setting wins", func(o *Options) { o.Profile, o.Partitions = ProfileHighReliability, 12 }, nil, settings{3, 12, "all", 2, 1}},
		{"and the user's flag", func(o *Options) { o.Profile, o.Partitions = ProfileHighReliability, 12 }, []string{"--acks", "1", "--partitions", "6"}, settings{3, 6, "1", 2, 1}},
		{"user's profile over the program's", func(o *Options) { o.Profile = ProfileHighReliability }, []string{"--kafka-profile", "high-throughput"}, throughput},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			tc.opts(&o)
			f := New(o)
			fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
			f.BindFlags(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			got, err := f.effective()
			if err != nil {
				t.Fatal(err)
			}
			if s := settingsOf(got); s != tc.want {
				t.Errorf("%+v, want %+v", s, tc.want)
			}
		})
	}
}

// The profile table, declared in kafkaopt, names its settings by the
// flags this package binds.
func TestProfileSettingsAreFlags(t *testing.T) {
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	New(DefaultOptions()).BindFlags(fs)
	for name, opts := range kafkaopt.ProfileOptions() {
		for _, opt := range opts {
			if fs.Lookup(opt) == nil {
				t.Errorf("profile %s sets %s, which is no flag of the family", name, opt)
			}
		}
	}
}
