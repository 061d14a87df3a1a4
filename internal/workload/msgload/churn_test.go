package msgload

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"testing/synctest"
	"time"
)

// TestChurn: the window opens From after the start, a part is created
// every Interval and the one before deleted until For has passed, the
// last is deleted and the window closes; a failed open leaves nothing to
// undo; a run that stops mid-window still deletes its part and undoes the
// open. Each operation is reported with its run offset.
func TestChurn(t *testing.T) {
	for _, tc := range []struct {
		name    string
		stop    time.Duration // run length (0: past the window)
		openErr error
		noParts bool
		want    []string
	}{
		{name: "parts and a node", want: []string{"1s open", "1s create c0", "2s create c1", "2s delete c0", "3s create c2", "3s delete c1", "4s delete c2", "4s close"}},
		{name: "node only", noParts: true, want: []string{"1s open", "4s close"}},
		{name: "the open failed", openErr: errors.New("no"), want: []string{"1s open: no", "1s create c0", "2s create c1", "2s delete c0", "3s create c2", "3s delete c1", "4s delete c2"}},
		{name: "stopped mid-window", stop: 2500 * time.Millisecond, want: []string{"1s open", "1s create c0", "2s create c1", "2s delete c0", "2.5s delete c1", "2.5s close"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				var got []string
				last := "" // the part of the last create or delete
				c := Churn{From: time.Second, For: 3 * time.Second, Interval: time.Second, OpTimeout: time.Second,
					OpenOp: "open", CloseOp: "close", CreateOp: "create", DeleteOp: "delete",
					Open: func(context.Context) (func(context.Context) error, error) {
						if tc.openErr != nil {
							return nil, tc.openErr
						}
						return func(context.Context) error { return nil }, nil
					},
					Event: func(op string, err error) {
						if op == "create" || op == "delete" {
							op += " " + last
						}
						if err != nil {
							op += ": " + err.Error()
						}
						got = append(got, time.Since(start).String()+" "+op)
					},
				}
				if !tc.noParts {
					c.Create = func(_ context.Context, i int) (string, error) {
						last = fmt.Sprintf("c%d", i)
						return last, nil
					}
					c.Delete = func(_ context.Context, name string) error {
						last = name
						return nil
					}
				}
				ctx := context.Background()
				if tc.stop > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tc.stop)
					defer cancel()
				}
				c.Run(ctx)
				if !reflect.DeepEqual(got, tc.want) {
					t.Errorf("events\n %q\nwant\n %q", got, tc.want)
				}
			})
		})
	}
}
