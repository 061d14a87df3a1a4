package nebula

import (
	"bufio"
	"context"
	"net"

	"github.com/apache/thrift/lib/go/thrift"
)

// netTransport is the plain stream under THeader: a net.Conn with a write
// buffer, so that each framed message leaves in one write. Deadlines are
// set on the net.Conn by the session, never here.
type netTransport struct {
	c net.Conn
	w *bufio.Writer
}

var _ thrift.TTransport = (*netTransport)(nil)

func newNetTransport(c net.Conn) *netTransport {
	return &netTransport{c: c, w: bufio.NewWriterSize(c, 16<<10)}
}

func (t *netTransport) Read(p []byte) (int, error)         { return t.c.Read(p) }
func (t *netTransport) Write(p []byte) (int, error)        { return t.w.Write(p) }
func (t *netTransport) Flush(context.Context) error        { return t.w.Flush() }
func (t *netTransport) Close() error                       { return t.c.Close() }
func (t *netTransport) Open() error                        { return nil }
func (t *netTransport) IsOpen() bool                       { return true }
func (t *netTransport) RemainingBytes() (num_bytes uint64) { return ^uint64(0) }

// headerConfig is the THeader configuration of every connection: the
// compact protocol inside the header, as NebulaGraph's clients send.
func headerConfig() *thrift.TConfiguration {
	return &thrift.TConfiguration{THeaderProtocolID: thrift.THeaderProtocolIDPtrMust(thrift.THeaderProtocolCompact)}
}

// newProtocol wraps a connection in THeader framing with the compact
// protocol inside (see headerFramer).
func newProtocol(c net.Conn) thrift.TProtocol {
	return thrift.NewTCompactProtocolConf(newHeaderFramer(c), &thrift.TConfiguration{})
}

// newApacheProtocol is the same with Apache Thrift's THeader transport,
// which allocates per frame; the tests check both send the same bytes.
func newApacheProtocol(c net.Conn) thrift.TProtocol {
	ht := thrift.NewTHeaderTransportConf(newNetTransport(c), headerConfig())
	return thrift.NewTHeaderProtocolConf(ht, headerConfig())
}
