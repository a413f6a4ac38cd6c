package spoken

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SentenceSplitter cuts streamed text into sentences as each ends (Latin
// and CJK; not after "Dr." or inside "3.5"), so the first can be spoken early.
type SentenceSplitter struct {
	buf strings.Builder
	// items counts the numbers of a list said in line ("1. I can smile.
	// 2. I can wave.", "Je sais : I. sourire II. saluer"): a number alone,
	// the next of the count, is the item's and not a sentence of its own;
	// kind is how the first item counts ("1", "a", "A", "i", "I").
	items int
	kind  string
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
	kind, countedKind := s.kind, s.kind
	// open is where a parenthesis opened in this sentence is, or -1: an
	// aside's own full stop ends no sentence ("(max. zwei Sätze)", "（注：
	// 两句话以内。）"), up to asideMax bytes, so one never closed does not
	// hold the rest of the reply back.
	open := -1
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		end := i + size
		switch {
		case (r == '(' || r == '（' || r == '[' || r == '<' && end < len(text) && (isASCIILetter(text[end]) || text[end] == '/')) && !emoticonOpen(text[:i]):
			// A bracket's aside, or a tag's attributes ("[Nadine sourit.
			// Elle salue.]", "<span title=\"Robot social. Genève.\">").
			if open < 0 {
				open = i
			}
		case r == ')' || r == '）' || r == ']' || r == '>' && open >= 0 && text[open] == '<':
			wasOpen := open >= 0
			open = -1
			if prev, _ := utf8.DecodeLastRuneInString(strings.TrimRight(text[start:i], " ")); wasOpen && (isCJKEnd(prev) || isLatinEnd(prev)) {
				// An aside that ends with its own full stop ends its
				// sentence when a new one starts after it.
				if end == len(text) {
					break
				}
				after := text[end:]
				if r == '）' || unicode.IsSpace(rune(after[0])) {
					if startsSentence(strings.TrimLeft(after, " \t")) {
						if sent := strings.TrimSpace(text[start:end]); sent != "" {
							out = append(out, sent)
						}
						start, counted = end, items
					}
				}
				i = end
				continue
			}
		}
		// A tag is an aside only while it holds an attribute's value.
		inAside := open >= 0 && i-open < asideMax && (text[open] != '<' || strings.Contains(text[open:i], "="))
		if isCJKEnd(r) && !inAside {
			// Its closing quotes are the sentence's ("“介绍一下你自己。”好的"):
			// with nothing after the mark yet, it waits for the next piece.
			closed := afterClosers(text, end)
			if closed == len(text) {
				break
			}
			if sent := strings.TrimSpace(text[start:closed]); sent != "" {
				out = append(out, sent)
			}
			start, counted, open = closed, items, -1
			end = closed
		} else if isLatinEnd(r) && end < len(text) && !inAside {
			next, _ := utf8.DecodeRuneInString(text[end:])
			if closed := afterClosers(text, end); closed > end {
				// Closing quotes after the mark ("« qui êtes-vous ? »",
				// "\"Hi.\" Then") end the sentence with it when a new one
				// starts after them; with nothing after them yet, wait.
				if closed == len(text) {
					break
				}
				if after := strings.TrimLeft(text[closed:], " \t"); closed < len(text) && unicode.IsSpace(rune(text[closed])) && startsSentence(after) {
					if sent := strings.TrimSpace(text[start:closed]); sent != "" {
						out = append(out, sent)
					}
					start, counted, open = closed, items, -1
					end = closed
				}
				i = end
				continue
			}
			if strings.TrimLeft(text[end:], " \t") == "" && hesitant(text[start:end]) {
				break // "Hmm… " may go on in lower case: wait for the next word
			}
			switch {
			case !unicode.IsSpace(next) || endsWithAbbreviation(text[start:end]) || inAddress(text[start:end], text[end:]) || germanOrdinal(text[start:end], text[end:]) || hesitation(text[start:end], text[end:]):
			case item(text[start:end], &items, &kind):
			default:
				if sent := strings.TrimSpace(text[start:end]); sent != "" {
					out = append(out, sent)
				}
				start, counted, countedKind, open = end, items, kind, -1
			}
		}
		i = end
	}
	s.items, s.kind = counted, countedKind
	rest := text[start:]
	s.buf.Reset()
	s.buf.WriteString(rest)
	return out
}

// isASCIILetter reports an ASCII letter.
func isASCIILetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// item reports a sentence, or its last line, that ends with the mark of a
// list's item after n: the first ("1.", "a.", "I.") alone or after a colon
// ("Je sais : 1."), then the next of its count after the item's words
// ("sourire 2.", "Hello!\n2."), or "1." again: Markdown numbers a list
// written "1. 1. 1." as it counts. kind is how the list counts, set by its
// first item; n counts the items so far, and starts again with a new list.
func item(sent string, n *int, kind *string) bool {
	prev := "" // the line before, which may hold the list's item before this one
	if i := strings.LastIndexByte(sent, '\n'); i >= 0 {
		if j := strings.LastIndexByte(sent[:i], '\n'); j >= 0 {
			prev = sent[j+1 : i]
		} else {
			prev = sent[:i]
		}
		sent = sent[i+1:]
	}
	t := strings.TrimSpace(sent)
	lead, last := "", t
	if i := strings.LastIndexAny(t, " \t"); i >= 0 {
		lead, last = strings.TrimSpace(t[:i]), t[i+1:]
	}
	heading := strings.HasPrefix(lead, "#")
	lead = strings.TrimLeft(lead, "#") // a heading's mark leads its number ("## II.")
	num, ok := strings.CutSuffix(last, ".")
	if !ok || num == "" {
		return false
	}
	if heading && lead == "" && len(num) <= 4 && max(ordinal(num, "1"), ordinal(num, "I"), ordinal(num, "a")) > 0 {
		return true // a section's number ("## II. Les automates"), not the count's
	}
	if *n > 0 && *kind != "" && (ordinal(num, *kind) == *n+1 || lead == "" && num == "1" && *kind == "1") {
		*n++
		return true
	}
	if (lead == "" || strings.HasSuffix(lead, ":")) && len(num) <= 3 && ordinal(num, num) == 1 {
		*n, *kind = 1, num
		return true
	}
	if m := prevItemRE.FindStringSubmatch(strings.TrimSpace(prev)); lead == "" && m != nil && ordinal(m[1], m[1]) == 1 && ordinal(num, m[1]) == 2 {
		*n, *kind = 2, m[1] // "1) entrée\n2." counts on, whatever sign the first took
		return true
	}
	return false
}

