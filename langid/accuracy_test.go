package langid_test

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/langid"
)

// sample is one labelled utterance; lang is "" for text that no detector
// should claim.
type sample struct {
	lang nadine.Language
	text string
}

func loadSamples(t testing.TB, name string) []sample {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []sample
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lang, text, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("%s:%d: no tab", name, n)
		}
		if lang == "-" {
			lang = ""
		} else if !nadine.Language(lang).Valid() {
			t.Fatalf("%s:%d: bad language %q", name, n, lang)
		}
		out = append(out, sample{nadine.Language(lang), text})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// detectFunc adapts a candidate detector.
type detectFunc func(text string) (nadine.Language, float64, bool)

// candidate is a detector under comparison; build constructs it once.
type candidate struct {
	id    string // benchmark name
	name  string
	build func(testing.TB) detectFunc
}

func langidCandidate(t testing.TB) detectFunc {
	d, err := langid.New()
	if err != nil {
		t.Fatal(err)
	}
	return d.Detect
}

// candidates are the detectors measured: langid, and with the build tag
// "compare" (compare_test.go) lingua-go and whatlanggo, whose modules a
// plain `go test ./...` then does not need to download:
//
//	go test -tags compare -run TestDetectorAccuracy -v ./langid/
var candidates = []candidate{
	{"langid", "langid (chosen)", langidCandidate},
}

// result is one detector's score on one test set.
type result struct {
	correct, total map[nadine.Language]int
	wrong          int // confident wrong answers on labelled samples
	abstained      int // ok=false on unlabelled (ambiguous) samples
	ambiguous      int
	misses         []string
}

func (r result) accuracy(l nadine.Language) float64 {
	return float64(r.correct[l]) / float64(r.total[l])
}

func (r result) overall() float64 {
	c, n := 0, 0
	for _, l := range nadine.Languages() {
		c += r.correct[l]
		n += r.total[l]
	}
	return float64(c) / float64(n)
}

func evaluate(detect detectFunc, samples []sample) result {
	r := result{correct: map[nadine.Language]int{}, total: map[nadine.Language]int{}}
	for _, s := range samples {
		got, conf, ok := detect(s.text)
		if s.lang == "" {
			r.ambiguous++
			if !ok {
				r.abstained++
			} else {
				r.misses = append(r.misses, fmt.Sprintf("ambiguous %q → %s (%.2f)", s.text, got, conf))
			}
			continue
		}
		r.total[s.lang]++
		switch {
		case ok && got == s.lang:
			r.correct[s.lang]++
		case ok:
			r.wrong++
			r.misses = append(r.misses, fmt.Sprintf("%s %q → %s (%.2f)", s.lang, s.text, got, conf))
		default:
			r.misses = append(r.misses, fmt.Sprintf("%s %q → unsure (%.2f)", s.lang, s.text, conf))
		}
	}
	return r
}

// TestDetectorAccuracy prints each candidate's accuracy on the labelled
// short utterances of testdata (run with -v to see the table) and fails if
// the chosen detector falls below its floor. Accuracy counts an unsure
// answer (ok=false) on a labelled sample as a miss; "wrong" counts confident
// wrong answers; "unsure on ambiguous" counts ok=false on names, numbers and
// loanwords, which is the wanted answer there. With -short only the chosen
// detector is measured.
func TestDetectorAccuracy(t *testing.T) {
	sets := []string{"testdata/dev.txt", "testdata/heldout.txt"}
	cands := candidates
	if testing.Short() {
		cands = cands[:1] // lingua-go's model loading takes seconds under -race
	}
	detectors := make([]detectFunc, len(cands))
	for i, c := range cands {
		detectors[i] = c.build(t)
	}
	for _, set := range sets {
		samples := loadSamples(t, set)
		var b strings.Builder
		fmt.Fprintf(&b, "%s\n%-27s %6s %6s %6s %6s %8s %6s  %s\n", set, "detector", "en", "fr", "de", "zh", "overall", "wrong", "unsure on ambiguous")
		var chosen result
		for i, c := range cands {
			r := evaluate(detectors[i], samples)
			if i == 0 {
				chosen = r
			}
			fmt.Fprintf(&b, "%-27s %6.3f %6.3f %6.3f %6.3f %8.3f %6d  %d/%d\n", c.name,
				r.accuracy(nadine.English), r.accuracy(nadine.French), r.accuracy(nadine.German),
				r.accuracy(nadine.Chinese), r.overall(), r.wrong, r.abstained, r.ambiguous)
		}
		t.Log("\n" + b.String())
		for _, m := range chosen.misses {
			t.Logf("langid miss: %s", m)
		}
		// Floors for the chosen detector: regressions fail here.
		if got, want := chosen.overall(), 0.95; got < want {
			t.Errorf("%s: langid overall accuracy = %.3f, want >= %.2f", set, got, want)
		}
		for _, l := range nadine.Languages() {
			if got, want := chosen.accuracy(l), 0.9; got < want {
				t.Errorf("%s: langid %s accuracy = %.3f, want >= %.2f", set, l, got, want)
			}
		}
		if got, want := float64(chosen.wrong)/float64(len(samples)-chosen.ambiguous), 0.02; got > want {
			t.Errorf("%s: langid confident wrong answers = %.3f of labelled samples, want <= %.2f", set, got, want)
		}
		if got, want := float64(chosen.abstained)/float64(chosen.ambiguous), 0.8; got < want {
			t.Errorf("%s: langid unsure on %.2f of ambiguous samples, want >= %.2f", set, got, want)
		}
	}
}

// BenchmarkDetect measures the mean time of one detection over the
// development set's utterances, per candidate. lingua-go's models are
// preloaded, so model loading is not included.
func BenchmarkDetect(b *testing.B) {
	samples := loadSamples(b, "testdata/dev.txt")
	for _, c := range candidates {
		b.Run(c.id, func(b *testing.B) {
			detect := c.build(b)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				detect(samples[i%len(samples)].text)
				i++
			}
		})
	}
}

// BenchmarkDetectParallel checks that langid scales across goroutines.
func BenchmarkDetectParallel(b *testing.B) {
	samples := loadSamples(b, "testdata/dev.txt")
	d, err := langid.New()
	if err != nil {
		b.Fatal(err)
	}
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			d.Detect(samples[i%len(samples)].text)
			i++
		}
	})
}

// BenchmarkNew measures langid's construction cost: decoding its embedded
// tables, which New does once per process. (lingua-go caches its models
// process-wide too, so its loading cost is measured in a fresh process by
// TestStartupCost.)
func BenchmarkNew(b *testing.B) {
	b.Run("langid", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := langid.Decode(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
