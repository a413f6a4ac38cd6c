package dialogue_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
)

// lines is what a recorder got, one string per spoken line ("filler:…",
// "say:…", "done") and per other event (its kind).
func lines(evs []nadine.Event) []string {
	var out []string
	for _, e := range evs {
		switch {
		case e.Kind == nadine.EventSpeech && e.Filler:
			out = append(out, fmt.Sprintf("%d filler:%s", e.Seq, e.Text))
		case e.Kind == nadine.EventSpeech:
			out = append(out, fmt.Sprintf("%d say:%s", e.Seq, e.Text))
		case e.Kind == nadine.EventDone:
			out = append(out, fmt.Sprintf("%d done", e.Seq))
		case e.Kind == nadine.EventSpeechEnd:
			out = append(out, fmt.Sprintf("%d end", e.Seq))
		default:
			out = append(out, string(e.Kind))
		}
	}
	return out
}

// newTestOutput returns an Output that words fillers as "Hmm." and records
// what goes out; it is closed when the test ends.
func newTestOutput(t *testing.T, opts dialogue.OutputOptions) (*dialogue.Output, *recorder) {
	rec := &recorder{}
	if opts.To == nil && !opts.Held {
		opts.To = rec.emit
	}
	if opts.Filler == nil {
		opts.Filler = func(l nadine.Language) (string, nadine.Language) { return "Hmm.", l }
	}
	tr := nadine.NewTrace("t", "hi", time.Now())
	o := dialogue.NewOutput(nadine.WithTrace(context.Background(), tr), opts)
	t.Cleanup(o.Close)
	return o, rec
}

func say(text string) nadine.Event {
	return nadine.Event{Kind: nadine.EventSpeech, Text: text, Language: nadine.English}
}

// TestOutputFillerRule: the filler rule in the one place it lives: at most
// one line per turn, never once a reply sentence is ready or out, never
// after the turn's end, never for an attempt given up on, never without
// lines; asked while the output is held, decided at its release.
func TestOutputFillerRule(t *testing.T) {
	type step func(o *dialogue.Output, a attempt, rec *recorder)
	var (
		ask      step = func(_ *dialogue.Output, a attempt, _ *recorder) { a.filler() }
		sentence step = func(_ *dialogue.Output, a attempt, _ *recorder) { a.emit(say("Hello.")) }
		end      step = func(o *dialogue.Output, _ attempt, _ *recorder) { o.End() }
		// The engine's own filler event is a request too: the output
		// words it.
		engineFiller step = func(_ *dialogue.Output, a attempt, _ *recorder) {
			a.emit(nadine.Event{Kind: nadine.EventSpeech, Text: "One moment.", Filler: true})
		}
		newAttempt step = func(o *dialogue.Output, a attempt, _ *recorder) { o.Attempt() }
		release    step = func(o *dialogue.Output, _ attempt, rec *recorder) { o.Release(rec.emit) }
	)
	tests := []struct {
		name  string
		held  bool
		none  bool // no filler lines configured
		steps []step
		want  []string
	}{
		{"asked once", false, false, []step{ask, sentence}, []string{"0 filler:Hmm.", "1 say:Hello."}},
		{"asked twice", false, false, []step{ask, ask, sentence}, []string{"0 filler:Hmm.", "1 say:Hello."}},
		{"after the first sentence", false, false, []step{sentence, ask}, []string{"0 say:Hello."}},
		{"after the end", false, false, []step{end, ask}, nil},
		{"by an engine's filler event", false, false, []step{engineFiller, engineFiller}, []string{"0 filler:Hmm."}},
		{"by an attempt given up on", false, false, []step{newAttempt, ask}, nil},
		{"without lines", false, true, []step{ask, sentence}, []string{"0 say:Hello."}},
		{"held, released before any sentence", true, false, []step{ask, release, sentence}, []string{"0 filler:Hmm.", "1 say:Hello."}},
		{"held, released with a sentence", true, false, []step{ask, sentence, release}, []string{"0 say:Hello."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := dialogue.OutputOptions{Held: tt.held}
			if tt.none {
				opts.Filler = func(l nadine.Language) (string, nadine.Language) { return "", l }
			}
			o, rec := newTestOutput(t, opts)
			a := newAttemptOf(o)
			for _, s := range tt.steps {
				s(o, a, rec)
			}
			o.Wait()
			if got := lines(recorded(rec)); !slices.Equal(got, tt.want) {
				t.Errorf("out %q, want %q", got, tt.want)
			}
		})
	}
}

