package offline_test

import (
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/testrun"
	"github.com/nadine-robot/nadine/offline"
)

// TestNameAfterGreeting crosses independent axes (greetings, the ways of
// giving a name, names that are also words, the joints between them) and
// checks that every combination is an introduction with the name, not a
// greeting: an utterance that carries a greeting and a name is decided by
// its parts, and the name wins.
func TestNameAfterGreeting(t *testing.T) {
	testrun.SkipUnderRace(t)
	t.Parallel() // reads the shared model, writes nothing shared
	axes := map[nadine.Language]struct{ greetings, intros, names []string }{
		nadine.English: {[]string{"Hello", "Hi there", "Good evening", "Hey Nadine", "Morning"},
			[]string{"I'm %s", "my name is %s", "it's %s here", "I am %s", "call me %s"},
			[]string{"Anna", "Rose", "Will", "Grace", "Mark", "Hope"}},
		nadine.French: {[]string{"Bonjour", "Salut", "Bonsoir Nadine", "Coucou", "Bonjour madame"},
			[]string{"je suis %s", "moi c'est %s", "je m'appelle %s", "c'est %s", "on m'appelle %s"},
			[]string{"Anna", "Marie", "Rose", "Pierre", "Olive", "Claire"}},
		nadine.German: {[]string{"Hallo", "Guten Tag", "Servus", "Moin", "Grüß Gott", "Hallo Nadine"},
			[]string{"ich bin die %s", "ich bin der %s", "ich heiße %s", "mein Name ist %s", "ich bin %s"},
			[]string{"Anna", "Rosa", "Klara", "Hans", "Frank", "Ernst"}},
		nadine.Chinese: {[]string{"你好", "您好", "嗨", "早上好", "你好呀"},
			[]string{"我叫%s", "我是%s", "叫我%s就行", "我的名字是%s"},
			[]string{"王芳", "李明", "张静", "刘洋"}},
	}
	e := testEngine(offline.Options{})
	total, failed := 0, 0
	for lang, ax := range axes {
		joints := []string{", ", "! ", " ", ". "}
		if lang == nadine.Chinese {
			joints = []string{"，", "！", "", " "}
		}
		for gi, g := range ax.greetings {
			for ii, in := range ax.intros {
				for ni, name := range ax.names {
					// Every intro and name, with greetings and joints in turn.
					if (gi+ii+ni)%len(ax.greetings) != 0 && (ii+ni)%2 == 1 {
						continue
					}
					joint := joints[(gi+ii+ni)%len(joints)]
					text := g + joint + strings.Replace(in, "%s", name, 1)
					if (ni+gi)%3 == 0 && lang != nadine.Chinese {
						text = strings.ToLower(text) // speech to text without capitals
					}
					total++
					r := respond(t, e, nadine.Turn{Text: text, Language: lang})
					if r.intent() != "name" || !strings.Contains(strings.ToLower(r.reply.Text), strings.ToLower(name)) {
						failed++
						t.Logf("%s %q → %s %q", lang, text, r.intent(), r.reply.Text)
					}
				}
			}
		}
	}
	// What a person says of themself after a greeting is no name.
	for lang, states := range map[nadine.Language][]string{
		nadine.English: {"Hi, I'm exhausted", "hello i'm so tired today", "Hey, I'm really stressed"},
		nadine.French:  {"Bonjour, je suis fatiguée", "salut je suis crevé", "Bonsoir, je suis stressée"},
		nadine.German:  {"Hallo, ich bin müde", "servus ich bin total kaputt", "Guten Tag, ich bin gestresst"},
		nadine.Chinese: {"你好，我很累", "嗨，我好困", "您好，我压力好大"},
	} {
		for _, text := range states {
			if r := respond(t, e, nadine.Turn{Text: text, Language: lang}); r.intent() == "name" {
				t.Errorf("%s %q → a name: %q", lang, text, r.reply.Text)
			}
		}
	}
	t.Logf("names after a greeting: %d/%d right", total-failed, total)
	if failed*10 > total { // at least 90%: lowercase names that are words ("will") and 我的名字是 after a greeting still miss
		t.Errorf("names after a greeting: %d of %d missed", failed, total)
	}
}

