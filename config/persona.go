package config

import (
	"strings"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
)

// maxPlaceChars: a place is said in one sentence.
const maxPlaceChars = 200

// PlaceTranslationsConfig completes "I am …" in French, German and Chinese as
// place does in English; a language without one hears place as written.
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

// validatePersona: one short line each, translations only with a place.
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

// checkPlace: one line of at most maxPlaceChars characters.
func checkPlace(bad func(field, format string, args ...any), field, s string) {
	if strings.ContainsAny(s, "\n\r") {
		bad(field, "must be one line")
	}
	if n := utf8.RuneCountInString(s); n > maxPlaceChars {
		bad(field, "must be at most %d characters (got %d)", maxPlaceChars, n)
	}
}

// Persona is the built-in persona, standing at place when one is configured.
func (c *Config) Persona() nadine.Persona {
	return nadine.DefaultPersona().WithPlace(c.Place, c.PlaceTranslations.byLanguage())
}
