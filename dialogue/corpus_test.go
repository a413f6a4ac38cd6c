package dialogue_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/internal/speechcorpus"
)

// The generated corpus of model answers (package speechcorpus): every
// combination of wrapper, defect, content language and role, run through
// the real engine and the dialogue manager against the scripted server.
// The tuned seed's cases must all come out right; the held-out seeds'
// were never looked at while fixing, and their score is reported.
const (
	corpusTunedSeed = 1
	corpusMin       = 320
)

var corpusHeldOutSeeds = []uint64{7, 8}

// corpusOutcome is what a case came to: "" when right, else what went
// wrong.
func runCorpusCase(t *testing.T, c speechcorpus.Case) string {
	role := c.Role
	if role == speechcorpus.RoleReact {
		role = roleAgent
	}
	rig := newAnswerRig(t, answerCase{Engine: c.Engine, Lang: c.Language, Answers: map[string][]string{role: {c.Output}}})
	rig.phase.Store(1)
	var mu sync.Mutex
	var said []string
	reply, err := rig.mgr.Stream(context.Background(), nadine.Turn{Text: c.Say, Language: c.Language}, func(e nadine.Event) {
		if e.Kind == nadine.EventSpeech && !e.Filler {
			mu.Lock()
			said = append(said, e.Text)
			mu.Unlock()
		}
	})
	if err != nil {
		return err.Error()
	}
	rig.wait()
	spoken := strings.Join(said, " ")
	switch c.Role {
	case speechcorpus.RoleReact, speechcorpus.RoleResponse:
		if reply.Fallback || squash(spoken) != squash(c.Reply) {
			return fmt.Sprintf("spoke %q (fallback %v), want %q", spoken, reply.Fallback, c.Reply)
		}
		if c.Role == speechcorpus.RoleReact && reply.Emotion != c.Emotion {
			return fmt.Sprintf("emotion %s, want %s", reply.Emotion, c.Emotion)
		}
	case speechcorpus.RoleIntent:
		packet := lastPrompt(rig.srv, agents.RoleResponse)
		greeted, leaving := strings.Contains(packet, "THEY ARE GREETING YOU"), strings.Contains(packet, "THEY ARE LEAVING")
		if greeted != (c.Intent == "first_greeting") || leaving != (c.Intent == "end_conversation") {
			return fmt.Sprintf("intent %s read otherwise (greeting %v, leaving %v)", c.Intent, greeted, leaving)
		}
	case speechcorpus.RoleAppraisal:
		if packet := lastPrompt(rig.srv, agents.RoleResponse); !strings.Contains(packet, "feeling "+string(c.Emotion)) {
			return fmt.Sprintf("appraisal %s not read: the packet says %q", c.Emotion, feelings(packet))
		}
	}
	return ""
}

// squash drops white space, so that sentences joined as spoken compare
// with the reply as written (Chinese has none between sentences).
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

func feelings(packet string) string {
	for _, l := range strings.Split(packet, "\n") {
		if strings.HasPrefix(l, "YOUR FEELINGS:") {
			return l
		}
	}
	return ""
}

// corpusScore runs the cases and returns the failures and a score line
// per axis.
func corpusScore(t *testing.T, cases []speechcorpus.Case) (failed map[string]string, score string) {
	failed = map[string]string{}
	type tally struct{ n, ok int }
	axes := map[string]*tally{}
	count := func(axis string, ok bool) {
		tl := axes[axis]
		if tl == nil {
			tl = &tally{}
			axes[axis] = tl
		}
		tl.n++
		if ok {
			tl.ok++
		}
	}
	for _, c := range cases {
		why := runCorpusCase(t, c)
		if why != "" {
			failed[c.ID] = why
		}
		for _, axis := range []string{"all", "role:" + c.Role, "wrapper:" + c.Wrapper, "defect:" + c.Defect, "language:" + string(c.Language)} {
			count(axis, why == "")
		}
	}
	var keys []string
	for k := range axes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d/%d", k, axes[k].ok, axes[k].n))
	}
	return failed, strings.Join(parts, ", ")
}

// TestGeneratedCorpusTuned: every case of the tuned seed is spoken (or
// read) right, through both engines.
func TestGeneratedCorpusTuned(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("runs hundreds of turns through real engines (not under -short or -race)")
	}
	cases := speechcorpus.Generate(corpusTunedSeed, corpusMin)
	if len(cases) < 300 {
		t.Fatalf("%d cases, want at least 300", len(cases))
	}
	failed, score := corpusScore(t, cases)
	for _, c := range cases {
		if why, bad := failed[c.ID]; bad {
			t.Errorf("%s: %s\noutput: %s", c.ID, why, c.Output)
		}
	}
	t.Logf("tuned corpus (seed %d, %d cases): %s", corpusTunedSeed, len(cases), score)
}

// TestGeneratedCorpusHeldOut runs the held-out seeds and reports their
// score only: their cases are never printed.
func TestGeneratedCorpusHeldOut(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("runs hundreds of turns through real engines (not under -short or -race)")
	}
	for _, seed := range corpusHeldOutSeeds {
		cases := speechcorpus.Generate(seed, corpusMin)
		_, score := corpusScore(t, cases)
		t.Logf("held-out corpus (seed %d, %d cases): %s", seed, len(cases), score)
	}
}
