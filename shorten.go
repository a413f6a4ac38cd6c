package nadine

import (
	"strings"
	"unicode/utf8"
)

// Shorten returns s on one line, its runs of white space (newlines too)
// made one space, cut to at most n runes with the cut marked by "…" (the
// ellipsis counts in n). It is for text quoted in errors, logs, trace notes
// and result previews; n <= 0 means no limit. (Data put in a prompt is cut
// at a word boundary by fence.Truncate instead.)
func Shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
