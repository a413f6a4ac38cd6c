package nadine

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"strconv"
	"unicode/utf8"
)

// Content is conversation text as a log attribute value: what a person
// said, Nadine's reply, a model's output, a song's topic, a place asked
// about. Logs carry no conversation by default, so a Content prints as its
// length only ("[23 chars]") through any handler; the process logger shows
// the text itself when the operator asked for it (ContentReplacer). It is
// deliberately no slog.LogValuer, so that ReplaceAttr sees it as such.
//
//	log.Info("turn", "user", nadine.PersonID(id), "input", nadine.Content(text))
type Content string

// String returns the length of the text, never the text.
func (c Content) String() string {
	return "[" + strconv.Itoa(utf8.RuneCountInString(string(c))) + " chars]"
}

// MarshalJSON writes String, for JSON handlers.
func (c Content) MarshalJSON() ([]byte, error) { return json.Marshal(c.String()) }

// PersonID is a person's user id as a log attribute value. An id names
// someone (it is made from their name), so logs carry none by default: a
// PersonID prints as "[person]" through any handler ("unknown" for the
// stranger, who is nobody in particular), and as the id itself where
// ContentReplacer shows conversation text. Like Content, no slog.LogValuer.
type PersonID string

// String returns "[person]", "unknown" or "", never the id.
func (p PersonID) String() string {
	switch p {
	case "", UnknownUser:
		return string(p)
	}
	return "[person]"
}

// MarshalJSON writes String, for JSON handlers.
func (p PersonID) MarshalJSON() ([]byte, error) { return json.Marshal(p.String()) }

// quotedRE matches a Go-quoted string (%q), the form in which errors of
// this module quote what a model or a person wrote.
var quotedRE = regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"`)

// identifierRE matches the quoted words of our own vocabulary that errors
// name (graph nodes, roles, labels): lowercase, digits and underscores.
var identifierRE = regexp.MustCompile(`^"[a-z][a-z0-9_]{0,39}"$`)

// RedactText hides what is quoted in an error message: every Go-quoted
// string ("...", as %q writes it) becomes its length, so that an error
// quoting a model's answer or a person's words can be logged without them.
// A quoted lowercase identifier ("response_agent") is kept:
//
//	graph: node "response_agent": agents: answer is not the JSON asked for: "[412 chars]"
func RedactText(s string) string {
	return quotedRE.ReplaceAllStringFunc(s, func(q string) string {
		if identifierRE.MatchString(q) {
			return q
		}
		n := utf8.RuneCountInString(q) - 2
		if u, err := strconv.Unquote(q); err == nil {
			n = utf8.RuneCountInString(u)
		}
		return fmt.Sprintf(`"[%d chars]"`, n)
	})
}

// errorKeys are the attribute keys whose string values are error texts.
var errorKeys = map[string]bool{"err": true, "error": true, "reason": true}

// ContentReplacer returns a slog.HandlerOptions.ReplaceAttr that decides
// whether logs carry conversation text and who said it. With show false
// (the default of `log.content`), Content values print as their length,
// PersonID values as "[person]", and errors (any error value, and strings
// under the keys err, error and reason) have their quoted parts hidden
// (RedactText); with show true, Content values print as the text itself,
// PersonID values as the id and errors in full.
func ContentReplacer(show bool) func(groups []string, a slog.Attr) slog.Attr {
	return func(_ []string, a slog.Attr) slog.Attr {
		switch a.Value.Kind() {
		case slog.KindAny:
			switch v := a.Value.Any().(type) {
			case Content:
				if show {
					return slog.String(a.Key, string(v))
				}
				return slog.String(a.Key, v.String())
			case PersonID:
				if show {
					return slog.String(a.Key, string(v))
				}
				return slog.String(a.Key, v.String())
			case error:
				if !show && v != nil {
					return slog.String(a.Key, RedactText(v.Error()))
				}
			}
		case slog.KindString:
			if !show && errorKeys[a.Key] {
				return slog.String(a.Key, RedactText(a.Value.String()))
			}
		}
		return a
	}
}
