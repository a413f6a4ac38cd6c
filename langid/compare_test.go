//go:build compare

// The comparison with lingua-go and whatlanggo that chose langid (see
// doc.go). It needs both modules, lingua-go's 124 MB among them, so it runs
// only with the build tag:
//
//	go test -tags compare -run TestDetectorAccuracy -v ./langid/
//	go test -tags compare -run XXX -bench Detect ./langid/
//	go test -tags compare -run TestBinaryCost -cost -v ./langid/

package langid_test

import (
	"testing"

	"github.com/abadojack/whatlanggo"
	"github.com/nadine-robot/nadine"
	"github.com/pemistahl/lingua-go"
)

func init() {
	candidates = append(candidates,
		candidate{"lingua-high", "lingua-go high accuracy", linguaCandidate(false, 0)},
		candidate{"lingua-high-conf0.5", "lingua-go high, conf>=0.5", linguaCandidate(false, 0.5)},
		candidate{"lingua-low", "lingua-go low accuracy", linguaCandidate(true, 0)},
		candidate{"whatlanggo", "whatlanggo v1.0.1", whatlangCandidate},
	)
}

var linguaCodes = map[lingua.Language]nadine.Language{
	lingua.English: nadine.English, lingua.French: nadine.French,
	lingua.German: nadine.German, lingua.Chinese: nadine.Chinese,
}

// linguaCandidate restricts lingua-go to the four languages. It answers ok
// when the best language's confidence is at least minConf (and non-zero).
func linguaCandidate(low bool, minConf float64) func(testing.TB) detectFunc {
	return func(testing.TB) detectFunc {
		b := lingua.NewLanguageDetectorBuilder().
			FromLanguages(lingua.English, lingua.French, lingua.German, lingua.Chinese).
			WithPreloadedLanguageModels()
		if low {
			b = b.WithLowAccuracyMode()
		}
		d := b.Build()
		return func(text string) (nadine.Language, float64, bool) {
			top := d.ComputeLanguageConfidenceValues(text)[0]
			if top.Value() == 0 || top.Value() < minConf {
				return "", top.Value(), false
			}
			return linguaCodes[top.Language()], top.Value(), true
		}
	}
}

// whatlangCandidate restricts whatlanggo to the four languages.
func whatlangCandidate(testing.TB) detectFunc {
	opt := whatlanggo.Options{Whitelist: map[whatlanggo.Lang]bool{
		whatlanggo.Eng: true, whatlanggo.Fra: true, whatlanggo.Deu: true, whatlanggo.Cmn: true,
	}}
	codes := map[whatlanggo.Lang]nadine.Language{
		whatlanggo.Eng: nadine.English, whatlanggo.Fra: nadine.French,
		whatlanggo.Deu: nadine.German, whatlanggo.Cmn: nadine.Chinese,
	}
	return func(text string) (nadine.Language, float64, bool) {
		info := whatlanggo.DetectWithOptions(text, opt)
		l, ok := codes[info.Lang]
		return l, info.Confidence, ok
	}
}
