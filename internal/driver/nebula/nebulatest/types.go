package nebulatest

import (
	"fmt"
	"strings"

	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
)

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

// reservedWords are NebulaGraph 3.x's reserved keywords, lower case: as
// names of tags, edge types and properties they must be backquoted.
var reservedWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`across add alter and as asc ascending balance bool by case change
compact create date datetime delete desc descending describe distinct double download drop edge
edges exists explain fetch find fixed_string float flush format from get go grant if
ignore_existed_index in index indexes ingest insert int int16 int32 int64 int8 intersect is limit
list lookup map match minus no not not_in null of offset on or order over overwrite profile prop
rebuild recover remove restart return reversely revoke set show step steps stop string submit tag
tags time timestamp to union update upsert upto use vertex vertices when where with xor yield`) {
		m[w] = true
	}
	return m
}()

// notReserved refuses the name just read when it is a reserved word
// written without backquotes, as graphd's parser does (a syntax error).
func (p *parser) notReserved() error {
	t := p.toks[max(p.i-1, 0)]
	if t.kind == tIdent && !t.quoted && reservedWords[lower(t.text)] {
		return fmt.Errorf("SyntaxError: syntax error near `%s'", t.text)
	}
	return nil
}
