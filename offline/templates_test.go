package offline

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/langid"
	"github.com/nadine-robot/nadine/spoken"
)

// forbidden are the ways of saying "I don't understand" that the dialogue rules
// rule out, in every language.
var forbidden = []string{"understand", "comprends", "comprend pas", "verstehe", "不明白", "不懂", "不理解"}

// informal are French words of informal address (the rules ask for formal
// address in French).
var informal = map[string]bool{"tu": true, "te": true, "toi": true, "ton": true, "ta": true, "tes": true, "t'": true}

// renderAll renders every wording of every template of every language with
// realistic slot values (composed pieces are rendered as part of the lines
// they compose).
func renderAll(t *testing.T) map[nadine.Language]map[string][]string {
	t.Helper()
	e := New(Options{Now: func() time.Time { return time.Date(2025, 12, 31, 23, 59, 0, 0, time.UTC) }, Location: time.UTC})
	now := e.now()
	out := make(map[nadine.Language]map[string][]string)
	for _, lang := range nadine.Languages() {
		out[lang] = make(map[string][]string)
		s := slots{
			name: "Jean-Pierre Dupont",
			time: formatTime(now, lang),
			date: formatDate(now, lang, e.calendars[lang], &e.ordinals),
			song: "Frère Jacques",
			fact: e.line(lang, tFactCompany, slots{fact: "Acme"}),
			lang: e.langNames[lang][nadine.German],
			from: "Lyon",
		}
		tr := &turn{e: e}
		for _, key := range templateKeys() {
			if partKeys[key] {
				continue
			}
			for _, l := range e.replies[lang][key] {
				out[lang][key] = append(out[lang][key], tr.render(l, s, lang))
			}
		}
	}
	return out
}

func TestTemplatesComplete(t *testing.T) {
	table := replyTable()
	placeholder := regexp.MustCompile(`\{[^}]*\}`)
	known := map[string]bool{}
	for _, p := range []string{"name", "time", "date", "song", "fact", "lang", "me", "kind", "team", "made_at", "city",
		"year", "age", "home", "place", "creator", "modeled", "from"} {
		known["{"+p+"}"] = true
	}
	for _, lang := range nadine.Languages() {
		for _, key := range templateKeys() {
			lines := table[lang][key]
			if len(lines) == 0 {
				t.Errorf("%s: template %q missing", lang, key)
			}
			for _, l := range lines {
				for _, p := range placeholder.FindAllString(l, -1) {
					if !known[p] {
						t.Errorf("%s %s: unknown placeholder %s in %q", lang, key, p, l)
					}
				}
			}
		}
		if got, want := len(table[lang]), len(templateKeys()); got != want {
			t.Errorf("%s: %d templates, want %d (a key outside templateKeys?)", lang, got, want)
		}
	}
}

// TestTemplatesShortEnoughToSay holds every line to the 30-word rule.
func TestTemplatesShortEnoughToSay(t *testing.T) {
	for lang, keys := range renderAll(t) {
		for key, lines := range keys {
			for _, l := range lines {
				if n := spokenWords(l); n > maxWords {
					t.Errorf("%s %s: %d words in %q", lang, key, n, l)
				}
			}
		}
	}
}

// TestTemplatesInTheirLanguage runs the language detector over every line:
// a line it recognizes must be in its table's language.
func TestTemplatesInTheirLanguage(t *testing.T) {
	det, err := langid.New()
	if err != nil {
		t.Fatal(err)
	}
	unsure := 0
	total := 0
	for lang, keys := range renderAll(t) {
		for key, lines := range keys {
			for _, l := range lines {
				total++
				got, _, ok := det.Detect(l)
				if !ok {
					unsure++
					continue
				}
				if got != lang {
					t.Errorf("%s %s: %q detected as %s", lang, key, l, got)
				}
			}
		}
	}
	if unsure*10 > total {
		t.Errorf("the detector was unsure of %d of %d lines", unsure, total)
	}
}

func TestTemplatesAtMostTwoSentences(t *testing.T) {
	for lang, keys := range renderAll(t) {
		for key, lines := range keys {
			for _, l := range lines {
				if got := spoken.SplitSentences(l); len(got) > 2 || len(got) == 0 {
					t.Errorf("%s %s: %d sentences in %q: %q", lang, key, len(got), l, got)
				}
			}
		}
	}
}

func TestTemplatesNeverSayTheyDoNotUnderstand(t *testing.T) {
	for lang, keys := range renderAll(t) {
		for key, lines := range keys {
			for _, l := range lines {
				for _, f := range forbidden {
					if strings.Contains(strings.ToLower(l), f) {
						t.Errorf("%s %s: %q contains %q", lang, key, l, f)
					}
				}
			}
		}
	}
}

