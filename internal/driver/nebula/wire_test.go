package nebula

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"io"
	"net"
	"testing"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
	"github.com/stampede-bench/stampede/internal/golden"
)

// TestExecuteWireBytes pins the exact bytes of one execute call: a THeader
// frame (length, magic 0x0FFF, flags, sequence id, header words, protocol
// id 2 = compact, no transforms, padding) around a compact-protocol CALL
// message "execute" with sessionId (field 1, i64) and stmt (field 2,
// binary), as graphd reads it.
func TestExecuteWireBytes(t *testing.T) {
	wire := executeBytes(t, newProtocol)
	if apache := executeBytes(t, newApacheProtocol); !bytes.Equal(wire, apache) {
		t.Fatalf("headerFramer and Apache's THeaderTransport differ:\n% x\n% x", wire, apache)
	}
	golden.Check(t, "execute.hex", []byte(hex.Dump(wire)))
}

// executeBytes captures the bytes of one execute call sent with proto.
func executeBytes(t *testing.T, proto func(net.Conn) thrift.TProtocol) []byte {
	client, server := net.Pipe()
	defer client.Close()
	p := proto(client)
	s := &Session{nc: client, id: 42, client: graphsvc.NewGraphServiceClient(thrift.NewTStandardClient(p, p))}
	go func() {
		// The call fails once the frame is read and the pipe closes.
		_, _ = s.Execute(context.Background(), "GO 1 STEP FROM 933 OVER KNOWS")
	}()
	var size [4]byte
	if _, err := io.ReadFull(server, size[:]); err != nil {
		t.Fatal(err)
	}
	frame := make([]byte, binary.BigEndian.Uint32(size[:]))
	if _, err := io.ReadFull(server, frame); err != nil {
		t.Fatal(err)
	}
	server.Close()
	wire := append(size[:], frame...)

	// The structure, checked by hand against the THeader and compact specs.
	if frame[0] != 0x0f || frame[1] != 0xff {
		t.Fatalf("no THeader magic: % x", frame[:2])
	}
	hdrWords := binary.BigEndian.Uint16(frame[8:10])
	hdr := frame[10 : 10+4*int(hdrWords)]
	if hdr[0] != 0x02 || hdr[1] != 0x00 {
		t.Fatalf("protocol id %d, transforms %d: want compact (2), none", hdr[0], hdr[1])
	}
	msg := frame[10+4*int(hdrWords):]
	if msg[0] != 0x82 || msg[1]>>5 != byte(thrift.CALL) {
		t.Fatalf("not a compact CALL message: % x", msg[:2])
	}
	if !bytes.Contains(msg, []byte("\x07execute")) || !bytes.Contains(msg, []byte("GO 1 STEP FROM 933 OVER KNOWS")) {
		t.Fatalf("method or statement missing: %q", msg)
	}
	// sessionId 42: field 1 i64 (0x16), zigzag varint 84 (0x54).
	if !bytes.Contains(msg, []byte{0x16, 0x54, 0x18}) {
		t.Fatalf("session id field not found: % x", msg)
	}
	return wire
}

// TestOwnExecuteWireBytes: the driver's own encoder (Session.run) sends
// the same bytes as the generated client, pinned by the same golden file.
func TestOwnExecuteWireBytes(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	s := &Session{nc: client, framer: newHeaderFramer(client), id: 42}
	go func() {
		var out reply
		_ = s.run("GO 1 STEP FROM 933 OVER KNOWS", &out) // fails once the pipe closes
	}()
	var size [4]byte
	if _, err := io.ReadFull(server, size[:]); err != nil {
		t.Fatal(err)
	}
	frame := make([]byte, binary.BigEndian.Uint32(size[:]))
	if _, err := io.ReadFull(server, frame); err != nil {
		t.Fatal(err)
	}
	server.Close()
	wire := append(size[:], frame...)
	if apache := executeBytes(t, newProtocol); !bytes.Equal(wire, apache) {
		t.Fatalf("own encoder and the generated client differ:\n% x\n% x", wire, apache)
	}
	golden.Check(t, "execute.hex", []byte(hex.Dump(wire)))
}
