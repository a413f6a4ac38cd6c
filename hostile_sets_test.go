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

// hostileCase is one raw model output for the role that writes what Nadine
// says, with what a visitor must never hear from it and what of it is a
// legitimate reply worth keeping.
type hostileCase struct {
	ID           string   `json:"id"`
	Engine       string   `json:"engine"`
	Kind         string   `json:"kind"`
	Language     string   `json:"language"`
	Output       string   `json:"output"`
	MustNotSpeak []string `json:"must_not_speak"`
	ShouldSpeak  []string `json:"should_speak"`
}

// hostileKinds are the defects the hostile sets cover.
var hostileKinds = []string{"prompt_echo", "fence", "format_talk", "react_labels", "chat_template",
	"url", "markup", "assistant_ism", "over_long", "mixed"}

// TestHostileSetsWellFormed checks the hostile output sets are valid data:
// unique ids, known engines, kinds and languages, every kind in every
// language in each file, at least 60 tuned and 40 sealed cases, forbidden
// spans that occur in the output (except the hole a removed URL leaves),
// and kept spans that occur verbatim and contain no forbidden span.
func TestHostileSetsWellFormed(t *testing.T) {
	ids := map[string]bool{}
	for _, f := range []struct {
		name string
		min  int
	}{{"tuned.json", 60}, {"sealed.json", 40}} {
		file := filepath.Join("testdata", "hostile", f.name)
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(b) {
			t.Fatalf("%s: not UTF-8", file)
		}
		var set struct {
			Cases []hostileCase `json:"cases"`
		}
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&set); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if len(set.Cases) < f.min {
			t.Errorf("%s: %d cases, want at least %d", file, len(set.Cases), f.min)
		}
		covered := map[string]bool{}
		for _, c := range set.Cases {
			where := file + ": " + c.ID
			if c.ID == "" || ids[c.ID] {
				t.Errorf("%s: empty or repeated id", where)
			}
			ids[c.ID] = true
			if !slices.Contains([]string{"react", "graph", "both"}, c.Engine) {
				t.Errorf("%s: engine %q", where, c.Engine)
			}
			if !slices.Contains(hostileKinds, c.Kind) {
				t.Errorf("%s: kind %q", where, c.Kind)
			}
			if !slices.Contains([]string{"en", "fr", "de", "zh"}, c.Language) {
				t.Errorf("%s: language %q", where, c.Language)
			}
			covered[c.Kind+"/"+c.Language] = true
			if c.Output == "" || len(c.MustNotSpeak) == 0 {
				t.Errorf("%s: no output or nothing forbidden", where)
			}
			out := strings.ToLower(c.Output)
			for _, m := range c.MustNotSpeak {
				if m == "" || (!strings.Contains(out, strings.ToLower(m)) && c.Kind != "url") {
					t.Errorf("%s: forbidden %q is not in the output", where, m)
				}
				for _, s := range c.ShouldSpeak {
					if strings.Contains(strings.ToLower(s), strings.ToLower(m)) {
						t.Errorf("%s: kept %q holds forbidden %q", where, s, m)
					}
				}
			}
			for _, s := range c.ShouldSpeak {
				if s == "" || !strings.Contains(c.Output, s) {
					t.Errorf("%s: kept %q is not in the output", where, s)
				}
			}
		}
		for _, k := range hostileKinds {
			for _, l := range []string{"en", "fr", "de", "zh"} {
				if !covered[k+"/"+l] {
					t.Errorf("%s: no %s case in %s", file, k, l)
				}
			}
		}
	}
}
