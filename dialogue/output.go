package dialogue

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
)

// Output alone decides what a turn says and when (docs/output.md). It calls out
// without its lock, from its own goroutine: a blocking emit holds back no engine.
type Output struct {
	ctx    context.Context
	trace  *nadine.Trace
	now    func() time.Time
	apply  sessionApply
	check  SentenceCheck
	filler FillerLine
	budget SpeechBudget

	mu      sync.Mutex
	changed sync.Cond // broadcast when the queue drains or a delivery ends
	to      nadine.EmitFunc
	held    bool           // an early turn's output: nothing goes out before Release
	dropped bool           // Drop: nothing goes out any more
	ended   bool           // End: the turn is over, no filler any more
	running bool           // the deliverer was started
	sending bool           // the deliverer is handing an event on
	stopped sync.WaitGroup // the deliverer, until dropped or closed
	queue   []*outEntry
	gen     int // the current engine attempt
	// authored is the attempt whose engine speaks the project's own
	// texts (the offline engine): not checked for talk about the answer.
	authored int
	seq      int // the next spoken line's number

	lines []Line // every spoken line that went out or was cut, in order

	fillerSaid   bool // a filler line went out (or is queued)
	fillerWanted bool // a filler was asked for while held
	replied      bool // a reply sentence is ready to go or went out
	speechEnded  bool // the attempt's EventSpeechEnd went out: nothing more is said
	cut          int  // reply sentences the budget left unsaid
	recital      bool // a tool gave a text to recite: no budget
	words        int  // words of the reply sentences said

	lang   nadine.Language // the session language, as this turn changed it
	att    attemptState    // what the current attempt emitted
	late   *nadine.Reply   // fields the engine knew only after the reply
	gest   []nadine.Gesture
	speech int // reply sentences accepted, of every attempt

	silence   *time.Timer
	silenceWG sync.WaitGroup
}

// attemptState is what the current engine attempt emitted.
type attemptState struct {
	accepted int                     // reply sentences accepted (checked, not empty)
	spoken   []string                // reply sentences said, as said
	said     map[nadine.Language]int // bytes said in each language
	changed  bool                    // one of them was changed by the check
	affect   bool                    // it announced an emotion with a mood (EventSession)
	felt     *nadine.AffectState     // the last emotion it announced
	forget   bool                    // it asked to forget the person: its speech is not said
	endAsked bool                    // it emitted EventSpeechEnd
}

// Line is one spoken line as the Output numbered it; Out false: the speech
// budget left it unsaid.
type Line struct {
	Seq      int             `json:"seq"`
	Text     string          `json:"text"`
	Language nadine.Language `json:"language"`
	Filler   bool            `json:"filler,omitempty"`
	Out      bool            `json:"out"`
}

// SentenceCheck is the one stage each reply sentence passes before it is spoken
// (authored: an AuthoredEngine wrote it; changed: the text was cleaned).
type SentenceCheck func(ctx context.Context, text string, stated, want nadine.Language, authored bool) (said string, lang nadine.Language, changed bool)

// FillerLine chooses a filler line in lang ("Hmm, let me see."), and the
// language it is in; "" says none.
type FillerLine func(lang nadine.Language) (string, nadine.Language)

// SpeechBudget bounds what one turn says (two short sentences), cut at a
// sentence boundary; the first always goes out whole. Zero or negative: no bound.
type SpeechBudget struct {
	MaxSentences int
	MaxWords     int
}

// outEntry is an event on its way out.
type outEntry struct {
	e              nadine.Event
	gen            int
	ready          bool // checked (a reply sentence) or needing no check
	apply, forward bool
	changed        bool // the check changed the sentence
	authored       bool // from an authored engine's attempt (BindAuthored)
}

// OutputOptions configures an Output; the zero value applies nothing, checks
// nothing, says no filler and has no budget.
type OutputOptions struct {
	// To receives the events going out; nil while Held.
	To nadine.EmitFunc
	// Held holds everything until Release (an early turn's output).
	Held bool
	// Language is the session language at the turn's start.
	Language nadine.Language
	Apply    func(nadine.Event)
	Check    SentenceCheck
	Filler   FillerLine
	Budget   SpeechBudget
	Now      func() time.Time
}

