package intents

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/nadine-robot/nadine"
	"hash/crc32"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// trainTiny trains the tiny examples with options like the offline
// classifier's (lookup slots, nearest examples) or the defaults.
func trainTiny(t *testing.T, o Options) *Model {
	t.Helper()
	m, err := Train(tinySet(t), o)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var roundTripOptions = map[string]Options{
	"defaults":            {},
	"lookup+neighbours":   {Lookup: []string{"name"}, Neighbours: 0.2},
	"other seed, weights": {Seed: 7, Weights: Weights{Words: 1, Bigrams: 0.5, Chars: 0.7, MaxGram: 5}},
}

func TestMarshalRoundTrip(t *testing.T) {
	for name, o := range roundTripOptions {
		t.Run(name, func(t *testing.T) {
			m := trainTiny(t, o)
			b, err := m.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			var got Model
			if err := got.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(&got, m) {
				t.Errorf("decoded model differs from the trained one")
			}
			again, _ := got.MarshalBinary()
			if !bytes.Equal(again, b) {
				t.Error("re-encoding the decoded model gives other bytes")
			}
			texts := mixedTexts(tinySet(t), 300, 1)
			if diff := sameClassifications(m, &got, texts); diff != "" {
				t.Error(diff)
			}
		})
	}
}

func TestUnmarshalRejects(t *testing.T) {
	m := trainTiny(t, Options{Lookup: []string{"name"}, Neighbours: 0.2})
	good, _ := m.MarshalBinary()
	flip := func(i int) []byte {
		b := bytes.Clone(good)
		b[i] ^= 0x40
		return b
	}
	version := bytes.Clone(good)
	version[len(encodingMagic)]++
	tests := map[string]struct {
		data []byte
		want string
	}{
		"empty":         {nil, "not an encoded model"},
		"other file":    {[]byte("hello, this is not a model at all"), "not an encoded model"},
		"version":       {version, "format version"},
		"flipped byte":  {flip(len(good) / 2), "checksum"},
		"flipped crc":   {flip(len(good) - 1), "checksum"},
		"truncated":     {good[:len(good)-100], "checksum"},
		"only a header": {good[:len(encodingMagic)+1], "not an encoded model"},
	}
	for name, tt := range tests {
		var got Model
		err := got.UnmarshalBinary(tt.data)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, tt.want)
		}
	}
	// A body whose checksum is right but whose counts are wrong: still an error.
	body := bytes.Clone(good[:len(good)-4])
	body = body[:len(body)-3]
	body = binary.LittleEndian.AppendUint32(body, crc32.Checksum(body, castagnoli))
	var got Model
	if err := got.UnmarshalBinary(body); err == nil {
		t.Error("a truncated body with a right checksum decoded")
	}
}

// memStore is a Store in memory, counting its saves.
type memStore struct {
	mu    sync.Mutex
	files map[string][]byte
	saves int
	fail  error
}

func (s *memStore) Load(name string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.files[name]
	if !ok {
		return nil, errors.New("no such model")
	}
	return b, nil
}

func (s *memStore) Save(name string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return s.fail
	}
	if s.files == nil {
		s.files = map[string][]byte{}
	}
	s.files[name] = data
	s.saves++
	return nil
}

func TestCache(t *testing.T) {
	m := trainTiny(t, Options{Neighbours: 0.2})
	texts := mixedTexts(tinySet(t), 100, 2)
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	store := &memStore{}
	c := &Cache{Store: store, Log: log}
	calls := 0
	train := func() (*Model, error) { calls++; return m, nil }

	// Empty: trained and saved.
	if got, err := c.Model("tiny", train); err != nil || got != m || calls != 1 || store.saves != 1 {
		t.Fatalf("empty store: %v, %d trainings, %d saves", err, calls, store.saves)
	}
	// Warm: loaded, not trained, the same classifications.
	got, err := c.Model("tiny", train)
	if err != nil || calls != 1 || got == m {
		t.Fatalf("warm store: %v, %d trainings", err, calls)
	}
	if diff := sameClassifications(m, got, texts); diff != "" {
		t.Error(diff)
	}
	// Corrupt: retrained and saved again, logged at debug level.
	store.files["tiny"] = append(append([]byte(encodingMagic), encodingVersion), "garbage"...)
	if _, err := c.Model("tiny", train); err != nil || calls != 2 || store.saves != 2 {
		t.Fatalf("corrupt store: %v, %d trainings, %d saves", err, calls, store.saves)
	}
	if !strings.Contains(logs.String(), "checksum") || !strings.Contains(logs.String(), "level=DEBUG") {
		t.Errorf("the corrupt model was not logged at debug level: %s", logs.String())
	}
	// A store that cannot save, no store: trained, no error.
	store.fail = errors.New("disk full")
	if got, err := c.Model("other", train); err != nil || got != m || !strings.Contains(logs.String(), "disk full") {
		t.Errorf("failing store: %v", err)
	}
	var none *Cache
	if got, err := none.Model("tiny", train); err != nil || got != m {
		t.Errorf("no cache: %v", err)
	}
	// A training that fails is the error.
	if _, err := c.Model("bad", func() (*Model, error) { return nil, errors.New("no examples") }); err == nil {
		t.Error("a failed training returned no error")
	}
}

func TestUseCache(t *testing.T) {
	m := trainTiny(t, Options{})
	store := &memStore{}
	UseCache(&Cache{Store: store, Log: slog.New(slog.DiscardHandler)})
	defer UseCache(nil)
	if got, err := Cached("tiny", func() (*Model, error) { return m, nil }); err != nil || got != m || store.saves != 1 {
		t.Fatalf("Cached: %v, %d saves", err, store.saves)
	}
}

// mixedTexts returns n utterances made of the first half of one example and
// the second half of another, so none was trained as is.
func mixedTexts(s *Set, n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make([]string, 0, n)
	for range n {
		a := strings.Fields(s.Examples[rng.IntN(len(s.Examples))].Text)
		b := strings.Fields(s.Examples[rng.IntN(len(s.Examples))].Text)
		out = append(out, strings.Join(append(a[:len(a)/2:len(a)/2], b[len(b)/2:]...), " "))
	}
	return out
}

// sameClassifications returns what differs, bit for bit, between what two
// models say of the texts, or "".
func sameClassifications(a, b *Model, texts []string) string {
	for _, text := range texts {
		toks := Tokenize(text)
		ra, rb := a.Classify(text), b.Classify(text)
		pa, pb := a.ClassifyPart(toks), b.ClassifyPart(toks)
		if !reflect.DeepEqual(ra, rb) || !reflect.DeepEqual(pa, pb) {
			return fmt.Sprintf("%q: %v, decoded %v", text, ra, rb)
		}
		if !reflect.DeepEqual(a.Tags(toks), b.Tags(toks)) {
			return fmt.Sprintf("%q: tags differ", text)
		}
		for _, t := range toks {
			for _, lang := range nadine.Languages() {
				if a.Known(lang, t.Norm) != b.Known(lang, t.Norm) || a.KnownStem(lang, t.Norm) != b.KnownStem(lang, t.Norm) {
					return fmt.Sprintf("%q: known words in %s differ", text, lang)
				}
			}
		}
		for _, slot := range []string{"name", "lang", "place"} {
			if !reflect.DeepEqual(a.SlotSpans(slot, "", toks), b.SlotSpans(slot, "", toks)) {
				return fmt.Sprintf("%q: spans of %s differ", text, slot)
			}
		}
	}
	return ""
}
