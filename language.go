package nadine

import (
	"fmt"
	"strings"
)

// Language is a supported spoken language, as a lowercase ISO 639-1 code.
type Language string

// The languages Nadine speaks. English is the default (the language rule: "reply in
// the language of the latest input, defaulting to English").
const (
	English Language = "en"
	French  Language = "fr"
	German  Language = "de"
	Chinese Language = "zh"
)

// DefaultLanguage is used when a turn names no language.
const DefaultLanguage = English

// Languages returns every supported language, English first.
func Languages() []Language { return []Language{English, French, German, Chinese} }

type languageInfo struct {
	locale string
	name   string
	// names lists lowercase ways people write the language's name, in
	// several languages, used by ParseLanguage.
	names []string
}

func (l Language) info() (languageInfo, bool) {
	switch l {
	case English:
		return languageInfo{"en-US", "English", []string{"english", "anglais", "englisch", "inglés", "ingles", "inglese", "英语", "英文", "英語"}}, true
	case French:
		return languageInfo{"fr-FR", "French", []string{"french", "français", "francais", "französisch", "franzosisch", "francés", "frances", "francese", "法语", "法文", "法語"}}, true
	case German:
		return languageInfo{"de-DE", "German", []string{"german", "allemand", "deutsch", "alemán", "aleman", "tedesco", "德语", "德文", "德語"}}, true
	case Chinese:
		return languageInfo{"zh-CN", "Chinese", []string{"chinese", "mandarin", "chinois", "chinesisch", "chino", "cinese", "中文", "汉语", "普通话", "漢語", "國語"}}, true
	}
	return languageInfo{}, false
}

// Valid reports whether l is a supported language.
func (l Language) Valid() bool { _, ok := l.info(); return ok }

// Locale returns the BCP 47 locale tag that text-to-speech uses for l, such
// as "fr-FR". An unsupported language yields the default's locale.
func (l Language) Locale() string {
	if i, ok := l.info(); ok {
		return i.locale
	}
	return "en-US"
}

// Name returns the English name of the language, such as "French".
func (l Language) Name() string {
	if i, ok := l.info(); ok {
		return i.name
	}
	return string(l)
}

// Or returns l when it is valid and def otherwise.
func (l Language) Or(def Language) Language {
	if l.Valid() {
		return l
	}
	return def
}

// ParseLanguage accepts a code, a locale ("zh_CN") or a name in any supported
// language ("français", "中文"), also as one word of a phrase ("speak French").
func ParseLanguage(s string) (Language, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "" {
		return "", Errorf(EINVALID, "empty language")
	}
	code := t
	if i := strings.IndexAny(code, "-_"); i > 0 {
		code = code[:i]
	}
	if l := Language(code); l.Valid() {
		return l, nil
	}
	for _, l := range Languages() {
		i, _ := l.info()
		for _, n := range i.names {
			if t == n {
				return l, nil
			}
		}
	}
	words := strings.FieldsFunc(t, func(r rune) bool {
		return r == ' ' || r == ',' || r == '.' || r == '!' || r == '?' || r == '\'' || r == '"' || r == '|'
	})
	for _, w := range words {
		for _, l := range Languages() {
			i, _ := l.info()
			for _, n := range i.names {
				if w == n {
					return l, nil
				}
			}
		}
	}
	// CJK names are not separated by spaces.
	for _, l := range Languages() {
		i, _ := l.info()
		for _, n := range i.names {
			if len([]rune(n)) > 1 && n[0] >= 0x80 && strings.Contains(t, n) {
				return l, nil
			}
		}
	}
	return "", Errorf(EINVALID, "unsupported language %q (supported: English, French, German, Chinese)", s)
}

// String returns the language code.
func (l Language) String() string { return string(l) }

// MarshalText implements encoding.TextMarshaler.
func (l Language) MarshalText() ([]byte, error) { return []byte(l), nil }

// UnmarshalText implements encoding.TextUnmarshaler; it accepts everything
// ParseLanguage does and the empty string (no language given).
func (l *Language) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*l = ""
		return nil
	}
	p, err := ParseLanguage(string(b))
	if err != nil {
		return fmt.Errorf("language: %w", err)
	}
	*l = p
	return nil
}
