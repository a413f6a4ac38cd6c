package nadine_test

import (
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