func TestTemplatesFrenchIsFormal(t *testing.T) {
	vous := 0
	for key, lines := range renderAll(t)[nadine.French] {
		for _, l := range lines {
			for _, tok := range analyze(l).tokens {
				if informal[tok.norm] || strings.HasPrefix(tok.norm, "t'") {
					t.Errorf("%s: informal %q in %q", key, tok.orig, l)
				}
				if tok.norm == "vous" || tok.norm == "votre" {
					vous++
				}
			}
		}
	}
	if vous < 10 {
		t.Errorf("French templates say vous/votre %d times; the formal address is missing", vous)
	}
}

func TestTemplatesStayInTheirLanguage(t *testing.T) {
	// Each language's lines must not be another language's lines: the
	// switch confirmation in particular is said in the new language.
	all := renderAll(t)
	for _, lang := range nadine.Languages() {
		for _, other := range nadine.Languages() {
			if other == lang {
				continue
			}
			if a, b := all[lang][tLangSwitch][0], all[other][tLangSwitch][0]; a == b {
				t.Errorf("%s and %s share the switch line %q", lang, other, a)
			}
		}
	}
	if got := all[nadine.Chinese][tDefault][0]; !hasHan(got) {
		t.Errorf("Chinese default line has no Chinese: %q", got)
	}
}

func TestFormatTimeAndDate(t *testing.T) {
	e := New(Options{})
	tests := []struct {
		at           time.Time
		lang         nadine.Language
		wantT, wantD string
	}{
		{time.Date(2025, 3, 3, 15, 5, 0, 0, time.UTC), nadine.English, "3:05 PM", "Monday, March 3, 2025"},
		{time.Date(2025, 3, 3, 0, 7, 0, 0, time.UTC), nadine.English, "12:07 AM", "Monday, March 3, 2025"},
		{time.Date(2025, 3, 3, 12, 0, 0, 0, time.UTC), nadine.English, "12:00 PM", "Monday, March 3, 2025"},
		{time.Date(2025, 3, 3, 15, 5, 0, 0, time.UTC), nadine.French, "15 h 05", "lundi 3 mars 2025"},
		{time.Date(2025, 8, 1, 9, 30, 0, 0, time.UTC), nadine.French, "9 h 30", "vendredi 1er août 2025"},
		{time.Date(2025, 3, 3, 15, 5, 0, 0, time.UTC), nadine.German, "15:05 Uhr", "Montag, der dritte März 2025"},
		{time.Date(2024, 12, 31, 23, 59, 0, 0, time.UTC), nadine.German, "23:59 Uhr", "Dienstag, der einunddreißigste Dezember 2024"},
		{time.Date(2025, 3, 3, 15, 5, 0, 0, time.UTC), nadine.Chinese, "15点05分", "2025年3月3日星期一"},
		{time.Date(2025, 3, 9, 8, 0, 0, 0, time.UTC), nadine.Chinese, "8点00分", "2025年3月9日星期日"},
	}
	for _, tt := range tests {
		if got := formatTime(tt.at, tt.lang); got != tt.wantT {
			t.Errorf("formatTime(%v, %s) = %q, want %q", tt.at, tt.lang, got, tt.wantT)
		}
		if got := formatDate(tt.at, tt.lang, e.calendars[tt.lang], &e.ordinals); got != tt.wantD {
			t.Errorf("formatDate(%v, %s) = %q, want %q", tt.at, tt.lang, got, tt.wantD)
		}
	}
}

func TestNormalizeWord(t *testing.T) {
	tests := map[string]string{
		"Hello":           "hello",
		"Tschüss":         "tschuess",
		"GRÜSS":           "gruess",
		"heiße":           "heisse",
		"Fâchez":          "fachez",
		"m’appelle":       "m'appelle",
		"Ça":              "ca",
		"Œuvre":           "oeuvre",
		"e\u0301te\u0301": "ete",
		"你好":              "你好",
	}
	for in, want := range tests {
		if got := normalizeWord(in); got != want {
			t.Errorf("normalizeWord(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAnalyzeClausesAndScripts(t *testing.T) {
	a := analyze("Hello, je m'appelle Jean-Pierre! 我叫Alex")
	var got []string
	for _, tok := range a.tokens {
		s := tok.norm
		if tok.hyphen {
			s = "-" + s
		}
		got = append(got, s+"@"+string(rune('0'+tok.clause)))
	}
	want := []string{"hello@0", "je@1", "m'appelle@1", "jean@1", "-pierre@1", "我叫@2", "alex@2"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("tokens = %v, want %v", got, want)
	}
	if !a.han || !a.letters {
		t.Errorf("han=%v letters=%v, want both", a.han, a.letters)
	}
}
