package intents

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
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

// countingTrain trains the tiny model and counts its calls.
type countingTrain struct {
	mu    sync.Mutex
	calls int
	m     *Model
}

func (c *countingTrain) train() (*Model, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	return c.m, nil
}

func TestCache(t *testing.T) {
	m := trainTiny(t, Options{})
	texts := mixedTexts(tinySet(t), 100, 2)
	dir := t.TempDir()
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := &Cache{Dir: filepath.Join(dir, "models"), Key: "k1", Log: log}
	tr := &countingTrain{m: m}

	// Empty cache: trained and written.
	got, err := c.Model("tiny", tr.train)
	if err != nil || got != m || tr.calls != 1 {
		t.Fatalf("empty cache: %p %v, %d trainings", got, err, tr.calls)
	}
	path := filepath.Join(dir, "models", "tiny-k1.model")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("model not written: %v", err)
	}
	// Warm: loaded, not trained, the same classifications.
	got, err = c.Model("tiny", tr.train)
	if err != nil || tr.calls != 1 {
		t.Fatalf("warm cache: %v, %d trainings", err, tr.calls)
	}
	if diff := sameClassifications(m, got, texts); diff != "" {
		t.Error(diff)
	}
	// Corrupt: retrained and the file replaced.
	if err := os.WriteFile(path, []byte("NDIM\x01garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Model("tiny", tr.train); err != nil || tr.calls != 2 {
		t.Fatalf("corrupt cache: %v, %d trainings", err, tr.calls)
	}
	if _, err := load(path); err != nil {
		t.Errorf("the corrupt file was not replaced: %v", err)
	}
	if !strings.Contains(logs.String(), "checksum") {
		t.Errorf("the corrupt file was not logged at debug level: %s", logs.String())
	}
	// Another model of another name stays; another key replaces this name's file.
	if _, err := c.Model("tiny-2", tr.train); err != nil {
		t.Fatal(err)
	}
	c2 := &Cache{Dir: c.Dir, Key: "k2", Log: log}
	if _, err := c2.Model("tiny", tr.train); err != nil || tr.calls != 4 {
		t.Fatalf("new key: %v, %d trainings", err, tr.calls)
	}
	entries, _ := os.ReadDir(c.Dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"tiny-2-k1.model", "tiny-k2.model"}; !reflect.DeepEqual(names, want) {
		t.Errorf("cache holds %v, want %v (no temporary files, the old key's file removed)", names, want)
	}
	// No directory, an unwritable one: trained, no error.
	for _, c := range []*Cache{{Key: "k"}, {Dir: filepath.Join(path, "not-a-dir"), Key: "k", Log: log}} {
		if got, err := c.Model("tiny", tr.train); err != nil || got != m {
			t.Errorf("cache %+v: %v", c, err)
		}
	}
}

// TestCacheConcurrent starts several loaders at once on an empty cache: each
// gets a whole model (trained or loaded), never a half-written file.
func TestCacheConcurrent(t *testing.T) {
	m := trainTiny(t, Options{Neighbours: 0.2})
	texts := mixedTexts(tinySet(t), 50, 3)
	c := &Cache{Dir: t.TempDir(), Key: "k", Log: slog.New(slog.DiscardHandler)}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 5 {
				got, err := c.Model("tiny", func() (*Model, error) { return m, nil })
				if err != nil {
					t.Error(err)
					return
				}
				if diff := sameClassifications(m, got, texts); diff != "" {
					t.Error(diff)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestDefaultCache(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", dir)
	c := DefaultCache()
	if want := filepath.Join(dir, "nadine", "models"); c.Dir != want || len(c.Key) != 32 {
		t.Errorf("default cache %+v, want dir %s and a key", c, want)
	}
	if again := DefaultCache(); again.Key != c.Key {
		t.Error("the executable's key changed within a process")
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	if c := DefaultCache(); c.Dir != "" {
		t.Errorf("without HOME the cache is %q, want none", c.Dir)
	}
}

// BenchmarkExecutableHash measures the key's cost, paid once per process.
func BenchmarkExecutableHash(b *testing.B) {
	exe, _ := os.Executable()
	st, _ := os.Stat(exe)
	b.SetBytes(st.Size())
	for b.Loop() {
		if _, err := hashExecutable(); err != nil {
			b.Fatal(err)
		}
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
			if a.Known(t.Norm) != b.Known(t.Norm) || a.KnownStem(t.Norm) != b.KnownStem(t.Norm) {
				return fmt.Sprintf("%q: known words differ", text)
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
