package nebula

import (
	"encoding/binary"
	"errors"
	"math"
	"time"
)

// stampede's own Thrift compact-protocol code for the hot call: encoding
// GraphService.execute and decoding its ExecutionResponse straight from
// the frame buffer, written from the compact protocol specification
// (doc/specs/thrift-compact-protocol.md in Apache Thrift) and the field
// ids of graph.thrift. Apache's generated code (package graphsvc) stays
// for the handshake, signout and Session.Execute; it decodes every
// string through a bytes.Buffer and allocates every struct, which costs
// more than the rest of a query's client side together.
//
// Only what the driver needs is built: error_code, latency_in_us, the
// data set's row count, error_msg, and on request the first row's
// scalar values (and a path's step count). Every other field, known or
// not, is skipped as the protocol describes, so answers of newer servers
// (plan descriptions, geography values, ...) decode too.

// Compact type ids (field types; element types share them except that a
// bool element is type 1 or 2 with a one-byte value).
const (
	ctStop   = 0
	ctTrue   = 1
	ctFalse  = 2
	ctI8     = 3
	ctI16    = 4
	ctI32    = 5
	ctI64    = 6
	ctDouble = 7
	ctBinary = 8
	ctList   = 9
	ctSet    = 10
	ctMap    = 11
	ctStruct = 12
	ctUUID   = 13
)

// Compact message header: protocol id, then type (3 bits) and version
// (5 bits) in one byte.
const (
	compactProtocolID = 0x82
	compactVersion    = 1
	msgCall           = 1
	msgReply          = 2
	msgException      = 3
)

// maxDepth bounds the nesting of structs and containers the decoder
// follows, as Apache Thrift's default recursion limit does.
const maxDepth = 64

// The decoder's errors. They are values, so failing costs no allocation.
var (
	errShort       = errors.New("nebula: answer truncated")
	errVarint      = errors.New("nebula: bad varint in answer")
	errDepth       = errors.New("nebula: answer nested too deeply")
	errType        = errors.New("nebula: unknown compact type in answer")
	errSize        = errors.New("nebula: container size larger than the answer")
	errNotCompact  = errors.New("nebula: answer is not a compact message")
	errMsgType     = errors.New("nebula: answer is not a reply")
	errSeq         = errors.New("nebula: answer to another call (sequence id)")
	errMethod      = errors.New("nebula: answer names another method")
	errNoResult    = errors.New("nebula: execute failed: unknown result")
	errNoErrorCode = errors.New("nebula: answer without error_code")
	errNoLatency   = errors.New("nebula: answer without latency_in_us")
)

// ServerException is a Thrift application exception graphd answered
// instead of a result (an unknown method, a malformed call).
type ServerException struct {
	Type int32
	Msg  string
}

func (e *ServerException) Error() string { return "nebula: server exception: " + e.Msg }

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

// appendExecuteCall appends the compact CALL message
// execute(1: i64 sessionId, 2: binary stmt) with sequence id seq: the
// bytes Apache's generated client writes for the same call.
func appendExecuteCall(b []byte, seq int32, session int64, stmt string) []byte {
	b = append(b, compactProtocolID, msgCall<<5|compactVersion)
	b = binary.AppendUvarint(b, uint64(uint32(seq)))
	b = append(b, 7)
	b = append(b, "execute"...)
	b = append(b, 1<<4|ctI64) // field 1 (delta 1), i64
	b = binary.AppendUvarint(b, zigzag(session))
	b = append(b, 1<<4|ctBinary) // field 2 (delta 1), binary
	b = binary.AppendUvarint(b, uint64(len(stmt)))
	b = append(b, stmt...)
	return append(b, ctStop)
}

