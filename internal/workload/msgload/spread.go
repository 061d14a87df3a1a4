package msgload

// Pinned tells whether each VU writes one part (topic or stream): VU i →
// part i mod P, with at least as many VUs as parts. A slow part then slows
// only its own VUs, so per-part counts measure the parts. With fewer VUs
// than parts the messages visit the parts in turn instead, and per-part
// counts are equal by construction.
func Pinned(vus, parts int) bool { return vus >= parts }

// SpreadHow ends the per-part line of the notes (Words.SpreadHow): how
// vus VUs were spread over parts parts named word ("topic", "stream"),
// so whether the per-part counts are measured, and when the VUs do not
// divide evenly over the parts, that the counts reflect that too.
func SpreadHow(word string, vus, parts int) string {
	if !Pinned(vus, parts) {
		return sprintf("fewer VUs (%d) than %ss: the messages visit the %ss in turn, so per-%s counts are equal by construction (the per-%s latency is measured)", vus, word, word, word, word)
	}
	s := sprintf("each VU writes one %s (VU i → %s i mod %d), so the spread is measured", word, word, parts)
	if vus%parts != 0 {
		s += sprintf("; %d VUs over %d %ss: %d or %d VUs per %s, which the counts reflect too", vus, parts, word, vus/parts+1, vus/parts, word)
	}
	return s
}
