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

// Normalize repairs, cleans, cuts and composes (NFC) a transcript so the
// phrase tables and models see one spelling; EINVALID when nothing is left.
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
