package dialogue_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/langid"
	"github.com/nadine-robot/nadine/sqlite"
)

const fillerLine = "Let me check that for you."

// englishFiller words every filler line as fillerLine, in English.
func englishFiller(nadine.Language) (string, nadine.Language) { return fillerLine, nadine.English }

// withFiller gives a manager englishFiller.
func withFiller(o *dialogue.ManagerOptions) { o.Filler = englishFiller }

// fillerEngine asks for a filler line, then emits its sentences, then
// answers (or fails). probe, when set, runs right after the filler was
// asked for.
type fillerEngine struct {
	name  string
	speak []string
	reply string
	err   error
	probe func(ctx context.Context)
}

func (f *fillerEngine) Name() string { return f.name }
func (f *fillerEngine) Respond(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
	req.AskFiller()
	if f.probe != nil {
		f.probe(ctx)
	}
	for _, s := range f.speak {
		req.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: s, Language: req.Turn.Language})
	}
	if f.err != nil {
		return nadine.Reply{}, f.err
	}
	return nadine.Reply{Text: f.reply, Language: req.Turn.Language}, nil
}

// speechOf splits the speech events of evs into fillers and sentences.
func speechOf(evs []nadine.Event) (fillers, sentences []string) {
	for _, e := range evs {
		if e.Kind != nadine.EventSpeech {
			continue
		}
		if e.Filler {
			fillers = append(fillers, e.Text)
		} else {
			sentences = append(sentences, e.Text)
		}
	}
	return fillers, sentences
}

// recorded returns what r received so far.
func recorded(r *recorder) []nadine.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.ev)
}

func TestFillerReachesEmitButNotTheReply(t *testing.T) {
	tests := []struct {
		name string
		eng  *fillerEngine
	}{
		// The engine streams its reply after the filler.
		{"streamed", &fillerEngine{name: "streams", speak: []string{"It is sunny in Geneva."}, reply: "It is sunny in Geneva."}},
		// The engine streams nothing: the filler does not count as its
		// reply having been spoken, so the manager speaks the reply.
		{"not streamed", &fillerEngine{name: "quiet", reply: "It is sunny in Geneva."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := managerWith(t, withFiller, tt.eng)
			rec := &recorder{}
			r, err := m.Stream(context.Background(), nadine.Turn{Text: "How is the weather in Geneva?"}, rec.emit)
			if err != nil {
				t.Fatal(err)
			}
			evs := recorded(rec)
			fillers, sentences := speechOf(evs)
			if !slices.Equal(fillers, []string{fillerLine}) {
				t.Errorf("fillers emitted %q, want %q", fillers, fillerLine)
			}
			if !slices.Equal(sentences, []string{"It is sunny in Geneva."}) {
				t.Errorf("sentences emitted %q, want the reply once", sentences)
			}
			if evs[0].Kind != nadine.EventSpeech || !evs[0].Filler || evs[0].Text != fillerLine || evs[0].Language != nadine.English {
				t.Errorf("first event %+v, want the filler unchanged", evs[0])
			}
			if r.Text != "It is sunny in Geneva." || strings.Contains(r.Text, "check") {
				t.Errorf("reply text %q, want the reply without the filler", r.Text)
			}
			d := r.Trace.Snapshot()
			if !slices.Contains(d.Notes, `filler: "`+fillerLine+`"`) {
				t.Errorf("trace notes %q lack the filler", d.Notes)
			}
			if r.Fallback {
				t.Error("reply marked as a fallback")
			}
		})
	}
}

// countingTranslator translates everything into one French sentence and
// counts its calls.
type countingTranslator struct {
	mu    sync.Mutex
	calls []string
}

func (c *countingTranslator) Translate(_ context.Context, text string, _, to nadine.Language) (string, error) {
	c.mu.Lock()
	c.calls = append(c.calls, text)
	c.mu.Unlock()
	if to == nadine.French {
		return "Il fait beau à Genève.", nil
	}
	return "EN: " + text, nil
}

