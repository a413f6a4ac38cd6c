package spoken

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SentenceSplitter cuts streamed text into sentences as each ends (Latin
// and CJK; not after "Dr." or inside "3.5"), so the first can be spoken early.
type SentenceSplitter struct {
	buf strings.Builder
	// items counts the numbers of a list said in line ("1. I can smile.
	// 2. I can wave."): a number alone, the next of the count, is the
	// item's and not a sentence of its own.
	items int
}

// Write adds a piece of text and returns the sentences it completed. A
// piece may end inside a character: its bytes wait for the next piece.
func (s *SentenceSplitter) Write(delta string) []string {
	s.buf.WriteString(delta)
	text := s.buf.String()
	var out []string
	start := 0
	// The buffer is read again from its start on every piece: a list's
	// number counts once its sentence is out.
	items, counted := s.items, s.items
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		end := i + size
		if isCJKEnd(r) {
			if sent := strings.TrimSpace(text[start:end]); sent != "" {
				out = append(out, sent)
			}
			start, counted = end, items
		} else if isLatinEnd(r) && end < len(text) {
			next, _ := utf8.DecodeRuneInString(text[end:])
			switch {
			case !unicode.IsSpace(next) || endsWithAbbreviation(text[start:end]) || inAddress(text[start:end], text[end:]):
			case item(text[start:end], items):
				items++
			default:
				if sent := strings.TrimSpace(text[start:end]); sent != "" {
					out = append(out, sent)
				}
				start, counted = end, items
			}
		}
		i = end
	}
	s.items = counted
	rest := text[start:]
	s.buf.Reset()
	s.buf.WriteString(rest)
	return out
}

// item reports a sentence, or its last line, that is only the number after
// n of a list ("1.", "Hello!\n2.").
func item(sent string, n int) bool {
	if i := strings.LastIndexByte(sent, '\n'); i >= 0 {
		sent = sent[i+1:]
	}
	return strings.TrimSpace(sent) == strconv.Itoa(n+1)+"."
}

// Flush returns what remains as a final sentence ("" if only spaces remain).
func (s *SentenceSplitter) Flush() string {
	rest := strings.TrimSpace(s.buf.String())
	s.buf.Reset()
	return rest
}

// Unsaid is text's sentences not among said, in order: what is left to say
// of a reply read whole after some of it was spoken.
func Unsaid(text string, said []string) []string {
	var rest []string
	for _, sent := range SplitSentences(text) {
		if !slices.Contains(said, sent) {
			rest = append(rest, sent)
		}
	}
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

// endsWithAbbreviation reports a sentence cut after an abbreviation: one
// of the list, or a letter's initial ("J. R. R. Tolkien", "z. B.").
func endsWithAbbreviation(s string) bool {
	s = strings.TrimSpace(s)
	i := strings.LastIndexFunc(s, unicode.IsSpace)
	last := strings.ToLower(s[i+1:])
	if initials(last) {
		return true
	}
	switch last {
	case "mr.", "mrs.", "ms.", "dr.", "prof.", "st.", "e.g.", "i.e.", "vs.", "mt.", "m.", "mme.", "hr.", "fr.", "nr.", "z.b.", "u.a.":
		return true
	}
	return false
}

// initials reports a word that is one letter and a dot ("j.", "z."),
// not the pronoun ("So am I."): "P.S. This …" ends its abbreviation's
// sentence as before.
func initials(w string) bool {
	return len(w) == 2 && w[1] == '.' && 'a' <= w[0] && w[0] <= 'z' && w[0] != 'i'
}

// inAddress reports a dot that an address holds, not a sentence's end: set
// apart between two words ("nadine . robot") or closing a line inside an
// address ("https://miralab.\nch"), before a word in small letters. With
// nothing after it yet, it waits for the next piece.
func inAddress(before, after string) bool {
	spaced := strings.HasSuffix(before, " .")
	f := strings.Fields(before)
	if !spaced && (len(f) == 0 || !strings.Contains(f[len(f)-1], "://") && !strings.HasPrefix(strings.ToLower(f[len(f)-1]), "www.")) {
		return false
	}
	rest := strings.TrimLeftFunc(after, unicode.IsSpace)
	return rest == "" || 'a' <= rest[0] && rest[0] <= 'z'
}