// reply is the part of an ExecutionResponse the driver uses. Its byte
// slices point into the frame buffer: valid until the next call.
type reply struct {
	code      int32 // error_code
	latencyUs int64 // latency_in_us
	hasData   bool  // data was set
	rows      int   // number of rows of data
	msg       []byte
	hasMsg    bool // error_msg was set

	wantFirst bool    // decode the first row's values into first
	first     []value // the first row's values (when wantFirst)

	// wantAll decodes every row: all holds their values one row after
	// the other, widths each row's number of values.
	wantAll bool
	all     []value
	widths  []int
}

// value is one Value of a row: which union field was set and, for the
// scalars, its value.
type value struct {
	field int16   // Value field id: 1 nVal, 2 bVal, 3 iVal, 4 fVal, 5 sVal, 11 pVal, ... (0: none the driver knows)
	i     int64   // nVal, bVal (0/1), iVal
	f     float64 // fVal
	s     []byte  // sVal, into the frame buffer
	steps int     // pVal: number of steps
	list  []value // lVal's values
}

// Value union field ids (common.thrift).
const (
	valNull     = 1
	valBool     = 2
	valInt      = 3
	valFloat    = 4
	valString   = 5
	valDate     = 6
	valDateTime = 8
	valPath     = 11
	valList     = 12
)

// decodeExecuteReply decodes the compact message msg, the answer to the
// execute call with sequence id seq, into out (reused: its first slice
// keeps its capacity).
func decodeExecuteReply(msg []byte, seq int32, out *reply) error {
	d := decoder{b: msg}
	want, wantAll := out.wantFirst, out.wantAll
	first, all, widths := out.first[:0], out.all[:0], out.widths[:0]
	*out = reply{wantFirst: want, first: first, wantAll: wantAll, all: all, widths: widths}
	if len(msg) < 2 || msg[0] != compactProtocolID || msg[1]&0x1f != compactVersion {
		return errNotCompact
	}
	typ := msg[1] >> 5
	d.p = 2
	s, err := d.uvarint()
	if err != nil {
		return err
	}
	name, err := d.binary()
	if err != nil {
		return err
	}
	if int32(s) != seq {
		return errSeq
	}
	switch typ {
	case msgReply:
	case msgException:
		return d.exception()
	default:
		return errMsgType
	}
	if string(name) != "execute" {
		return errMethod
	}
	// The result struct: field 0 is the success value.
	var last int16
	found := false
	for {
		t, id, err := d.field(&last)
		if err != nil {
			return err
		}
		if t == ctStop {
			break
		}
		if id == 0 && t == ctStruct {
			*out = reply{wantFirst: want, first: first, wantAll: wantAll, all: all, widths: widths}
			if err := d.response(out); err != nil {
				return err
			}
			found = true
			continue
		}
		if err := d.skipField(t, 1); err != nil {
			return err
		}
	}
	if !found {
		return errNoResult
	}
	return nil
}

// decoder reads compact values from b at p.
type decoder struct {
	b []byte
	p int
}

func (d *decoder) byte() (byte, error) {
	if d.p >= len(d.b) {
		return 0, errShort
	}
	c := d.b[d.p]
	d.p++
	return c, nil
}

func (d *decoder) uvarint() (uint64, error) {
	if d.p < len(d.b) && d.b[d.p] < 0x80 {
		v := uint64(d.b[d.p])
		d.p++
		return v, nil
	}
	v, n := binary.Uvarint(d.b[d.p:])
	if n <= 0 {
		if n == 0 {
			return 0, errShort
		}
		return 0, errVarint
	}
	d.p += n
	return v, nil
}

func (d *decoder) i32() (int32, error) {
	v, err := d.uvarint()
	u := uint32(v)
	return int32(u>>1) ^ -int32(u&1), err
}

func (d *decoder) i64() (int64, error) {
	v, err := d.uvarint()
	return int64(v>>1) ^ -int64(v&1), err
}

func (d *decoder) double() (float64, error) {
	if len(d.b)-d.p < 8 {
		return 0, errShort
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b[d.p:]))
	d.p += 8
	return v, nil
}

