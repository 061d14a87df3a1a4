package webdash

import (
	"strconv"
)

// event encodes one server-sent event (text/event-stream): an id line, an
// event line and one data line. data must hold no line break (compact
// JSON has none).
func event(id int64, name string, data []byte) []byte {
	b := make([]byte, 0, len(data)+len(name)+32)
	b = append(b, "id: "...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, "\nevent: "...)
	b = append(b, name...)
	b = append(b, "\ndata: "...)
	b = append(b, data...)
	return append(b, "\n\n"...)
}
