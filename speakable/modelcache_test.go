package speakable

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/intents"
)

// TestModelRoundTrip: a backstage model trained with the classifier's options
// and loaded from the cache judges sentences as the trained one does, bit for bit.
func TestModelRoundTrip(t *testing.T) {
	t.Parallel()
	all, err := backstageExamples()
	if err != nil {
		t.Fatal(err)
	}
	part := &intents.Set{Values: all.Values}
	for i, ex := range all.Examples {
		if i%3 == 0 {
			part.Examples = append(part.Examples, ex)
		}
	}
	o := backstageOptions
	o.Seed = 101
	trained, err := intents.Train(part, o)
	if err != nil {
		t.Fatal(err)
	}
	c := &intents.Cache{Store: &memStore{}}
	if m, err := c.Model("backstage-1", func() (*intents.Model, error) { return trained, nil }); err != nil || m != trained {
		t.Fatalf("storing: %v", err)
	}
	loaded, err := c.Model("backstage-1", func() (*intents.Model, error) {
		t.Fatal("trained again: the stored model did not load")
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := 1; i < len(all.Examples) && n < 400; i += 13 {
		a, b := strings.Fields(all.Examples[i].Text), strings.Fields(all.Examples[len(all.Examples)-i].Text)
		for _, text := range []string{all.Examples[i].Text, strings.Join(append(a[:len(a)/2:len(a)/2], b[len(b)/2:]...), " ")} {
			n++
			toks := intents.Tokenize(text)
			if x, y := trained.ClassifyPart(toks), loaded.ClassifyPart(toks); !reflect.DeepEqual(x, y) {
				t.Fatalf("%q: trained %v, loaded %v", text, x, y)
			}
			if x, y := trained.Classify(text), loaded.Classify(text); !reflect.DeepEqual(x, y) {
				t.Fatalf("%q: trained %v, loaded %v", text, x, y)
			}
		}
	}
	t.Logf("%d sentences judged alike by the trained and the loaded model", n)
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