// NewOutput returns the output of the turn whose context is ctx (its
// trace, if any, records what the output decides).
func NewOutput(ctx context.Context, opts OutputOptions) *Output {
	o := &Output{ctx: ctx, trace: nadine.TraceFrom(ctx), now: opts.Now, apply: opts.Apply, check: opts.Check,
		filler: opts.Filler, budget: opts.Budget, to: opts.To, held: opts.Held, lang: opts.Language}
	o.changed.L = &o.mu
	if o.now == nil {
		o.now = time.Now
	}
	if o.apply == nil {
		o.apply = func(nadine.Event) {}
	}
	if o.check == nil {
		o.check = func(_ context.Context, text string, stated, want nadine.Language, _ bool) (string, nadine.Language, bool) {
			return text, stated.Or(want), false
		}
	}
	return o
}

// Attempt starts an engine attempt; what comes through its functions once a
// later attempt started (from an engine abandoned past the budget) is dropped.
func (o *Output) Attempt() (emit nadine.EmitFunc, filler func(), hold func() nadine.Branch) {
	o.mu.Lock()
	o.gen++
	gen := o.gen
	o.att = attemptState{}
	o.mu.Unlock()
	emit = func(e nadine.Event) { o.emit(e, gen) }
	filler = func() { o.fill(gen) }
	hold = func() nadine.Branch { return &branch{o: o, gen: gen} }
	return emit, filler, hold
}

// Bind starts an engine attempt (Attempt) and returns req with its output
// functions.
func (o *Output) Bind(req nadine.Request) nadine.Request {
	req.Emit, req.Filler, req.Hold = o.Attempt()
	return req
}

// BindAuthored is Bind for an engine that speaks only the project's own
// texts: the last fallback must not be silenced by a check meant for models.
func (o *Output) BindAuthored(req nadine.Request) nadine.Request {
	req = o.Bind(req)
	o.mu.Lock()
	o.authored = o.gen
	o.mu.Unlock()
	return req
}

// Emit passes an event of the turn that comes from no engine attempt (the
// manager's own: a language change, the reply it speaks, the done event).
func (o *Output) Emit(e nadine.Event) { o.emit(e, -1) }

// emit accepts an event of attempt gen (-1: the manager's own).
func (o *Output) emit(e nadine.Event, gen int) {
	if e.Kind == nadine.EventSpeech && e.Filler {
		o.fill(gen) // an engine's own filler line: the rule decides, the output words it
		return
	}
	en := o.accept(e, gen)
	if en == nil {
		return
	}
	if !en.ready {
		o.checkSentence(en)
	}
	o.flush()
}

