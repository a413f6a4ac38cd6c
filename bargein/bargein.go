// Package bargein decides whether what a person says while Nadine speaks
// should stop her: a real interruption does; a backchannel ("uh-huh",
// "d'accord", "嗯"), noise, or her own voice heard back (echo) does not.
package bargein

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/names"
)

// Kind is what a heard utterance is taken to be.
type Kind string

// The kinds of utterances heard while Nadine speaks.
const (
	Interruption Kind = "interruption" // the person really talks: stop
	Backchannel  Kind = "backchannel"  // an acknowledgement: go on
	Noise        Kind = "noise"        // a sound, a filler word: go on
	Echo         Kind = "echo"         // her own sentence heard back: go on
	TooShort     Kind = "too_short"    // too few words to tell yet: go on
)

// Verdict is the judgement of one heard utterance.
type Verdict struct {
	Kind  Kind
	Stop  bool    // Kind is Interruption
	Words int     // the utterance's words (two CJK characters count as one)
	Score float64 // the similarity behind the verdict (0 to 1)
}

// DefaultMinWords is how many words of an utterance that is neither a
// known acknowledgement nor a command make it an interruption.
const DefaultMinWords = 2

// Thresholds, calibrated on the examples and the tuned cases (see
// docs/interruptions.md).
const (
	// maxAckWords: acknowledgements are short; a longer utterance that is
	// not Nadine's own is the person talking.
	maxAckWords = 4
	// ackSim and commandSim: the cosine to the nearest example above which
	// its label is taken.
	ackSim     = 0.55
	commandSim = 0.6
	// echoShare: the share of the heard words found in what she says above
	// which the utterance is her own voice.
	echoShare = 0.6
	// neighbours voting for a label.
	neighbours = 3
)

//go:embed examples.json
var examplesJSON []byte

// example is one labelled utterance and its vector.
type example struct {
	label Kind // Backchannel, Noise, or Interruption (commands and questions)
	cmd   bool // a short command ("wait", "stop"): stops whatever its length
	vec   []float32
}

// Judge judges utterances heard while Nadine speaks. It holds no mutable
// state and is safe for concurrent use.
type Judge struct {
	emb      *lexical.Embedder
	examples []example
	minWords int
}

// New returns a judge stopping on utterances of at least minWords words
// (DefaultMinWords when minWords <= 0) that are not acknowledgements.
func New(minWords int) (*Judge, error) {
	if minWords <= 0 {
		minWords = DefaultMinWords
	}
	var raw map[string]map[string][]string
	if err := json.Unmarshal(examplesJSON, &raw); err != nil {
		return nil, fmt.Errorf("bargein: examples: %w", err)
	}
	j := &Judge{emb: lexical.New(0), minWords: minWords}
	for label, byLang := range raw {
		kind, cmd := Kind(label), false
		switch label {
		case "backchannel", "noise", "interruption":
		case "command":
			kind, cmd = Interruption, true
		default:
			return nil, fmt.Errorf("bargein: examples: unknown label %q", label)
		}
		for _, texts := range byLang {
			for _, t := range texts {
				j.examples = append(j.examples, example{label: kind, cmd: cmd, vec: j.emb.Vector(t)})
			}
		}
	}
	return j, nil
}

// Hear judges heard, an interim or final transcript that came while Nadine
// was saying saying (the sentences spoken or being spoken).
func (j *Judge) Hear(heard string, saying ...string) Verdict {
	heard = WithoutSounds(heard) // "(laughs) wait!" is "wait!"
	words := j.emb.Words(heard)
	v := Verdict{Words: countWords(words)}
	if len(words) == 0 {
		v.Kind = Noise
		return v
	}
	if share := j.echo(words, saying); share >= echoShare && (len(words) >= 2 || share == 1) {
		v.Kind, v.Score = Echo, share
		return v
	}
	label, cmd, sim := j.nearest(heard)
	switch {
	case v.Words > maxAckWords:
		v.Kind = Interruption
	case cmd && sim >= commandSim:
		v.Kind, v.Score = Interruption, sim
	case (label == Backchannel || label == Noise) && sim >= ackSim:
		v.Kind, v.Score = label, sim
	case v.Words >= j.minWords:
		v.Kind, v.Score = Interruption, sim
	default:
		v.Kind = TooShort
	}
	v.Stop = v.Kind == Interruption
	return v
}

// nearest returns the label of heard's nearest examples (a weighted vote of
// the closest few), whether the closest is a command, and the best cosine
// of the winning label.
func (j *Judge) nearest(heard string) (Kind, bool, float64) {
	q := j.emb.Vector(heard)
	type hit struct {
		ex  *example
		sim float64
	}
	best := make([]hit, 0, neighbours+1)
	for i := range j.examples {
		s := cosine(q, j.examples[i].vec)
		best = append(best, hit{&j.examples[i], s})
		slices.SortFunc(best, func(a, b hit) int {
			switch {
			case a.sim > b.sim:
				return -1
			case a.sim < b.sim:
				return 1
			}
			return 0
		})
		if len(best) > neighbours {
			best = best[:neighbours]
		}
	}
	if len(best) == 0 {
		return Interruption, false, 0
	}
	votes := map[Kind]float64{}
	top := map[Kind]float64{}
	for _, h := range best {
		votes[h.ex.label] += h.sim
		top[h.ex.label] = max(top[h.ex.label], h.sim)
	}
	var win Kind
	for k, w := range votes {
		if win == "" || w > votes[win] || (w == votes[win] && k < win) {
			win = k
		}
	}
	cmd := best[0].ex.cmd && best[0].ex.label == win
	return win, cmd, top[win]
}

// echo returns the share of heard words that are among the words Nadine
// is saying; long words count when nearly the same (speech-to-text
// mishears her too).
func (j *Judge) echo(heard []string, saying []string) float64 {
	if len(saying) == 0 {
		return 0
	}
	var said []string
	for _, s := range saying {
		said = append(said, j.emb.Words(s)...)
	}
	if len(said) == 0 {
		return 0
	}
	found := 0
	for _, w := range heard {
		if slices.Contains(said, w) {
			found++
			continue
		}
		if len([]rune(w)) < 4 {
			continue
		}
		for _, s := range said {
			if names.Ratio(w, s) >= 0.75 {
				found++
				break
			}
		}
	}
	return float64(found) / float64(len(heard))
}

// countWords counts words, two CJK characters (written without spaces)
// making one.
func countWords(words []string) int {
	n, cjk := 0, 0
	for _, w := range words {
		if r := []rune(w); len(r) == 1 && unicode.Is(unicode.Han, r[0]) {
			cjk++
			continue
		}
		n++
	}
	return n + (cjk+1)/2
}

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// String returns the kind's name.
func (k Kind) String() string { return strings.ReplaceAll(string(k), "_", " ") }
