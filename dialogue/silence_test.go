package dialogue_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/offline"
	"github.com/nadine-robot/nadine/sqlite"
)

// managerWith builds a manager over engines with edit applied to its
// options.
func managerWith(t *testing.T, edit func(*dialogue.ManagerOptions), engines ...nadine.Engine) *dialogue.Manager {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "n.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	opts := dialogue.ManagerOptions{Engines: engines, History: dialogue.NewHistory(st, &historyEmbedder{}, dialogue.HistoryOptions{})}
	edit(&opts)
	m, err := dialogue.NewManager(opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// onceFiller is a Filler that says one line per call and counts the calls.
type onceFiller struct {
	mu    sync.Mutex
	calls int
	langs []nadine.Language
	said  chan struct{} // closed at the first line
}

func (f *onceFiller) emit(_ context.Context, lang nadine.Language, emit nadine.EmitFunc) bool {
	f.mu.Lock()
	f.calls++
	f.langs = append(f.langs, lang)
	first := f.calls == 1
	f.mu.Unlock()
	emit(nadine.Event{Kind: nadine.EventSpeech, Text: "Hmm, voyons voir.", Language: lang, Filler: true})
	if first {
		close(f.said)
	}
	return true
}

// waitsForFiller is an engine whose model answers only once a filler line
// was said (f's first), in French, or fails when its context ends first;
// asked, when not nil, is closed as it is asked.
func waitsForFiller(f *onceFiller, asked chan struct{}) engineFunc {
	return func(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
		if asked != nil {
			close(asked)
		}
		select {
		case <-f.said:
		case <-ctx.Done():
			return nadine.Reply{}, nadine.Errorf(nadine.EUNAVAILABLE, "no filler came")
		}
		req.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: "Genève est magnifique.", Language: nadine.French})
		return nadine.Reply{Text: "Genève est magnifique.", Language: nadine.French}, nil
	}
}

// TestSilenceIsFilled: an engine that has said nothing FirstSpeech after
// the transcript gets a filler line said for it, in the session language,
// before its reply, once. The engine here waits for that line: without it
// the turn would only end with the test's context.
func TestSilenceIsFilled(t *testing.T) {
	f := &onceFiller{said: make(chan struct{})}
	slow := waitsForFiller(f, nil)
	m := managerWith(t, func(o *dialogue.ManagerOptions) {
		o.FirstSpeech, o.Filler, o.Language = 20*time.Millisecond, f.emit, nadine.French
		o.TurnTimeout = time.Minute
	}, slow, offline.New(offline.Options{}))
	rec := &recorder{}
	r, err := m.Stream(context.Background(), nadine.Turn{Text: "Parle-moi de Genève."}, rec.emit)
	if err != nil {
		t.Fatal(err)
	}
	if r.Fallback || r.Text != "Genève est magnifique." {
		t.Fatalf("reply = %+v, want the slow engine's", r)
	}
	fillers, sentences := speechOf(recorded(rec))
	if len(fillers) != 1 || len(sentences) != 1 {
		t.Errorf("fillers %q, sentences %q; want one of each", fillers, sentences)
	}
	evs := recorded(rec)
	if len(evs) == 0 || evs[0].Kind != nadine.EventSpeech || !evs[0].Filler {
		t.Errorf("first event = %+v, want the filler", evs[0])
	}
	if f.calls != 1 || f.langs[0] != nadine.French {
		t.Errorf("filler asked %d times in %v, want once in French", f.calls, f.langs)
	}
	if notes := strings.Join(r.Trace.Snapshot().Notes, "\n"); !strings.Contains(notes, "a filler line was said") {
		t.Errorf("trace notes = %s", notes)
	}
}