// attempt is an engine attempt's output functions.
type attempt struct {
	emit   nadine.EmitFunc
	filler func()
	hold   func() nadine.Branch
}

func newAttemptOf(o *dialogue.Output) attempt {
	emit, filler, hold := o.Attempt()
	return attempt{emit, filler, hold}
}

// hangingCheck is a sentence check that waits until released (a
// translation whose model hangs), and then passes the sentence.
type hangingCheck struct {
	entered chan struct{}
	release chan struct{}
}

func (h hangingCheck) check(ctx context.Context, text string, stated, want nadine.Language, _ bool) (string, nadine.Language, bool) {
	close(h.entered)
	select {
	case <-h.release:
	case <-ctx.Done():
	}
	return text, stated.Or(want), false
}

// TestOutputFillerIsNotBlockedBySentenceBeingChecked: the silent
// turn. A reply sentence is being checked (its translation's model
// hangs); the silence filler still goes out at FirstSpeech, ahead of it,
// and the sentence follows once checked. (The collector held its lock
// across the check, and the filler waited for it: 9.4 s of silence.)
func TestOutputFillerIsNotBlockedBySentenceBeingChecked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const firstSpeech = 2 * time.Second
		h := hangingCheck{entered: make(chan struct{}), release: make(chan struct{})}
		start := time.Now()
		var fillerAt time.Time
		rec := &recorder{}
		o, _ := newTestOutput(t, dialogue.OutputOptions{Check: h.check, To: func(e nadine.Event) {
			if e.Filler {
				fillerAt = time.Now()
			}
			rec.emit(e)
		}})
		a := newAttemptOf(o)
		o.Silence(firstSpeech, firstSpeech.String())
		go a.emit(say("Genève est au bord du lac."))
		<-h.entered
		time.Sleep(firstSpeech + 100*time.Millisecond)
		synctest.Wait()
		if fillerAt.IsZero() {
			t.Fatalf("no filler %s after the transcript while a sentence was being checked; out %q", firstSpeech+100*time.Millisecond, lines(recorded(rec)))
		}
		if got := fillerAt.Sub(start); got > firstSpeech+100*time.Millisecond {
			t.Errorf("the filler came after %s, want within FirstSpeech + 100 ms", got)
		}
		close(h.release)
		o.End()
		o.Wait()
		if got, want := lines(recorded(rec)), []string{"0 filler:Hmm.", "1 say:Genève est au bord du lac."}; !slices.Equal(got, want) {
			t.Errorf("out %q, want %q", got, want)
		}
	})
}

// TestOutputKeepsOrder: events from several goroutines go out in the
// order they came, a sentence being checked holding back what came after
// it (and not what came before); the spoken lines are numbered in order.
func TestOutputKeepsOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := hangingCheck{entered: make(chan struct{}), release: make(chan struct{})}
		first := true
		var mu sync.Mutex
		check := func(ctx context.Context, text string, stated, want nadine.Language, _ bool) (string, nadine.Language, bool) {
			mu.Lock()
			wait := first
			first = false
			mu.Unlock()
			if wait {
				return h.check(ctx, text, stated, want, false)
			}
			return text, stated.Or(want), false
		}
		o, rec := newTestOutput(t, dialogue.OutputOptions{Check: check})
		a := newAttemptOf(o)
		a.emit(nadine.Event{Kind: nadine.EventAffect, Affect: &nadine.AffectState{Label: nadine.Joy}})
		go a.emit(say("One."))
		<-h.entered
		a.emit(nadine.Event{Kind: nadine.EventGesture, Gesture: nadine.Smile})
		go a.emit(say("Two."))
		synctest.Wait()
		if got, want := lines(recorded(rec)), []string{"affect"}; !slices.Equal(got, want) {
			t.Errorf("while the first sentence is checked: out %q, want %q", got, want)
		}
		close(h.release)
		synctest.Wait()
		o.Emit(nadine.Event{Kind: nadine.EventDone, Reply: &nadine.Reply{}})
		o.Wait()
		if got, want := lines(recorded(rec)), []string{"affect", "0 say:One.", "gesture", "1 say:Two.", "2 done"}; !slices.Equal(got, want) {
			t.Errorf("out %q, want %q", got, want)
		}
	})
}

