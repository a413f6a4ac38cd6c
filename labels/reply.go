package labels

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/nadine-robot/nadine/answer"
)

// speakerRoles are the roles of a chat message whose content is the
// speaker's own words: a transcript's system or user message holds the
// prompt or the visitor's words, never the reply.
var speakerRoles = []string{"assistant", "model", "nadine", "bot", "ai", "robot"}

// Reply returns the reply a JSON value holds, read from what its fields'
// names say: the first of keys present, else a field named as a reply in
// any of Nadine's languages (answer.NamesReply), in a call's arguments or
// the speaker's message of a transcript too; never a field named as an
// aside (reasoning, sources, the prompt, another form). "" when none.
func Reply(raw json.RawMessage, keys ...string) string {
	return reply(raw, keys, 0)
}

// reply walks raw for Reply.
func reply(raw json.RawMessage, keys []string, depth int) string {
	raw = bytes.TrimSpace(raw)
	if depth > 5 || len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '{':
		return objectReply(raw, keys, depth)
	case '[':
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			return ""
		}
		var parts []string
		for _, x := range list {
			if t := reply(x, keys, depth+1); t != "" {
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

// objectReply is Reply of an object.
func objectReply(raw json.RawMessage, keys []string, depth int) string {
	ms, ok := members(raw)
	if !ok {
		return ""
	}
	f, _ := Fields(raw)
	if role, ok := Get(f, "role", "speaker", "author", "from"); ok {
		r, _ := String(role)
		if !keyIn(r, speakerRoles) {
			return "" // the prompt's or the visitor's message
		}
	}
	for _, k := range keys {
		if v, ok := f[Key(k)]; ok {
			if t := memberReply(v, keys, depth); t != "" {
				return t
			}
		}
	}
	for _, m := range ms {
		if answer.NamesReply(m.name) {
			if t := memberReply(m.value, keys, depth); t != "" {
				return t
			}
		}
	}
	// A call's arguments, a transcript's messages, a wrapper's body: read
	// inside every structure not named as an aside.
	for _, m := range ms {
		if answer.NamesAside(m.name) {
			continue
		}
		v := unquoted(m.value)
		if len(v) > 0 && (v[0] == '{' || v[0] == '[') {
			if t := reply(v, keys, depth+1); t != "" {
				return t
			}
		}
	}
	return ""
}

// memberReply is the text of a field named as the reply: a string (a
// structure written as a string read inside), the strings of a list one a
// line, or the reply of an object within.
func memberReply(v json.RawMessage, keys []string, depth int) string {
	v = unquoted(v)
	if len(v) == 0 {
		return ""
	}
	switch v[0] {
	case '"':
		s, _ := String(v)
		return strings.TrimSpace(s)
	case '[':
		var list []json.RawMessage
		if json.Unmarshal(v, &list) != nil {
			return ""
		}
		var parts []string
		for _, x := range list {
			if t := memberReply(x, keys, depth+1); t != "" {
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, "\n")
	case '{':
		return reply(v, keys, depth+1)
	}
	return ""
}

// unquoted returns the structure a JSON string holds when it holds one (a
// call's arguments are often a string of JSON), else v.
func unquoted(v json.RawMessage) json.RawMessage {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || v[0] != '"' {
		return v
	}
	s, ok := String(v)
	if !ok {
		return v
	}
	t := strings.TrimSpace(s)
	if (strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") || strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]")) && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	return v
}

// member is an object's member, in the order written.
type member struct {
	name  string
	value json.RawMessage
}

// members returns an object's members in the order written.
func members(raw json.RawMessage) ([]member, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var out []member
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		name, _ := t.(string)
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return nil, false
		}
		out = append(out, member{name, v})
	}
	return out, true
}

// keyIn reports whether s is one of names by Key.
func keyIn(s string, names []string) bool {
	k := Key(s)
	for _, n := range names {
		if Key(n) == k {
			return true
		}
	}
	return false
}
