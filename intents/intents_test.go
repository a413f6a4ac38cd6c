package intents

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
)

func TestTokenize(t *testing.T) {
	toks := Tokenize("Hello, je m'appelle Jean-Pierre! 我叫Alex  GRÜSS Gott")
	var got []string
	for _, tok := range toks {
		s := tok.Norm
		if tok.Hyphen {
			s = "-" + s
		}
		if tok.Han {
			s = "^" + s
		}
		got = append(got, s+"@"+string(rune('0'+tok.Clause)))
	}
	want := []string{"hello@0", "je@1", "mappelle@1", "jean@1", "-pierre@1", "^我@2", "^叫@2", "alex@2", "gruess@2", "gott@2"}
	if !slices.Equal(got, want) {
		t.Errorf("tokens = %v, want %v", got, want)
	}
	if toks[2].Text != "m'appelle" || toks[7].Text != "Alex" {
		t.Errorf("texts %q %q, want the words as written", toks[2].Text, toks[7].Text)
	}
	if len(Tokenize("")) != 0 || len(Tokenize("?!,.")) != 0 || len(Tokenize("\xff\xfe")) != 0 {
		t.Error("no words, no tokens")
	}
	if cl := Clauses(Tokenize("Hi, how are you? Fine.")); len(cl) != 3 || len(cl[1]) != 3 {
		t.Errorf("clauses %v", cl)
	}
}

// TestRejoin: a word speech to text split at its apostrophe reads as the
// examples write it, by the language's rule, and nothing else is joined.
func TestRejoin(t *testing.T) {
	for _, c := range []struct {
		lang       nadine.Language
		text, want string
	}{
		{nadine.French, "moi c est pierre", "moi cest pierre"},
		{nadine.French, "j ai vu qu il y a un labo, l université", "jai vu quil y a un labo luniversite"},
		{nadine.French, "s il vous plaît jusqu au bout", "sil vous plait jusquau bout"},
		{nadine.French, "c fini t bête", "c fini t bete"},                 // no vowel after: no elision
		{nadine.French, "moi c inès, c était ça", "moi c ines cetait ca"}, // c' only before être and en
		{nadine.French, "a t il t es où", "a t il tes ou"},                // the t of "a-t-il" is no elision
		{nadine.French, "Jean-Pierre, d accord", "jean pierre daccord"},
		{nadine.English, "i m sam and don t know it s late", "im sam and dont know its late"},
		{nadine.English, "you re right, we ll see", "youre right well see"},
		{nadine.English, "c est la vie", "c est la vie"}, // another language's rule
		{nadine.German, "wie geht s dir, gibt s das", "wie gehts dir gibts das"},
		{nadine.German, "ich bin t", "ich bin t"},
		{nadine.Chinese, "我叫 s 你好", "我 叫 s 你 好"},
	} {
		toks := Rejoin(c.text, Tokenize(c.text), c.lang)
		var got []string
		for _, tok := range toks {
			got = append(got, tok.Norm)
			if tok.Text != c.text[tok.Start:tok.End] {
				t.Errorf("%q: token %q spans %q", c.text, tok.Text, c.text[tok.Start:tok.End])
			}
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("Rejoin(%q, %s) = %q, want %q", c.text, c.lang, g, c.want)
		}
	}
	toks := Tokenize("bonjour nadine")
	if got := Rejoin("bonjour nadine", toks, nadine.French); &got[0] != &toks[0] {
		t.Error("Rejoin copied an utterance with nothing to join")
	}
}

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"Hello": "hello", "Tschüss": "tschuess", "heiße": "heisse", "Fâchez": "fachez", "m’appelle": "mappelle",
		"I'm": "im", "Ça": "ca", "Œuvre": "oeuvre", "e\u0301te\u0301": "ete", "ＡＢＣ": "abc", "你好": "你好",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

const tiny = `# a comment
## greet
hello
hi there
good morning
## ask_time
what time is it
tell me the time
do you know the time
## name
my name is {name}
call me {name}
{name} here
## none
what is the capital of france
i like pizza
the weather is nice
## @name
Alex
Maria
`

const tinyFR = `## greet
bonjour
salut
## ask_time
quelle heure est il
vous avez l'heure
## name
je m'appelle {name}
moi c'est {name}
## none
j'aime la pizza
## @name
Julien
`