// TestOutputBranch: a speculation's branch holds its events until the
// verdict; released, they go out in order with every later one; dropped,
// none ever does. A branch of an output that was dropped cannot be kept.
func TestOutputBranch(t *testing.T) {
	for _, keep := range []bool{true, false} {
		t.Run(fmt.Sprint("keep=", keep), func(t *testing.T) {
			o, rec := newTestOutput(t, dialogue.OutputOptions{})
			a := newAttemptOf(o)
			b := a.hold()
			b.Emit(say("Held one."))
			a.emit(nadine.Event{Kind: nadine.EventGesture, Gesture: nadine.Wave})
			b.Emit(say("Held two."))
			o.Wait()
			if got, want := lines(recorded(rec)), []string{"gesture"}; !slices.Equal(got, want) {
				t.Fatalf("before the verdict: out %q, want %q", got, want)
			}
			var ok bool
			if keep {
				ok = b.Release()
			} else {
				ok = b.Drop()
			}
			b.Emit(say("Later."))
			o.Wait()
			want := []string{"gesture"}
			if keep {
				want = append(want, "0 say:Held one.", "1 say:Held two.", "2 say:Later.")
			}
			if got := lines(recorded(rec)); !ok || !slices.Equal(got, want) {
				t.Errorf("verdict %v (ok %v): out %q, want %q", keep, ok, got, want)
			}
			if keep && b.Drop() || !keep && b.Release() {
				t.Error("a second, other verdict was accepted")
			}
		})
	}
}

// TestOutputHeld: an early turn's output goes out only once released, in
// order; dropped, nothing of it ever does.
func TestOutputHeld(t *testing.T) {
	for _, release := range []bool{true, false} {
		t.Run(fmt.Sprint("release=", release), func(t *testing.T) {
			o, _ := newTestOutput(t, dialogue.OutputOptions{Held: true})
			a := newAttemptOf(o)
			a.emit(nadine.Event{Kind: nadine.EventAffect, Affect: &nadine.AffectState{Label: nadine.Joy}})
			a.emit(say("Hello."))
			o.Wait() // returns at once while held
			rec := &recorder{}
			if release {
				if !o.Release(rec.emit) {
					t.Fatal("Release = false")
				}
			} else {
				o.Drop()
				if o.Release(rec.emit) {
					t.Fatal("Release = true after Drop")
				}
			}
			a.emit(say("After."))
			o.Wait()
			var want []string
			if release {
				want = []string{"affect", "0 say:Hello.", "1 say:After."}
			}
			if got := lines(recorded(rec)); !slices.Equal(got, want) {
				t.Errorf("out %q, want %q", got, want)
			}
		})
	}
}

