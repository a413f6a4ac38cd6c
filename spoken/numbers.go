package spoken

import (
	"regexp"
	"strings"
)

// A number written in digits is read by the voice; a reading of it in words
// beside it ("1989 (mille neuf cent quatre-vingt-neuf)", "2013 deux mille
// treize") is a reader's aid, and said twice once spoken. Number words are a
// closed vocabulary in each language: a run of them after a number goes.

// numberWords are the words numbers are spelled with in English, French and
// German, and the stems German glues into one word.
var numberWords = func() map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(`
		zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
		seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand
		million millions billion and
		zéro un une deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize
		vingt vingts trente quarante cinquante soixante cent cents mille million milliard milliards et
		null eins ein eine zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn
		fünfzehn sechzehn siebzehn achtzehn neunzehn zwanzig dreißig vierzig fünfzig sechzig siebzig
		achtzig neunzig hundert tausend millionen milliarde milliarden und`) {
		set[w] = true
	}
	return set
}()

// connector are the number words that join two numbers, never the first of
// a number's reading.
var connector = map[string]bool{"and": true, "et": true, "und": true}

// germanStems are the parts a German number is glued from
// ("neunzehnhundertneunundachtzig"), longest first.
var germanStems = []string{"dreißig", "neunzig", "achtzig", "siebzig", "sechzig", "fünfzig", "vierzig", "zwanzig", "hundert", "tausend", "sieben", "sechs", "zwölf", "zehn", "drei", "vier", "fünf", "acht", "neun", "zwei", "eins", "elf", "ein", "und", "sieb", "sech"}

// numberWord reports a word that is a number's, hyphenated ("quatre-vingt-neuf")
// or glued ("neunundachtzig").
func numberWord(w string) bool {
	w = strings.ToLower(strings.Trim(w, ".,;:!?«»\"'()"))
	if w == "" {
		return false
	}
	if numberWords[w] {
		return true
	}
	if strings.Contains(w, "-") {
		for _, p := range strings.Split(w, "-") {
			if !numberWords[p] {
				return false
			}
		}
		return true
	}
	return gluedGerman(w)
}

// gluedGerman reports a German number written as one word.
func gluedGerman(w string) bool {
	if len(w) < 8 {
		return false
	}
	for w != "" {
		found := false
		for _, st := range germanStems {
			if strings.HasPrefix(w, st) {
				w, found = w[len(st):], true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// numberThenWordsRE is a number in digits and what follows it up to the
// sentence's end or a closing parenthesis.
var numberThenWordsRE = regexp.MustCompile(`\d(?:[\d'’.,  ]*\d)?(?:\s?([A-Za-z€$£%]{1,4})\b)?(\s*)(\(?)`)

// withoutNumberReadings removes a number's reading in words right after
// it: in parentheses, the aside whole when it starts with two number words
// or more (a unit may follow: "12 CHF (douze francs suisses)"); without
// them, a run of two number words or more.
func withoutNumberReadings(s string) string {
	locs := numberThenWordsRE.FindAllStringSubmatchIndex(s, -1)
	for i := len(locs) - 1; i >= 0; i-- {
		m := locs[i]
		end, unit, spaced := m[1], m[2] >= 0, m[4] < m[5]
		if unit && numberWord(s[m[2]:m[3]]) {
			// "2013 deux mille treize": no unit, the words read the number.
			end, unit, spaced = m[2], false, m[2] > 0 && s[m[2]-1] == ' '
			for end > 0 && s[end-1] == ' ' {
				end--
			}
		} else if m[6] < m[7] {
			close := strings.IndexByte(s[end:], ')')
			if close < 0 || close > 120 {
				continue
			}
			inner := strings.Fields(s[end : end+close])
			n := 0
			for n < len(inner) && numberWord(inner[n]) {
				n++
			}
			if n >= 1 && len(inner)-n <= 2 {
				start := end - 1
				for start > 0 && s[start-1] == ' ' {
					start--
				}
				s = s[:start] + s[end+close+1:]
			}
			continue
		}
		rest := s[end:]
		words := strings.Fields(rest)
		n := 0
		for n < len(words) && numberWord(words[n]) && !strings.ContainsAny(words[n], ".,;:!?") {
			n++
		}
		if n < len(words) && numberWord(words[n]) {
			n++ // the last takes the sentence's sign with it
		}
		if n < 2 || unit || !spaced || connector[strings.ToLower(words[0])] {
			continue // a run of two words or more right after the number ("3 ans et deux mois" is no reading)
		}
		cut := 0
		for k := 0; k < n; k++ {
			j := strings.Index(rest[cut:], words[k])
			cut += j + len(words[k])
		}
		tail := rest[cut:]
		if last := words[n-1]; strings.TrimRight(last, ".,;:!?") != last {
			tail = last[len(strings.TrimRight(last, ".,;:!?")):] + tail
		}
		s = s[:end] + tail
	}
	return s
}
