package datagen

import (
	"context"
	"sync"
)

// ordered produces n chunks on `workers` goroutines and consumes them in
// index order on the calling goroutine, with at most 2*workers chunks in
// flight. Chunk values are recycled: produce gets a T that consume has
// finished with (or a fresh one from newT) and must reset it. Output written
// by consume is therefore the same whatever the number of workers.
func ordered[T any](ctx context.Context, workers, n int, newT func() T,
	produce func(r *rng, t T, i int), consume func(t T, i int) error) error {
	if n == 0 {
		return nil
	}
	workers = max(1, min(workers, n))
	window := 2 * workers
	free := make(chan T, window)
	for range window {
		free <- newT()
	}
	type job struct {
		i int
		t T
	}
	jobs := make(chan job)
	slots := make([]chan T, n)
	for i := range slots {
		slots[i] = make(chan T, 1)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { // dispatcher
		defer close(jobs)
		for i := range n {
			var t T
			select {
			case t = <-free:
			case <-done:
				return
			}
			select {
			case jobs <- job{i, t}:
			case <-done:
				return
			}
		}
	})
	for range workers {
		wg.Go(func() {
			r := newRNG()
			for j := range jobs {
				produce(r, j.t, j.i)
				slots[j.i] <- j.t
			}
		})
	}
	var err error
	for i := 0; i < n && err == nil; i++ {
		select {
		case t := <-slots[i]:
			err = consume(t, i)
			free <- t
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	close(done)
	wg.Wait()
	return err
}
