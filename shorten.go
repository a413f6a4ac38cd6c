package nadine

import (
	"strings"
	"unicode/utf8"
)

// Shorten puts s on one line, cut to n runes ending in "…", for errors, logs
// and traces (n <= 0: no cut); text for a prompt is cut by fence.Truncate.
func Shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
