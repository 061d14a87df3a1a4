package nebulatest

import (
	"fmt"
	"strconv"
	"strings"
)

// token kinds of the nGQL subset the stand-in reads.
const (
	tIdent = iota
	tInt
	tFloat
	tString
	tPunct
	tEOF
)

type token struct {
	kind   int
	text   string // identifier (backquotes removed), punctuation, number text
	str    string // string literal value
	quoted bool   // a backquoted identifier
}

// lex splits a statement into tokens.
func lex(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';':
			i++
		case c == '"' || c == '\'':
			var b strings.Builder
			j := i + 1
			for ; j < len(s) && s[j] != c; j++ {
				if s[j] == '\\' && j+1 < len(s) {
					j++
					switch s[j] {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					case 'r':
						b.WriteByte('\r')
					default:
						b.WriteByte(s[j])
					}
					continue
				}
				b.WriteByte(s[j])
			}
			if j >= len(s) {
				return nil, fmt.Errorf("unterminated string")
			}
			out = append(out, token{kind: tString, str: b.String()})
			i = j + 1
		case c == '`':
			j := strings.IndexByte(s[i+1:], '`')
			if j < 0 {
				return nil, fmt.Errorf("unterminated name")
			}
			out = append(out, token{kind: tIdent, text: s[i+1 : i+1+j], quoted: true})
			i += j + 2
		case c >= '0' && c <= '9' || (c == '-' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' && !prevIsValue(out)):
			j := i + 1
			isFloat := false
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' && !strings.HasPrefix(s[j:], "..")) {
				if s[j] == '.' {
					isFloat = true
				}
				j++
			}
			k := tInt
			if isFloat {
				k = tFloat
			}
			out = append(out, token{kind: k, text: s[i:j]})
			i = j
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i + 1
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			out = append(out, token{kind: tIdent, text: s[i:j]})
			i = j
		default:
			for _, p := range []string{"->", "==", "!=", "<>", "<=", ">=", "..", "$$", "$-", "$^"} {
				if strings.HasPrefix(s[i:], p) {
					out = append(out, token{kind: tPunct, text: p})
					i += len(p)
					goto next
				}
			}
			out = append(out, token{kind: tPunct, text: s[i : i+1]})
			i++
		next:
		}
	}
	return append(out, token{kind: tEOF}), nil
}

// prevIsValue tells a minus sign after a value (subtraction) from a
// negative number.
func prevIsValue(out []token) bool {
	if len(out) == 0 {
		return false
	}
	t := out[len(out)-1]
	return t.kind == tInt || t.kind == tFloat || t.kind == tString || (t.kind == tPunct && t.text == ")")
}

// parser walks the tokens of one statement.
type parser struct {
	toks []token
	i    int
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// kw consumes the keywords words (case-insensitive) when they come next.
func (p *parser) kw(words ...string) bool {
	for k, w := range words {
		t := p.toks[min(p.i+k, len(p.toks)-1)]
		if t.kind != tIdent || !strings.EqualFold(t.text, w) {
			return false
		}
	}
	p.i += len(words)
	return true
}

func (p *parser) punct(s string) bool {
	if t := p.peek(); t.kind == tPunct && t.text == s {
		p.i++
		return true
	}
	return false
}

func (p *parser) expectPunct(s string) error {
	if !p.punct(s) {
		return p.errorf("expected %q", s)
	}
	return nil
}

func (p *parser) ident() (string, error) {
	t := p.next()
	if t.kind != tIdent {
		return "", p.errorf("expected a name")
	}
	return t.text, nil
}

func (p *parser) int() (int64, error) {
	t := p.next()
	if t.kind != tInt {
		return 0, p.errorf("expected an integer")
	}
	return strconv.ParseInt(t.text, 10, 64)
}

func (p *parser) errorf(format string, a ...any) error {
	near := "end of statement"
	if t := p.toks[max(p.i-1, 0)]; t.kind != tEOF {
		near = t.text + t.str
	}
	return fmt.Errorf("SyntaxError: %s near `%s'", fmt.Sprintf(format, a...), near)
}

func (p *parser) done() error {
	if p.peek().kind != tEOF {
		p.next()
		return p.errorf("unexpected token")
	}
	return nil
}
