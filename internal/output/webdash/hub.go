package webdash

import "sync"

// hub fans each event out to at most max clients. A client whose buffer
// (buf events) is full when an event comes is dropped: a slow browser
// never holds up the others nor the run. It is safe for concurrent use.
type hub struct {
	mu      sync.Mutex
	clients map[*client]struct{}
	max     int
	buf     int
	closed  bool
	dropped int
}

// client is one open event stream; ch is closed when the client is
// dropped or the hub closes.
type client struct{ ch chan []byte }

func newHub(maxClients, buf int) *hub {
	return &hub{clients: map[*client]struct{}{}, max: maxClients, buf: buf}
}

// add registers a client; false when the hub is full or closed.
func (h *hub) add() (*client, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || len(h.clients) >= h.max {
		return nil, false
	}
	c := &client{ch: make(chan []byte, h.buf)}
	h.clients[c] = struct{}{}
	return c, true
}

// remove forgets c (its stream ended); a dropped client is gone already.
func (h *hub) remove(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.clients[c]; ok {
		delete(h.clients, c)
		close(c.ch)
	}
}

// send queues ev for every client without waiting; a client with a full
// buffer is dropped.
func (h *hub) send(ev []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		select {
		case c.ch <- ev:
		default:
			delete(h.clients, c)
			close(c.ch)
			h.dropped++
		}
	}
}

// close ends every stream (after what they have queued) and refuses new
// clients.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for c := range h.clients {
		delete(h.clients, c)
		close(c.ch)
	}
}
