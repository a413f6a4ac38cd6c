package langid_test

import (
	"sync"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/langid"
)

func newDetector(t testing.TB) *langid.Detector {
	t.Helper()
	d, err := langid.New()
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return d
}

func TestDetect(t *testing.T) {
	d := newDetector(t)
	tests := []struct {
		text   string
		want   nadine.Language
		wantOK bool
	}{
		// Too short or ambiguous: the runtime keeps the session language.
		{"", "", false},
		{"   ", "", false},
		{"OK", "", false},
		{"Alex", "", false},
		{"12", "", false},
		{"12 °C", "", false},
		{"Taxi", "", false},
		{"Hotel", "", false},
		{"Restaurant", "", false},
		{"?!", "", false},
		// Unsupported scripts.
		{"こんにちは、元気ですか？", "", false},
		{"안녕하세요", "", false},
		{"Привет, как дела?", "", false},
		// Chinese: Han characters outnumber the Latin-script words.
		{"好", nadine.Chinese, true},
		{"你好！", nadine.Chinese, true},
		{"我叫Alex。", nadine.Chinese, true},
		{"OK，我来做。", nadine.Chinese, true},
		{"謝謝你。", nadine.Chinese, true},
		// Latin-script languages.
		{"I am smiling now.", nadine.English, true},
		{"Il fait 12 degrés à Genève.", nadine.French, true},
		{"Es sind 12 Grad in Genf.", nadine.German, true},
		{"Please call a taxi.", nadine.English, true},
		{"Appelez un taxi, s'il vous plaît.", nadine.French, true},
		{"Bitte rufen Sie ein Taxi.", nadine.German, true},
		{"I like 中文 very much.", nadine.English, true},
		{"J’ai deux enfants.", nadine.French, true}, // typographic apostrophe
		{"DAS WETTER IST HEUTE SCHÖN.", nadine.German, true},
	}
	for _, tt := range tests {
		got, conf, ok := d.Detect(tt.text)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("Detect(%q) = %q, %.2f, %v; want %q, %v", tt.text, got, conf, ok, tt.want, tt.wantOK)
		}
		if conf < 0 || conf > 1 {
			t.Errorf("Detect(%q) confidence = %v, want in 0..1", tt.text, conf)
		}
		if ok && conf < 0.5 {
			t.Errorf("Detect(%q) confidence = %.2f with ok, want >= 0.5", tt.text, conf)
		}
	}
}

func TestDetectChineseConfidence(t *testing.T) {
	d := newDetector(t)
	for _, tt := range []struct {
		text string
		want float64
	}{
		{"好", 1},
		{"你好！", 1},
		{"我叫Alex。", 0.8}, // 2 Han characters, 1 Latin-script word
	} {
		got, conf, ok := d.Detect(tt.text)
		if got != nadine.Chinese || !ok || conf < tt.want-1e-9 || conf > tt.want+1e-9 {
			t.Errorf("Detect(%q) = %q, %v, %v; want zh, %v, true", tt.text, got, conf, ok, tt.want)
		}
	}
}

// TestDetectConfidenceGrows checks that more text in the same language
// gives at least as much confidence.
func TestDetectConfidenceGrows(t *testing.T) {
	d := newDetector(t)
	_, short, _ := d.Detect("Je vous écoute.")
	_, long, ok := d.Detect("Je vous écoute, dites-moi ce que vous voulez faire aujourd'hui.")
	if !ok || long < short {
		t.Errorf("confidence: short %.3f, long %.3f (ok %v); want long >= short", short, long, ok)
	}
}

// TestDetectConcurrent runs one Detector from many goroutines (run with
// -race) and checks the answers equal the sequential ones.
func TestDetectConcurrent(t *testing.T) {
	d := newDetector(t)
	samples := loadSamples(t, "testdata/dev.txt")
	type answer struct {
		lang nadine.Language
		conf float64
		ok   bool
	}
	want := make([]answer, len(samples))
	for i, s := range samples {
		l, c, ok := d.Detect(s.text)
		want[i] = answer{l, c, ok}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range samples {
				j := (i + g*37) % len(samples)
				l, c, ok := d.Detect(samples[j].text)
				if got := (answer{l, c, ok}); got != want[j] {
					t.Errorf("goroutine %d: Detect(%q) = %v, want %v", g, samples[j].text, got, want[j])
					return
				}
			}
		}()
	}
	wg.Wait()
}
