package offline

import (
	"sync"
	"unicode"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// Chinese reading rules (docs/offline.md, "Round zh11"): Chinese is written
// without spaces, so the classifier's tokens are characters, and a word of
// two characters ("挥手") is two tokens each shared with other intents.

// gestureLabels are the gestures she makes on request: a request names
// the movement by its own verb, whatever else it says around it.
var gestureLabels = []string{"wave", "smile"}

// ownWordMin is how many of a gesture's examples, and no other intent's,
// must use a character or a pair of characters to make it the gesture's
// own word (挥, 招, 挥手, 招手, 微笑, 笑一): three let in 向 ("to"), a
// preposition of any request.
const ownWordMin = 4

// ownWordFloor is the least probability of the gesture whose own word an
// utterance holds: the classifier must read it at all ("你会不会招手" wave 0.12).
const ownWordFloor = 0.1

// hanOwnWords maps each Chinese character and pair of characters that only
// one gesture's examples use, in at least ownWordMin of them, to it; read
// off the examples, so a new example of another intent that uses one takes
// it out.
var hanOwnWords = sync.OnceValue(func() map[string]string {
	s, err := Examples()
	if err != nil {
		return nil // the model's training reports it
	}
	uses := map[string]map[string]int{} // word → label → examples
	for _, ex := range s.Examples {
		if ex.Lang != nadine.Chinese {
			continue
		}
		seen := map[string]bool{}
		for _, run := range hanRuns(intents.Simplify(ex.Text)) {
			for i := range run {
				for n := 1; n <= 2 && i+n <= len(run); n++ {
					w := string(run[i : i+n])
					if seen[w] {
						continue
					}
					seen[w] = true
					if uses[w] == nil {
						uses[w] = map[string]int{}
					}
					uses[w][ex.Label]++
				}
			}
		}
	}
	out := map[string]string{}
	for w, labels := range uses {
		for _, g := range gestureLabels {
			if len(labels) == 1 && labels[g] >= ownWordMin {
				out[w] = g
			}
		}
	}
	return out
})

// hanRuns splits s into its runs of Chinese characters.
func hanRuns(s string) [][]rune {
	var runs [][]rune
	var run []rune
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			run = append(run, r)
			continue
		}
		if len(run) > 0 {
			runs = append(runs, run)
		}
		run = nil
	}
	if len(run) > 0 {
		runs = append(runs, run)
	}
	return runs
}

// hanGesture is the gesture a Chinese utterance asks for by its own word
// when the classifier reads it, if weakly, and nothing else plainly: "你的
// 手能动吗 挥一下看看" read as how she sees (0.21) before the wave (0.14).
func hanGesture(r reading) (candidate, bool) {
	if r.lang != nadine.Chinese || r.whole.Top().Prob >= wholeSure {
		return candidate{}, false
	}
	best := candidate{}
	for _, run := range hanRuns(intents.Simplify(r.text)) {
		for i := range run {
			for n := 1; n <= 2 && i+n <= len(run); n++ {
				g, ok := hanOwnWords()[string(run[i:i+n])]
				if p := r.whole.Prob(g); ok && p >= ownWordFloor && p > best.prob {
					best = candidate{g, p}
				}
			}
		}
	}
	return best, best.label != ""
}
