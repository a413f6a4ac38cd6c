package offline

import (
	"math"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// The entity rules on their own: where the examples put a slot, and what
// may fill it.

func TestPersonName(t *testing.T) {
	t.Parallel() // reads the shared model, writes nothing shared
	e := New(Options{})
	const en, fr, de, zh = nadine.English, nadine.French, nadine.German, nadine.Chinese
	tests := []struct {
		text string
		lang nadine.Language
		bare bareName
		want string
		sure bool
	}{
		{"my name is Alex", en, bareNever, "Alex", true},
		{"my name is alex how are you", en, bareNever, "Alex", true},
		{"Hello, my name is Sarah Connor.", en, bareNever, "Sarah Connor", true},
		{"I'm Priya, by the way", en, bareNever, "Priya", true},
		{"im zoltan", en, bareNever, "Zoltan", false},
		{"I'm tired", en, bareNever, "", false},
		{"I'm looking for the exit", en, bareNever, "", false},
		{"I'm French", en, bareNever, "", false},
		{"Call me Theo.", en, bareNever, "Theo", true},
		{"Alex", en, bareNever, "", false},
		{"Alex", en, bareAny, "Alex", false},
		{"Genève.", fr, bareAny, "", false}, // a place of the examples, whole
		{"Bern.", de, bareAny, "", false},
		{"Bernd.", de, bareAny, "Bernd", false},
		{"Moi c'est Margaux", fr, bareNever, "Margaux", true},
		{"Bonjour, je m'appelle Jean-Pierre.", fr, bareNever, "Jean-Pierre", true},
		{"je m'appelle marie-claire", fr, bareNever, "Marie-Claire", true}, // "marie" is a word of the examples
		{"moi c'est marie-louise et toi", fr, bareNever, "Marie-Louise", true},
		{"mon nom est anne-sophie", fr, bareNever, "Anne-Sophie", true},
		{"je m'appelle euh Julien", fr, bareNever, "Julien", true},
		{"Bonjour, je suis Marie", fr, bareNever, "Marie", true},
		{"je suis fatiguée", fr, bareNever, "", false},
		// The strongest context names, not the first weak one: a job.
		{"je m'appelle francois et je suis prof de physique", fr, bareNever, "Francois", true},
		{"je m'appelle Marc et je suis ingénieur", fr, bareNever, "Marc", true},
		{"Je me présente : Aurélie Dubois.", fr, bareClause, "Aurélie Dubois", true},
		{"Aurélie Dubois", fr, bareClause, "", false},
		{"Ich bin die Lena", de, bareNever, "Lena", true},
		{"Nenn mich einfach Jonas", de, bareNever, "Jonas", true},
		{"ich heiße jürgen", de, bareNever, "Jürgen", true},
		{"Ich bin Lehrerin", de, bareNever, "", false},
		{"Ich bin müde", de, bareNever, "", false},
		// A learner's word between a weak context and a capitalized unknown
		// name that ends the clause; a place where the examples put one is none.
		{"ich bin heißen Joaquín, ich komme aus Chile", de, bareNever, "Joaquín", false},
		{"je suis appelle Kwame, je suis de Accra", fr, bareNever, "Kwame", true},
		{"Good morning, I am Matt, I'm from Leeds", en, bareNever, "Matt", true},
		{"I'm from Leeds", en, bareNever, "", false},
		// The Alemannic article written onto the name.
		{"Ich bi d'Vreni", de, bareNever, "Vreni", false},
		{"Hallo zusammen, ich bin Frau Becker.", de, bareNever, "Frau Becker", true},
		{"Guten Abend, ich bin Dr. Weber.", de, bareNever, "Dr. Weber", true},
		{"mein Name ist Herr Bauer", de, bareNever, "Herr Bauer", true},
		{"Guten Tag, ich heiße Frau Dr. Wagner", de, bareNever, "Frau Dr. Wagner", true},
		{"ich bin Herr Professor Huber", de, bareNever, "Herr Professor Huber", true},
		// A title before a known one is a title too; a known word before a
		// full name after "mein Name ist" is a profession said as a title.
		{"Gestatten, Hofrat Dr. Leopold Haider.", de, bareNever, "Dr. Haider", true},
		{"Grüß Gott, mein Name ist Ingenieur Karl Berger.", de, bareNever, "Karl Berger", true},
		{"mein Name ist Ingenieur", de, bareNever, "", false},
		{"Bonjour, je m'appelle Docteur Martin Leroy", fr, bareNever, "Docteur Leroy", true},
		// A name that only begins a much longer known word ("französisch",
		// "Klausur") is a name.
		{"Hallo, ich heiße Franz Huber.", de, bareNever, "Franz Huber", true},
		{"Guten Tag, ich bin Franz.", de, bareNever, "Franz", false},
		{"Hallo, ich bin Klaus Meier.", de, bareNever, "Klaus Meier", false},
		// A German family name that is also a word, after a given name:
		// "Müller", "Schneider", "Klein" are names there; what the examples
		// say one is ("ich bin student") is not.
		{"Hallo, ich bin Anna Müller.", de, bareNever, "Anna Müller", false},
		{"mein Name ist Peter Schneider", de, bareNever, "Peter Schneider", true},
		{"Grüß Gott, Thomas Schulz mein Name.", de, bareNever, "Thomas Schulz", false},
		{"Hallo, ich bin Jonas Klein und komme aus Bern.", de, bareNever, "Jonas Klein", false},
		{"Hallo ich bin Lena Studentin aus Wien", de, bareNever, "Lena", true},
		{"ich bin so sauer", de, bareNever, "", false},
		// A context before the name that ends its clause ("Gestatten,")
		// is no context after it: the place after "aus" is no name.
		{"Gestatten, Anna Müller aus Innsbruck", de, bareNever, "Anna Müller", true},
		// Speech to text in small letters: no capital asked for a family
		// name the examples know only by another form, none for a word they
		// use; titles in a row without their dot.
		{"ich bin anna müller", de, bareNever, "Anna Müller", false},
		{"hi ich bin felix schön dich kennenzulernen", de, bareNever, "Felix", false},
		{"mein name ist frau dr weber", de, bareNever, "Frau Dr Weber", true},
		{"Ich bin Frau Doktor", de, bareNever, "", false},
		{"Hello, I'm Mrs Dr Smith", en, bareNever, "Mrs Dr Smith", true},
		{"Ich bin Frau", de, bareNever, "", false},
		{"Bonjour, je suis Madame Lefèvre", fr, bareNever, "Madame Lefèvre", true},
		{"je m'appelle Mme Martin", fr, bareNever, "Mme Martin", true},
		{"Hi, I'm Dr. Patel.", en, bareNever, "Dr. Patel", true},
		{"my name is Mrs Green", en, bareNever, "Mrs Green", true},
		{"I'm a doctor", en, bareNever, "", false},
		{"bonjour je suis monsieur durand", fr, bareNever, "Monsieur Durand", true},
		{"je suis monsieur", fr, bareNever, "", false},
		{"我叫王小明", zh, bareNever, "王小明", true},
		{"你好，我叫Alex。", zh, bareNever, "Alex", true},
		{"我是张伟", zh, bareNever, "张伟", true},        // a full name that ends the clause
		{"我是张伟的朋友", zh, bareNever, "张伟", false},    // …not one that goes on
		{"早上好，我的名字是张静", zh, bareNever, "张静", true}, // a full name after more than "我是"
		{"我的名字是什么", zh, bareNever, "", false},
		{"我的秘密词是Flamingo，请记住它。", zh, bareNever, "", false},
		{"我是学生", zh, bareNever, "", false},
		{"我叫什么名字？", zh, bareNever, "", false},
		{"我叫什麼名字", zh, bareNever, "", false}, // 繁體 asks too
		{"你能帮我叫辆出租车吗？", zh, bareNever, "", false},
	}
	for _, tt := range tests {
		toks := intents.Tokenize(tt.text)
		name, sure := e.personName(toks, tt.text, tt.lang, tt.bare)
		if name != tt.want || (name != "" && sure != tt.sure) {
			t.Errorf("personName(%q, %s) = %q sure=%v, want %q sure=%v", tt.text, tt.lang, name, sure, tt.want, tt.sure)
		}
	}
}

func TestNamedLanguage(t *testing.T) {
	e := New(Options{})
	for _, tt := range []struct {
		text  string
		lang  nadine.Language
		want  nadine.Language
		other bool // names a language she does not speak
	}{
		{"speak French", nadine.English, nadine.French, false},
		{"Parlez-vous anglais ?", nadine.French, nadine.English, false},
		{"Kannst du Französisch sprechen?", nadine.German, nadine.French, false},
		{"sing an English song", nadine.English, nadine.English, false},
		{"une chanson allemande", nadine.French, nadine.German, false},
		{"说中文", nadine.Chinese, nadine.Chinese, false},
		{"请用英语回答", nadine.Chinese, nadine.English, false},
		// Two languages named: the first, every time (a map's order had
		// chosen one at random).
		{"你可以说法语吗，我中文不好", nadine.Chinese, nadine.French, false},
		{"我中文不好，你可以说英文吗", nadine.Chinese, nadine.Chinese, false},
		{"speak Klingon", nadine.English, "", true},
		{"Parlez-vous espagnol ?", nadine.French, "", true},
		{"Kannst du Klingonisch sprechen?", nadine.German, "", true},
		{"你会说日语吗？", nadine.Chinese, "", true},
		{"could you speak more slowly", nadine.English, "", false},
		{"change the language", nadine.English, "", false},
	} {
		toks := intents.Tokenize(tt.text)
		got, _ := namedLanguage(toks, tt.text)
		for range 20 {
			if again, _ := namedLanguage(toks, tt.text); again != got {
				t.Errorf("%q: language %q, then %q", tt.text, got, again)
				break
			}
		}
		other := e.otherLanguage(toks, tt.text, tt.lang)
		if got != tt.want || other != tt.other {
			t.Errorf("%q: language %q other %v, want %q %v", tt.text, got, other, tt.want, tt.other)
		}
	}
}

func TestPlace(t *testing.T) {
	e := New(Options{})
	for _, tt := range []struct {
		text string
		lang nadine.Language
		want string
	}{
		{"I'm from Bern", nadine.English, "Bern"},
		{"I come from New York, and you?", nadine.English, "New York"},
		{"je viens de Lyon", nadine.French, "Lyon"},
		{"Ich komme aus Hamburg", nadine.German, "Hamburg"},
		{"我来自北京", nadine.Chinese, "北京"},
		{"I'm from", nadine.English, ""},
	} {
		if got := e.place(intents.Tokenize(tt.text), tt.lang); got != tt.want {
			t.Errorf("place(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestCodesAreNoIntroductions: a code, password or PIN a visitor asks her
// to keep, phrased as none of the examples is, is not taken for their name
// (the name rule's "it is X" shows a name plainly; the classifier is sure
// the whole is none of the intents), while introductions still are.
func TestCodesAreNoIntroductions(t *testing.T) {
	e := New(Options{})
	const en, fr, de, zh = nadine.English, nadine.French, nadine.German, nadine.Chinese
	tests := []struct {
		text string
		lang nadine.Language
		name string // "" when it is no introduction
	}{
		{"Please remember my PIN, it is CANARY-PIN-4242-ZEBRA.", en, ""},
		{"Please remember my PIN it is CANARY-PIN-4242-ZEBRA", en, ""},
		{"Could you keep my door code for me? It is Orchid-77.", en, ""},
		{"Retiens mon code de porte, c'est Orchidée-77.", fr, ""},
		{"Merk dir bitte meine PIN, sie lautet Zebra-4242.", de, ""},
		{"请帮我记住我的密码，是Zebra4242。", zh, ""},
		{"Hello, my name is Sarah Connor.", en, "Sarah Connor"},
		{"Bonjour, je suis Marie", fr, "Marie"},
		{"Ich bin die Lena", de, "Lena"},
		{"你好，我叫Alex。", zh, "Alex"},
	}
	for _, tt := range tests {
		r, ok := e.read(tt.text, tt.lang, hints{})
		if !ok {
			t.Fatalf("%q: not read", tt.text)
		}
		c := e.decide(r, hints{})
		if got := c.name; (c.label == "name") != (tt.name != "") || got != tt.name {
			t.Errorf("%q read as %q with name %q, want name %q", tt.text, c.label, got, tt.name)
		}
	}
}

// TestMergeGrades: the grades of a compliment or an insult compete as one
// intent, under the likeliest grade's label; other labels are kept.
func TestMergeGrades(t *testing.T) {
	r := mergeGrades(intents.Result{Labels: []intents.Scored{
		{Label: "knowledge.speaking", Prob: 0.30}, {Label: "compliment.strong", Prob: 0.20}, {Label: "compliment", Prob: 0.15},
		{Label: "insult.mild", Prob: 0.05}, {Label: "none", Prob: 0.04}, {Label: "compliment.mild", Prob: 0.03}, {Label: "insult", Prob: 0.02},
	}})
	want := []intents.Scored{{Label: "compliment.strong", Prob: 0.38}, {Label: "knowledge.speaking", Prob: 0.30},
		{Label: "insult.mild", Prob: 0.07}, {Label: "none", Prob: 0.04}}
	if len(r.Labels) != len(want) {
		t.Fatalf("merged %v, want %v", r.Labels, want)
	}
	for i, s := range r.Labels {
		if s.Label != want[i].Label || math.Abs(s.Prob-want[i].Prob) > 1e-9 {
			t.Errorf("merged %v, want %v", r.Labels, want)
			break
		}
	}
}

// TestMergeTopics: the knowledge topics compete as one intent when the
// likeliest holds a majority of their probability, and not otherwise.
func TestMergeTopics(t *testing.T) {
	for _, tt := range []struct {
		labels []intents.Scored
		want   intents.Scored
	}{
		{[]intents.Scored{{Label: "knowledge.recognize", Prob: 0.22}, {Label: "none", Prob: 0.2}, {Label: "knowledge.seeing", Prob: 0.1}, {Label: "knowledge.memory", Prob: 0.05}},
			intents.Scored{Label: "knowledge.recognize", Prob: 0.37}},
		{[]intents.Scored{{Label: "knowledge.how_it_works", Prob: 0.23}, {Label: "knowledge.recognize", Prob: 0.2}, {Label: "remember", Prob: 0.16}, {Label: "knowledge.memory", Prob: 0.09}},
			intents.Scored{Label: "knowledge.how_it_works", Prob: 0.23}},
	} {
		r := mergeGrades(intents.Result{Labels: tt.labels})
		top := r.Top()
		if top.Label != tt.want.Label || math.Abs(top.Prob-tt.want.Prob) > 1e-9 {
			t.Errorf("%v merged to %v, want %v first", tt.labels, r.Labels, tt.want)
		}
		for _, s := range r.Labels[1:] {
			if strings.HasPrefix(s.Label, "knowledge.") {
				t.Errorf("%v merged to %v: a second topic", tt.labels, r.Labels)
			}
		}
	}
}

// TestStanceOfClause: a clause plainly praise or abuse comes first when the
// whole utterance weakly reads the other stance, and only then.
func TestStanceOfClause(t *testing.T) {
	insult := part{from: 1, to: 5, top: intents.Scored{Label: "insult", Prob: 0.85}, clause: true}
	for _, tt := range []struct {
		name  string
		whole intents.Scored
		parts []part
		want  string
	}{
		{"irony: praise, then a plain insult", intents.Scored{Label: "compliment", Prob: 0.45}, []part{insult}, "insult"},
		{"a plain whole keeps its stance", intents.Scored{Label: "compliment", Prob: 0.6}, []part{insult}, "compliment"},
		{"a weak clause does not overturn", intents.Scored{Label: "compliment", Prob: 0.45},
			[]part{{from: 1, to: 5, top: intents.Scored{Label: "insult.mild", Prob: 0.5}, clause: true}}, "compliment"},
		{"a greeting split from the rest is no clause", intents.Scored{Label: "compliment", Prob: 0.45},
			[]part{{from: 1, to: 5, top: intents.Scored{Label: "insult", Prob: 0.9}}}, "compliment"},
		{"the last plain clause decides", intents.Scored{Label: "insult", Prob: 0.4}, []part{
			{from: 0, to: 3, top: intents.Scored{Label: "insult.strong", Prob: 0.9}, clause: true},
			{from: 3, to: 6, top: intents.Scored{Label: "compliment.strong", Prob: 0.8}, clause: true}}, "compliment.strong"},
		{"no stance, nothing moves", intents.Scored{Label: "thanks", Prob: 0.4}, []part{insult}, "thanks"},
	} {
		main := []candidate{{tt.whole.Label, tt.whole.Prob}, {"insult", 0.35}}
		got := stanceOfClause(main, intents.Result{Labels: []intents.Scored{tt.whole}}, tt.parts)
		if got[0].label != tt.want || len(got) < len(main)-1 {
			t.Errorf("%s: %v, want %s first", tt.name, got, tt.want)
		}
	}
}
