package nebulatest

import "github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"

// literalKind classifies the literal starting at t, for checkType: "int",
// "float", "string", "null", "bool", or the lower-case name of a
// function call (datetime, date, time, timestamp).
func literalKind(t token) string {
	switch t.kind {
	case tInt:
		return "int"
	case tFloat:
		return "float"
	case tString:
		return "string"
	case tIdent:
		return lower(t.text)
	}
	return ""
}

// accepts lists the literal kinds a property type takes, as a real graphd
// refuses (E_DATA_TYPE_MISMATCH) a value of another type; NULL goes into
// every property (all are nullable here: the stand-in knows no NOT NULL).
var accepts = map[string][]string{
	"string": {"string"}, "fixed_string": {"string"},
	"int": {"int"}, "int64": {"int"}, "int32": {"int"}, "int16": {"int"}, "int8": {"int"},
	"double": {"float", "int"}, "float": {"float", "int"},
	"bool":     {"true", "false"},
	"datetime": {"datetime"}, "date": {"date"}, "time": {"time"},
	"timestamp": {"timestamp", "int"},
}

// checkType refuses a literal of kind lit for property i of sc. Types the
// stand-in does not know (geography, duration) take anything.
func checkType(sc *schema, i int, lit string) *stmtError {
	if lit == "null" || i >= len(sc.types) {
		return nil
	}
	ok, known := accepts[sc.types[i]]
	if !known {
		return nil
	}
	for _, k := range ok {
		if k == lit {
			return nil
		}
	}
	return errf(graphsvc.ErrorCode_E_DATA_TYPE_MISMATCH, "Storage Error: The data type does not meet the requirements. Use the correct type of data. (property `%s' is %s, the value a %s)", sc.props[i], sc.types[i], lit)
}