// TestOutputSpeechBudget checks the budget on replies built from
// independent axes (how many sentences, how long, in which script, the
// bounds): what goes out is the longest run of whole sentences from the
// start within both bounds, the first always, and nothing after a cut.
func TestOutputSpeechBudget(t *testing.T) {
	type script struct {
		name     string
		sentence func(i, words int) string
	}
	scripts := []script{
		{"latin", func(i, words int) string {
			w := make([]string, words)
			for k := range w {
				w[k] = fmt.Sprintf("w%d", i)
			}
			return strings.Join(w, " ") + "."
		}},
		{"han", func(i, words int) string { return strings.Repeat("好", words) + "。" }},
	}
	for _, sc := range scripts {
		for _, n := range []int{1, 2, 3, 5} {
			for _, words := range []int{3, 12, 40} {
				for _, b := range []dialogue.SpeechBudget{{MaxSentences: 2, MaxWords: 60}, {MaxSentences: 3, MaxWords: 20}, {MaxSentences: -1, MaxWords: -1}} {
					name := fmt.Sprintf("%s/%d×%dw/%d-%d", sc.name, n, words, b.MaxSentences, b.MaxWords)
					t.Run(name, func(t *testing.T) {
						o, rec := newTestOutput(t, dialogue.OutputOptions{Budget: b})
						a := newAttemptOf(o)
						var all []string
						for i := range n {
							s := sc.sentence(i, words)
							all = append(all, s)
							a.emit(nadine.Event{Kind: nadine.EventSpeech, Text: s})
						}
						o.Wait()
						// The expected cut, computed from the bounds.
						keep, total := 0, 0
						for i := range n {
							if i > 0 && (b.MaxSentences > 0 && i >= b.MaxSentences || b.MaxWords > 0 && total+words > b.MaxWords) {
								break
							}
							keep, total = i+1, total+words
						}
						var got []string
						for _, e := range recorded(rec) {
							got = append(got, e.Text)
						}
						if !slices.Equal(got, all[:keep]) {
							t.Errorf("said %d sentences %q, want the first %d", len(got), got, keep)
						}
						ls := o.Lines()
						if len(ls) != n {
							t.Errorf("lines %v, want all %d (said or not)", ls, n)
						}
					})
				}
			}
		}
	}
}

// TestOutputBudgetCountsSentencesNotPieces: a piece cut after an ellipsis
// that goes on in small letters is the same sentence for the budget.
func TestOutputBudgetCountsSentencesNotPieces(t *testing.T) {
	tests := []struct {
		name   string
		pieces []string
		said   int
	}{
		{"a sentence going on after its ellipsis", []string{"J'adore « avoir la tête dans les nuages »...", "c'est un peu moi.", "Et vous ?", "Encore une."}, 3},
		{"the last sentence going on after its ellipsis", []string{"One.", "Two, and then...", "and on.", "Three."}, 3},
		{"an ellipsis that ends its sentence", []string{"Hmm...", "Well, yes.", "A third."}, 2},
		{"no ellipsis", []string{"One.", "two in small letters.", "Three."}, 2},
		{"a Chinese ellipsis", []string{"我想想……", "好的。", "第三句。"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, rec := newTestOutput(t, dialogue.OutputOptions{Budget: dialogue.SpeechBudget{MaxSentences: 2, MaxWords: 60}})
			a := newAttemptOf(o)
			for _, p := range tt.pieces {
				a.emit(nadine.Event{Kind: nadine.EventSpeech, Text: p})
			}
			o.Wait()
			var got []string
			for _, e := range recorded(rec) {
				got = append(got, e.Text)
			}
			if !slices.Equal(got, tt.pieces[:tt.said]) {
				t.Errorf("said %q, want the first %d pieces", got, tt.said)
			}
		})
	}
}

// TestOutputRecitalLiftsTheBudget: a tool that gives the reply a text to
// recite (a song's lyrics) lifts the budget for the turn.
func TestOutputRecitalLiftsTheBudget(t *testing.T) {
	o, rec := newTestOutput(t, dialogue.OutputOptions{Budget: dialogue.SpeechBudget{MaxSentences: 2, MaxWords: 60}})
	a := newAttemptOf(o)
	a.emit(nadine.Event{Kind: nadine.EventRecital})
	for _, s := range []string{"The sea is wide.", "The sky is blue.", "I sing for you.", "And so do you."} {
		a.emit(say(s))
	}
	o.Wait()
	if got := lines(recorded(rec)); len(got) != 4 {
		t.Errorf("out %q, want the four lines of the song", got)
	}
}