// binary returns a binary value as a sub-slice of the answer.
func (d *decoder) binary() ([]byte, error) {
	n, err := d.uvarint()
	if err != nil {
		return nil, err
	}
	if n > uint64(len(d.b)-d.p) {
		return nil, errShort
	}
	v := d.b[d.p : d.p+int(n) : d.p+int(n)]
	d.p += int(n)
	return v, nil
}

// field reads a field header: its type (ctStop at the end of a struct)
// and id; last is the previous field id of the struct.
func (d *decoder) field(last *int16) (byte, int16, error) {
	c, err := d.byte()
	if err != nil {
		return 0, 0, err
	}
	t := c & 0x0f
	if t == ctStop {
		return ctStop, 0, nil
	}
	if delta := int16(c >> 4); delta != 0 {
		*last += delta
	} else {
		id, err := d.i32() // an i16 as a zigzag varint
		if err != nil {
			return 0, 0, err
		}
		*last = int16(id)
	}
	return t, *last, nil
}

// list reads a list or set header: element type and size, the size
// checked against the bytes left (every element takes at least one).
func (d *decoder) list() (byte, int, error) {
	c, err := d.byte()
	if err != nil {
		return 0, 0, err
	}
	n := uint64(c >> 4)
	if n == 15 {
		if n, err = d.uvarint(); err != nil {
			return 0, 0, err
		}
	}
	if n > uint64(len(d.b)-d.p) {
		return 0, 0, errSize
	}
	return c & 0x0f, int(n), nil
}

// skipField skips a field's value of type t; depth is the nesting so far.
func (d *decoder) skipField(t byte, depth int) error {
	if t == ctTrue || t == ctFalse {
		return nil // the value is in the field header
	}
	return d.skip(t, depth)
}

// skip skips one value of element type t.
func (d *decoder) skip(t byte, depth int) error {
	if depth > maxDepth {
		return errDepth
	}
	switch t {
	case ctTrue, ctFalse, ctI8:
		_, err := d.byte()
		return err
	case ctI16, ctI32, ctI64:
		_, err := d.uvarint()
		return err
	case ctDouble:
		_, err := d.double()
		return err
	case ctBinary:
		_, err := d.binary()
		return err
	case ctUUID:
		if len(d.b)-d.p < 16 {
			return errShort
		}
		d.p += 16
		return nil
	case ctList, ctSet:
		et, n, err := d.list()
		if err != nil {
			return err
		}
		for ; n > 0; n-- {
			if err := d.skip(et, depth+1); err != nil {
				return err
			}
		}
		return nil
	case ctMap:
		n, err := d.uvarint()
		if err != nil || n == 0 {
			return err
		}
		if n > uint64(len(d.b)-d.p)/2 {
			return errSize
		}
		kv, err := d.byte()
		if err != nil {
			return err
		}
		for ; n > 0; n-- {
			if err := d.skip(kv>>4, depth+1); err != nil {
				return err
			}
			if err := d.skip(kv&0x0f, depth+1); err != nil {
				return err
			}
		}
		return nil
	case ctStruct:
		var last int16
		for {
			ft, _, err := d.field(&last)
			if err != nil {
				return err
			}
			if ft == ctStop {
				return nil
			}
			if err := d.skipField(ft, depth+1); err != nil {
				return err
			}
		}
	}
	return errType
}

// exception decodes a TApplicationException (1: message, 2: type).
func (d *decoder) exception() error {
	e := &ServerException{}
	var last int16
	for {
		t, id, err := d.field(&last)
		if err != nil {
			return err
		}
		switch {
		case t == ctStop:
			return e
		case id == 1 && t == ctBinary:
			m, err := d.binary()
			if err != nil {
				return err
			}
			e.Msg = string(m)
		case id == 2 && t == ctI32:
			if e.Type, err = d.i32(); err != nil {
				return err
			}
		default:
			if err := d.skipField(t, 1); err != nil {
				return err
			}
		}
	}
}