func tinySet(t *testing.T) *Set {
	t.Helper()
	var s Set
	if err := s.Parse(nadine.English, tiny); err != nil {
		t.Fatal(err)
	}
	if err := s.Parse(nadine.French, tinyFR); err != nil {
		t.Fatal(err)
	}
	return &s
}

func TestParse(t *testing.T) {
	s := tinySet(t)
	if got, want := s.Labels(), []string{"ask_time", "greet", "name", "none"}; !slices.Equal(got, want) {
		t.Errorf("labels %v, want %v", got, want)
	}
	if len(s.Examples) != 19 || s.Examples[0].Line != 3 || s.Examples[0].Lang != nadine.English {
		t.Errorf("%d examples, first %+v", len(s.Examples), s.Examples[0])
	}
	if got := s.Values[nadine.English]["name"]; !slices.Equal(got, []string{"Alex", "Maria"}) {
		t.Errorf("name values %v", got)
	}
	for _, tt := range []struct{ text, err string }{
		{"hello\n", "before any"},
		{"## x\nmy {name\n", "unclosed"},
		{"## x\nmy name}\n", "unopened"},
		{"## x\n{a{b}}\n", "nested"},
		{"## @\n", "empty name"},
	} {
		var s Set
		if err := s.Parse(nadine.English, tt.text); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("Parse(%q) = %v, want %q", tt.text, err, tt.err)
		}
	}
	var bad Set
	if err := bad.Parse(nadine.English, "## name\nI am {name}\n"); err != nil {
		t.Fatal(err)
	}
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), "{name} has no values") {
		t.Errorf("Check = %v, want the slot without values", err)
	}
	if _, err := Train(&bad, Options{}); err == nil {
		t.Error("Train accepted a slot without values")
	}
	if err := bad.Parse("xx", "## a\nb\n"); err == nil {
		t.Error("Parse accepted an unknown language")
	}
}

