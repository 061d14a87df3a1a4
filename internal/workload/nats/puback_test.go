package nats

import (
	"errors"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestParsePubAck: the fast reading of a PubAck gives what nats.go's
// decoding gives, and whatever it does not recognise is decoded.
func TestParsePubAck(t *testing.T) {
	noResp := &nats.Msg{Header: nats.Header{"Status": []string{"503"}}}
	for _, tc := range []struct {
		name string
		msg  *nats.Msg
		seq  uint64
		err  error
	}{
		{"plain", &nats.Msg{Data: []byte(`{"stream":"nb-0","seq":123}`)}, 123, nil},
		{"domain and duplicate", &nats.Msg{Data: []byte(`{"stream":"s","domain":"hub","seq":7,"duplicate":true}`)}, 7, nil},
		{"spaces", &nats.Msg{Data: []byte(` { "stream": "s", "seq": 42 } `)}, 42, nil},
		{"seq first", &nats.Msg{Data: []byte(`{"seq":9,"stream":"s"}`)}, 9, nil},
		{"escaped stream", &nats.Msg{Data: []byte(`{"stream":"a\"b","seq":5}`)}, 5, nil},
		{"large seq", &nats.Msg{Data: []byte(`{"stream":"s","seq":18446744073709551615}`)}, 18446744073709551615, nil},
		{"no responders", noResp, 0, jetstream.ErrNoStreamResponse},
		{"api error", &nats.Msg{Data: []byte(`{"error":{"code":503,"err_code":10077,"description":"maximum messages exceeded"}}`)}, 0, &jetstream.APIError{ErrorCode: 10077}},
		{"no stream", &nats.Msg{Data: []byte(`{"seq":1}`)}, 0, jetstream.ErrInvalidJSAck},
		{"empty stream", &nats.Msg{Data: []byte(`{"stream":"","seq":1}`)}, 0, jetstream.ErrInvalidJSAck},
		{"not json", &nats.Msg{Data: []byte(`+OK`)}, 0, jetstream.ErrInvalidJSAck},
		{"empty", &nats.Msg{}, 0, jetstream.ErrInvalidJSAck},
		{"bad seq", &nats.Msg{Data: []byte(`{"stream":"s","seq":1x}`)}, 0, jetstream.ErrInvalidJSAck},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seq, err := parsePubAck(tc.msg)
			if seq != tc.seq || (err == nil) != (tc.err == nil) || (tc.err != nil && !errors.Is(err, tc.err)) {
				t.Errorf("got %d, %v; want %d, %v", seq, err, tc.seq, tc.err)
			}
		})
	}
}

// BenchmarkParsePubAck is the cost of reading one PubAck.
func BenchmarkParsePubAck(b *testing.B) {
	m := &nats.Msg{Data: []byte(`{"stream":"nb-0","seq":1234567}`)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parsePubAck(m); err != nil {
			b.Fatal(err)
		}
	}
}