// response decodes ExecutionResponse: 1 error_code (i32), 2 latency_in_us
// (i64), 3 data (DataSet), 5 error_msg (binary); 4 space_name, 6
// plan_desc, 7 comment and unknown fields are skipped.
func (d *decoder) response(out *reply) error {
	var last int16
	var code, lat bool
	for {
		t, id, err := d.field(&last)
		if err != nil {
			return err
		}
		switch {
		case t == ctStop:
			if !code {
				return errNoErrorCode
			}
			if !lat {
				return errNoLatency
			}
			return nil
		case id == 1 && t == ctI32:
			out.code, err = d.i32()
			code = true
		case id == 2 && t == ctI64:
			out.latencyUs, err = d.i64()
			lat = true
		case id == 3 && t == ctStruct:
			out.hasData, out.rows, out.first = true, 0, out.first[:0]
			err = d.dataSet(out)
		case id == 5 && t == ctBinary:
			out.msg, err = d.binary()
			out.hasMsg = true
		default:
			err = d.skipField(t, 2)
		}
		if err != nil {
			return err
		}
	}
}

// dataSet decodes DataSet: 1 column_names (skipped), 2 rows (list<Row>):
// counted, the first decoded when out.wantFirst.
func (d *decoder) dataSet(out *reply) error {
	var last int16
	for {
		t, id, err := d.field(&last)
		if err != nil {
			return err
		}
		if t == ctStop {
			return nil
		}
		if id != 2 || t != ctList {
			if err := d.skipField(t, 3); err != nil {
				return err
			}
			continue
		}
		et, n, err := d.list()
		if err != nil {
			return err
		}
		out.rows, out.first = n, out.first[:0]
		for i := 0; i < n; i++ {
			switch {
			case et == ctStruct && out.wantAll:
				n0 := len(out.all)
				out.all, err = d.rowValues(out.all)
				out.widths = append(out.widths, len(out.all)-n0)
			case et == ctStruct && i == 0 && out.wantFirst:
				err = d.row(out)
			default:
				err = d.skip(et, 4)
			}
			if err != nil {
				return err
			}
		}
	}
}

// row decodes Row: 1 values (list<Value>) into out.first.
func (d *decoder) row(out *reply) (err error) {
	out.first, err = d.rowValues(out.first[:0])
	return err
}

// rowValues decodes Row: 1 values (list<Value>), appended to vals.
func (d *decoder) rowValues(vals []value) ([]value, error) {
	var last int16
	for {
		t, id, err := d.field(&last)
		if err != nil {
			return vals, err
		}
		if t == ctStop {
			return vals, nil
		}
		if id != 1 || t != ctList {
			if err := d.skipField(t, 5); err != nil {
				return vals, err
			}
			continue
		}
		et, n, err := d.list()
		if err != nil {
			return vals, err
		}
		for ; n > 0; n-- {
			if et != ctStruct {
				if err := d.skip(et, 5); err != nil {
					return vals, err
				}
				continue
			}
			vals = append(vals, value{})
			if err := d.value(&vals[len(vals)-1], 6); err != nil {
				return vals, err
			}
		}
	}
}

