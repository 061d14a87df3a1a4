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

// k6's built-in HTTP metric names, with k6's kinds and units (see
// RegisterHTTP). Time trends are recorded in µs and shown in ms like k6.
const (
	HTTPReqs           = "http_reqs"                // counter: HTTP requests sent
	HTTPReqDuration    = "http_req_duration"        // trend: sending + waiting + receiving
	HTTPReqFailed      = "http_req_failed"          // rate: passes = failed requests (status ≥ 400 or no response)
	HTTPReqBlocked     = "http_req_blocked"         // trend: before the request could be sent (includes connecting and TLS)
	HTTPReqConnecting  = "http_req_connecting"      // trend: TCP connect (0 on a reused connection)
	HTTPReqTLS         = "http_req_tls_handshaking" // trend: TLS handshake (0 on plain HTTP or a reused connection)
	HTTPReqSending     = "http_req_sending"         // trend: writing the request
	HTTPReqWaiting     = "http_req_waiting"         // trend: request written → first response byte (TTFB)
	HTTPReqReceiving   = "http_req_receiving"       // trend: first response byte → whole response read
	DataSent           = "data_sent"                // counter, bytes: written to the socket
	DataReceived       = "data_received"            // counter, bytes: read from the socket
	ExpectedResponse   = "expected_response"        // the tag of k6's http_req_duration{expected_response:true}
	HTTPReqDurationExp = HTTPReqDuration + "{" + ExpectedResponse + ":true}"
)

// HTTPIDs are the IDs of the HTTP metrics in one Registry.
type HTTPIDs struct {
	Reqs, Duration, DurationExpected, Failed                       ID
	Blocked, Connecting, TLSHandshaking, Sending, Waiting, Receive ID
	Sent, Received                                                 ID
}

// RegisterHTTP adds k6's HTTP metrics to r (idempotent) and returns their IDs.
func RegisterHTTP(r *Registry) (HTTPIDs, error) {
	var ids HTTPIDs
	for _, m := range []struct {
		id *ID
		d  Def
	}{
		{&ids.Reqs, Def{Name: HTTPReqs, Kind: KindCounter, Unit: UnitNone}},
		{&ids.Duration, Def{Name: HTTPReqDuration, Kind: KindTrend, Unit: UnitMicros}},
		{&ids.DurationExpected, Def{Name: HTTPReqDurationExp, Kind: KindTrend, Unit: UnitMicros}},
		{&ids.Failed, Def{Name: HTTPReqFailed, Kind: KindRate, Unit: UnitNone}},
		{&ids.Blocked, Def{Name: HTTPReqBlocked, Kind: KindTrend, Unit: UnitMicros}},
		{&ids.Connecting, Def{Name: HTTPReqConnecting, Kind: KindTrend, Unit: UnitMicros}},
		{&ids.TLSHandshaking, Def{Name: HTTPReqTLS, Kind: KindTrend, Unit: UnitMicros}},
		{&ids.Sending, Def{Name: HTTPReqSending, Kind: KindTrend, Unit: UnitMicros}},
		{&ids.Waiting, Def{Name: HTTPReqWaiting, Kind: KindTrend, Unit: UnitMicros}},
		{&ids.Receive, Def{Name: HTTPReqReceiving, Kind: KindTrend, Unit: UnitMicros}},
		{&ids.Sent, Def{Name: DataSent, Kind: KindCounter, Unit: UnitBytes}},
		{&ids.Received, Def{Name: DataReceived, Kind: KindCounter, Unit: UnitBytes}},
	} {
		id, err := r.Add(m.d)
		if err != nil {
			return ids, err
		}
		*m.id = id
	}
	return ids, nil
}
