package webdash

// counts returns the connected and the dropped clients.
func (h *hub) counts() (connected, dropped int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.clients), h.dropped
}
