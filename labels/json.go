package labels

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/nadine-robot/nadine/answer"
)

var fenceRE = regexp.MustCompile("(?s)```[a-zA-Z0-9_-]*[ \t]*\r?\n?(.*?)(?:```|$)")

// ExtractJSON finds the first JSON value in a model's answer, repaired by
// the lenient reader (package answer), since models rarely write strict JSON.
func ExtractJSON(text string) (json.RawMessage, bool) {
	v, ok := answer.Read(text).First()
	return v.JSON, ok
}

// ExtractCompleteJSON is ExtractJSON for answers acted on as a whole (a
// plan, facts to store): a value cut off is not one.
func ExtractCompleteJSON(text string) (json.RawMessage, bool) {
	for _, v := range answer.Read(text).Values {
		if v.Complete {
			return v.JSON, true
		}
	}
	return nil, false
}

// Fields returns an object's members by Key, so "action_input" and "Action
// Input" are one field; the first of duplicates wins.
func Fields(raw json.RawMessage) (map[string]json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil, false
	}
	out := make(map[string]json.RawMessage, len(m))
	// Decode again in order, so that duplicates resolve the same way each
	// time (map iteration order is random).
	ms, ok := members(raw)
	if !ok {
		return nil, false
	}
	for _, mb := range ms {
		if k := Key(mb.name); k != "" {
			if _, dup := out[k]; !dup {
				out[k] = mb.value
			}
		}
	}
	return out, true
}

// Get returns the first of the named fields present and not null.
func Get(fields map[string]json.RawMessage, names ...string) (json.RawMessage, bool) {
	for _, n := range names {
		if v, ok := fields[Key(n)]; ok && !isNull(v) {
			return v, true
		}
	}
	return nil, false
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// String returns a JSON string, number or boolean as text.
func String(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	t := string(bytes.TrimSpace(raw))
	var f float64
	if json.Unmarshal(raw, &f) == nil || t == "true" || t == "false" {
		return t, true
	}
	return "", false
}

// Strings returns a list of texts: a JSON array's strings (and numbers),
// or a string's comma- or semicolon-separated items ("skiing, chess").
func Strings(raw json.RawMessage) []string {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		var out []string
		for _, x := range list {
			s, ok := String(x)
			if !ok {
				s = Text(x)
			}
			if s = strings.TrimSpace(s); !nobodyWords[Key(s)] {
				out = append(out, s)
			}
		}
		return out
	}
	s, ok := String(raw)
	if !ok {
		return nil
	}
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == '\n' }) {
		if p = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(p), "and ")); p != "" && !nobodyWords[Key(p)] {
			out = append(out, p)
		}
	}
	return out
}

// placeKeys and countryKeys make a place's "City,CC" (the weather
// service's input) from an object.
var (
	placeKeys   = []string{"city", "location", "place", "town", "locality"}
	countryKeys = []string{"country_code", "countrycode", "country", "cc", "iso"}
)

// Text returns the text a JSON value holds, taking an unnamed field when no
// key matches; "" when there is none.
func Text(raw json.RawMessage, keys ...string) string {
	return text(raw, keys, true, 0)
}

// Field is Text restricted to keys: it never takes an unnamed field, since
// {"role": "assistant"} holds no reply.
func Field(raw json.RawMessage, keys ...string) string {
	return text(raw, keys, false, 0)
}

// text walks raw for Text (lenient) and Field.
func text(raw json.RawMessage, keys []string, lenient bool, depth int) string {
	raw = bytes.TrimSpace(raw)
	if depth > 4 || len(raw) == 0 {
		return ""
	}
	inner := func(v json.RawMessage, keys []string) string {
		return strings.TrimSpace(text(v, keys, lenient, depth+1))
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return ""
		}
		if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") && json.Valid([]byte(t)) {
			if in := inner(json.RawMessage(t), keys); in != "" || !lenient {
				return in
			}
		}
		return s
	case '{':
		f, ok := Fields(raw)
		if !ok {
			return ""
		}
		for _, k := range keys {
			if v, ok := f[Key(k)]; ok {
				if t := inner(v, keys); t != "" {
					return t
				}
			}
		}
		if !lenient {
			return ""
		}
		if place, ok := Get(f, placeKeys...); ok {
			p := inner(place, nil)
			if c, ok := Get(f, countryKeys...); ok && p != "" && !strings.Contains(p, ",") {
				if cc := inner(c, nil); cc != "" {
					return p + "," + cc
				}
			}
			if p != "" {
				return p
			}
		}
		var only []string
		for _, v := range f {
			if t := inner(v, keys); t != "" {
				only = append(only, t)
			}
		}
		if len(only) == 1 {
			return only[0]
		}
		return ""
	case '[':
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			return ""
		}
		var parts []string
		sentences := true
		for _, x := range list {
			if t := inner(x, keys); t != "" {
				parts = append(parts, t)
				sentences = sentences && endsSentence(t)
			}
		}
		if sentences && len(parts) > 1 {
			// A list of sentences is read one after another ("You talk
			// with people by voice.", "I'm Nadine."), each judged alone.
			return strings.Join(parts, " ")
		}
		return strings.Join(parts, ",")
	case 'n':
		return ""
	}
	if !lenient {
		return ""
	}
	s, _ := String(raw)
	return s
}

// endsSentence reports text whose last sign ends a sentence.
func endsSentence(t string) bool {
	r, _ := utf8.DecodeLastRuneInString(strings.TrimRight(t, " \"'”»）)"))
	return strings.ContainsRune(".!?…。！？", r)
}

// AnswerText returns a free-text answer's text: reasoning skipped, a JSON
// answer's field from keys (or ""), a fenced answer's content.
func AnswerText(text string, keys ...string) string {
	s := strings.TrimSpace(answer.Preamble(text))
	body := s
	if strings.HasPrefix(s, "```") {
		if m := fenceRE.FindStringSubmatch(s); m != nil {
			body = strings.TrimSpace(m[1])
		}
	}
	if strings.HasPrefix(body, "{") || strings.HasPrefix(body, "[") {
		if v, ok := answer.Read(body).First(); ok {
			return strings.TrimSpace(Field(v.JSON, keys...))
		}
	}
	return body
}
