package answer

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Value is one JSON object or list found in an answer, as strict JSON.
type Value struct {
	JSON json.RawMessage
	// Complete is false when the answer ended inside the value: its
	// members whose value was cut are left out.
	Complete bool
	// Start and End are the byte offsets of the value in the text given to
	// Read (after Preamble).
	Start, End int
}

// Object reports whether the value is an object.
func (v Value) Object() bool { return len(v.JSON) > 0 && v.JSON[0] == '{' }

// Reading is what Read found in an answer.
type Reading struct {
	// Text is the answer without its reasoning preamble.
	Text string
	// Values are the JSON objects and lists in Text, in order.
	Values []Value
	// Prose is Text without its values and code fences: what the model
	// said in words around them.
	Prose string
}

// First returns the first value found, and whether there is one.
func (r Reading) First() (Value, bool) {
	if len(r.Values) == 0 {
		return Value{}, false
	}
	return r.Values[0], true
}

// fenceLineRE is a code fence line (its language tag included).
var fenceLineRE = regexp.MustCompile("(?m)^[ \t]*```[A-Za-z0-9_-]*[ \t]*$|```[A-Za-z0-9_-]*")

// Read finds the JSON values in a model's answer, each read leniently (see
// the package comment), after dropping its reasoning preamble.
func Read(text string) Reading {
	s := Preamble(text)
	r := Reading{Text: s}
	var prose strings.Builder
	i := 0
	for i < len(s) {
		j := strings.IndexAny(s[i:], "{[")
		if j < 0 {
			break
		}
		j += i
		p := &parser{s: s, i: j}
		out, complete, ok := p.value(ctxTop)
		if ok && (out[0] == '{' || out[0] == '[') && (complete || len(out) > 2) && json.Valid([]byte(out)) {
			prose.WriteString(s[i:j])
			prose.WriteString(" ")
			r.Values = append(r.Values, Value{JSON: json.RawMessage(out), Complete: complete, Start: j, End: p.i})
			i = p.i
			continue
		}
		prose.WriteString(s[i : j+1])
		i = j + 1
	}
	prose.WriteString(s[i:])
	r.Prose = strings.TrimSpace(fenceLineRE.ReplaceAllString(prose.String(), " "))
	return r
}

// context says where a value or string is being read: what may follow its end.
type context int

const (
	ctxTop context = iota
	ctxKey
	ctxMember // an object member's value
	ctxItem   // a list item
)

// parser reads one value from s at i.
type parser struct {
	s     string
	i     int
	depth int
}

// maxDepth bounds nesting (a model's answer is shallow; a runaway one is
// not read).
const maxDepth = 32

// ws skips white space and comments (//, /* */).
func (p *parser) ws() {
	p.i = skipWS(p.s, p.i)
}

func skipWS(s string, i int) int {
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			if k := strings.IndexByte(s[i:], '\n'); k >= 0 {
				i += k + 1
			} else {
				i = len(s)
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			if k := strings.Index(s[i+2:], "*/"); k >= 0 {
				i += k + 4
			} else {
				i = len(s)
			}
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !unicode.IsSpace(r) {
				return i
			}
			i += size
		default:
			return i
		}
	}
	return i
}

// value reads a value; complete is false when the text ended inside it.
// out is strict JSON.
func (p *parser) value(ctx context) (out string, complete, ok bool) {
	p.ws()
	if p.i >= len(p.s) {
		return "", false, false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.list()
	case c == '"' || c == '\'':
		str, complete := p.str(c, ctx)
		return quote(str), complete, true
	case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
		return p.number()
	}
	if lit, ok := p.literal(); ok {
		return lit, true, true
	}
	if ctx == ctxMember {
		return p.bare()
	}
	return "", false, false
}

func (p *parser) object() (string, bool, bool) {
	if p.depth++; p.depth > maxDepth {
		return "", false, false
	}
	defer func() { p.depth-- }()
	p.i++ // {
	var b strings.Builder
	b.WriteByte('{')
	n := 0
	for {
		p.ws()
		if p.i >= len(p.s) {
			b.WriteByte('}')
			return b.String(), false, true
		}
		switch p.s[p.i] {
		case '}':
			p.i++
			b.WriteByte('}')
			return b.String(), true, true
		case ',', ';':
			p.i++
			continue
		}
		key, ok := p.key()
		if !ok {
			return "", false, false
		}
		p.ws()
		if p.i >= len(p.s) {
			b.WriteByte('}')
			return b.String(), false, true
		}
		if p.s[p.i] != ':' && p.s[p.i] != '=' {
			return "", false, false
		}
		p.i++
		val, complete, ok := p.value(ctxMember)
		if !ok && p.i >= len(p.s) {
			b.WriteByte('}')
			return b.String(), false, true
		}
		if !ok {
			return "", false, false
		}
		if !complete {
			// The answer was cut inside this member: keep what came
			// before it.
			b.WriteByte('}')
			return b.String(), false, true
		}
		n = member(&b, n, key, val)
	}
}

