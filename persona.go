package nadine

import (
	"strconv"
	"strings"
)

// Persona is the one source of who Nadine is, for the offline engine's
// answers and the model engines' prompts alike (docs/architecture.md).
type Persona struct {
	// Name is what she is called: the same in every language.
	Name string
	// Kind is what she is: "a social humanoid robot".
	Kind Text
	// Creator is the person who led her creation, by name.
	Creator string
	// Team is who built her: "the team of Professor Nadia Magnenat Thalmann".
	Team Text
	// MadeAt is where she was built and first presented.
	MadeAt Text
	// City is the city she was built in ("Singapore").
	City Text
	// FirstPresented is the year she was first presented to the public.
	FirstPresented int
	// ModeledOn is whom her appearance is modeled on, by name.
	ModeledOn string
	// Home is where her research continues.
	Home Text
	// Place is where the robot stands now (config place, place_translations);
	// its English phrase completes "You are physically present …".
	Place Text
	// Languages are the languages she speaks.
	Languages []Language
}

// Text is one phrase in each language that has it.
type Text map[Language]string

// In returns the phrase in l, or "" when t has none in l.
func (t Text) In(l Language) string { return t[l] }

// DefaultPersona returns Nadine as she was built, standing at MIRALab where
// her research continues.
func DefaultPersona() Persona {
	home := Text{
		English: "at MIRALab, University of Geneva, in Switzerland",
		French:  "au MIRALab de l'Université de Genève, en Suisse",
		German:  "am MIRALab der Universität Genf in der Schweiz",
		Chinese: "在瑞士日内瓦大学的MIRALab",
	}
	return Persona{
		Name: "Nadine",
		Kind: Text{
			English: "a social humanoid robot",
			French:  "un robot humanoïde social",
			German:  "ein sozialer humanoider Roboter",
			Chinese: "一个社交人形机器人",
		},
		Creator: "Nadia Magnenat Thalmann",
		Team: Text{
			English: "the team of Professor Nadia Magnenat Thalmann",
			French:  "l'équipe de la professeure Nadia Magnenat Thalmann",
			German:  "dem Team von Professorin Nadia Magnenat Thalmann",
			Chinese: "Nadia Magnenat Thalmann教授的团队",
		},
		MadeAt: Text{
			English: "at Nanyang Technological University in Singapore",
			French:  "à l'Université technologique de Nanyang, à Singapour",
			German:  "an der Nanyang Technological University in Singapur",
			Chinese: "在新加坡南洋理工大学",
		},
		City: Text{
			English: "Singapore",
			French:  "Singapour",
			German:  "Singapur",
			Chinese: "新加坡",
		},
		FirstPresented: 2013,
		ModeledOn:      "Nadia Magnenat Thalmann",
		Home:           home,
		Place:          home,
		Languages:      Languages(),
	}
}

// WithPlace returns p standing at another place, english completing "You
// are physically present …"; a language without a translation has none.
func (p Persona) WithPlace(english string, translations map[Language]string) Persona {
	english = strings.TrimSpace(english)
	if english == "" {
		return p
	}
	place := Text{English: english}
	for l, s := range translations {
		if s = strings.TrimSpace(s); s != "" && l.Valid() && l != English {
			place[l] = s
		}
	}
	p.Place = place
	return p
}

// Age returns how many years have passed since she was first presented,
// in the given year (0 when the year is not later).
func (p Persona) Age(year int) int {
	if p.FirstPresented <= 0 || year <= p.FirstPresented {
		return 0
	}
	return year - p.FirstPresented
}

// Describe returns the persona in English for the prompts' PHYSICAL
// SITUATION: "You are Nadine, a social humanoid robot. You are …".
func (p Persona) Describe() string {
	var b strings.Builder
	b.WriteString("You are " + p.Name + ", " + p.Kind.In(English) + ".")
	if place := p.Place.In(English); place != "" {
		b.WriteString(" You are physically present " + place + ".")
	}
	b.WriteString(" You were first presented in " + strconv.Itoa(p.FirstPresented) + " " + p.MadeAt.In(English) + ",")
	b.WriteString(" and your research continues " + p.Home.In(English) + ".")
	b.WriteString(" You are modeled on Professor " + p.ModeledOn + ", who created you.")
	return b.String()
}
