// Package redact removes secrets from text that came from an outside
// service, before it reaches an error, a log or a trace.
package redact

import (
	"regexp"
	"strings"
)

// Mark replaces a secret in text that Secrets cleaned.
const Mark = "[redacted]"

// keyLike matches API keys and masked keys as servers print them
// ("sk-proj-****abcd").
var keyLike = regexp.MustCompile(`\b(sk|pk|rk)-[A-Za-z0-9_*\-]{4,}`)

// Secrets replaces each non-empty secret in s, and anything that looks
// like an API key ("sk-...", masked or not), with Mark.
func Secrets(s string, secrets ...string) string {
	for _, secret := range secrets {
		if secret != "" && strings.Contains(s, secret) {
			s = strings.ReplaceAll(s, secret, Mark)
		}
	}
	if strings.Contains(s, "k-") {
		s = keyLike.ReplaceAllString(s, Mark)
	}
	return s
}
