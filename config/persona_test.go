package config

import (
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
)

func TestConfigPersona(t *testing.T) {
	path := writeConfig(t, "place: at the Swiss Museum of Transport\nplace_translations: {fr: au Musée suisse des transports}\n")
	cfg, err := Load(path, envMap(map[string]string{"NADINE_PLACE_TRANSLATIONS_DE": "im Verkehrshaus"}))
	if err != nil {
		t.Fatal(err)
	}
	p := cfg.Persona()
	want := map[nadine.Language]string{nadine.English: "at the Swiss Museum of Transport", nadine.French: "au Musée suisse des transports",
		nadine.German: "im Verkehrshaus", nadine.Chinese: ""}
	for l, w := range want {
		if got := p.Place.In(l); got != w {
			t.Errorf("place in %s = %q, want %q", l, got, w)
		}
	}
	if p.Name != "Nadine" || p.Creator == "" {
		t.Errorf("persona %+v", p)
	}
	// No place: the built-in one in every language.
	def, err := Load("", envMap(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := def.Persona().Place.In(nadine.Chinese); !strings.Contains(got, "MIRALab") {
		t.Errorf("default place in Chinese = %q", got)
	}
}

func TestConfigPersonaErrorsNameTheField(t *testing.T) {
	tests := []struct {
		name, file string
		env        map[string]string
		want       string
	}{
		{"translation without a place", "place_translations: {zh: 在博物馆}\n", nil, "place_translations.zh"},
		{"two lines", "place: \"at home\\nand away\"\n", nil, "config: place: must be one line"},
		{"too long", "place: " + strings.Repeat("a", maxPlaceChars+1) + "\n", nil, "config: place: must be at most"},
		{"env translation too long", "place: at home\n", map[string]string{"NADINE_PLACE_TRANSLATIONS_FR": strings.Repeat("é", maxPlaceChars+1)}, "place_translations.fr"},
		{"unknown language", "place: at home\nplace_translations: {es: en casa}\n", nil, "es"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(writeConfig(t, tt.file), envMap(tt.env))
			if err == nil || !strings.Contains(unlocated(err), tt.want) {
				t.Fatalf("err = %v, want it to name %q", err, tt.want)
			}
		})
	}
}