// TestOutputSpeechEnd: an engine's speech end goes out once, after its
// attempt's sentences (a sentence still being checked included) and before
// the done event; nothing is said after it; it does not go out for an
// attempt that said nothing, for an earlier attempt, after "forget me", or
// from the manager, and then the done event is the final marker.
func TestOutputSpeechEnd(t *testing.T) {
	end := nadine.Event{Kind: nadine.EventSpeechEnd}
	done := nadine.Event{Kind: nadine.EventDone, Reply: &nadine.Reply{}}
	tests := []struct {
		name string
		run  func(o *dialogue.Output)
		want []string
	}{
		{"after the sentences", func(o *dialogue.Output) {
			a := newAttemptOf(o)
			a.emit(say("One."))
			a.emit(say("Two."))
			a.emit(end)
			a.emit(nadine.Event{Kind: nadine.EventAffect, Affect: &nadine.AffectState{Label: nadine.Joy}})
		}, []string{"0 say:One.", "1 say:Two.", "2 end", "affect", "2 done"}},
		{"once", func(o *dialogue.Output) {
			a := newAttemptOf(o)
			a.emit(say("One."))
			a.emit(end)
			a.emit(end)
		}, []string{"0 say:One.", "1 end", "1 done"}},
		{"nothing said after it", func(o *dialogue.Output) {
			a := newAttemptOf(o)
			a.emit(say("One."))
			a.emit(end)
			a.emit(say("Late."))
			o.Emit(say("The manager's."))
			a.filler()
		}, []string{"0 say:One.", "1 end", "1 done"}},
		{"an attempt that said nothing", func(o *dialogue.Output) {
			a := newAttemptOf(o)
			a.emit(end)
			o.Emit(say("The manager's."))
		}, []string{"0 say:The manager's.", "1 done"}},
		{"a sentence the check removed", func(o *dialogue.Output) {
			a := newAttemptOf(o)
			a.emit(say("REMOVED."))
			a.emit(end)
		}, []string{"0 done"}},
		{"an earlier attempt's", func(o *dialogue.Output) {
			a := newAttemptOf(o)
			a.emit(say("One."))
			b := newAttemptOf(o)
			a.emit(end)
			b.emit(say("Two."))
		}, []string{"0 say:One.", "1 say:Two.", "2 done"}},
		{"after forget me", func(o *dialogue.Output) {
			a := newAttemptOf(o)
			a.emit(nadine.Event{Kind: nadine.EventForgetRequest})
			a.emit(say("Forgotten."))
			a.emit(end)
			o.Emit(say("Shall I forget you?"))
		}, []string{"0 say:Shall I forget you?", "1 done"}},
		{"from the manager", func(o *dialogue.Output) {
			o.Emit(say("One."))
			o.Emit(end)
		}, []string{"0 say:One.", "1 done"}},
		{"budget cut", func(o *dialogue.Output) {
			a := newAttemptOf(o)
			a.emit(say("One."))
			a.emit(say("Two."))
			a.emit(say("Three."))
			a.emit(end)
		}, []string{"0 say:One.", "1 say:Two.", "2 end", "2 done"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check := func(_ context.Context, text string, stated, want nadine.Language, _ bool) (string, nadine.Language, bool) {
				if text == "REMOVED." {
					return "", stated, true
				}
				return text, stated.Or(want), false
			}
			o, rec := newTestOutput(t, dialogue.OutputOptions{Check: check, Budget: dialogue.SpeechBudget{MaxSentences: 2}})
			tt.run(o)
			o.Emit(done)
			o.Wait()
			if got := lines(recorded(rec)); !slices.Equal(got, tt.want) {
				t.Errorf("out %q, want %q", got, tt.want)
			}
		})
	}
}

// TestOutputSpeechEndWaitsForTheCheck: the speech end waits for the
// sentence before it still being checked, and goes out when it does.
func TestOutputSpeechEndWaitsForTheCheck(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := hangingCheck{entered: make(chan struct{}), release: make(chan struct{})}
		o, rec := newTestOutput(t, dialogue.OutputOptions{Check: h.check})
		a := newAttemptOf(o)
		go a.emit(say("Being translated."))
		<-h.entered
		a.emit(nadine.Event{Kind: nadine.EventSpeechEnd})
		synctest.Wait()
		if got := lines(recorded(rec)); len(got) != 0 {
			t.Errorf("while the sentence is checked: out %q, want nothing", got)
		}
		close(h.release)
		synctest.Wait()
		o.Wait()
		if got, want := lines(recorded(rec)), []string{"0 say:Being translated.", "1 end"}; !slices.Equal(got, want) {
			t.Errorf("out %q, want %q", got, want)
		}
	})
}
