package nadine

import (
	"regexp"
	"strings"
)

// Redacted replaces a secret in text that Redact cleaned.
const Redacted = "[redacted]"

// keyLike matches API keys and masked keys as servers print them
// ("sk-proj-****abcd").
var keyLike = regexp.MustCompile(`\b(sk|pk|rk)-[A-Za-z0-9_*\-]{4,}`)

// Redact removes secrets from text that came from an outside service or a
// transport error, before it reaches an error, a log or a trace: each
// non-empty secret, and anything that looks like an API key ("sk-...",
// masked or not), becomes "[redacted]".
func Redact(s string, secrets ...string) string {
	for _, secret := range secrets {
		if secret != "" && strings.Contains(s, secret) {
			s = strings.ReplaceAll(s, secret, Redacted)
		}
	}
	if strings.Contains(s, "k-") {
		s = keyLike.ReplaceAllString(s, Redacted)
	}
	return s
}
