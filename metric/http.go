package metric

import "time"

// HTTPSample is one HTTP request's k6 measurements.
type HTTPSample struct {
	// Phases, as k6 defines them. Duration is Sending+Waiting+Receiving.
	Blocked, Connecting, TLSHandshaking time.Duration
	Sending, Waiting, Receiving         time.Duration
	// FirstByte, when not zero, is the run offset of the first response
	// byte: the engine then sets Receiving from it to the end.
	FirstByte time.Duration
	// Sent and Received are bytes on the wire (headers included).
	Sent, Received int64
	// Status is the response status (0: no response).
	Status int
	// Expected is k6's expected_response: a response with an expected
	// status (200–399 unless the scenario expects another).
	Expected bool
	// Method and Proto describe the request for per-request outputs.
	Method, Proto string
	// URL is k6's url tag: the request's full URL (empty: outputs build it
	// from their origin and the record's query). Name is k6's name tag,
	// which bounds the cardinality of tagged series: the request's
	// template (e.g. http://host/person/{{id}}) when its URL varies, else
	// the URL (empty: the URL).
	URL, Name string
	// Group is k6's group tag: "" at the root, "::a::b" in nested groups
	// (k6 scripts; "::setup" in their setup()).
	Group string
	// ErrorCode is k6's error_code tag: 1000+status for a status >= 400,
	// k6's network codes otherwise (1212 connection refused, 1211 dial
	// timeout, 1050 request timeout, ...); 0 for no error.
	ErrorCode int
}

// NameOr returns s.Name, or s.URL when Name is empty.
func (s *HTTPSample) NameOr() string {
	if s.Name != "" {
		return s.Name
	}
	return s.URL
}

// Duration is k6's http_req_duration.
func (s *HTTPSample) Duration() time.Duration { return s.Sending + s.Waiting + s.Receiving }
