package config

import (
	"strings"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
)

// maxPlaceChars bounds place and its translations: a place is said in one
// sentence.
const maxPlaceChars = 200

// PlaceTranslationsConfig says where the robot stands in French, German and
// Chinese, each completing "I am …" the way place does in English ("au
// Musée suisse des transports", "im Verkehrshaus der Schweiz", "在瑞士交通博物馆").
// Without place, the built-in place (MIRALab) is said in every language;
// with place but no translation for a language, Nadine says the place's name
// as written.
type PlaceTranslationsConfig struct {
	FR string `yaml:"fr"`
	DE string `yaml:"de"`
	ZH string `yaml:"zh"`
}

// byLanguage returns the translations that are set.
func (p PlaceTranslationsConfig) byLanguage() map[nadine.Language]string {
	out := map[nadine.Language]string{}
	for l, s := range map[nadine.Language]string{nadine.French: p.FR, nadine.German: p.DE, nadine.Chinese: p.ZH} {
		if s = strings.TrimSpace(s); s != "" {
			out[l] = s
		}
	}
	return out
}

// validatePersona checks place and place_translations: one line each, at
// most maxPlaceChars characters, translations only with a place.
func (c *Config) validatePersona(bad func(field, format string, args ...any)) {
	checkPlace(bad, "place", c.Place)
	tr := c.PlaceTranslations
	for _, f := range []struct{ field, value string }{{"place_translations.fr", tr.FR}, {"place_translations.de", tr.DE}, {"place_translations.zh", tr.ZH}} {
		checkPlace(bad, f.field, f.value)
		if strings.TrimSpace(f.value) != "" && strings.TrimSpace(c.Place) == "" {
			bad(f.field, "needs place: it translates place")
		}
	}
}

// checkPlace checks a place or its translation: one line, at most
// maxPlaceChars characters.
func checkPlace(bad func(field, format string, args ...any), field, s string) {
	if strings.ContainsAny(s, "\n\r") {
		bad(field, "must be one line")
	}
	if n := utf8.RuneCountInString(s); n > maxPlaceChars {
		bad(field, "must be at most %d characters (got %d)", maxPlaceChars, n)
	}
}

// Persona is who Nadine is in this deployment: the built-in persona,
// standing at place when one is configured.
func (c *Config) Persona() nadine.Persona {
	return nadine.DefaultPersona().WithPlace(c.Place, c.PlaceTranslations.byLanguage())
}