// prevItemRE is a line that is a list's item, its mark first ("1) entrée").
var prevItemRE = regexp.MustCompile(`^\(?([0-9]{1,2}|[a-hA-H]|i{1,3}|I{1,3})[.)\]:-]\s`)

// Flush returns what remains as a final sentence ("" if only spaces remain).
func (s *SentenceSplitter) Flush() string {
	rest := strings.TrimSpace(s.buf.String())
	s.buf.Reset()
	return rest
}

// Unsaid is text's sentences not among said, in order: what is left to say
// of a reply read whole after some of it was spoken.
// A piece said may hold more than one of its sentences ("Voici le plan :
// entrée. 2." was said as one), so each is compared sentence by sentence.
func Unsaid(text string, said []string) []string {
	var saidSents []string
	for _, s := range said {
		saidSents = append(saidSents, SplitSentences(s)...)
	}
	var rest []string
	for _, sent := range SplitSentences(text) {
		if !slices.Contains(said, sent) && !slices.Contains(saidSents, sent) {
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

// asideMax is how far, in bytes, a parenthesis holds its sentence open.
const asideMax = 300

// closers are the marks that close a quotation or an aside after a
// sentence's end.
const closers = "\"'»”’)）」』】]"

// afterClosers returns where the closing marks at i end, spaces between a
// mark and them included (French "? »"); i when none follows.
func afterClosers(text string, i int) int {
	j := i
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	k := j
	for k < len(text) {
		r, size := utf8.DecodeRuneInString(text[k:])
		// German closes with “, which opens a quotation elsewhere: only
		// right after the mark is it a closer („Erzähl mir von dir.“).
		if !strings.ContainsRune(closers, r) && (r != '“' || k != i) {
			break
		}
		k += size
	}
	if k == j {
		return i
	}
	return k
}

// startsSentence reports text that opens a sentence: a capital, a digit,
// an ideograph or another quotation; not ", et je réponds" or "and I".
func startsSentence(text string) bool {
	r, _ := utf8.DecodeRuneInString(text)
	return unicode.IsUpper(r) || unicode.IsDigit(r) || unicode.Is(unicode.Han, r) || strings.ContainsRune("\"'«“„「『(（", r)
}

// emoticonOpen reports a parenthesis that is a face's mouth (":(", ";-(").
func emoticonOpen(before string) bool {
	b := strings.TrimRight(before, "-")
	return strings.HasSuffix(b, ":") || strings.HasSuffix(b, ";") || strings.HasSuffix(b, "=")
}

// germanOrdinal reports the full stop of a German ordinal before the noun it
// counts ("der 3. Dezember", "zum 2. Mal"), not a sentence's end. While
// the next word may still become such a noun ("der 4. Dez…"), it waits for
// the next piece.
func germanOrdinal(before, after string) bool {
	f := strings.Fields(before)
	if len(f) == 0 {
		return false
	}
	n := strings.TrimSuffix(f[len(f)-1], ".")
	if len(n) == 0 || len(n) > 2 || strings.Trim(n, "0123456789") != "" {
		return false
	}
	rest := strings.TrimLeftFunc(after, unicode.IsSpace)
	if rest == "" {
		return true
	}
	end := strings.IndexFunc(rest, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) })
	if end < 0 {
		return slices.ContainsFunc(ordinalNouns, func(w string) bool { return strings.HasPrefix(w, rest) })
	}
	return slices.Contains(ordinalNouns, rest[:end])
}

// ordinalNouns are the nouns a German ordinal counts before.
var ordinalNouns = []string{"Januar", "Jänner", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember",
	"Mal", "Platz", "Stock", "Klasse", "Jahrhundert", "Geburtstag"}

func isCJKEnd(r rune) bool { return r == '。' || r == '！' || r == '？' }

func isLatinEnd(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '…' }

// hesitation reports an ellipsis after a few words that the sentence goes
// on after, in lower case ("Hmm… laissez-moi réfléchir", "Je pense que...
// oui !"): a pause, not its end.
func hesitation(before, after string) bool {
	r, _ := utf8.DecodeRuneInString(strings.TrimLeft(after, " \t"))
	return hesitant(before) && unicode.IsLower(r)
}

// hesitant reports an ellipsis after a few words; after a long clause the
// dots are a sentence trailing off.
func hesitant(before string) bool {
	return (strings.HasSuffix(before, "…") || strings.HasSuffix(before, "...")) && len(strings.Fields(before)) <= 4
}

// endsWithAbbreviation reports a sentence cut after an abbreviation: one
// of the list, or a letter's initial ("J. R. R. Tolkien", "z. B.").
func endsWithAbbreviation(s string) bool {
	s = strings.TrimSpace(s)
	// A word starts after a space, or after an ideograph in text that
	// writes none ("我是由N. Magnenat Thalmann教授创造的").
	i := strings.LastIndexFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
	})
	if i >= 0 {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size - 1
	}
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
