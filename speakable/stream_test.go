package speakable

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/spoken"
)

// wordPieces cuts text into word-sized pieces, as a model streams it (each piece
// a word with the spaces before it).
func wordPieces(text string) []string {
	var out []string
	start := 0
	for i, r := range text {
		if i > start && !unicode.IsSpace(r) && unicode.IsSpace(rune(text[i-1])) {
			out = append(out, text[start:i])
			start = i
		}
	}
	return append(out, text[start:])
}

// streamed is what a stream checked by c, and confirmed by c's reading of
// the reply so far, says of text arriving a word at a time.
func streamed(c *Checker, text string, lang nadine.Language) []string {
	s := spoken.Stream{Check: c.Check(lang), Whole: c.Whole(lang)}
	var said []string
	for _, w := range wordPieces(text) {
		said = append(said, s.Write(w)...)
	}
	return append(said, s.Flush()...)
}

// TestStreamSaysWhatTheWholeReadingKeeps: a sentence of a streamed reply is
// said only when the reply read whole so far keeps it, so what a line is
// from the lines around it is not lost to the stream; plain prose is said
// sentence by sentence as before.
func TestStreamSaysWhatTheWholeReadingKeeps(t *testing.T) {
	c := New([]nadine.Prompt{responsePromptSaying(t, "Tell me about yourself.")})
	for _, tc := range []struct {
		name string
		lang nadine.Language
		in   string
		want []string
	}{
		{"plain prose", nadine.English, "Hello there. I'm Nadine. What brings you here?", []string{"Hello there.", "I'm Nadine.", "What brings you here?"}},
		{"a title underlined on the next line", nadine.French, "Qui suis-je ?\n=============\nUn robot social qui adore les rencontres. Et vous ?", []string{"Un robot social qui adore les rencontres.", "Et vous ?"}},
		{"a definition's term", nadine.French, "Term: Nadine\n: un robot social\nJe suis ravie de vous parler.", []string{"un robot social. Je suis ravie de vous parler."}},
		{"a task list and its lead-in", nadine.French, "Mes talents :\n- [x] sourire\n- [ ] cuisiner\nLequel vous intéresse ?", []string{"Lequel vous intéresse ?"}},
		{"a footnote's line", nadine.French, "Je suis Nadine.[^1]\n\n[^1]: Source. Voir le site du MIRALab.", []string{"Je suis Nadine."}},
		{"a running head after a page's number", nadine.French, "Le MIRALab a été fondé à Genève.\n12\nGuide du visiteur — MIRALab\nIl étudie les humains virtuels.", []string{"Le MIRALab a été fondé à Genève.", "Il étudie les humains virtuels."}},
		{"a FAQ's answer label", nadine.French, "Q. Où est la sortie ? R. La sortie est à gauche de l'accueil.", []string{"Où est la sortie ?", "La sortie est à gauche de l'accueil."}},
		{"a table's cells", nadine.French, "| Jour | Horaire |\n|---|---|\n| Lun. | fermé |\n| Mar. | 10 h |\nJe vous attends !", []string{"Je vous attends !"}},
		{"a formula's sentence end", nadine.English, "Hello! The formula is $E = mc^2$. Physics is fascinating, isn't it?", []string{"Hello!", "Physics is fascinating, isn't it?"}},
		{"an element's content", nadine.French, "Je suis Nadine.<ref>Thalmann, N. (2013). Genève.</ref> Je vous souhaite une belle visite.", []string{"Je suis Nadine.", "Je vous souhaite une belle visite."}},
		{"a quoted card", nadine.German, "> Nadine – sozialer Roboter\n> Kontakt: info@miralab.ch\nHallo! Ich erzähle dir gern etwas über mich.", []string{"Hallo!", "Ich erzähle dir gern etwas über mich."}},
		{"words a soft break joined", nadine.French, "Pardon, je n'ai pas bien<wbr>compris. Pouvez-vous répéter ?", []string{"Pardon, je n'ai pas bien compris.", "Pouvez-vous répéter ?"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := streamed(c, tc.in, tc.lang); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("said %q, want %q", got, tc.want)
			}
		})
	}
}

