//go:build !race

package offline

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// learnerVariants are the training settings TestLearnerScores can compare
// with trainOptions, by name (NADINE_LEARNER=base,other): what a learner
// change is measured against (docs/offline.md, "Round clf13").
var learnerVariants = map[string]func(o intents.Options) intents.Options{
	"base":    func(o intents.Options) intents.Options { return o },
	"epochs3": func(o intents.Options) intents.Options { o.Epochs = 3; return o },
	"epochs6": func(o intents.Options) intents.Options { o.Epochs = 6; return o },
	"rate1":   func(o intents.Options) intents.Options { o.Rate = 1; return o },
	"rate4":   func(o intents.Options) intents.Options { o.Rate = 4; return o },
	"l2_1e6":  func(o intents.Options) intents.Options { o.L2 = 1e-6; return o },
	"l2_5e6":  func(o intents.Options) intents.Options { o.L2 = 5e-6; return o },
	"l2_1e5":  func(o intents.Options) intents.Options { o.L2 = 1e-5; return o },
	"l2_6e5":  func(o intents.Options) intents.Options { o.L2 = 6e-5; return o },
	"nb0":     func(o intents.Options) intents.Options { o.Neighbours = 0; return o },
	"nb35":    func(o intents.Options) intents.Options { o.Neighbours = 0.35; return o },
	"var3":    func(o intents.Options) intents.Options { o.Variants = 3; return o },
	"drop08":  func(o intents.Options) intents.Options { o.Dropout = 0.08; return o },
	"drop25":  func(o intents.Options) intents.Options { o.Dropout = 0.25; return o },
	"gram3":   func(o intents.Options) intents.Options { o.Weights = weights(1, 0.8, 1, 3); return o },
	"gram5":   func(o intents.Options) intents.Options { o.Weights = weights(1, 0.8, 1, 5); return o },
	"bi05":    func(o intents.Options) intents.Options { o.Weights = weights(1, 0.5, 1, 4); return o },
	"bi12":    func(o intents.Options) intents.Options { o.Weights = weights(1, 1.2, 1, 4); return o },
	"ch14":    func(o intents.Options) intents.Options { o.Weights = weights(1, 0.8, 1.4, 4); return o },
	"w14":     func(o intents.Options) intents.Options { o.Weights = weights(1.4, 0.8, 1, 4); return o },
}

// weights are feature-group weights for learnerVariants.
func weights(words, bigrams, chars float64, maxGram int) intents.Weights {
	return intents.Weights{Words: words, Bigrams: bigrams, Chars: chars, MaxGram: maxGram}
}

// evalDir holds the offline eval sets; its sealed/ directory is never read here.
const evalDir = "../cmd/nadine/testdata/offline_eval"

// contextIntents are the eval intents no reading of the utterance alone can
// give: a yes or no to "shall I forget you?" is only one after it.
var contextIntents = map[string]bool{"forget_yes": true, "forget_no": true, "": true}

// learnerTurn is an eval turn the intent classifier alone is scored on.
type learnerTurn struct {
	set    string
	lang   nadine.Language
	say    string
	intent string
}