// accept queues e, or returns nil when it is not to go out. A reply
// sentence is queued unchecked.
func (o *Output) accept(e nadine.Event, gen int) *outEntry {
	if e.Kind == nadine.EventSpeech && strings.TrimSpace(e.Text) == "" {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.dropped {
		return nil
	}
	if gen >= 0 && gen != o.gen {
		o.trace.Notef("dropped a %s event of an earlier engine attempt", e.Kind)
		return nil
	}
	// After "forget me" the manager answers (forget.go): the attempt's
	// own speech is not said, and the request is not passed on.
	switch {
	case e.Kind == nadine.EventForgetRequest:
		if gen >= 0 && !o.att.forget {
			o.att.forget = true
			o.trace.Notef("forget: the person asked to be forgotten")
		}
		return nil
	case gen >= 0 && o.att.forget && e.Kind == nadine.EventSpeech:
		o.trace.Notef("forget: a sentence of the engine after the request is not spoken")
		return nil
	case e.Kind == nadine.EventSpeechEnd && (gen < 0 || o.att.forget):
		return nil // only an engine's reply ends its speech; after "forget me" the manager speaks
	}
	// The session's changes are applied, not published; a recital only
	// lifts the budget.
	en := &outEntry{e: e, gen: gen, authored: gen > 0 && gen == o.authored, ready: e.Kind != nadine.EventSpeech, apply: e.Kind != nadine.EventRecital,
		forward: e.Kind != nadine.EventSession && e.Kind != nadine.EventRecital}
	o.note(e)
	o.queue = append(o.queue, en)
	return en
}

// note records what the reply needs of an accepted event (o.mu is held).
func (o *Output) note(e nadine.Event) {
	switch e.Kind {
	case nadine.EventSession:
		o.att.affect = o.att.affect || (e.Session != nil && len(e.Session.Affect) > 0)
	case nadine.EventGesture:
		o.gest = append(o.gest, e.Gesture)
	case nadine.EventAffect:
		// Only an engine with its own mood model (the graph's affect
		// agents, which returns its state in an EventSession) spares the
		// manager's appraisal; an emotion alone (the ReAct answer's)
		// still moves and persists the mood.
		if e.Affect != nil && e.Affect.Label.Valid() {
			a := *e.Affect
			o.att.felt = &a
		}
	case nadine.EventLanguage:
		if e.Language.Valid() {
			o.lang = e.Language // the sentences after it are checked against it
		}
	case nadine.EventReplyFields:
		if e.Reply != nil {
			r := *e.Reply
			o.late = &r
		}
	case nadine.EventSpeechEnd:
		o.att.endAsked = true
	case nadine.EventRecital:
		if !o.recital {
			o.recital = true
			o.trace.Notef("a tool gave the reply a text to recite: the speech budget does not cut it")
		}
	}
}

// checkSentence runs the sentence check on en, outside the lock, and
// marks it ready (or drops it when nothing is left to say).
func (o *Output) checkSentence(en *outEntry) {
	text, lang, changed := o.check(o.ctx, en.e.Text, en.e.Language, o.Language(), en.authored)
	o.mu.Lock()
	defer o.mu.Unlock()
	en.e.Text, en.e.Language, en.changed = strings.TrimSpace(text), lang, changed
	en.ready = true
	if en.e.Text == "" {
		if changed && (en.gen < 0 || en.gen == o.gen) {
			o.att.changed = true // the reply is what is said: without it
		}
		o.remove(en)
		return
	}
	if en.gen >= 0 && en.gen == o.gen {
		o.att.accepted++
	}
	o.speech++
	o.replied = true // a reply sentence is ready: no filler goes out any more
}

// remove takes en out of the queue (o.mu is held).
func (o *Output) remove(en *outEntry) {
	for i, x := range o.queue {
		if x == en {
			o.queue = append(o.queue[:i], o.queue[i+1:]...)
			break
		}
	}
	o.changed.Broadcast()
}

// flush wakes the deliverer, starting it at the turn's first event that
// can go out.
func (o *Output) flush() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.deliverable() {
		return
	}
	if !o.running {
		o.running = true
		o.stopped.Add(1)
		go o.deliver()
		return
	}
	o.changed.Broadcast()
}

// deliverable reports whether the queue's head can go out (o.mu is held):
// it is ready, and the output neither held nor dropped.
func (o *Output) deliverable() bool {
	return !o.held && !o.dropped && len(o.queue) > 0 && o.queue[0].ready
}

// deliver is the turn's one goroutine that hands events on, in order and
// outside the lock, until the output is dropped or closed.
func (o *Output) deliver() {
	defer o.stopped.Done()
	o.mu.Lock()
	defer o.mu.Unlock()
	for {
		for !o.dropped && !o.deliverable() {
			o.changed.Wait()
		}
		if o.dropped {
			return
		}
		en := o.queue[0]
		o.queue = o.queue[1:]
		out, to := o.speak(en), o.to
		o.sending = true
		o.mu.Unlock()
		if out {
			if en.apply {
				o.apply(en.e)
			}
			if en.forward && to != nil {
				to(en.e)
			}
		}
		o.mu.Lock()
		o.sending = false
		o.changed.Broadcast()
	}
}