// TestSplitContractions: speech to text writes "c'est" as "c est" and
// "don't" as "don t"; each utterance with its apostrophes replaced by spaces
// is understood as written, the name included.
func TestSplitContractions(t *testing.T) {
	e := testEngine(offline.Options{})
	for lang, says := range map[nadine.Language][]string{
		nadine.French: {"moi c'est Bastien", "bonjour, moi c'est Léa", "j'ai réussi mon permis", "qu'est-ce que tu sais faire",
			"je m'appelle Hugo", "t'es vraiment nulle", "c'est quoi l'heure", "j'suis crevé aujourd'hui", "tu t'appelles comment",
			"qu'est-ce que le MIRALab", "s'il te plaît fais-moi un sourire", "j'en ai marre, t'es bête"},
		nadine.English: {"i'm Sam", "hi, i'm Olivia", "what's the time", "don't be angry", "it's my birthday today", "you're amazing"},
		nadine.German:  {"wie geht's dir", "gibt's hier was zu sehen", "ich hab's geschafft, ich hab die Prüfung bestanden"},
	} {
		for _, say := range says {
			split := strings.NewReplacer("'", " ", "’", " ").Replace(say)
			want := respond(t, e, nadine.Turn{Text: say, Language: lang})
			got := respond(t, e, nadine.Turn{Text: split, Language: lang})
			if got.intent() != want.intent() || want.reply.UserName != got.reply.UserName {
				t.Errorf("%s %q → %s %q; as written %q → %s %q", lang, split, got.intent(), got.reply.UserName, say, want.intent(), want.reply.UserName)
			}
		}
	}
}

// TestBareNameAfterGreeting crosses greetings with names said on their own
// ("Bonsoir. Hélène Garnier."): an introduction; and with what is no name
// after a greeting (thanks, a place, her name, a noun): never one.
func TestBareNameAfterGreeting(t *testing.T) {
	axes := map[nadine.Language]struct{ greetings, names, others []string }{
		nadine.English: {[]string{"Hello.", "Good evening!", "Hi there."},
			[]string{"Tom Baker", "Priya Raman", "Oswin"},
			[]string{"Thanks.", "London.", "Nadine.", "Weather?", "Good."}},
		nadine.French: {[]string{"Bonsoir.", "Bonjour madame !", "Salut."},
			[]string{"Hélène Garnier", "Yannick Morel", "Clothilde"},
			[]string{"Merci.", "Paris.", "Nadine.", "Vous êtes Nadine ?", "Enchantée."}},
		nadine.German: {[]string{"Hallo.", "Guten Abend!", "Servus."},
			[]string{"Anna Schmidt", "Jörg Wendler", "Friederike"},
			[]string{"Danke.", "Wetter.", "Nadine.", "Berlin.", "Alles gut."}},
	}
	e := testEngine(offline.Options{})
	for lang, ax := range axes {
		for _, g := range ax.greetings {
			for _, name := range ax.names {
				text := g + " " + name + "."
				if r := respond(t, e, nadine.Turn{Text: text, Language: lang}); r.intent() != "name" || !strings.Contains(r.reply.Text, name) {
					t.Errorf("%s %q → %s %q, want the name", lang, text, r.intent(), r.reply.Text)
				}
			}
			for _, other := range ax.others {
				text := g + " " + other
				if r := respond(t, e, nadine.Turn{Text: text, Language: lang}); r.intent() == "name" {
					t.Errorf("%s %q → a name: %q", lang, text, r.reply.Text)
				}
			}
		}
	}
	// Between greetings, and lowercase when the examples give it as a name.
	for _, tt := range []struct{ text, name string }{
		{"Bonjour, Jacqueline Martin, enchantée de faire votre connaissance.", "Jacqueline Martin"},
		{"bonsoir. hugo. ravi de vous rencontrer", "Hugo"},
		{"Salut. sophie.", "Sophie"},
		{"Bonsoir. Anne-Sophie Roux. Enchantée.", "Anne-Sophie Roux"},
		{"Bonjour. Paris. Enchantée.", ""},
		{"bonsoir. merci. enchanté.", ""},
		{"salut. fatiguée.", ""},
		// Then what the person does or wants: the name still comes right
		// after the greeting.
		{"Bonsoir. Yannick Morel, notaire, je passe en coup de vent.", "Yannick Morel"},
		{"Bonjour. Paris, c'est loin d'ici ?", ""},
		{"Clothilde, bonjour, je voudrais un renseignement.", ""},
		{"Bonjour. Monsieur, vous êtes qui ?", ""}, // a form of address alone
		{"Bonjour. Yannick Morel, architecte, vous avez une minute ?", "Yannick Morel"},
	} {
		r := respond(t, e, nadine.Turn{Text: tt.text, Language: nadine.French})
		if tt.name != "" && (r.intent() != "name" || !strings.Contains(r.reply.Text, tt.name)) || tt.name == "" && r.intent() == "name" {
			t.Errorf("fr %q → %s %q, want name %q", tt.text, r.intent(), r.reply.Text, tt.name)
		}
	}
}