// TestNoFillerForAQuickReply: a reply spoken at once leaves the timer
// nothing to do, and it never fires after the turn.
func TestNoFillerForAQuickReply(t *testing.T) {
	f := &onceFiller{said: make(chan struct{})}
	quick := &scriptedEngine{name: "quick", speak: []string{"Hello Robin."}, reply: nadine.Reply{Text: "Hello Robin."}}
	m := managerWith(t, func(o *dialogue.ManagerOptions) { o.FirstSpeech, o.Filler = time.Hour, f.emit }, quick, offline.New(offline.Options{}))
	rec := &recorder{}
	if _, err := m.Stream(context.Background(), nadine.Turn{Text: "Hello"}, rec.emit); err != nil {
		t.Fatal(err)
	}
	if fillers, _ := speechOf(recorded(rec)); len(fillers) != 0 || f.calls != 0 {
		t.Errorf("fillers %q after a quick reply", fillers)
	}
}

// TestFallbackReasonTellsTheNextEngineWhy: the first engine is asked with
// no reason; the next one with the code of the first one's failure.
func TestFallbackReasonTellsTheNextEngineWhy(t *testing.T) {
	for _, code := range []string{nadine.EUNAVAILABLE, nadine.ERATELIMIT, nadine.EBADOUTPUT} {
		first := &scriptedEngine{name: "graph", err: nadine.Errorf(code, "agents: response: failed")}
		second := &scriptedEngine{name: "offline", reply: nadine.Reply{Text: "Hello."}}
		m := managerWith(t, func(*dialogue.ManagerOptions) {}, first, second)
		if _, err := m.ProcessInput(context.Background(), nadine.Turn{Text: "Hello"}); err != nil {
			t.Fatal(err)
		}
		if got := first.reqs[0].FallbackReason; got != "" {
			t.Errorf("%s: the first engine was told %q", code, got)
		}
		if got := second.reqs[0].FallbackReason; got != code {
			t.Errorf("%s: the next engine was told %q", code, got)
		}
	}
}

// TestEngineIgnoringTheBudgetIsAbandoned: an engine that does not stop
// when the turn's budget runs out is given up on shortly after; the last
// engine answers, and what the abandoned engine says later is dropped.
func TestEngineIgnoringTheBudgetIsAbandoned(t *testing.T) {
	release, finished := make(chan struct{}), make(chan struct{})
	stuck := engineFunc(func(_ context.Context, req nadine.Request) (nadine.Reply, error) {
		<-release // ignores its context
		req.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: "Far too late."})
		close(finished)
		return nadine.Reply{Text: "Far too late."}, nil
	})
	m := managerWith(t, func(o *dialogue.ManagerOptions) { o.TurnTimeout = 30 * time.Millisecond }, stuck, offline.New(offline.Options{}))
	rec := &recorder{}
	r, err := m.Stream(context.Background(), nadine.Turn{Text: "Hello"}, rec.emit)
	if err != nil {
		t.Fatal(err)
	}
	d := r.Trace.Snapshot()
	if d.Engine != "offline" || !r.Fallback {
		t.Errorf("answered by %s, want offline", d.Engine)
	}
	abandoned := false
	for _, f := range d.Failures {
		abandoned = abandoned || strings.Contains(f.Error, "abandoned")
	}
	if !abandoned {
		t.Errorf("failures = %+v, want the abandoned engine", d.Failures)
	}
	close(release)
	<-finished
	for _, e := range recorded(rec) {
		if e.Text == "Far too late." {
			t.Errorf("the abandoned engine's sentence was forwarded")
		}
	}
}

