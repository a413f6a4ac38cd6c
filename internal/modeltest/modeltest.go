// Package modeltest checks that a classifier stored in an intents cache
// loads back as the model that was trained, for the packages that train one.
package modeltest

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/intents"
)

// MemStore is an intents.Store in memory.
type MemStore struct{ files map[string][]byte }

// Load returns what Save stored under name.
func (s *MemStore) Load(name string) ([]byte, error) {
	if b, ok := s.files[name]; ok {
		return b, nil
	}
	return nil, errors.New("no such model")
}

// Save stores data under name.
func (s *MemStore) Save(name string, data []byte) error {
	if s.files == nil {
		s.files = map[string][]byte{}
	}
	s.files[name] = data
	return nil
}

// RoundTrip trains on one example in every of all's (to stay quick), stores
// the model in a cache, loads it back and fails unless up to 400 utterances
// (examples and halves of two joined) are read alike, bit for bit; it
// returns how many were compared.
func RoundTrip(t *testing.T, all *intents.Set, o intents.Options, every int) int {
	t.Helper()
	part := &intents.Set{Values: all.Values}
	for i, ex := range all.Examples {
		if i%every == 0 {
			part.Examples = append(part.Examples, ex)
		}
	}
	trained, err := intents.Train(part, o)
	if err != nil {
		t.Fatal(err)
	}
	c := &intents.Cache{Store: &MemStore{}}
	if m, err := c.Model("model", func() (*intents.Model, error) { return trained, nil }); err != nil || m != trained {
		t.Fatalf("storing: %v", err)
	}
	loaded, err := c.Model("model", func() (*intents.Model, error) {
		t.Fatal("trained again: the stored model did not load")
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for i := 0; i+1 < len(all.Examples) && len(texts) < 400; i += 37 {
		a, b := strings.Fields(all.Examples[i].Text), strings.Fields(all.Examples[len(all.Examples)-1-i].Text)
		texts = append(texts, all.Examples[i].Text, strings.Join(append(a[:len(a)/2:len(a)/2], b[len(b)/2:]...), " "))
	}
	for _, text := range texts {
		toks := intents.Tokenize(text)
		if a, b := trained.Classify(text), loaded.Classify(text); !reflect.DeepEqual(a, b) {
			t.Fatalf("%q: trained %v, loaded %v", text, a, b)
		}
		if a, b := trained.ClassifyPart(toks), loaded.ClassifyPart(toks); !reflect.DeepEqual(a, b) {
			t.Fatalf("%q: part: trained %v, loaded %v", text, a, b)
		}
		if a, b := trained.Tags(toks), loaded.Tags(toks); !reflect.DeepEqual(a, b) {
			t.Fatalf("%q: tags %v, loaded %v", text, a, b)
		}
		for _, slot := range []string{"name", "lang", "place"} {
			if a, b := trained.SlotSpans(slot, "", toks), loaded.SlotSpans(slot, "", toks); !reflect.DeepEqual(a, b) {
				t.Fatalf("%q: spans of %s %v, loaded %v", text, slot, a, b)
			}
		}
	}
	return len(texts)
}