// speak numbers and records a spoken line (o.mu is held): a filler always goes
// out, a reply sentence while the speech budget holds.
func (o *Output) speak(en *outEntry) bool {
	e := &en.e
	switch e.Kind {
	case nadine.EventSpeechEnd:
		return o.endSpeech(en)
	case nadine.EventDone:
		e.Seq = o.seq
		return true
	case nadine.EventSpeech:
	default:
		return true
	}
	if o.speechEnded {
		// The speech end went out: the robot was told nothing follows.
		o.lines = append(o.lines, Line{Seq: -1, Text: e.Text, Language: e.Language, Filler: e.Filler})
		o.trace.Notef("a sentence after the reply's speech end is not said")
		return false
	}
	if !e.Filler && !o.withinBudget(e.Text) {
		o.cut++
		o.lines = append(o.lines, Line{Seq: -1, Text: e.Text, Language: e.Language})
		if o.cut == 1 {
			n, _ := o.outSentences()
			o.trace.Notef("speech budget (%d sentences, %d words): the reply is cut after %d sentence(s)",
				o.budget.MaxSentences, o.budget.MaxWords, n)
		}
		return false
	}
	e.Seq = o.seq
	o.seq++
	o.lines = append(o.lines, Line{Seq: e.Seq, Text: e.Text, Language: e.Language, Filler: e.Filler, Out: true})
	if e.Filler {
		return true
	}
	o.trace.MarkSpeech(o.now())
	o.words += countWords(e.Text)
	if en.gen < 0 || en.gen == o.gen {
		a := &o.att
		a.spoken = append(a.spoken, e.Text)
		if a.said == nil {
			a.said = map[nadine.Language]int{}
		}
		a.said[e.Language] += len(e.Text)
		a.changed = a.changed || en.changed
	}
	return true
}

// endSpeech reports whether the speech end goes out (o.mu held): once, after a
// reply sentence of the current attempt; else the done event is the marker.
func (o *Output) endSpeech(en *outEntry) bool {
	if o.speechEnded || en.gen != o.gen || len(o.att.spoken) == 0 {
		return false
	}
	o.speechEnded = true
	en.e.Seq = o.seq
	for i := len(o.lines) - 1; i >= 0 && !en.e.Language.Valid(); i-- {
		en.e.Language = o.lines[i].Language // the marker's language is the last line's
	}
	o.trace.Notef("the reply's text is complete: its speech ends before the turn does")
	return true
}

// withinBudget reports whether a reply sentence may still be said (o.mu is
// held): the first always; none after one was cut.
func (o *Output) withinBudget(text string) bool {
	n, last := o.outSentences()
	if n == 0 || o.recital {
		return true
	}
	b := o.budget
	room := b.MaxSentences <= 0 || n < b.MaxSentences || continues(last, text)
	return o.cut == 0 && room && (b.MaxWords <= 0 || o.words+countWords(text) <= b.MaxWords)
}

// outSentences counts the reply sentences that went out (a piece that
// continues the one before it is no sentence of its own) and returns the
// last piece (o.mu is held).
func (o *Output) outSentences() (n int, last string) {
	for _, l := range o.lines {
		if l.Out && !l.Filler {
			if !continues(last, l.Text) {
				n++
			}
			last = l.Text
		}
	}
	return n, last
}

// continues reports a piece the splitter cut after an ellipsis that goes
// on in small letters ("« avoir la tête dans les nuages »... c'est un peu
// moi"): one sentence for the budget, though spoken as two.
func continues(prev, text string) bool {
	p := strings.TrimRight(prev, " »”\"')")
	if !strings.HasSuffix(p, "...") && !strings.HasSuffix(p, "…") {
		return false
	}
	r, _ := utf8.DecodeRuneInString(text)
	return unicode.IsLower(r)
}

// countWords counts runs of letters or digits, and each Han, kana or Hangul
// character alone (Chinese has no spaces).
func countWords(s string) int {
	n, in := 0, false
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			n++
			in = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if !in {
				n++
			}
			in = true
		default:
			in = r == '\'' || r == '’' || r == '-' && in
		}
	}
	return n
}

// fill asks for a filler on behalf of attempt gen (-1: the silence timer); a
// line goes out ahead of the sentences still being checked.
func (o *Output) fill(gen int) {
	o.mu.Lock()
	if gen >= 0 && gen != o.gen {
		o.mu.Unlock()
		return
	}
	if o.held && !o.dropped {
		o.fillerWanted = true // decided at Release
		o.mu.Unlock()
		return
	}
	queued := o.queueFiller()
	o.mu.Unlock()
	if queued {
		o.flush()
	}
}

