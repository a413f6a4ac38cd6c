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

// Quoted hides what is quoted in an error message: every Go-quoted
// string ("...", as %q writes it) becomes its length, so that an error
// quoting a model's answer or a person's words can be logged without them.
// A quoted lowercase identifier ("response_agent") is kept:
//
//	graph: node "response_agent": agents: answer is not the JSON asked for: "[412 chars]"
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

// ContentReplacer returns a slog.HandlerOptions.ReplaceAttr that decides
// whether logs carry conversation text. With show false (the default of
// `log.content`), Content values print as their length and errors (any
// error value, and strings under the keys err, error and reason) have
// their quoted parts hidden (Quoted); with show true, Content values
// print as the text itself and errors in full.
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