// learnerTurns reads the turns of every eval set but the sealed one.
func learnerTurns(t *testing.T) []learnerTurn {
	t.Helper()
	var out []learnerTurn
	err := filepath.WalkDir(evalDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "sealed" {
				return filepath.SkipDir // never read, never scored
			}
			return nil
		}
		if filepath.Ext(path) != ".json" {
			return nil
		}
		set := filepath.Base(filepath.Dir(path))
		if set == "offline_eval" {
			set = "main"
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("learner: %w", err)
		}
		var f struct {
			Language     nadine.Language `json:"language"`
			Interactions []struct {
				Turns []struct {
					Say    string `json:"say"`
					Intent string `json:"intent"`
				} `json:"turns"`
			} `json:"interactions"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			return fmt.Errorf("learner: %s: %w", path, err)
		}
		for _, in := range f.Interactions {
			for _, turn := range in.Turns {
				if !contextIntents[turn.Intent] {
					out = append(out, learnerTurn{set, f.Language, turn.Say, turn.Intent})
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// intentAlone is what the classifier alone reads text as, in the eval's
// terms: its top label, none below the threshold.
func intentAlone(m *intents.Model, text string) string {
	return expectedIntent(intents.Decide(m.Classify(text).Top(), threshold, noneLabel))
}

// topAlone is the classifier's most probable label in the eval's terms,
// whatever its probability: the ranking, apart from the threshold.
func topAlone(m *intents.Model, text string) string {
	return expectedIntent(m.Classify(text).Top().Label)
}

// evalIntentMatches reports whether got meets an eval turn's intent (a
// trailing "*" is a prefix).
func evalIntentMatches(want, got string) bool {
	if p, ok := strings.CutSuffix(want, "*"); ok {
		return strings.HasPrefix(got, p)
	}
	return sameIntent(want, got)
}

// TestLearnerScores prints, for each training variant NADINE_LEARNER names,
// the intent classifier's accuracy alone (no rules, no context): 4-fold
// cross-validation over the examples, grouped by intent and language, and
// the eval sets' turns but the sealed ones, at the threshold; and the top
// label alone, whatever its probability, of the turns that name an intent
// ("-top": the ranking, which a change of the scores' scale does not move).
// It asserts nothing; it measures.
func TestLearnerScores(t *testing.T) {
	names := os.Getenv("NADINE_LEARNER")
	if names == "" {
		t.Skip("set NADINE_LEARNER=base (or other variants of learnerVariants) to measure")
	}
	s, err := Examples()
	if err != nil {
		t.Fatal(err)
	}
	turns := learnerTurns(t)
	langs := nadine.Languages()
	for _, name := range strings.Split(names, ",") {
		variant, ok := learnerVariants[name]
		if !ok {
			t.Fatalf("no learner variant %q", name)
		}
		o := variant(trainOptions)
		cv, cvTop := map[nadine.Language][2]int{}, map[nadine.Language][2]int{}
		confused := intents.Confusion{}
		err := intents.Folds(s, o, 4, func(m *intents.Model, held []intents.HeldOut) {
			for _, h := range held {
				c := cv[h.Example.Lang]
				c[1]++
				want, got := expectedIntent(h.Example.Label), intentAlone(m, h.Text)
				if sameIntent(want, got) {
					c[0]++
				}
				cv[h.Example.Lang] = c
				confused.Add(want, got)
				if want != "default" {
					c := cvTop[h.Example.Lang]
					c[1]++
					if sameIntent(want, topAlone(m, h.Text)) {
						c[0]++
					}
					cvTop[h.Example.Lang] = c
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		m, err := intents.Train(s, o)
		if err != nil {
			t.Fatal(err)
		}
		sets := map[string]map[nadine.Language][2]int{}
		probesTop := map[nadine.Language][2]int{}
		var setNames []string
		for _, turn := range turns {
			if sets[turn.set] == nil {
				sets[turn.set] = map[nadine.Language][2]int{}
				setNames = append(setNames, turn.set)
			}
			c := sets[turn.set][turn.lang]
			c[1]++
			if evalIntentMatches(turn.intent, intentAlone(m, turn.say)) {
				c[0]++
			}
			sets[turn.set][turn.lang] = c
			if strings.HasPrefix(turn.set, "probe") && turn.intent != "default" {
				c := probesTop[turn.lang]
				c[1]++
				if evalIntentMatches(turn.intent, topAlone(m, turn.say)) {
					c[0]++
				}
				probesTop[turn.lang] = c
			}
		}
		slices.Sort(setNames)
		var b strings.Builder
		row := func(label string, by map[nadine.Language][2]int) {
			fmt.Fprintf(&b, "%-9s", label)
			var all [2]int
			for _, l := range langs {
				c := by[l]
				all[0] += c[0]
				all[1] += c[1]
				fmt.Fprintf(&b, " %4d/%-4d", c[0], c[1])
			}
			fmt.Fprintf(&b, " %5d/%-5d\n", all[0], all[1])
		}
		fmt.Fprintf(&b, "%-9s", name)
		for _, l := range langs {
			fmt.Fprintf(&b, " %-9s", l)
		}
		b.WriteString(" all\n")
		row("cv", cv)
		row("cv-top", cvTop)
		probes := map[nadine.Language][2]int{}
		for _, set := range setNames {
			row(set, sets[set])
			if strings.HasPrefix(set, "probe") {
				for l, c := range sets[set] {
					p := probes[l]
					probes[l] = [2]int{p[0] + c[0], p[1] + c[1]}
				}
			}
		}
		row("probes", probes)
		row("probes-top", probesTop)
		mistakes := confused.Mistakes()
		fmt.Fprintf(&b, "cross-validation's commonest confusions: %s\n", strings.Join(mistakes[:min(12, len(mistakes))], ", "))
		t.Logf("intent alone, %s:\n%s", name, b.String())
	}
}
