package nadine_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
)

func TestShorten(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		n        int
		want     string
	}{
		{"short", "hello", 10, "hello"},
		{"exact", "hello", 5, "hello"},
		{"cut, ellipsis counted", "hello world", 6, "hello…"},
		{"white space made one space", "  a\n\tb   c \r\n", 10, "a b c"},
		{"runes, not bytes", "日本語のテキスト", 4, "日本語…"},
		{"no limit", "a long   text", 0, "a long text"},
		{"one rune", "abc", 1, "…"},
		{"empty", "", 3, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := nadine.Shorten(tt.in, tt.n)
			if got != tt.want {
				t.Errorf("Shorten(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
			}
			if tt.n > 0 && utf8.RuneCountInString(got) > tt.n {
				t.Errorf("Shorten(%q, %d) has %d runes", tt.in, tt.n, utf8.RuneCountInString(got))
			}
			if !utf8.ValidString(got) {
				t.Errorf("Shorten(%q, %d) = %q is not UTF-8", tt.in, tt.n, got)
			}
		})
	}
}

func TestRedact(t *testing.T) {
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
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := nadine.Redact(tt.in, tt.secrets...)
			if got != tt.want {
				t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
			}
			for _, s := range tt.secrets {
				if s != "" && strings.Contains(got, s) {
					t.Errorf("Redact(%q) = %q still holds %q", tt.in, got, s)
				}
			}
		})
	}
}

func TestHTTPStatusCode(t *testing.T) {
	for _, tt := range []struct {
		status int
		want   string
	}{
		{400, nadine.EINVALID},
		{401, nadine.EINVALID},
		{403, nadine.EINVALID},
		{404, nadine.EINVALID},
		{408, nadine.EUNAVAILABLE},
		{422, nadine.EINVALID},
		{429, nadine.ERATELIMIT},
		{500, nadine.EUNAVAILABLE},
		{502, nadine.EUNAVAILABLE},
		{503, nadine.EUNAVAILABLE},
		{302, nadine.EUNAVAILABLE},
		{0, nadine.EUNAVAILABLE},
	} {
		if got := nadine.HTTPStatusCode(tt.status); got != tt.want {
			t.Errorf("HTTPStatusCode(%d) = %s, want %s", tt.status, got, tt.want)
		}
	}
}