// TestAdoptedEarlyTurnFillsItsSilence: an early turn whose model hangs
// says no filler while it waits for its final transcript; once the final
// adopts it, a filler line is said FirstSpeech after the final came (not
// after the interim), before the reply, once (issue 17's gap: an adopted
// turn said none, and stayed silent past limits.first_speech).
func TestAdoptedEarlyTurnFillsItsSilence(t *testing.T) {
	const firstSpeech = 20 * time.Millisecond
	f := &onceFiller{said: make(chan struct{})}
	asked := make(chan struct{})
	hanging := waitsForFiller(f, asked)
	m := managerWith(t, func(o *dialogue.ManagerOptions) {
		o.FirstSpeech, o.Filler, o.Language = firstSpeech, f.emit, nadine.French
		o.TurnTimeout, o.EarlyWait = 5*time.Second, time.Minute
	}, hanging, offline.New(offline.Options{}))
	ctx := context.Background()
	e := m.Preempt(ctx, nadine.Turn{ID: "interim", Text: "parle-moi de genève"})
	if e == nil {
		t.Fatal("Preempt = nil on an idle manager")
	}
	<-asked
	// Several times FirstSpeech go by before the final transcript: a
	// filler said now would be said before the person finished speaking.
	time.Sleep(5 * firstSpeech)
	f.mu.Lock()
	before := f.calls
	f.mu.Unlock()
	if before != 0 {
		t.Fatalf("%d filler lines asked for before the final transcript", before)
	}
	rec := &recorder{}
	var fillerAt time.Time
	emit := func(ev nadine.Event) {
		if ev.Kind == nadine.EventSpeech && ev.Filler && fillerAt.IsZero() {
			fillerAt = time.Now()
		}
		rec.emit(ev)
	}
	final := time.Now()
	r, ok := e.Adopt(ctx, nadine.Turn{ID: "final", Text: "Parle-moi de Genève."}, emit)
	if !ok {
		t.Fatal("Adopt = false on the same words")
	}
	if r.Fallback || r.Text != "Genève est magnifique." {
		t.Fatalf("reply = %+v, want the model's (it answers once a filler was said)", r)
	}
	evs := recorded(rec)
	fillers, sentences := speechOf(evs)
	if len(fillers) != 1 || len(sentences) != 1 || !evs[0].Filler {
		t.Errorf("events %v: fillers %q, sentences %q; want the filler first, then the reply", rec.kinds(), fillers, sentences)
	}
	if got := fillerAt.Sub(final); got < firstSpeech {
		t.Errorf("the filler came %s after the final transcript, before FirstSpeech (%s): counted from the interim", got, firstSpeech)
	}
	if notes := strings.Join(r.Trace.Snapshot().Notes, "\n"); !strings.Contains(notes, "a filler line was said") {
		t.Errorf("trace notes = %s", notes)
	}
}

// TestCloseWaitsForAbandonedEngines: an engine abandoned past the turn's
// budget still runs on the manager's goroutine; Close waits for it (and
// says so when its context ends first), then refuses turns and early
// turns.
func TestCloseWaitsForAbandonedEngines(t *testing.T) {
	release, returned := make(chan struct{}), make(chan struct{})
	stuck := engineFunc(func(_ context.Context, req nadine.Request) (nadine.Reply, error) {
		<-release // ignores its context
		close(returned)
		return nadine.Reply{Text: "Far too late."}, nil
	})
	m := managerWith(t, func(o *dialogue.ManagerOptions) { o.TurnTimeout = 30 * time.Millisecond }, stuck, offline.New(offline.Options{}))
	r, err := m.Stream(context.Background(), nadine.Turn{Text: "Hello"}, nil)
	if err != nil || !r.Fallback {
		t.Fatalf("Stream = %+v, %v; want the offline engine's answer", r, err)
	}
	short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := m.Close(short); nadine.ErrorCode(err) != nadine.EUNAVAILABLE || !strings.Contains(err.Error(), "1 abandoned") {
		t.Errorf("Close with the engine still running = %v, want EUNAVAILABLE naming it", err)
	}
	close(release)
	if err := m.Close(context.Background()); err != nil {
		t.Errorf("Close = %v once the engine returned", err)
	}
	select {
	case <-returned:
	default:
		t.Error("Close returned before the abandoned engine did")
	}
	if _, err := m.Stream(context.Background(), nadine.Turn{Text: "Hello"}, nil); nadine.ErrorCode(err) != nadine.EUNAVAILABLE {
		t.Errorf("Stream after Close = %v, want EUNAVAILABLE", err)
	}
	if e := m.Preempt(context.Background(), nadine.Turn{Text: "hello there"}); e != nil {
		t.Error("an early turn started after Close")
	}
}