func TestFillerIsNotTranslated(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "n.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	det, err := langid.New()
	if err != nil {
		t.Fatal(err)
	}
	tr := &countingTranslator{}
	eng := &fillerEngine{name: "x", speak: []string{"It is sunny in Geneva today."}, reply: "It is sunny in Geneva today."}
	m, err := dialogue.NewManager(dialogue.ManagerOptions{Engines: []nadine.Engine{eng},
		History:  dialogue.NewHistory(st, &historyEmbedder{}, dialogue.HistoryOptions{}),
		Detector: det, Translator: tr, Language: nadine.French, Filler: englishFiller})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	r, err := m.Stream(context.Background(), nadine.Turn{Text: "Quel temps fait-il à Genève ?"}, rec.emit)
	if err != nil {
		t.Fatal(err)
	}
	fillers, sentences := speechOf(recorded(rec))
	if !slices.Equal(fillers, []string{fillerLine}) {
		t.Errorf("fillers %q, want the English filler as worded", fillers)
	}
	// The reply's sentence was translated (the check is on), the filler
	// was never sent to the translator.
	if !slices.Equal(sentences, []string{"Il fait beau à Genève."}) {
		t.Errorf("sentences %q, want the translated reply", sentences)
	}
	tr.mu.Lock()
	calls := slices.Clone(tr.calls)
	tr.mu.Unlock()
	if slices.Contains(calls, fillerLine) {
		t.Errorf("the filler was translated: translator calls %q", calls)
	}
	if r.Text != "Il fait beau à Genève." {
		t.Errorf("reply %q", r.Text)
	}
}

func TestEngineFailingAfterAFillerFallsBack(t *testing.T) {
	broken := &fillerEngine{name: "broken", err: nadine.Errorf(nadine.EUNAVAILABLE, "search timed out")}
	next := &fillerEngine{name: "next", reply: "I could not find out, sorry."}
	m := managerWith(t, withFiller, broken, next)
	rec := &recorder{}
	r, err := m.Stream(context.Background(), nadine.Turn{Text: "Who won the match?"}, rec.emit)
	if err != nil {
		t.Fatal(err)
	}
	d := r.Trace.Snapshot()
	if d.Engine != "next" || !r.Fallback || r.Text != "I could not find out, sorry." {
		t.Errorf("reply %+v from %s, want the next engine's", r, d.Engine)
	}
	// The next engine did not stream: its reply is spoken, since the
	// fillers are not Nadine's reply.
	_, sentences := speechOf(recorded(rec))
	if !slices.Equal(sentences, []string{"I could not find out, sorry."}) {
		t.Errorf("sentences %q, want the fallback reply spoken", sentences)
	}
	for _, n := range d.Notes {
		if strings.Contains(n, "failed after speaking") {
			t.Errorf("trace says the engine spoke: %q", n)
		}
	}
	if len(d.Failures) != 1 || d.Failures[0].Stage != "engine:broken" {
		t.Errorf("failures %+v", d.Failures)
	}
}

func TestFillerIsNotTheFirstSpeech(t *testing.T) {
	var afterFiller, afterSentence time.Duration
	eng := &fillerEngine{name: "x", reply: "It is sunny.", probe: func(ctx context.Context) {
		afterFiller = nadine.TraceFrom(ctx).Snapshot().FirstSpeech
	}}
	m := managerWith(t, withFiller, eng)
	// The trace started an hour ago: any first speech is far from zero.
	tr := nadine.NewTrace("t1", "weather", time.Now().Add(-time.Hour))
	ctx := nadine.WithTrace(context.Background(), tr)
	r, err := m.Stream(ctx, nadine.Turn{Text: "How is the weather?"}, func(e nadine.Event) {
		if e.Kind == nadine.EventSpeech && !e.Filler && afterSentence == 0 {
			afterSentence = tr.Snapshot().FirstSpeech
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if afterFiller != 0 {
		t.Errorf("FirstSpeech = %v right after the filler, want unset", afterFiller)
	}
	if afterSentence < time.Hour || r.Trace.Snapshot().FirstSpeech < time.Hour {
		t.Errorf("FirstSpeech = %v after the reply's first sentence, want it set", afterSentence)
	}
}