// fillerRule: a filler at most once per turn, never after a reply sentence
// or the turn's end (o.mu is held).
func (o *Output) fillerRule() bool {
	return o.filler != nil && !o.fillerSaid && !o.replied && !o.ended && !o.dropped
}

// queueFiller puts a filler line at the head of the queue when the rule
// allows one, and reports whether it did (o.mu is held).
func (o *Output) queueFiller() bool {
	if !o.fillerRule() {
		return false
	}
	text, lang := o.filler(o.lang.Or(nadine.DefaultLanguage))
	if strings.TrimSpace(text) == "" {
		return false
	}
	o.fillerSaid = true
	o.trace.Notef("filler: %q", text)
	en := &outEntry{e: nadine.Event{Kind: nadine.EventSpeech, Text: text, Language: lang, Filler: true}, gen: -1, ready: true, forward: true}
	o.queue = append([]*outEntry{en}, o.queue...)
	return true
}

// Silence says a filler line, once, when no reply sentence is ready wait
// from now (limits.first_speech since the transcript came). End stops it.
func (o *Output) Silence(wait time.Duration, after string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.filler == nil || o.ended || o.silence != nil {
		return
	}
	o.silenceWG.Add(1)
	o.silence = time.AfterFunc(max(wait, 0), func() {
		defer o.silenceWG.Done()
		o.mu.Lock()
		queued := !o.held && o.queueFiller()
		o.mu.Unlock()
		if queued {
			o.trace.Notef("no reply sentence %s after the transcript: a filler line was said", after)
			o.flush()
		}
	})
}

// End marks the turn over: no filler any more; a silence filler being
// said goes out before End returns.
func (o *Output) End() {
	o.mu.Lock()
	o.ended = true
	t := o.silence
	o.mu.Unlock()
	if t != nil && t.Stop() {
		o.silenceWG.Done()
	}
	o.silenceWG.Wait()
}

// Release lets a held output out to to (nil keeps its own), a filler asked for
// meanwhile first; it reports false when the output was dropped.
func (o *Output) Release(to nadine.EmitFunc) bool {
	o.mu.Lock()
	if o.dropped {
		o.mu.Unlock()
		return false
	}
	if to != nil {
		o.to = to
	}
	o.held = false
	if o.fillerWanted {
		o.queueFiller()
	}
	o.mu.Unlock()
	o.flush()
	return true
}

// Close ends the output once its events went out and drops later ones (the
// runtime publishes no more once the turn returned); the deliverer has stopped.
func (o *Output) Close() {
	o.Wait()
	o.Drop()
	o.stopped.Wait()
}

// Drop discards everything not yet out, and every later event; the
// deliverer stops after the event it is handing on, if any.
func (o *Output) Drop() {
	o.mu.Lock()
	o.dropped = true
	o.queue = nil
	o.changed.Broadcast()
	o.mu.Unlock()
}

// Wait returns once everything accepted went out, or at once while held.
func (o *Output) Wait() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for !o.held && !o.dropped && (o.sending || len(o.queue) > 0) {
		o.changed.Wait()
	}
}

// Lines returns the turn's spoken lines so far, in order.
func (o *Output) Lines() []Line {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]Line(nil), o.lines...)
}

// Language is the session language as the turn changed it.
func (o *Output) Language() nadine.Language {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.lang
}

// forgetAsked reports whether the current attempt asked to forget the
// person (EventForgetRequest).
func (o *Output) forgetAsked() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.att.forget
}

// spoke reports whether any attempt had a reply sentence accepted.
func (o *Output) spoke() bool { return o.accepted() > 0 }

// accepted counts the reply sentences the check let through, of every
// attempt and the manager's own.
func (o *Output) accepted() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.speech
}

// saidReply is a reply of what the turn said, in the language it was said in.
func (o *Output) saidReply() nadine.Reply {
	said, _, lang := o.said()
	return nadine.Reply{Text: strings.Join(said, " "), Language: lang.Or(o.Language()), Category: nadine.CategoryOther}
}

