package dialogue_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		max       int
		want      string
		truncated bool
		code      string
	}{
		{"spaces", "  Hello \n\t Nadine  ", 0, "Hello Nadine", false, ""},
		{"empty", "", 0, "", false, nadine.EINVALID},
		{"blank", " \n\t ", 0, "", false, nadine.EINVALID},
		{"invalid utf8", "caf\xe9 au lait", 0, "caf\uFFFD au lait", false, ""},
		{"only garbage", "\xff\xfe", 0, "", false, nadine.EINVALID},
		{"control chars", "he\x00llo\x07", 0, "hello", false, ""},
		{"cap at word", "one two three four five", 12, "one two", true, ""},
		{"chinese", "你好，娜丁", 0, "你好，娜丁", false, ""},
		{"decomposed accents", "Qui t'a cre\u0301e\u0301e ?", 0, "Qui t'a créée ?", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, truncated, err := dialogue.Normalize(tt.in, tt.max)
			if code := nadine.ErrorCode(err); code != tt.code {
				t.Fatalf("error code = %q (%v), want %q", code, err, tt.code)
			}
			if got != tt.want || truncated != tt.truncated {
				t.Errorf("Normalize(%q) = %q, %v; want %q, %v", tt.in, got, truncated, tt.want, tt.truncated)
			}
		})
	}
}

func TestNormalizeHugeInput(t *testing.T) {
	in := strings.Repeat("word ", 1_000_000) // 5 MB
	got, truncated, err := dialogue.Normalize(in, 4000)
	if err != nil || !truncated {
		t.Fatalf("err=%v truncated=%v", err, truncated)
	}
	if n := utf8.RuneCountInString(got); n > 4000 || n < 3900 {
		t.Errorf("len = %d runes, want just under 4000", n)
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"Hello", "\xff", "  ", "你好", strings.Repeat("a ", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, _, err := dialogue.Normalize(s, 50)
		if err != nil {
			return
		}
		if !utf8.ValidString(got) || utf8.RuneCountInString(got) > 50 || got == "" || !norm.NFC.IsNormalString(got) {
			t.Fatalf("Normalize(%q) = %q", s, got)
		}
	})
}
