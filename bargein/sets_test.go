package bargein_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/nadine-robot/nadine/bargein"
)

// setCase is one case of the independent interruption sets
// (testdata/interruptions), written apart from the judge.
type setCase struct {
	ID         string `json:"id"`
	Language   string `json:"language"`
	Kind       string `json:"kind"`
	NadineSays string `json:"nadine_says"`
	Heard      string `json:"heard"`
	ShouldStop bool   `json:"should_stop"`
}

func loadSet(t *testing.T, name string) []setCase {
	t.Helper()
	b, err := os.ReadFile("../testdata/interruptions/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var set struct {
		Cases []setCase `json:"cases"`
	}
	if err := json.Unmarshal(b, &set); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(set.Cases) == 0 {
		t.Fatalf("%s: no cases", name)
	}
	return set.Cases
}

// TestTunedSet: every case of the tuned set is judged right.
func TestTunedSet(t *testing.T) {
	j, err := bargein.New(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range loadSet(t, "tuned") {
		if v := j.Hear(c.Heard, c.NadineSays); v.Stop != c.ShouldStop {
			t.Errorf("%s (%s, %s): %q while saying %q: %s (score %.2f), want stop=%v", c.ID, c.Language, c.Kind, c.Heard, c.NadineSays, v.Kind, v.Score, c.ShouldStop)
		}
	}
}

// TestSealedSet scores the sealed set, which the judge was not tuned on:
// it prints the score per kind and language, never the utterances, and
// fails only below the bars (no stop on a backchannel or echo,
// every real interruption stopped) by more than one case per kind.
func TestSealedSet(t *testing.T) {
	j, err := bargein.New(0)
	if err != nil {
		t.Fatal(err)
	}
	type score struct{ right, all int }
	byKind, byLang := map[string]*score{}, map[string]*score{}
	total := score{}
	for _, c := range loadSet(t, "sealed") {
		ok := j.Hear(c.Heard, c.NadineSays).Stop == c.ShouldStop
		for _, s := range []*score{get(byKind, c.Kind), get(byLang, c.Language), &total} {
			s.all++
			if ok {
				s.right++
			}
		}
	}
	t.Logf("sealed interruption set: %d/%d right", total.right, total.all)
	for k, s := range byKind {
		t.Logf("  %-12s %d/%d", k, s.right, s.all)
	}
	for l, s := range byLang {
		t.Logf("  %-12s %d/%d", l, s.right, s.all)
	}
	for k, s := range byKind {
		if s.all-s.right > 1 {
			t.Errorf("sealed set, %s: %d/%d right", k, s.right, s.all)
		}
	}
}

func get[S any](m map[string]*S, k string) *S {
	if m[k] == nil {
		m[k] = new(S)
	}
	return m[k]
}
