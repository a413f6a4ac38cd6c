package offline

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// TestDebugClassify prints how the classifier reads the utterances in
// $CLASSIFY (separated by "|"): a development aid, skipped otherwise.
func TestDebugClassify(t *testing.T) {
	in := os.Getenv("CLASSIFY")
	if in == "" {
		t.Skip("set CLASSIFY")
	}
	e := New(Options{})
	for _, u := range strings.Split(in, "|") {
		r := e.model.Classify(u)
		c := e.classify(u, nadine.English, hints{})
		fmt.Printf("%-40q → %s %q lang=%s greet=%v andyou=%v | %v\n", u, c.traceName(), c.name, c.lang, c.greeting, c.andYou, r.Labels[:4])
	}
}

func TestDebugProb(t *testing.T) {
	in := os.Getenv("PROB")
	if in == "" {
		t.Skip("set PROB")
	}
	e := New(Options{})
	parts := strings.Split(in, "|")
	r := e.model.Classify(parts[0])
	for _, l := range parts[1:] {
		fmt.Printf("%s %.4f\n", l, r.Prob(l))
	}
}

func TestDebugParts(t *testing.T) {
	in := os.Getenv("PARTS")
	if in == "" {
		t.Skip("set PARTS")
	}
	e := New(Options{})
	toks := intents.Tokenize(in)
	for _, p := range e.parts(toks, hints{}) {
		fmt.Printf("%d-%d clause=%v %v\n", p.from, p.to, p.clause, p.top)
	}
	fmt.Println(e.candidates(e.model.ClassifyTokens(toks), e.parts(toks, hints{})))
}

func BenchmarkTrain(b *testing.B) {
	s, err := Examples()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := intents.Train(s, intents.Options{Lookup: lookupSlots}); err != nil {
			b.Fatal(err)
		}
	}
}
