package speakable

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/testrun"
)

// TestGateOnAxes measures the gate on talk not for the visitor generated
// from independent axes (testdata/axes: her rules, the answer, its format,
// a policy, the visitor as "the user", the persona; must, should, was
// asked, kept, wrote, chose, will answer; four languages), written before
// the marks of stance and never trained on: how much of each frame's
// combinations is not spoken, and how much only by a mark of stance.
func TestGateOnAxes(t *testing.T) {
	testrun.SkipUnderRace(t)
	if err := WarmUp(); err != nil {
		t.Fatal(err)
	}
	var c *Checker
	total, caught, byStance := 0, 0, 0
	for _, lang := range nadine.Languages() {
		b, err := os.ReadFile("testdata/axes/" + string(lang) + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		frames, err := combinations(string(b), axesPerFrame)
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		n, k := 0, 0
		for _, f := range frames {
			fk := 0
			for _, s := range f.sentences {
				n++
				if _, err := c.Sentence(s, lang); err == nil {
					continue
				}
				fk++
				if j := judge(s); j.p() < j.threshold && !personaTold(s, lang, j) && stanceTold(s, lang, j) {
					byStance++
				}
			}
			k += fk
			if testing.Verbose() {
				t.Logf("%s %-45.45s not spoken %d/%d", lang, f.frame, fk, len(f.sentences))
			}
		}
		t.Logf("%s: not spoken %d/%d (%.0f%%)", lang, k, n, 100*float64(k)/float64(n))
		total, caught = total+n, caught+k
	}
	share := float64(caught) / float64(total)
	t.Logf("generated talk not for the visitor: not spoken %d/%d (%.1f%%), %d of them by a mark of stance alone", caught, total, 100*share, byStance)
	if share < axesFloor {
		t.Errorf("%.1f%% of the generated talk not for the visitor is not spoken (at least %.0f%% measured)", 100*share, 100*axesFloor)
	}
}

// axesPerFrame is how many combinations of each frame are measured.
const axesPerFrame = 30

// axesFloor is the share measured when the marks of stance landed (83.8%),
// less a little: the classifier's edges move with its examples.
const axesFloor = 0.80

// frameSentences are one frame's combinations.
type frameSentences struct {
	frame     string
	sentences []string
}

// combinations reads an axes file ("@slot = a | b" lines, frames with
// {slot}s, "#" comments) and returns up to n combinations of each frame, in
// an order fixed by their hash so that every axis varies.
func combinations(text string, n int) ([]frameSentences, error) {
	slots := map[string][]string{}
	var frames []string
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "@"):
			name, vals, ok := strings.Cut(line[1:], "=")
			if !ok || strings.TrimSpace(name) == "" {
				return nil, fmt.Errorf("line %d: a slot is \"@name = a | b\"", i+1)
			}
			for _, v := range strings.Split(vals, "|") {
				if v = strings.TrimSpace(v); v != "" {
					slots[strings.TrimSpace(name)] = append(slots[strings.TrimSpace(name)], v)
				}
			}
		default:
			frames = append(frames, line)
		}
	}
	var out []frameSentences
	for _, f := range frames {
		all, err := fill(f, slots, 0)
		if err != nil {
			return nil, fmt.Errorf("frame %q: %w", f, err)
		}
		slices.SortFunc(all, func(a, b string) int { return cmp.Compare(hash32(a), hash32(b)) })
		fs := frameSentences{frame: f}
		for _, s := range all[:min(n, len(all))] {
			fs.sentences = append(fs.sentences, capitalize(s))
		}
		out = append(out, fs)
	}
	return out, nil
}

// fill returns every filling of the slots of s; a slot's value may hold
// slots too, three deep at most.
func fill(s string, slots map[string][]string, depth int) ([]string, error) {
	i := strings.IndexByte(s, '{')
	if i < 0 {
		return []string{s}, nil
	}
	j := strings.IndexByte(s[i:], '}')
	if j < 0 {
		return nil, fmt.Errorf("an unclosed slot")
	}
	name := s[i+1 : i+j]
	vals, ok := slots[name]
	if !ok || depth > 3 {
		return nil, fmt.Errorf("slot {%s}: no values, or nested too deep", name)
	}
	rest, err := fill(s[i+j+1:], slots, depth)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, v := range vals {
		inner, err := fill(v, slots, depth+1)
		if err != nil {
			return nil, err
		}
		for _, w := range inner {
			for _, r := range rest {
				out = append(out, s[:i]+w+r)
			}
		}
	}
	return out, nil
}

func hash32(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}
