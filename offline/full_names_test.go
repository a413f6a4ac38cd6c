package offline_test

import (
	"fmt"
	"hash/fnv"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/testrun"
	"github.com/nadine-robot/nadine/offline"
)

// fullNameAxes are German introductions of whole names, written for this
// test from the visitor's side (regional greetings, formal frames, titles,
// family names that are also words), not from the examples: a greeting, a
// frame (%s the name), a name and what follows it.
var fullNameAxes = introAxes{
	greetings: []string{"Grüß Gott", "Servus", "Moin moin", "Grüezi", "Guten Tag", "Hallo zusammen", "Tach", "Hallo Nadine", "Guten Abend", "Hoi"},
	intros: []string{"ich bin %s", "mein Name ist %s", "%s mein Name", "ich heiße %s", "hier ist %s", "gestatten, %s",
		"darf ich mich vorstellen, %s", "ich bin die %s", "ich bin der %s", "man nennt mich %s"},
	names: []string{"Anna Müller", "Franz Huber", "Jonas Klein", "Maria Schneider", "Klaus Richter", "Sabine Schwarz",
		"Frau Dr. Weber", "Herr Becker", "Thomas Schulz", "Lea Fischer", "Sepp Gruber", "Ursula Koch"},
	tails: []string{"", ", freut mich sehr", " aus Innsbruck", ", ich bin zum ersten Mal hier", ", und wer bist du", " und das ist meine Tochter"},
}

// TestFullNameAxes crosses fullNameAxes in one turn with the greeting and
// as the second turn after her greeting, a third lowercase without
// punctuation as speech to text gives it: every one is an introduction
// whose reply says the name (given or family). A quarter of the
// combinations, by a hash fixed before any result was read, is held out
// and its misses are never printed.
func TestFullNameAxes(t *testing.T) {
	testrun.SkipUnderRace(t)
	t.Parallel() // reads the shared model, writes nothing shared
	e := testEngine(offline.Options{})
	a := fullNameAxes
	lang := nadine.German
	var tuned, held introScore
	joints := []string{", ", "! ", " ", ". "}
	for gi, g := range a.greetings {
		for ii, form := range a.intros {
			for ni, name := range a.names {
				for ti, tail := range a.tails {
					if (gi*7+ii*5+ni*3+ti)%13 != 0 {
						continue
					}
					if strings.Contains(form, "die") && !feminine(name) || strings.Contains(form, "der") && feminine(name) ||
						strings.HasPrefix(name, "Herr") && strings.Contains(form, "ich bin d") || strings.HasPrefix(name, "Frau") && strings.Contains(form, "ich bin d") {
						continue // "ich bin die Anna", "ich bin der Franz": the article agrees
					}
					intro := strings.ReplaceAll(form, "%s", name) + tail
					text := g + joints[(gi+ni)%len(joints)] + intro
					if (ni+ti)%3 == 0 {
						text = strings.ToLower(strings.NewReplacer(",", "", "!", "", ".", "").Replace(text))
						intro = strings.ToLower(strings.NewReplacer(",", "", "!", "", ".", "").Replace(intro))
					}
					h := fnv.New32a()
					fmt.Fprintf(h, "fullname/%s/%s/%s/%s", g, form, name, tail)
					part, heldOut := &tuned, h.Sum32()%4 == 0
					if heldOut {
						part = &held
					}
					part.scoreFull(t, e, lang, g, text, intro, name, heldOut)
				}
			}
		}
	}
	t.Logf("full names: tuned %s; held out %s", tuned, held)
	// Floors: the scores reached (tuned 338 and 340 of 340, held out 147
	// and 148 of 148) less a margin for training's chance; on main before
	// the rules it led to, 255 and 253, held out 107 and 104.
	for _, f := range []struct {
		what      string
		got, most int
	}{{"tuned one turn", tuned.one, 336}, {"tuned second turn", tuned.two, 338}, {"held out one turn", held.one, 145}, {"held out second turn", held.two, 146}} {
		if f.got < f.most {
			t.Errorf("%s: %d whole names said back, fewer than the %d measured", f.what, f.got, f.most)
		}
	}
}

// feminine reports whether a name of fullNameAxes is a woman's.
func feminine(name string) bool {
	first := strings.Fields(name)[0]
	return first == "Frau" || strings.HasSuffix(first, "a") || first == "Lea" || first == "Sabine"
}

// scoreFull is score for a whole name: the reply says its given or its
// family name.
func (s *introScore) scoreFull(t *testing.T, e *offline.Engine, lang nadine.Language, g, text, intro, name string, heldOut bool) {
	t.Helper()
	words := strings.Fields(name)
	says := func(r result) bool {
		if r.intent() != "name" {
			return false
		}
		low := strings.ToLower(r.reply.Text)
		return strings.Contains(low, strings.ToLower(words[len(words)-1])) || strings.Contains(low, strings.ToLower(words[0])) && words[0] != "Frau" && words[0] != "Herr"
	}
	s.total++
	r := respond(t, e, nadine.Turn{Text: text, Language: lang})
	if says(r) {
		s.one++
	} else if !heldOut {
		t.Logf("one turn %q → %s %q", text, r.intent(), r.reply.Text)
	}
	hist := []nadine.Message{{Role: nadine.RoleUser, Content: g}, {Role: nadine.RoleAssistant, Content: greetedBack[lang]}}
	r2 := respond(t, e, nadine.Turn{Text: intro, Language: lang}, hist...)
	if says(r2) {
		s.two++
	} else if !heldOut {
		t.Logf("second turn %q → %s %q", intro, r2.intent(), r2.reply.Text)
	}
}
