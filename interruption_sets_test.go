package nadine_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// interruptionCase is one transcript heard while Nadine speaks a sentence,
// and whether it should stop her.
type interruptionCase struct {
	ID         string `json:"id"`
	Language   string `json:"language"`
	Kind       string `json:"kind"`
	NadineSays string `json:"nadine_says"`
	Heard      string `json:"heard"`
	ShouldStop bool   `json:"should_stop"`
}

// TestInterruptionSetsWellFormed checks the interruption sets are valid
// data: unique ids, at least 60 cases per file, every kind in every
// language, only real interruptions marked as stopping, and no case shared
// between the tuned and the sealed file.
func TestInterruptionSetsWellFormed(t *testing.T) {
	ids := map[string]bool{}
	pairs := map[string]string{}
	kinds := []string{"backchannel", "echo", "interruption", "noise"}
	for _, name := range []string{"tuned.json", "sealed.json"} {
		file := filepath.Join("testdata", "interruptions", name)
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(b) {
			t.Fatalf("%s: not UTF-8", file)
		}
		var set struct {
			Cases []interruptionCase `json:"cases"`
		}
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&set); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if len(set.Cases) < 60 {
			t.Errorf("%s: %d cases, want at least 60", file, len(set.Cases))
		}
		covered := map[string]int{}
		for _, c := range set.Cases {
			where := file + ": " + c.ID
			if c.ID == "" || ids[c.ID] {
				t.Errorf("%s: empty or repeated id", where)
			}
			ids[c.ID] = true
			if !slices.Contains([]string{"en", "fr", "de", "zh"}, c.Language) {
				t.Errorf("%s: language %q", where, c.Language)
			}
			if !slices.Contains(kinds, c.Kind) {
				t.Errorf("%s: kind %q", where, c.Kind)
			}
			if c.ShouldStop != (c.Kind == "interruption") {
				t.Errorf("%s: should_stop %v for a %s", where, c.ShouldStop, c.Kind)
			}
			if strings.TrimSpace(c.NadineSays) == "" || strings.TrimSpace(c.Heard) == "" {
				t.Errorf("%s: empty sentence or transcript", where)
			}
			key := c.NadineSays + "\x00" + c.Heard
			if prev, ok := pairs[key]; ok && prev != name {
				t.Errorf("%s: also in %s", where, prev)
			}
			pairs[key] = name
			covered[c.Language+"/"+c.Kind]++
		}
		for _, l := range []string{"en", "fr", "de", "zh"} {
			for _, k := range kinds {
				if covered[l+"/"+k] < 2 {
					t.Errorf("%s: %d %s cases in %s, want at least 2", file, covered[l+"/"+k], k, l)
				}
			}
		}
	}
}