// speechOver reports, once what was accepted has gone out, whether the reply's
// speech end went out (or will, held): the turn says nothing more.
func (o *Output) speechOver() bool {
	o.Wait()
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.speechEnded || o.held && o.att.endAsked && o.att.accepted > 0
}

// spokeThisAttempt reports whether the current attempt had a reply
// sentence accepted.
func (o *Output) spokeThisAttempt() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.att.accepted > 0
}

// said returns the reply as the current attempt said it and the language most
// of it is in: a German reply with an English "Heavy Metal!" is German.
func (o *Output) said() (sentences []string, changed bool, lang nadine.Language) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var most nadine.Language
	for _, l := range nadine.Languages() {
		if o.att.said[l] > o.att.said[most] {
			most = l
		}
	}
	return append([]string(nil), o.att.spoken...), o.att.changed || o.cut > 0, most
}

// emotion is the emotion the current attempt announced and its intensity
// (0 to 1), or neutral.
func (o *Output) emotion() (nadine.Emotion, float64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.att.felt == nil {
		return nadine.Neutral, 0
	}
	return o.att.felt.Label, o.att.felt.Intensity
}

// affectThisAttempt reports whether the current attempt announced an
// emotion with a mood.
func (o *Output) affectThisAttempt() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.att.affect
}

func (o *Output) gestures() []nadine.Gesture {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]nadine.Gesture(nil), o.gest...)
}

// lateFields adds what the engine knew only after the reply was published
// (EventReplyFields, gestures emitted since).
func (o *Output) lateFields(r nadine.Reply) nadine.Reply {
	o.mu.Lock()
	late := o.late
	o.mu.Unlock()
	if late != nil {
		if r.Category == "" && late.Category != "" {
			r.Category = late.Category
			if !r.Category.Valid() {
				r.Category = nadine.CategoryOther
			}
		}
		if r.CausingPerson == "" {
			r.CausingPerson = late.CausingPerson
		}
	}
	r.Gestures = mergeGestures(r.Gestures, o.gestures())
	return r
}

// branch keeps a speculation's events apart until the verdict (nadine.Branch);
// a discarded one's never go out.
type branch struct {
	o   *Output
	gen int

	mu    sync.Mutex
	held  []nadine.Event
	state int // branchHeld, branchReleased, branchDropped
}

const (
	branchHeld = iota
	branchReleased
	branchDropped
)

// Emit holds ev until the verdict, passes it on once released, or drops
// it once dropped.
func (b *branch) Emit(ev nadine.Event) {
	b.mu.Lock()
	switch b.state {
	case branchHeld:
		b.held = append(b.held, ev)
		b.mu.Unlock()
	case branchReleased:
		b.mu.Unlock()
		b.o.emit(ev, b.gen)
	default:
		b.mu.Unlock()
	}
}

// Release passes the held events on, in order, and every later one; it
// reports false when the branch was dropped.
func (b *branch) Release() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state {
	case branchDropped:
		return false
	case branchHeld:
		for _, ev := range b.held {
			b.o.emit(ev, b.gen)
		}
		b.held, b.state = nil, branchReleased
	}
	return true
}

// Drop discards the held events and every later one; it reports false
// when the branch was released.
func (b *branch) Drop() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == branchReleased {
		return false
	}
	b.held, b.state = nil, branchDropped
	return true
}

// String describes the output for a trace or a test failure.
func (l Line) String() string {
	kind := "sentence"
	if l.Filler {
		kind = "filler"
	}
	if !l.Out {
		return fmt.Sprintf("%s %q (not said)", kind, l.Text)
	}
	return fmt.Sprintf("%d: %s %q", l.Seq, kind, l.Text)
}

// Defaults of SpeechBudget (ManagerOptions.Speech): the length rule, two
// short sentences.
const (
	DefaultMaxSentences = 2
	DefaultMaxWords     = 60
)

// withDefaults fills zero bounds with the defaults; a negative bound
// stays, and bounds nothing.
func (b SpeechBudget) withDefaults() SpeechBudget {
	if b.MaxSentences == 0 {
		b.MaxSentences = DefaultMaxSentences
	}
	if b.MaxWords == 0 {
		b.MaxWords = DefaultMaxWords
	}
	return b
}
