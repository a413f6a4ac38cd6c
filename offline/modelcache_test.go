package offline

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/intents"
)

// TestModelRoundTrip: a model trained with the classifier's options (lookup
// slots, nearest examples) and loaded from the cache classifies mixed
// utterances as the trained one does, bit for bit.
func TestModelRoundTrip(t *testing.T) {
	t.Parallel()
	all, err := Examples()
	if err != nil {
		t.Fatal(err)
	}
	// A quarter of the examples: every option, every language, a fourth of the time.
	part := &intents.Set{Values: all.Values}
	for i, ex := range all.Examples {
		if i%4 == 0 {
			part.Examples = append(part.Examples, ex)
		}
	}
	trained, err := intents.Train(part, trainOptions)
	if err != nil {
		t.Fatal(err)
	}
	c := &intents.Cache{Store: &memStore{}}
	if m, err := c.Model("offline", func() (*intents.Model, error) { return trained, nil }); err != nil || m != trained {
		t.Fatalf("storing: %v", err)
	}
	loaded, err := c.Model("offline", func() (*intents.Model, error) {
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
	t.Logf("%d utterances classified alike by the trained and the loaded model (%d features)", len(texts), loaded.Size())
}

// memStore is an intents.Store in memory.
type memStore struct{ files map[string][]byte }

func (s *memStore) Load(name string) ([]byte, error) {
	if b, ok := s.files[name]; ok {
		return b, nil
	}
	return nil, errors.New("no such model")
}

func (s *memStore) Save(name string, data []byte) error {
	if s.files == nil {
		s.files = map[string][]byte{}
	}
	s.files[name] = data
	return nil
}
