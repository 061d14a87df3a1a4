package nats

import (
	"bytes"
	"encoding/json"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// parsePubAck reads JetStream's answer m to a publish: the stream
// sequence of a stored message, or the error nats.go's PublishMsgAsync
// would give (jetstream.ErrNoStreamResponse for "no responders", the
// server's *jetstream.APIError, jetstream.ErrInvalidJSAck for anything
// that is not a PubAck). A PubAck without an error is read for its
// "stream" and "seq" fields alone, without encoding/json (which took a
// quarter of the async client's CPU); anything else is decoded as
// nats.go decodes it.
func parsePubAck(m *nats.Msg) (uint64, error) {
	if len(m.Data) == 0 && m.Header.Get("Status") == "503" {
		return 0, jetstream.ErrNoStreamResponse
	}
	if !bytes.Contains(m.Data, []byte(`"error"`)) {
		if seq, ok := fastPubAck(m.Data); ok {
			return seq, nil
		}
	}
	var pa struct {
		Error  *jetstream.APIError `json:"error,omitempty"`
		Stream string              `json:"stream"`
		Seq    uint64              `json:"seq"`
	}
	if err := json.Unmarshal(m.Data, &pa); err != nil {
		return 0, jetstream.ErrInvalidJSAck
	}
	if pa.Error != nil {
		return 0, pa.Error
	}
	if pa.Stream == "" {
		return 0, jetstream.ErrInvalidJSAck
	}
	return pa.Seq, nil
}

// fastPubAck reads a PubAck such as {"stream":"s","seq":7} (other fields
// ignored): ok when it is one JSON object with a non-empty plain "stream"
// string and a decimal "seq".
func fastPubAck(b []byte) (seq uint64, ok bool) {
	b = bytes.TrimSpace(b)
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return 0, false
	}
	s := fieldValue(b, `"stream":`)
	if len(s) < 3 || s[0] != '"' {
		return 0, false
	}
	end := bytes.IndexByte(s[1:], '"')
	if end < 1 || bytes.IndexByte(s[1:1+end], '\\') >= 0 {
		return 0, false
	}
	d := fieldValue(b, `"seq":`)
	n := 0
	for n < len(d) && d[n] >= '0' && d[n] <= '9' {
		if n == 19 { // beyond uint64
			return 0, false
		}
		seq = seq*10 + uint64(d[n]-'0')
		n++
	}
	if n == 0 || (n < len(d) && d[n] != ',' && d[n] != '}' && d[n] != ' ') {
		return 0, false
	}
	return seq, true
}

// fieldValue is what follows key (and spaces) in b, nil without key.
func fieldValue(b []byte, key string) []byte {
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return nil
	}
	return bytes.TrimLeft(b[i+len(key):], " ")
}