func TestTrainGeneralizes(t *testing.T) {
	m, err := Train(tinySet(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		text  string
		label string
		lang  nadine.Language
	}{
		{"hello there", "greet", nadine.English},
		{"what's the time", "ask_time", nadine.English},
		{"my name is Zoltan", "name", nadine.English},
		{"quelle heure il est", "ask_time", nadine.French},
		{"moi c'est Bérénice", "name", nadine.French},
	} {
		r := m.Classify(tt.text)
		if r.Top().Label != tt.label || r.Languages[0].Language != tt.lang {
			t.Errorf("%q: %v %v, want %s in %s", tt.text, r.Labels[:2], r.Languages[0], tt.label, tt.lang)
		}
		var sum float64
		for _, s := range r.Labels {
			sum += s.Prob
		}
		if math.Abs(sum-1) > 1e-4 || r.Prob(tt.label) != r.Top().Prob {
			t.Errorf("%q: probabilities sum to %f", tt.text, sum)
		}
	}
	// The same examples train the same model.
	m2, _ := Train(tinySet(t), Options{})
	a, b := m.Classify("tell me the time please"), m2.Classify("tell me the time please")
	for i := range a.Labels {
		if a.Labels[i] != b.Labels[i] {
			t.Fatalf("two trainings differ: %v %v", a.Labels, b.Labels)
		}
	}
	if !m.Known(nadine.English, "time") || m.Known(nadine.English, "alex") || m.Known(nadine.English, "zoltan") {
		t.Error("the vocabulary is the examples' words outside slots")
	}
	// Each language's vocabulary is its own: "heure" is an ordinary word
	// of the French examples, not of the English ones.
	if !m.Known(nadine.French, "heure") || m.Known(nadine.English, "heure") || m.KnownStem(nadine.English, "heures") || !m.KnownStem(nadine.French, "heures") {
		t.Error("a word of one language's examples is known in another")
	}
}

// TestNegation: a word in the scope of a negation is another feature, so
// that "not good" can mean what "good" does not.
func TestNegation(t *testing.T) {
	var s Set
	err := s.Parse(nadine.English, `## good
i am good
i feel good
good
i am happy
i am not sad
not sad at all
## sad
i am sad
i feel sad
sad
i am not good
not good at all
i am not happy
`)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Train(&s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]string{"i am not feeling good": "sad", "i feel not sad": "good"} {
		if got := m.Classify(text).Top().Label; got != want {
			t.Errorf("%q: %s, want %s", text, got, want)
		}
	}
	f := featurizer{weights: DefaultWeights}
	neg := f.features(Tokenize("not good"))
	word := []feature{{hash(nsWord, "good", ""), 1}}
	for _, x := range appendCharGrams(word, nsChar, "good", DefaultWeights.MaxGram) {
		if slices.ContainsFunc(neg, func(y feature) bool { return y.h == x.h }) {
			t.Errorf("\"not good\" has a feature of the word \"good\" or its letters")
		}
	}
}

func TestSlotSpans(t *testing.T) {
	var s Set
	err := s.Parse(nadine.English, `## name
my name is {name}
i'm {name}
{name} here
{name}
## feel
i'm tired
i'm happy
i'm sad
## @name
Alex
`)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Parse(nadine.German, "## name\nich heiße {name}\n## @name\nAnna\n"); err != nil {
		t.Fatal(err)
	}
	m, err := Train(&s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	span := func(text string, lang nadine.Language) (string, Span) {
		toks := Tokenize(text)
		sp := m.SlotSpans("name", lang, toks)
		if len(sp) == 0 {
			return "", Span{}
		}
		var w []string
		for _, tk := range toks[sp[0].From:sp[0].To] {
			w = append(w, tk.Text)
		}
		return strings.Join(w, " "), sp[0]
	}
	if v, sp := span("Hello, my name is Jean Dupont", nadine.English); v != "Jean Dupont" || sp.Context != 3 || sp.Strength != 1 {
		t.Errorf("my name is: %q %+v", v, sp)
	}
	// "i'm" comes before a name once in four examples.
	if v, sp := span("I'm Zoe", nadine.English); v != "Zoe" || sp.Strength != 0.25 || sp.Context != 1 {
		t.Errorf("i'm: %q %+v", v, sp)
	}
	if v, _ := span("Alex here", nadine.English); v != "Alex" {
		t.Errorf("a context after the slot: %q", v)
	}
	if v, sp := span("Nope", nadine.English); v != "Nope" || sp.Context != 0 {
		t.Errorf("the slot alone: %q %+v", v, sp)
	}
	// Contexts are the language's: German's "ich heiße", not English's.
	if v, _ := span("ich heiße Lena", nadine.German); v != "Lena" {
		t.Errorf("German context: %q", v)
	}
	if v, sp := span("my name is Lena and more words follow", nadine.German); sp.Context != 0 && v != "" {
		t.Errorf("an English context read as German: %q %+v", v, sp)
	}
}

func TestLookupAndStems(t *testing.T) {
	var s Set
	err := s.Parse(nadine.English, `## speak
speak {lang}
can you speak {lang}
## song
sing a song
sing a {lang} song
## none
i am a teacher
## @lang
French
Klingon
Swiss German
`)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Train(&s, Options{Lookup: []string{"lang"}})
	if err != nil {
		t.Fatal(err)
	}
	tags := m.Tags(Tokenize("do you know Swiss German or klingon"))
	if !slices.Equal(tags, []string{"", "", "", "<lang>", "<lang>", "", "<lang>"}) {
		t.Errorf("tags %q", tags)
	}
	if got := m.Classify("could you speak Klingon").Top().Label; got != "speak" {
		t.Errorf("speak Klingon: %s", got)
	}
	for w, want := range map[string]bool{"teacher": true, "teachers": true, "teacherin": true, "teach": true, "tea": false, "alex": false} {
		if got := m.KnownStem(nadine.English, w); got != want {
			t.Errorf("KnownStem(%q) = %v", w, got)
		}
	}
}

func TestCrossValidation(t *testing.T) {
	s := tinySet(t)
	preds, err := CrossValidate(s, Options{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(preds) != len(s.Examples) {
		t.Fatalf("%d predictions of %d examples", len(preds), len(s.Examples))
	}
	for _, p := range preds {
		if strings.Contains(p.Text, "{") {
			t.Errorf("held-out text %q has a slot", p.Text)
		}
	}
	if _, err := CrossValidate(s, Options{}, 1); err == nil {
		t.Error("one fold accepted")
	}
	points := Sweep(preds, "none", []float64{0, 0.5, 1.01}, nil)
	if points[2].OutOfScope != 1 || points[2].InScope != 0 {
		t.Errorf("a threshold above every probability: %+v", points[2])
	}
	if b := Best(points); b.Accuracy < points[2].Accuracy {
		t.Errorf("best %+v", b)
	}
	if got := Decide(Scored{"greet", 0.4}, 0.5, "none"); got != "none" {
		t.Errorf("Decide below the threshold: %s", got)
	}
	c := Confusion{}
	c.Add("a", "a")
	c.Add("a", "b")
	c.Add("a", "b")
	c.Add("b", "c")
	if got := c.Mistakes(); !slices.Equal(got, []string{"a → b ×2", "b → c ×1"}) {
		t.Errorf("mistakes %v", got)
	}
}

// TestNegatedBefore: a negation that ends its clause applies to the words
// before it, one that does not leaves them alone.
func TestNegatedBefore(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []bool
	}{
		{"vergiss mich bitte nicht", []bool{true, true, true, false}},
		{"t'inquiète pas, ça va", []bool{true, false, false, false}},
		{"ich bin nicht müde", []bool{false, false, false, false}},
		{"a b c d nie", []bool{false, true, true, true, false}},
	} {
		if got := negatedBefore(Tokenize(tt.text)); !slices.Equal(got, tt.want) {
			t.Errorf("%q: %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestCompoundHead checks that an unknown word reads as the longest known
// word ending it, with at least three letters before it and five in it.
func TestCompoundHead(t *testing.T) {
	f := featurizer{known: map[string]bool{"singen": true, "arbeit": true, "nice": true, "labor": true, "lab": true}}
	for _, tt := range []struct{ word, want string }{
		{"vorsingen", "singen"},
		{"ingenieursarbeit", "arbeit"},
		{"forschungslabor", "labor"},
		{"berenice", ""}, // "nice" is too short to be a head
		{"mitsingen", "singen"},
		{"umsingen", ""}, // two letters before it: a prefix, not a word
		{"arbeit", "arbeit"},
		{"1234", numberWord},
	} {
		want := tt.want
		if want == "" {
			want = unknownWord
		}
		if w := f.wordOf(Token{Norm: tt.word}, ""); w != want {
			t.Errorf("%q reads as %q, want %q", tt.word, w, want)
		}
	}
}

// TestEnsembleAverages checks that a model of three fits holds the mean of
// the weights of three single fits, each in its own order.
func TestEnsembleAverages(t *testing.T) {
	s := tinySet(t)
	m, err := Train(s, Options{Ensemble: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	mean := make([]float64, len(m.w))
	for e := range 3 {
		one, err := Train(s, Options{Seed: 7 + uint64(e)*0x9e3779b97f4a7c15})
		if err != nil {
			t.Fatal(err)
		}
		if len(one.w) != len(m.w) {
			t.Fatalf("fit %d: %d weights, want %d", e, len(one.w), len(m.w))
		}
		for i, x := range one.w {
			mean[i] += float64(x) / 3
		}
	}
	var differ int
	for i, x := range m.w {
		if math.Abs(float64(x)-mean[i]) > 1e-4 {
			differ++
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d weights are not the mean of the three fits", differ, len(m.w))
	}
	single, err := Train(s, Options{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(single.w, m.w) {
		t.Error("the ensemble's weights are one fit's")
	}
}

// TestAskNotAsk: a Chinese 不 or 没 between a character and itself asks a
// question, every other one negates.
func TestAskNotAsk(t *testing.T) {
	for _, tt := range []struct {
		text string
		at   int // the negation's token
		want bool
	}{
		{"你是不是机器人", 2, false},
		{"你有没有感情", 2, false},
		{"你记不记得我", 2, false},
		{"你不是机器人", 1, true},
		{"我不累", 1, true},
		{"是，不是", 1, true}, // a clause apart: an answer, not a question
		{"不是", 0, true},
		// French "ne" with its partner negates; alone it is "only" or
		// German speech's "eine".
		{"je ne suis pas triste", 1, true},
		{"rien ne va", 1, true},
		{"je ne parle que français", 1, false},
		{"du bist ne gute Zuhörerin", 2, false},
	} {
		if got := negates(Tokenize(tt.text), tt.at); got != tt.want {
			t.Errorf("%q at %d: %v, want %v", tt.text, tt.at, got, tt.want)
		}
	}
}
