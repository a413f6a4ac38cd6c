package dialogue_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
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

// onceFiller words filler lines and counts how often it was asked.
type onceFiller struct {
	mu    sync.Mutex
	calls int
	langs []nadine.Language
	said  chan struct{} // closed at the first line
}

func (f *onceFiller) line(lang nadine.Language) (string, nadine.Language) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	f.langs = append(f.langs, lang)
	if f.calls == 1 {
		close(f.said)
	}
	return "Hmm, voyons voir.", lang
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
func TestSilenceIsFilled(t *testing.T) { synctest.Test(t, testSilenceIsFilled) }

func testSilenceIsFilled(t *testing.T) {
	f := &onceFiller{said: make(chan struct{})}
	slow := waitsForFiller(f, nil)
	m := managerWith(t, func(o *dialogue.ManagerOptions) {
		o.FirstSpeech, o.Filler, o.Language = 2*time.Second, f.line, nadine.French
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
	m := managerWith(t, func(o *dialogue.ManagerOptions) { o.FirstSpeech, o.Filler = time.Hour, f.line }, quick, offline.New(offline.Options{}))
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
	synctest.Test(t, testAdoptedEarlyTurnFillsItsSilence)
}

func testAdoptedEarlyTurnFillsItsSilence(t *testing.T) {
	const firstSpeech = 2 * time.Second
	f := &onceFiller{said: make(chan struct{})}
	asked := make(chan struct{})
	hanging := waitsForFiller(f, asked)
	m := managerWith(t, func(o *dialogue.ManagerOptions) {
		o.FirstSpeech, o.Filler, o.Language = firstSpeech, f.line, nadine.French
		o.TurnTimeout, o.EarlyWait = time.Minute, time.Minute
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
	synctest.Wait()
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
	if got := fillerAt.Sub(final); got != firstSpeech {
		t.Errorf("the filler came %s after the final transcript, want FirstSpeech (%s), counted from the final", got, firstSpeech)
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

// englishDetector says every sentence is English, sure of it.
type englishDetector struct{}

func (englishDetector) Detect(string) (nadine.Language, float64, bool) {
	return nadine.English, 1, true
}

// hangingTranslator is a translation model that does not answer until
// released (or its context ends).
type hangingTranslator struct{ release chan struct{} }

func (h hangingTranslator) Translate(ctx context.Context, text string, _, _ nadine.Language) (string, error) {
	select {
	case <-h.release:
		return "Genève est au bord du lac.", nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// TestSilenceFilledWhileASentenceIsBeingSent is the silent turn
// through the manager: the reply's first sentence is in the wrong language
// and its translation's model hangs; the silence filler is said
// FirstSpeech after the transcript all the same (within 100 ms), ahead of
// the sentence, which follows once translated. The collector held the
// lock the filler needed while it translated: the robot stayed silent.
func TestSilenceFilledWhileASentenceIsBeingSent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const firstSpeech = 2 * time.Second
		tr := hangingTranslator{release: make(chan struct{})}
		eng := engineFunc(func(_ context.Context, req nadine.Request) (nadine.Reply, error) {
			req.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: "Geneva lies on the lake.", Language: nadine.French})
			return nadine.Reply{Text: "Geneva lies on the lake.", Language: nadine.French}, nil
		})
		f := &onceFiller{said: make(chan struct{})}
		m := managerWith(t, func(o *dialogue.ManagerOptions) {
			o.FirstSpeech, o.Filler, o.Language = firstSpeech, f.line, nadine.French
			o.Detector, o.Translator = englishDetector{}, tr
		}, eng)
		start := time.Now()
		var fillerAt time.Time
		rec := &recorder{}
		done := make(chan nadine.Reply)
		go func() {
			r, err := m.Stream(context.Background(), nadine.Turn{Text: "Parle-moi de Genève.", Language: nadine.French}, func(e nadine.Event) {
				if e.Filler && fillerAt.IsZero() {
					fillerAt = time.Now()
				}
				rec.emit(e)
			})
			if err != nil {
				t.Error(err)
			}
			done <- r
		}()
		time.Sleep(firstSpeech + 100*time.Millisecond)
		synctest.Wait()
		if fillerAt.IsZero() {
			t.Fatalf("silent %s after the transcript while the first sentence was translated; out %q", firstSpeech+100*time.Millisecond, lines(recorded(rec)))
		}
		if got := fillerAt.Sub(start); got > firstSpeech+100*time.Millisecond {
			t.Errorf("the filler came %s after the transcript, want within FirstSpeech + 100 ms", got)
		}
		close(tr.release)
		r := <-done
		fillers, sentences := speechOf(recorded(rec))
		if len(fillers) != 1 || !slices.Equal(sentences, []string{"Genève est au bord du lac."}) {
			t.Errorf("fillers %q, sentences %q; want one filler, then the translated sentence", fillers, sentences)
		}
		if r.Text != "Genève est au bord du lac." {
			t.Errorf("reply %q, want what was said", r.Text)
		}
	})
}

// TestFirstSpeechOnTheInjectedClock: the trace's first speech is measured
// on the manager's clock, like the trace's start (the collector read the
// wall clock: on a turn started by an injected clock years away, its first
// speech came years after its start).
func TestFirstSpeechOnTheInjectedClock(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2020, 3, 1, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { // each reading is 10 ms after the last
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(10 * time.Millisecond)
		return now
	}
	eng := &scriptedEngine{name: "quick", speak: []string{"Hello Robin."}, reply: nadine.Reply{Text: "Hello Robin."}}
	m := managerWith(t, func(o *dialogue.ManagerOptions) { o.Now = clock }, eng)
	r, err := m.Stream(context.Background(), nadine.Turn{Text: "Hello"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := r.Trace.Snapshot()
	if d.Start.Year() != 2020 || d.FirstSpeech <= 0 || d.FirstSpeech > time.Second {
		t.Errorf("trace start %v, first speech %v after it; want both on the injected clock (a few of its 10 ms steps)", d.Start, d.FirstSpeech)
	}
	for _, s := range d.Steps {
		if s.Start.Year() != 2020 || s.Duration < 0 || s.Duration > time.Second {
			t.Errorf("step %s at %v for %v, want it on the injected clock", s.Name, s.Start, s.Duration)
		}
	}
}