func member(b *strings.Builder, n int, key, val string) int {
	if n > 0 {
		b.WriteByte(',')
	}
	b.WriteString(quote(key))
	b.WriteByte(':')
	b.WriteString(val)
	return n + 1
}

// key reads a member's name: quoted, or bare (a run of letters, digits, _
// $ and -).
func (p *parser) key() (string, bool) {
	c := p.s[p.i]
	if c == '"' || c == '\'' {
		k, complete := p.str(c, ctxKey)
		return k, complete
	}
	start := p.i
	for p.i < len(p.s) {
		r, size := utf8.DecodeRuneInString(p.s[p.i:])
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '$' || r == '-') {
			break
		}
		p.i += size
	}
	if p.i == start {
		return "", false
	}
	return p.s[start:p.i], true
}

func (p *parser) list() (string, bool, bool) {
	if p.depth++; p.depth > maxDepth {
		return "", false, false
	}
	defer func() { p.depth-- }()
	p.i++ // [
	var b strings.Builder
	b.WriteByte('[')
	n := 0
	for {
		p.ws()
		if p.i >= len(p.s) {
			b.WriteByte(']')
			return b.String(), false, true
		}
		switch p.s[p.i] {
		case ']':
			p.i++
			b.WriteByte(']')
			return b.String(), true, true
		case ',':
			p.i++
			continue
		}
		val, complete, ok := p.value(ctxItem)
		if !ok && p.i >= len(p.s) {
			b.WriteByte(']')
			return b.String(), false, true
		}
		if !ok {
			return "", false, false
		}
		if !complete {
			b.WriteByte(']')
			return b.String(), false, true
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.WriteString(val)
		n++
	}
}

// str reads a string opened by q. A quote ends it only where what follows
// can follow a string, since models leave inner quotes unescaped.
func (p *parser) str(q byte, ctx context) (string, bool) {
	p.i++ // the opening quote
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '\\':
			if p.i+1 >= len(p.s) {
				p.i = len(p.s)
				return unescapeAgain(b.String()), false
			}
			n := decodeEscape(p.s[p.i:], &b)
			if n == 0 {
				p.i = len(p.s)
				return unescapeAgain(b.String()), false // a \u cut off
			}
			p.i += n
		case c == q && p.closes(p.i+1, ctx):
			p.i++
			return unescapeAgain(b.String()), true
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return unescapeAgain(b.String()), false
}

// closes reports whether the quote before j ends the string: the text ends,
// or what follows fits the context (a colon after a key, a comma and key…).
func (p *parser) closes(j int, ctx context) bool {
	k := skipWS(p.s, j)
	if k >= len(p.s) {
		return true
	}
	c := p.s[k]
	switch ctx {
	case ctxTop:
		return true
	case ctxKey:
		return c == ':' || c == '='
	case ctxMember:
		switch c {
		case '}':
			return true
		case ',':
			k2 := skipWS(p.s, k+1)
			return k2 >= len(p.s) || p.s[k2] == '}' || keyAhead(p.s, k2)
		}
		// A missing comma before the next member.
		return k > j && keyAhead(p.s, k) && strings.ContainsAny(p.s[j:k], "\n\r")
	case ctxItem:
		switch c {
		case ']':
			return true
		case ',':
			k2 := skipWS(p.s, k+1)
			return k2 >= len(p.s) || strings.IndexByte("\"'{[-0123456789tfnTFN]", p.s[k2]) >= 0
		}
	}
	return false
}

// keyAhead reports whether a member's key starts at k: a quoted or bare
// name followed by a colon.
func keyAhead(s string, k int) bool {
	if k >= len(s) {
		return false
	}
	c := s[k]
	i := k
	if c == '"' || c == '\'' {
		end := strings.IndexByte(s[k+1:], c)
		if end < 0 || end > 64 || strings.ContainsAny(s[k+1:k+1+end], "\n\r") {
			return false
		}
		i = k + 1 + end + 1
	} else {
		for i < len(s) {
			r, size := utf8.DecodeRuneInString(s[i:])
			if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-') {
				break
			}
			i += size
		}
		if i == k || i-k > 64 {
			return false
		}
	}
	i = skipWS(s, i)
	return i < len(s) && s[i] == ':'
}

// decodeEscape decodes the escape at s's start into b and returns its
// length; 0 when a \u escape is cut off. Unknown escapes keep the character.
func decodeEscape(s string, b *strings.Builder) int {
	switch c := s[1]; c {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case 'b', 'f':
		b.WriteByte(' ')
	case 'u':
		r, n := decodeU(s)
		if n == 0 {
			return 0
		}
		b.WriteRune(r)
		return n
	default:
		b.WriteByte(c) // \" \' \\ \/ and unknown escapes
	}
	return 2
}

