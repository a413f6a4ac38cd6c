package main

import (
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// offlineSetIntents are the intents the fresh and sealed offline sets may
// name: the outcomes the offline engine's trace is asked to report.
var offlineSetIntents = strings.Fields(`greeting farewell thanks compliment insult how_are_you
	feeling_sad feeling_good feeling_tired feeling_sick feeling_stress feeling_news_bad feeling_news_good
	name remember persona_name persona_identity persona_creator persona_age persona_origin persona_place
	persona_modeled persona_human persona_emotions abilities knowledge time date smile wave song language
	forget_me forget_yes forget_no default`)

// offlineSetFile mirrors the offline eval's file format, strictly, so that
// a set that drifts from it fails here rather than in the eval.
type offlineSetFile struct {
	Language     string `json:"language"`
	Interactions []struct {
		Name  string `json:"name"`
		Turns []struct {
			Say      string   `json:"say"`
			Category string   `json:"category"`
			Intent   string   `json:"intent"`
			Contains []string `json:"contains"`
			Avoid    []string `json:"avoid,omitempty"`
			Language string   `json:"language,omitempty"`
		} `json:"turns"`
	} `json:"interactions"`
}

// TestOfflineSetsWellFormed checks the fresh (tuned), sealed and every probe
// offline set are valid data: the eval's format, known intents and
// languages, at least 40 utterances per file of the fresh and sealed halves
// and 25 per probe file (a probe may be written for some languages only,
// not none), the same intent mix in the fresh and sealed halves, and no
// utterance shared between sets. It reads the sealed files only as data; it
// never looks at the engine's replies to them.
func TestOfflineSetsWellFormed(t *testing.T) {
	known := map[string]bool{}
	for _, in := range offlineSetIntents {
		known[in] = true
	}
	langs := []string{"en", "fr", "de", "zh"}
	mix := map[string]map[string]map[string]int{} // half → language → intent → count
	said := map[string]string{}                   // utterance → file
	sets, err := offlineSets(os.DirFS("."))
	if err != nil {
		t.Fatal(err)
	}
	var halves []string
	for _, s := range sets {
		if s.name == "fresh" || s.name == "sealed" || probeNumber(s.name) > 0 {
			halves = append(halves, s.name)
		}
	}
	if len(halves) < 3 {
		t.Fatalf("sets %v: want fresh, sealed and probes", halves)
	}
	for _, half := range halves {
		probe := probeNumber(half) > 0
		mix[half] = map[string]map[string]int{}
		files := 0
		for _, lang := range langs {
			file := filepath.Join("testdata", "offline_eval", half, lang+".json")
			b, err := os.ReadFile(file)
			if probe && errors.Is(err, fs.ErrNotExist) {
				continue // a probe may be written a language at a time
			}
			if err != nil {
				t.Fatal(err)
			}
			files++
			if !utf8.Valid(b) {
				t.Fatalf("%s: not UTF-8", file)
			}
			var s offlineSetFile
			dec := json.NewDecoder(strings.NewReader(string(b)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&s); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if s.Language != lang {
				t.Errorf("%s: language %q", file, s.Language)
			}
			counts := map[string]int{}
			for _, in := range s.Interactions {
				// The probe's conversations are longer: a name, questions,
				// then the forget and its answer.
				maxTurns := 7
				if probe {
					maxTurns = 10
				}
				if in.Name == "" || len(in.Turns) > maxTurns || len(in.Turns) < 2 && !probe {
					t.Errorf("%s: interaction %q has %d turns, want 2 to %d", file, in.Name, len(in.Turns), maxTurns)
				}
				for _, turn := range in.Turns {
					where := file + ": " + turn.Say
					if strings.TrimSpace(turn.Say) == "" || turn.Category == "" {
						t.Errorf("%s: empty say or category", where)
					}
					// A probe turn without an intent is an unclear answer to
					// "shall I forget you?": whatever answers it, nothing is
					// erased (its avoid list).
					if !known[turn.Intent] && !(probe && turn.Intent == "" && len(turn.Avoid) > 0) {
						t.Errorf("%s: intent %q", where, turn.Intent)
					}
					if turn.Language != "" && !slices.Contains(langs, turn.Language) {
						t.Errorf("%s: language %q", where, turn.Language)
					}
					if len(turn.Contains) == 0 && len(turn.Avoid) == 0 && turn.Intent != "how_are_you" {
						t.Errorf("%s: neither contains nor avoid", where)
					}
					for _, c := range turn.Contains {
						for _, alt := range strings.Split(c, "|") {
							if alt == "" {
								t.Errorf("%s: empty alternative in %q", where, c)
							}
						}
					}
					key := strings.ToLower(strings.TrimSpace(turn.Say))
					if prev, ok := said[key]; ok && prev != file {
						t.Errorf("%s: an utterance of %d bytes is also in %s", file, len(key), prev) // never printed: one may be sealed
					}
					said[key] = file
					counts[turn.Intent]++
				}
			}
			total := 0
			for _, n := range counts {
				total += n
			}
			if least := 40 - 15*boolInt(probe); total < least {
				t.Errorf("%s: %d utterances, want at least %d", file, total, least)
			}
			mix[half][lang] = counts
		}
		if files == 0 {
			t.Errorf("%s: no language's file", half)
		}
	}
	for _, lang := range langs {
		if f, s := mix["fresh"][lang], mix["sealed"][lang]; !maps.Equal(f, s) {
			t.Errorf("%s: the halves have different intent mixes: fresh %v, sealed %v", lang, f, s)
		}
		for _, in := range offlineSetIntents {
			if mix["fresh"][lang][in] == 0 {
				t.Errorf("%s: no %s utterance", lang, in)
			}
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