// TestStreamWaitsOnlyForTheNextLine: a sentence is said as soon as a word
// of the next has come; one that ends its line waits for the next line's
// first two words, which may make it a heading.
func TestStreamWaitsOnlyForTheNextLine(t *testing.T) {
	c := New([]nadine.Prompt{responsePromptSaying(t, "Tell me about yourself.")})
	s := spoken.Stream{Check: c.Check(nadine.English), Whole: c.Whole(nadine.English)}
	for _, step := range []struct{ write, want string }{
		{"Hello there. ", ""},
		{"I'm", "Hello there."},
		{" Nadine.\n", ""},
		{"Welcome", ""},
		{" to the lab\n", "I'm Nadine."},
		{"=====", ""},
		{"=====\nEnjoy your", ""},
		{" visit!", ""},
	} {
		if got := strings.Join(s.Write(step.write), "|"); got != step.want {
			t.Fatalf("after %q said %q, want %q", step.write, got, step.want)
		}
	}
	if got := strings.Join(s.Flush(), "|"); got != "Enjoy your visit!" { // "Welcome to the lab" was a title
		t.Fatalf("said %q at the end, want the last sentence", got)
	}
}

// TestStreamAgreesWithTheWholeReading runs every reply of the hostile tables
// that a graph engine streams (the sealed table is never read) through the
// stream and through the reading of the whole reply, and counts the replies
// of which the stream says a sentence the whole reading does not keep, found
// as the stream finds it (spoken.Holds). At
// stop 47 the stream decided each sentence alone: 97 of 3,558 replies.
func TestStreamAgreesWithTheWholeReading(t *testing.T) {
	if testing.Short() {
		t.Skip("reads every table (not under -short)")
	}
	c := New([]nadine.Prompt{responsePromptSaying(t, "Tell me about yourself.")})
	n, differ := 0, 0
	for _, name := range []string{"tuned", "probe", "probe2", "probe3", "probe4", "probe5", "probe6", "probe7", "probe8", "probe9", "probe10",
		"probe11", "probe12", "probe13", "probe14a", "probe14b", "probe14d", "probe15a", "probe15b", "probe16a", "probe16b", "probe17",
		"probe18e", "probe18m", "probe19e", "probe19m", "probe20m", "probe21a", "probe21b", "probe22g", "probe22r", "probe23b", "probe23v",
		"probe24w", "probe25p", "probe25w"} {
		b, err := os.ReadFile("../testdata/hostile/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var set struct {
			Cases []struct{ ID, Engine, Language, Output string }
		}
		if err := json.Unmarshal(b, &set); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, k := range set.Cases {
			if k.Engine == "react" {
				continue
			}
			lang, err := nadine.ParseLanguage(k.Language)
			if err != nil {
				lang = nadine.English
			}
			said := streamed(c, k.Output, lang)
			if len(said) == 0 {
				continue // nothing streamed: the engine reads the reply whole
			}
			n++
			whole, _, err := c.Reply(k.Output, lang)
			if err != nil {
				whole = ""
			}
			for _, s := range said {
				if !spoken.Holds(whole, s) {
					differ++
					t.Logf("%s %s: the stream said %q, the whole reading %q", name, k.ID, s, whole)
					break
				}
			}
		}
	}
	t.Logf("replies streamed: %d; the stream said what the whole reading does not keep in %d", n, differ)
	if differ > streamDiffers {
		t.Errorf("%d replies streamed differently from their whole reading (at most %d measured)", differ, streamDiffers)
	}
}

// streamDiffers is what TestStreamAgreesWithTheWholeReading measures at
// stop 48: a stream cannot know what comes later on a sentence's line (a
// section's marker after a greeting) nor a refusal of the whole reply for
// what follows a harmless first sentence.
const streamDiffers = 25