// decodeU decodes \uXXXX (with its low surrogate when it is a high one) at
// the start of s.
func decodeU(s string) (rune, int) {
	if len(s) < 6 {
		return 0, 0
	}
	v, err := strconv.ParseUint(s[2:6], 16, 16)
	if err != nil {
		return utf8.RuneError, 2
	}
	r := rune(v)
	if utf16.IsSurrogate(r) {
		if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
			if lo, err := strconv.ParseUint(s[8:12], 16, 16); err == nil {
				if d := utf16.DecodeRune(r, rune(lo)); d != utf8.RuneError {
					return d, 12
				}
			}
		} else if len(s) < 12 {
			return 0, 0
		}
		return utf8.RuneError, 6
	}
	return r, 6
}

// doubleEscapeRE finds escapes left in a decoded string by a model that
// escaped twice.
var doubleEscapeRE = regexp.MustCompile(`\\(?:u[0-9a-fA-F]{4}|[nt"\\/])`)

// unescapeAgain decodes the escapes left in a decoded string ("\u00e8"
// for "è", "\n"): a model that escaped its text twice.
func unescapeAgain(s string) string {
	if !strings.Contains(s, `\`) || !doubleEscapeRE.MatchString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '\\' && i+1 < len(s) && doubleEscapeRE.MatchString(s[i:min(len(s), i+6)]) {
			if n := decodeEscape(s[i:], &b); n > 0 {
				i += n
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// Unescape decodes the content of a JSON string as a model wrote it (raw
// newlines, unknown escapes, double escapes), for text read as it streams.
func Unescape(content string) string {
	var b strings.Builder
	for i := 0; i < len(content); {
		if content[i] == '\\' && i+1 < len(content) {
			if n := decodeEscape(content[i:], &b); n > 0 {
				i += n
				continue
			}
		}
		b.WriteByte(content[i])
		i++
	}
	return unescapeAgain(b.String())
}

var numberRE = regexp.MustCompile(`^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`)

func (p *parser) number() (string, bool, bool) {
	m := numberRE.FindString(p.s[p.i:])
	if m == "" {
		if lit, ok := p.literal(); ok { // -Infinity
			return lit, true, true
		}
		return "", false, false
	}
	p.i += len(m)
	f, err := strconv.ParseFloat(strings.TrimPrefix(m, "+"), 64)
	if err != nil {
		return "null", true, true
	}
	complete := p.i < len(p.s) // a number at the very end may be cut
	if f == float64(int64(f)) && !strings.ContainsAny(m, "eE") {
		return strconv.FormatInt(int64(f), 10), complete, true
	}
	return strconv.FormatFloat(f, 'g', -1, 64), complete, true
}

// literals are the constants of JSON, JavaScript and Python.
var literals = map[string]string{
	"true": "true", "True": "true", "TRUE": "true",
	"false": "false", "False": "false", "FALSE": "false",
	"null": "null", "None": "null", "nil": "null", "NULL": "null", "undefined": "null",
	"NaN": "null", "Infinity": "null", "-Infinity": "null",
}

func (p *parser) literal() (string, bool) {
	j := p.i
	if j < len(p.s) && p.s[j] == '-' {
		j++
	}
	for j < len(p.s) && (p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= 'A' && p.s[j] <= 'Z') {
		j++
	}
	if lit, ok := literals[p.s[p.i:j]]; ok {
		p.i = j
		return lit, true
	}
	return "", false
}

// bare reads an unquoted member value ({emotion: joy}) up to the end of
// the line, a comma or the end of the object.
func (p *parser) bare() (string, bool, bool) {
	start := p.i
	for p.i < len(p.s) && strings.IndexByte(",}]\n\r", p.s[p.i]) < 0 {
		p.i++
	}
	v := strings.TrimSpace(p.s[start:p.i])
	if v == "" {
		return "", false, false
	}
	return quote(v), p.i < len(p.s), true
}

// quote encodes s as a JSON string.
func quote(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// StringEnds tells whether the quote before j ends a streamed string value;
// known is false while what follows has not come yet.
func StringEnds(s string, j int) (ends, known bool) {
	k := skipWS(s, j)
	if k >= len(s) {
		return false, false
	}
	switch s[k] {
	case '}':
		return true, true
	case ',':
		k2 := skipWS(s, k+1)
		if k2 >= len(s) {
			return false, false
		}
		if s[k2] == '}' || keyAhead(s, k2) {
			return true, true
		}
		return false, !keyMayCome(s, k2)
	}
	if k > j && strings.ContainsAny(s[j:k], "\n\r") {
		if keyAhead(s, k) {
			return true, true
		}
		return false, !keyMayCome(s, k)
	}
	return false, true
}

// keyMayCome reports whether the text from k, cut off, may still become a
// member's key and its colon.
func keyMayCome(s string, k int) bool {
	rest := s[k:]
	if len(rest) > 80 {
		return false
	}
	if rest[0] == '"' || rest[0] == '\'' {
		return !strings.ContainsAny(rest[1:], "\n\r")
	}
	space := false
	for _, r := range rest {
		switch {
		case unicode.IsSpace(r):
			space = true
		case space || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-'):
			return false // a bare key is one word before its colon
		}
	}
	return true
}
