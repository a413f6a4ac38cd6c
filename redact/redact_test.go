package redact_test

import (
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/redact"
)

func TestSecrets(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		secrets  []string
		want     string
	}{
		{"no secret", "HTTP 500: boom", nil, "HTTP 500: boom"},
		{"the secret", "bad key abc123xyz in request", []string{"abc123xyz"}, "bad key [redacted] in request"},
		{"every occurrence", "k=s3cr3t&again=s3cr3t", []string{"s3cr3t"}, "k=[redacted]&again=[redacted]"},
		{"an empty secret changes nothing", "text", []string{""}, "text"},
		{"several secrets", "one A1B2C3 two Z9Y8X7", []string{"A1B2C3", "Z9Y8X7"}, "one [redacted] two [redacted]"},
		{"a key as OpenAI prints it", "Incorrect API key provided: sk-proj-****abcd.", nil, "Incorrect API key provided: [redacted]."},
		{"a key of another profile", "key sk-other-key-987654 refused", []string{"sk-mine-123456"}, "key [redacted] refused"},
		{"not a key", "the task-list and desk-top", nil, "the task-list and desk-top"},
		{"a placeholder key inside words", "model text-embedding-3-large: got 0 embeddings for 7 texts", []string{"x"}, "model text-embedding-3-large: got 0 embeddings for 7 texts"},
		{"a short key standing alone", "key x refused", []string{"x"}, "key [redacted] refused"},
		{"a key glued to punctuation", "GET /v1?key=ollama&x=1 (ollama)", []string{"ollama"}, "GET /v1?key=[redacted]&x=1 ([redacted])"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := redact.Secrets(tt.in, tt.secrets...)
			if got != tt.want {
				t.Errorf("Secrets(%q) = %q, want %q", tt.in, got, tt.want)
			}
			for _, s := range tt.secrets {
				if s != "" && len(s) > 1 && strings.Contains(got, s) {
					t.Errorf("Secrets(%q) = %q still holds %q", tt.in, got, s)
				}
			}
		})
	}
}