// value decodes the union Value: the scalars (1 nVal, 2 bVal, 3 iVal,
// 4 fVal, 5 sVal), dates and datetimes (6 dVal, 8 dtVal, as Unix
// microseconds in i), lists (12 lVal, into list), and a path's (11 pVal)
// step count; other fields are noted by id and skipped. depth is the
// nesting so far.
func (d *decoder) value(v *value, depth int) error {
	if depth > maxDepth {
		return errDepth
	}
	var last int16
	for {
		t, id, err := d.field(&last)
		if err != nil {
			return err
		}
		switch {
		case t == ctStop:
			return nil
		case id == valNull && t == ctI32:
			var n int32
			n, err = d.i32()
			*v = value{field: valNull, i: int64(n)}
		case id == valBool && (t == ctTrue || t == ctFalse):
			*v = value{field: valBool}
			if t == ctTrue {
				v.i = 1
			}
		case id == valInt && t == ctI64:
			*v = value{field: valInt}
			v.i, err = d.i64()
		case id == valFloat && t == ctDouble:
			*v = value{field: valFloat}
			v.f, err = d.double()
		case id == valString && t == ctBinary:
			*v = value{field: valString}
			v.s, err = d.binary()
		case id == valPath && t == ctStruct:
			*v = value{field: valPath}
			v.steps, err = d.pathSteps()
		case (id == valDate || id == valDateTime) && t == ctStruct:
			*v = value{field: id}
			v.i, err = d.instant(depth + 1)
		case id == valList && t == ctStruct:
			*v = value{field: valList}
			v.list, err = d.nlist(depth + 1)
		case id >= 6 && id <= 17 && id != 16 && id != valPath && t == ctStruct:
			*v = value{field: id}
			err = d.skip(t, depth)
		default:
			err = d.skipField(t, depth)
		}
		if err != nil {
			return err
		}
	}
}

// instant decodes Date (1 year, 2 month, 3 day) or DateTime (the same,
// 4 hour, 5 minute, 6 sec, 7 microsec) as Unix microseconds, UTC.
func (d *decoder) instant(depth int) (int64, error) {
	var f [7]int64
	f[1], f[2] = 1, 1
	var last int16
	for {
		t, id, err := d.field(&last)
		if err != nil {
			return 0, err
		}
		if t == ctStop {
			break
		}
		switch {
		case id >= 1 && id <= 6 && (t == ctI8 || t == ctI16):
			if t == ctI8 {
				var c byte
				c, err = d.byte()
				f[id-1] = int64(int8(c))
			} else {
				var x int32
				x, err = d.i32()
				f[id-1] = int64(x)
			}
		case id == 7 && t == ctI32:
			var x int32
			x, err = d.i32()
			f[6] = int64(x)
		default:
			err = d.skipField(t, depth)
		}
		if err != nil {
			return 0, err
		}
	}
	return instantMicros(f), nil
}

// instantMicros is a date or datetime (year, month, day, hour, minute,
// second, microsecond) as Unix microseconds, UTC.
func instantMicros(f [7]int64) int64 {
	return time.Date(int(f[0]), time.Month(f[1]), int(f[2]), int(f[3]), int(f[4]), int(f[5]), int(f[6])*1000, time.UTC).UnixMicro()
}

// nlist decodes NList (1 values: list<Value>).
func (d *decoder) nlist(depth int) ([]value, error) {
	var out []value
	var last int16
	for {
		t, id, err := d.field(&last)
		if err != nil {
			return nil, err
		}
		if t == ctStop {
			return out, nil
		}
		if id != 1 || t != ctList {
			if err := d.skipField(t, depth); err != nil {
				return nil, err
			}
			continue
		}
		et, n, err := d.list()
		if err != nil {
			return nil, err
		}
		for ; n > 0; n-- {
			if et != ctStruct {
				if err := d.skip(et, depth); err != nil {
					return nil, err
				}
				continue
			}
			out = append(out, value{})
			if err := d.value(&out[len(out)-1], depth+1); err != nil {
				return nil, err
			}
		}
	}
}

// pathSteps decodes Path (1 src, 2 steps: list<Step>) into its number of
// steps.
func (d *decoder) pathSteps() (int, error) {
	steps := 0
	var last int16
	for {
		t, id, err := d.field(&last)
		if err != nil {
			return 0, err
		}
		if t == ctStop {
			return steps, nil
		}
		if id == 2 && t == ctList {
			et, n, err := d.list()
			if err != nil {
				return 0, err
			}
			steps = n
			for ; n > 0; n-- {
				if err := d.skip(et, 8); err != nil {
					return 0, err
				}
			}
			continue
		}
		if err := d.skipField(t, 7); err != nil {
			return 0, err
		}
	}
}
