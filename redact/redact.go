// Package redact removes secrets from text that came from an outside
// service, before it reaches an error, a log or a trace.
package redact

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mark replaces a secret in text that Secrets cleaned.
const Mark = "[redacted]"

// keyLike matches API keys and masked keys as servers print them
// ("sk-proj-****abcd").
var keyLike = regexp.MustCompile(`\b(sk|pk|rk)-[A-Za-z0-9_*\-]{4,}`)

// Secrets replaces each non-empty secret in s where it stands as a whole
// (not inside a longer run of letters and digits: a local server's
// placeholder key "x" or "ollama" leaves "text-embedding" and "ollamas"
// whole), and anything that looks like an API key ("sk-...", masked or
// not), with Mark.
func Secrets(s string, secrets ...string) string {
	for _, secret := range secrets {
		if secret != "" && strings.Contains(s, secret) {
			s = replaceWhole(s, secret)
		}
	}
	if strings.Contains(s, "k-") {
		s = keyLike.ReplaceAllString(s, Mark)
	}
	return s
}

// replaceWhole replaces secret in s with Mark wherever no letter or digit
// touches it on either side.
func replaceWhole(s, secret string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, secret)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[i+len(secret):])
		b.WriteString(s[:i])
		if i > 0 && alnum(before) || i+len(secret) < len(s) && alnum(after) {
			b.WriteString(secret)
		} else {
			b.WriteString(Mark)
		}
		s = s[i+len(secret):]
	}
}

func alnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