// TestGreetedCapitalName: in German, a capitalized word the examples do not
// use, where the examples put a name after a greeting, is a name ("Hi, ich
// bin Ben."), though the classifier reads "ich bin" and an unknown word as a
// feeling; a state or a profession the examples know stays what it is, and
// without a greeting a capital shows nothing in German.
func TestGreetedCapitalName(t *testing.T) {
	e := testEngine(offline.Options{})
	for _, c := range []struct {
		text, name string // name "": no introduction
	}{
		{"Hi, ich bin Ben.", "Ben"},
		{"Moin, ich bin Svenja.", "Svenja"},
		{"Hallo, ich bin Ben, freut mich.", "Ben"},
		{"Guten Tag, ich heiße Okonkwo.", "Okonkwo"},
		{"Hallo, ich bin müde.", ""},
		{"Guten Tag, ich bin gestresst.", ""},
		{"Hallo, ich bin Vegetarier.", ""},
		{"Hallo, ich bin Studentin.", ""},
	} {
		r := respond(t, e, nadine.Turn{Text: c.text, Language: nadine.German})
		switch {
		case c.name != "" && (r.intent() != "name" || !strings.Contains(r.reply.Text, c.name)):
			t.Errorf("%q → %s %q, want an introduction of %s", c.text, r.intent(), r.reply.Text, c.name)
		case c.name == "" && r.intent() == "name":
			t.Errorf("%q → a name: %q", c.text, r.reply.Text)
		}
	}
}

// TestIntroductionWithMore crosses introductions with what visitors say
// around them (a greeting or none, a form of giving the name, names with
// hyphens and two words, a tail: "and you?", where they come from, their
// job, "nice to meet you"), a quarter lowercase as speech to text writes:
// the name is read whole and the act is an introduction. "Hello Anna, nice
// to meet you" greets an Anna, so a bare name after a greeting is left out.
func TestIntroductionWithMore(t *testing.T) {
	testrun.SkipUnderRace(t)
	t.Parallel() // reads the shared model, writes nothing shared
	type axes struct{ greetings, intros, names, tails []string }
	for lang, a := range map[nadine.Language]axes{
		nadine.English: {[]string{"", "Hello", "Hi Nadine", "Good morning", "Hey there", "Howdy"},
			[]string{"let me introduce myself, I'm %s", "my name's %s", "I'm called %s", "the name's %s", "%s, nice to meet you", "so I'm %s", "I am %s"},
			[]string{"Luke Dubois", "Mary-Ann", "Kevin", "Ines", "Fatou", "Matt"},
			[]string{"", " and you?", ", I'm from Leeds", ", I teach physics", ", nice to meet you", " and I'm on holiday here"}},
		nadine.French: {[]string{"", "Bonjour", "Salut Nadine", "Bonsoir madame", "Coucou", "Allô", "Bonjour bonjour", "Hello"},
			[]string{"je me présente, %s", "permettez-moi de me présenter, je suis %s", "moi je m'appelle %s", "mon prénom c'est %s", "mon nom est %s", "%s, enchanté", "alors moi c'est %s", "je suis %s", "ici c'est %s"},
			[]string{"Luc Dubois", "Marie-Claire", "Kévin", "Inès", "Jean-Baptiste", "Fatou", "Mathis"},
			[]string{"", " et toi ?", " et vous ?", ", je viens de Lyon", ", je suis professeur de physique", ", ravi de vous rencontrer", " et je suis en vacances ici"}},
		nadine.German: {[]string{"", "Hallo", "Guten Morgen Nadine", "Servus", "Grüezi", "Hi"},
			[]string{"darf ich mich vorstellen, %s", "mein Name ist %s", "ich heiße %s", "ich bin der %s", "%s, freut mich", "also ich bin die %s", "man nennt mich %s"},
			[]string{"Lukas Müller", "Anna-Lena", "Kevin", "Fatma", "Jonas", "Mia"},
			[]string{"", " und du?", " und Sie?", ", ich komme aus Köln", ", ich bin Lehrer", ", freut mich sehr", " und ich bin im Urlaub hier"}},
	} {
		e := testEngine(offline.Options{})
		total, failed := 0, 0
		for gi, g := range a.greetings {
			for ii, in := range a.intros {
				for ni, name := range a.names {
					if g != "" && strings.HasPrefix(in, "%s") {
						continue
					}
					text := strings.Replace(in, "%s", name, 1) + a.tails[(gi+ii+ni)%len(a.tails)]
					if g != "" {
						text = g + []string{", ", "! ", " ", ". "}[(gi+ni)%4] + text
					}
					if (ni+gi+ii)%4 == 0 {
						text = strings.ToLower(text)
					}
					total++
					r := respond(t, e, nadine.Turn{Text: text, Language: lang})
					if r.intent() != "name" || !strings.Contains(strings.ToLower(r.reply.Text), strings.ToLower(strings.Fields(name)[0])) {
						failed++
						t.Logf("%s %q → %s %q", lang, text, r.intent(), r.reply.Text)
					}
				}
			}
		}
		t.Logf("%s: %d of %d introductions read with their name", lang, total-failed, total)
		// Left: "je suis marie-claire" lowercase reads as "je suis mariée"
		// (good news), "X, nice to meet you" with more after it.
		if failed*50 > total {
			t.Errorf("%s: %d of %d introductions missed (at most 2%%)", lang, failed, total)
		}
	}
}

