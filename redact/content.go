package redact

import (
	"fmt"
	"log/slog"
	"regexp"
	"strconv"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
)

// quotedRE matches a Go-quoted string (%q), the form in which errors of
// this module quote what a model or a person wrote.
var quotedRE = regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"`)

// identifierRE matches the quoted words of our own vocabulary that errors
// name (graph nodes, roles, labels): lowercase, digits and underscores.
var identifierRE = regexp.MustCompile(`^"[a-z][a-z0-9_]{0,39}"$`)

// Quoted hides each Go-quoted string of an error message behind its length
// (lowercase identifiers kept), so the error can be logged without words.
func Quoted(s string) string {
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

// ContentReplacer is a slog ReplaceAttr: unless show, Content prints as its
// length, PersonID as "[person]", and errors pass through Quoted.
func ContentReplacer(show bool) func(groups []string, a slog.Attr) slog.Attr {
	return func(_ []string, a slog.Attr) slog.Attr {
		switch a.Value.Kind() {
		case slog.KindAny:
			switch v := a.Value.Any().(type) {
			case nadine.Content:
				if show {
					return slog.String(a.Key, string(v))
				}
				return slog.String(a.Key, v.String())
			case nadine.PersonID:
				if show {
					return slog.String(a.Key, string(v))
				}
				return slog.String(a.Key, v.String())
			case error:
				if !show && v != nil {
					return slog.String(a.Key, Quoted(v.Error()))
				}
			}
		case slog.KindString:
			if !show && errorKeys[a.Key] {
				return slog.String(a.Key, Quoted(a.Value.String()))
			}
		}
		return a
	}
}
