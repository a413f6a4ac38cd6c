package dialogue

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/nadine-robot/nadine"
)

// DefaultMaxInputChars caps a transcript before it reaches a model.
const DefaultMaxInputChars = 4000

// Normalize prepares a transcript: invalid UTF-8 is repaired (each bad
// sequence becomes U+FFFD), control characters are dropped, whitespace runs
// collapse to one space, text longer than max runes is cut at a word
// boundary, and accents are composed (NFC: a recognizer's "e" followed by
// a combining acute is "é", as the phrase tables and the models expect).
// It returns an EINVALID error for input with nothing left to say. It
// reports whether the text was truncated.
func Normalize(text string, max int) (string, bool, error) {
	if max <= 0 {
		max = DefaultMaxInputChars
	}
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	var b strings.Builder
	b.Grow(min(len(text), 4*max+4))
	space := false
	n := 0
	truncated := false
	for _, r := range text {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if unicode.IsControl(r) || r == '\u200b' || r == '\ufeff' {
			continue
		}
		if space {
			if n+1 >= max {
				truncated = true
				break
			}
			b.WriteByte(' ')
			n++
			space = false
		}
		if n >= max {
			truncated = true
			break
		}
		b.WriteRune(r)
		n++
	}
	out := b.String()
	if truncated {
		// Cut back to the last word boundary when there is one in the tail.
		if i := strings.LastIndexByte(out, ' '); i > len(out)/2 {
			out = out[:i]
		}
	}
	if strings.Trim(out, "\uFFFD ") == "" {
		return "", false, nadine.Errorf(nadine.EINVALID, "empty input: nothing to answer")
	}
	return norm.NFC.String(out), truncated, nil
}
