package nadine_test

import (
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
)

func TestDefaultPersona(t *testing.T) {
	p := nadine.DefaultPersona()
	for _, l := range nadine.Languages() {
		for name, text := range map[string]nadine.Text{"kind": p.Kind, "team": p.Team, "made_at": p.MadeAt, "city": p.City,
			"home": p.Home, "place": p.Place} {
			if strings.TrimSpace(text.In(l)) == "" {
				t.Errorf("%s has no %s", l, name)
			}
		}
	}
	if got := p.Age(2025); got != 12 {
		t.Errorf("Age(2025) = %d", got)
	}
	if got := p.Age(2013); got != 0 {
		t.Errorf("Age(2013) = %d", got)
	}
	d := p.Describe()
	for _, w := range []string{"You are Nadine, a social humanoid robot.", "You are physically present at MIRALab, University of Geneva, in Switzerland.",
		"2013 at Nanyang Technological University in Singapore", "modeled on Professor Nadia Magnenat Thalmann"} {
		if !strings.Contains(d, w) {
			t.Errorf("Describe() = %q lacks %q", d, w)
		}
	}
}

func TestPersonaWithPlace(t *testing.T) {
	p := nadine.DefaultPersona().WithPlace(" at the Swiss Museum of Transport ", map[nadine.Language]string{
		nadine.French: "au Musée suisse des transports", nadine.German: "  ", nadine.English: "ignored", "xx": "ignored"})
	if got := p.Place.In(nadine.English); got != "at the Swiss Museum of Transport" {
		t.Errorf("English place %q", got)
	}
	if got := p.Place.In(nadine.French); got != "au Musée suisse des transports" {
		t.Errorf("French place %q", got)
	}
	// No translation: nothing, rather than the old place.
	if got := p.Place.In(nadine.German); got != "" {
		t.Errorf("German place %q", got)
	}
	if !strings.Contains(p.Describe(), "physically present at the Swiss Museum of Transport.") {
		t.Errorf("Describe() = %q", p.Describe())
	}
	// The home of her research does not move with her.
	if !strings.Contains(p.Home.In(nadine.English), "MIRALab") {
		t.Errorf("home %q", p.Home.In(nadine.English))
	}
	if q := nadine.DefaultPersona().WithPlace("  ", nil); q.Place.In(nadine.Chinese) == "" {
		t.Error("a blank place dropped the built-in one")
	}
}
