package knowledge

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Default chunk sizes, in characters (runes).
const (
	DefaultMaxSectionChars = 1500
	DefaultMaxGroupChars   = 1000
)

// Section is one chunk of a document before embedding.
type Section struct {
	Title string
	// Text is the chunk's text; for Markdown it starts with Title.
	Text string
	// Visual is the link of the section's first image, as written.
	Visual string
	// VisualCaption is that image's caption.
	VisualCaption string
}

// imageRE matches a Markdown image: ![caption](link "optional title").
var imageRE = regexp.MustCompile(`!\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+["'][^"']*["'])?\s*\)`)

// SplitMarkdown splits at "#" and "##" headers outside fenced code, and long
// sections at paragraphs (see docs/architecture.md#knowledge).
func SplitMarkdown(name, text string, maxChars int) []Section {
	if maxChars <= 0 {
		maxChars = DefaultMaxSectionChars
	}
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	var (
		out    []Section
		h1, h2 string
		body   []string
		fence  string
	)
	flush := func() {
		out = append(out, makeSections(titleOf(name, h1, h2), strings.Join(body, "\n"), maxChars)...)
		body = body[:0]
	}
	for _, line := range strings.Split(text, "\n") {
		if f := fenceMarker(line); f != "" {
			switch {
			case fence == "":
				fence = f
			case strings.HasPrefix(f, fence):
				fence = ""
			}
			body = append(body, line)
			continue
		}
		if fence == "" {
			if level, title := atxHeader(line); level == 1 || level == 2 {
				flush()
				if level == 1 {
					h1, h2 = title, ""
				} else {
					h2 = title
				}
				continue
			}
		}
		body = append(body, line)
	}
	flush()
	return out
}

func titleOf(name, h1, h2 string) string {
	switch {
	case h1 != "" && h2 != "":
		return h1 + " > " + h2
	case h1 != "":
		return h1
	case h2 != "":
		return h2
	}
	return name
}

// makeSections turns one header's body into sections: the first image
// becomes the visual, image markup is removed, and long bodies are split.
func makeSections(title, body string, maxChars int) []Section {
	var visual, caption string
	if m := imageRE.FindStringSubmatch(body); m != nil {
		caption, visual = strings.TrimSpace(m[1]), m[2]
		body = imageRE.ReplaceAllString(body, "")
	}
	body = strings.TrimSpace(collapseBlankLines(body))
	if body == "" {
		if visual == "" || caption == "" {
			return nil
		}
		body = caption
	}
	parts := []string{body}
	if utf8.RuneCountInString(title)+2+utf8.RuneCountInString(body) > maxChars {
		parts = SplitParagraphs(body, max(maxChars-utf8.RuneCountInString(title)-2, maxChars/2))
	}
	out := make([]Section, 0, len(parts))
	for _, p := range parts {
		out = append(out, Section{Title: title, Text: title + "\n\n" + p, Visual: visual, VisualCaption: caption})
	}
	return out
}

// collapseBlankLines trims each line's trailing space and reduces runs of
// blank lines to one (removing an image line leaves one behind).
func collapseBlankLines(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	blank := false
	for _, l := range lines {
		l = strings.TrimRightFunc(l, unicode.IsSpace)
		if l == "" {
			if blank {
				continue
			}
			blank = true
		} else {
			blank = false
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// fenceMarker returns "```" or "~~~" (with the fence's full length) when
// line opens or closes a fenced code block.
func fenceMarker(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return ""
	}
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == c {
			n++
		}
		if n >= 3 {
			return t[:n]
		}
	}
	return ""
}

// atxHeader returns 0 for a line that is not "## Title"-style.
func atxHeader(line string) (int, string) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return 0, ""
	}
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 {
		return 0, ""
	}
	rest := t[n:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return 0, ""
	}
	rest = strings.TrimSpace(rest)
	// A closing sequence of '#' preceded by a space is not part of the text.
	if i := strings.TrimRight(rest, "#"); i != rest && (i == "" || strings.HasSuffix(i, " ")) {
		rest = strings.TrimSpace(i)
	}
	return n, rest
}

// SplitParagraphs splits an overlong paragraph at line breaks, then sentences,
// then spaces, and mid-word only when there is no space at all.
func SplitParagraphs(text string, maxChars int) []string {
	if maxChars <= 0 {
		maxChars = DefaultMaxGroupChars
	}
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	var pieces []string
	for _, p := range paragraphs(text) {
		pieces = append(pieces, splitLong(p, maxChars)...)
	}
	var (
		out []string
		cur strings.Builder
		n   int
	)
	for _, p := range pieces {
		pn := utf8.RuneCountInString(p)
		if n > 0 && n+2+pn > maxChars {
			out = append(out, cur.String())
			cur.Reset()
			n = 0
		}
		if n > 0 {
			cur.WriteString("\n\n")
			n += 2
		}
		cur.WriteString(p)
		n += pn
	}
	if n > 0 {
		out = append(out, cur.String())
	}
	return out
}

// paragraphs are the trimmed, non-empty blocks between blank lines.
func paragraphs(text string) []string {
	var out, cur []string
	flush := func() {
		if p := strings.TrimSpace(strings.Join(cur, "\n")); p != "" {
			out = append(out, p)
		}
		cur = cur[:0]
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "" {
			flush()
			continue
		}
		cur = append(cur, strings.TrimRightFunc(l, unicode.IsSpace))
	}
	flush()
	return out
}

// splitLong splits one paragraph into pieces of at most max runes.
func splitLong(p string, max int) []string {
	if utf8.RuneCountInString(p) <= max {
		return []string{p}
	}
	return splitKeep(p, max, lineEnds, sentenceEnds, spaceEnds)
}

// Boundary finders: each returns the byte offsets just after the
// boundaries it knows in s.
func lineEnds(s string) []int {
	var out []int
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

func sentenceEnds(s string) []int {
	var out []int
	rs := []rune(s)
	off := 0
	for i, r := range rs {
		off += utf8.RuneLen(r)
		switch r {
		case '。', '！', '？', '；':
			out = append(out, off)
		case '.', '!', '?', ';':
			if i+1 < len(rs) && unicode.IsSpace(rs[i+1]) {
				out = append(out, off)
			}
		}
	}
	return out
}

func spaceEnds(s string) []int {
	var out []int
	for i, r := range s {
		if unicode.IsSpace(r) {
			out = append(out, i+utf8.RuneLen(r))
		}
	}
	return out
}

// splitKeep cuts at the last boundary of the first finder that has one in
// range, hard at max runes when none has.
func splitKeep(s string, max int, finders ...func(string) []int) []string {
	var out []string
	for {
		s = strings.TrimSpace(s)
		if s == "" {
			return out
		}
		if utf8.RuneCountInString(s) <= max {
			return append(out, s)
		}
		limit := byteOffset(s, max)
		// Boundaries past the limit are of no use; look a little past it so
		// that a sentence end right at the limit is still seen.
		window := s[:byteOffset(s, max+1)]
		cut := 0
		for _, f := range finders {
			for _, b := range f(window) {
				if b <= limit && b > cut {
					cut = b
				}
			}
			if cut > 0 {
				break
			}
		}
		if cut == 0 {
			cut = limit
		}
		out = append(out, strings.TrimSpace(s[:cut]))
		s = s[cut:]
	}
}

// byteOffset returns the byte offset of rune n in s (len(s) past the end).
func byteOffset(s string, n int) int {
	i := 0
	for off := range s {
		if i == n {
			return off
		}
		i++
	}
	return len(s)
}
