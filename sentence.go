package nadine

import (
	"strings"
	"unicode"
)

// SentenceSplitter cuts streamed text into complete sentences as soon as
// each one ends, so that the robot can speak the first sentence while the
// rest is still being generated. It knows Latin and CJK sentence ends and
// does not cut after common abbreviations ("Dr.", "Prof.") or inside
// numbers ("3.5"). The zero value is ready to use.
type SentenceSplitter struct {
	buf strings.Builder
}

// Write adds a piece of text and returns the sentences it completed.
func (s *SentenceSplitter) Write(delta string) []string {
	s.buf.WriteString(delta)
	text := s.buf.String()
	var out []string
	start := 0
	runes := []rune(text)
	// Work on byte offsets while scanning runes.
	offset := 0
	for i, r := range runes {
		size := len(string(r))
		end := offset + size
		if isCJKEnd(r) {
			if sent := strings.TrimSpace(text[start:end]); sent != "" {
				out = append(out, sent)
			}
			start = end
		} else if isLatinEnd(r) && i+1 < len(runes) && unicode.IsSpace(runes[i+1]) {
			cand := text[start:end]
			if !endsWithAbbreviation(cand) {
				if sent := strings.TrimSpace(cand); sent != "" {
					out = append(out, sent)
				}
				start = end
			}
		}
		offset = end
	}
	rest := text[start:]
	s.buf.Reset()
	s.buf.WriteString(rest)
	return out
}

// Flush returns what remains as a final sentence ("" if only spaces remain).
func (s *SentenceSplitter) Flush() string {
	rest := strings.TrimSpace(s.buf.String())
	s.buf.Reset()
	return rest
}

// SplitSentences cuts a whole text into sentences.
func SplitSentences(text string) []string {
	var s SentenceSplitter
	out := s.Write(text)
	if last := s.Flush(); last != "" {
		out = append(out, last)
	}
	return out
}

func isCJKEnd(r rune) bool { return r == '。' || r == '！' || r == '？' }

func isLatinEnd(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '…' }

func endsWithAbbreviation(s string) bool {
	s = strings.TrimSpace(s)
	i := strings.LastIndexFunc(s, unicode.IsSpace)
	last := strings.ToLower(s[i+1:])
	switch last {
	case "mr.", "mrs.", "ms.", "dr.", "prof.", "st.", "e.g.", "i.e.", "vs.", "mt.", "m.", "mme.", "hr.", "fr.", "nr.", "z.b.", "u.a.":
		return true
	}
	return false
}