// TestNameBeforeMore: the visitor's name comes before what they say after
// it (their age, why they came, her name asked back), a number, a word of
// many intents or a lowercase English -ing form is no name, the family name announced by 姓 is part of the
// name said after it, and after her greeting a bare "ich bin …" or "this
// is …" is an introduction when the word shows a name, not otherwise.
func TestNameBeforeMore(t *testing.T) {
	t.Parallel() // reads the shared model, writes nothing shared
	greeted := map[nadine.Language][]nadine.Message{
		nadine.English: {{Role: nadine.RoleUser, Content: "Hello"}, {Role: nadine.RoleAssistant, Content: "Hello there, I am happy to see you!"}},
		nadine.German:  {{Role: nadine.RoleUser, Content: "Servus"}, {Role: nadine.RoleAssistant, Content: "Guten Tag, ich freue mich, Sie zu sehen!"}},
		nadine.French:  {{Role: nadine.RoleUser, Content: "Coucou"}, {Role: nadine.RoleAssistant, Content: "Bonjour, quel plaisir de vous voir !"}},
	}
	e := testEngine(offline.Options{})
	for _, c := range []struct {
		lang     nadine.Language
		text     string
		greeted  bool
		name     string // "": no introduction
		intent   string // when name is "": the intent wanted, if any
		anything bool   // when name is "": any intent but a name
	}{
		// Each of these was misread before (the number, "I'm", her age or
		// her name asked back, where he comes from, the family name alone).
		{lang: nadine.English, text: "I am Ada and I'm eleven", name: "Ada"},
		{lang: nadine.English, text: "it's Zara, I'm here for the exhibition", name: "Zara"},
		{lang: nadine.German, text: "guten abend ich bin mia und wie heißt du", name: "Mia"},
		{lang: nadine.French, text: "coucou je suis inès et toi c'est quoi ton prénom", name: "Inès"},
		{lang: nadine.Chinese, text: "您好，我姓周，叫周子豪，我是来参观的", name: "周子豪"},
		{lang: nadine.Chinese, text: "我姓林，叫小雨", name: "林小雨"},
		{lang: nadine.German, text: "Ich bin Emil und wohne in Berlin", greeted: true, name: "Emil"},
		{lang: nadine.German, text: "ich bin Paul, und wie heißen Sie", greeted: true, name: "Paul"},
		// What is no name stays what it is.
		{lang: nadine.English, text: "I'm twelve", anything: true},
		{lang: nadine.German, text: "Ich bin acht", anything: true},
		{lang: nadine.German, text: "Ich bin müde", greeted: true, intent: "feeling_tired"},
		{lang: nadine.German, text: "Ich bin Lehrerin", greeted: true, anything: true},
		{lang: nadine.English, text: "This is amazing", greeted: true, anything: true},
		{lang: nadine.English, text: "I'm exhausted", greeted: true, intent: "feeling_tired"},
		{lang: nadine.French, text: "je suis crevée", greeted: true, intent: "feeling_tired"},
		{lang: nadine.Chinese, text: "我姓王，帮我叫辆车", anything: true},
		{lang: nadine.English, text: "I'm taking the train later", anything: true}, // was the name "Taking"
		{lang: nadine.English, text: "I am staying here", anything: true},
		{lang: nadine.English, text: "hi I'm Sterling", name: "Sterling"},
	} {
		var hist []nadine.Message
		if c.greeted {
			hist = greeted[c.lang]
		}
		r := respond(t, e, nadine.Turn{Text: c.text, Language: c.lang}, hist...)
		switch {
		case c.name != "" && (r.intent() != "name" || !strings.Contains(r.reply.Text, c.name)):
			t.Errorf("%s %q → %s %q, want an introduction of %s", c.lang, c.text, r.intent(), r.reply.Text, c.name)
		case c.name == "" && r.intent() == "name":
			t.Errorf("%s %q → a name: %q", c.lang, c.text, r.reply.Text)
		case c.name == "" && !c.anything && r.intent() != c.intent:
			t.Errorf("%s %q → %s %q, want %s", c.lang, c.text, r.intent(), r.reply.Text, c.intent)
		}
	}
}
