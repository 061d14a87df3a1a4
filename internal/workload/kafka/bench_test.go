package kafka

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stampede-bench/stampede/internal/engine"
)

// BenchmarkProduce measures the whole produce path per message (engine
// iteration, franz-go produce, acknowledgement, recording) against an
// embedded cluster that discards records. ns/op is wall time per message
// with the given VUs in flight on this machine's cores, shared with the
// in-process broker. With STAMPEDE_KAFKA_BENCH_TARGET=kafka://... (e.g.
// from stampede kafka serve --blackhole) it profiles the client alone;
// STAMPEDE_KAFKA_BENCH_ARGS adds run flags (e.g. "--linger 5ms").
func BenchmarkProduce(b *testing.B) {
	for _, vus := range []int{1, 64, 256, 1024} {
		b.Run("vus="+strconv.Itoa(vus), func(b *testing.B) {
			target := os.Getenv("STAMPEDE_KAFKA_BENCH_TARGET")
			if target == "" {
				e, err := StartEmbedded(EmbeddedOptions{Brokers: 1, Blackhole: true})
				if err != nil {
					b.Fatal(err)
				}
				defer e.Close()
				target = e.URL()
			}
			f := family(b, strings.Fields(os.Getenv("STAMPEDE_KAFKA_BENCH_ARGS"))...)
			opened, env, _, err := openB(b, f, target, vus)
			if err != nil {
				b.Fatal(err)
			}
			defer opened.Close()
			b.ReportAllocs()
			b.SetBytes(2048)
			b.ResetTimer()
			snap := runOpenedB(b, opened, env, step{ScenarioProduce, engine.Config{Executor: engine.SharedIterations, VUs: int64(vus), Iterations: int64(max(b.N, vus))}})
			b.StopTimer()
			if n := snap.Scenario(ScenarioProduce).Counters[MetricMessages]; n < int64(b.N) {
				b.Fatalf("acknowledged %d of %d", n, b.N)
			}
		})
	}
}

// BenchmarkFranzClosedLoop is the floor of the one-message-per-iteration
// mode: franz-go alone with kafka.Produce's producer settings (acks=1, no
// idempotence, no compression, --linger 5ms), 1,024 goroutines each
// producing one 2048-byte record and waiting for its promise, sharing one
// client, to one partition. Against BenchmarkProduce/vus=1024 (same
// target, STAMPEDE_KAFKA_BENCH_ARGS="--linger 5ms") the difference is
// what stampede's engine, sender and recording add per message.
func BenchmarkFranzClosedLoop(b *testing.B) {
	const goroutines = 1024
	target := os.Getenv("STAMPEDE_KAFKA_BENCH_TARGET")
	if target == "" {
		e, err := StartEmbedded(EmbeddedOptions{Brokers: 1, Blackhole: true})
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		target = e.URL()
	}
	seeds := strings.Split(strings.TrimPrefix(target, "kafka://"), ",")
	o := DefaultOptions()
	o.Linger = 5 * time.Millisecond
	cl, err := kgo.NewClient(append(producerOpts(&o, goroutines), kgo.SeedBrokers(seeds...))...)
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	const topic = "franz-closed-loop"
	if _, err := kadm.NewClient(cl).CreateTopic(context.Background(), 1, 1, nil, topic); err != nil && !errors.Is(err, kerr.TopicAlreadyExists) {
		b.Fatal(err)
	}
	val := make([]byte, 2048)
	for i := range val {
		val[i] = byte(i*7 + i/3)
	}
	var left atomic.Int64
	left.Store(int64(b.N))
	var wg sync.WaitGroup
	b.ReportAllocs()
	b.SetBytes(2048)
	b.ResetTimer()
	for range goroutines {
		wg.Go(func() {
			done := make(chan error, 1)
			rec := &kgo.Record{Topic: topic, Value: val}
			promise := func(_ *kgo.Record, err error) { done <- err }
			for left.Add(-1) >= 0 {
				cl.Produce(context.Background(), rec, promise)
				if err := <-done; err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}
