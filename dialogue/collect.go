package dialogue

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
)

// A turn's events go one way: from the engine, through the turn's
// collector, to the session (apply) and to the caller (emit: the robot
// runtime, which publishes them and tells the monitor). The collector
// depends on what it is given, never on the Manager: the session language
// at the turn's start, the function that applies an event to the session
// (the manager's applyEvent, which only writes the session and calls
// nothing), and the languageGuard (the detector and translator, no
// session). Nothing on that path calls back into the manager or asks the
// runtime: the runtime reads the session at start and after each turn,
// never from inside emit.

// sessionApply applies the change one event makes to the session, as the
// event goes out (the manager's applyEvent); it calls nothing back.
type sessionApply func(nadine.Event)

// sentenceCheck returns a sentence as it is to be spoken and its language
// (languageGuard.ensure), and whether it was translated.
type sentenceCheck func(ctx context.Context, text string, stated, want nadine.Language) (string, nadine.Language, bool)

// languageGuard checks a sentence's language before it is spoken (seed
// 000's ensure_language). It holds the manager's detector and translator,
// and nothing of the session.
type languageGuard struct {
	detector   nadine.LanguageDetector
	translator nadine.Translator
	log        *slog.Logger
}

// ensure returns the sentence to speak and the language it is in.
// A sentence the detector is sure is in another language than want is
// translated into want when a translator is configured; otherwise (or
// when the translation fails) it is spoken as it is, tagged with its real
// language, so that text-to-speech never reads it with the wrong voice.
// A sentence the detector cannot tell ("OK", "Alex!"), or any sentence
// without a detector, is taken to be in the language the engine says it
// is in (stated), else in want.
func (g languageGuard) ensure(ctx context.Context, text string, stated, want nadine.Language) (string, nadine.Language, bool) {
	if g.detector == nil {
		return text, stated.Or(want), false
	}
	got, _, ok := g.detector.Detect(text)
	if !ok || !got.Valid() {
		return text, stated.Or(want), false
	}
	if got == want {
		return text, want, false
	}
	tr := nadine.TraceFrom(ctx)
	if g.translator == nil {
		tr.Notef("a sentence in %s was spoken as %s (no translator)", got.Name(), got.Name())
		return text, got, false
	}
	out, err := g.translator.Translate(ctx, text, got, want)
	if err != nil || strings.TrimSpace(out) == "" {
		if err == nil {
			err = nadine.Errorf(nadine.EBADOUTPUT, "dialogue: empty translation")
		}
		tr.Fail("translate", err)
		g.log.Warn("sentence spoken untranslated, tagged with its own language", "language", got, "want", want, "err", err)
		return text, got, false
	}
	tr.Notef("sentence translated to %s before speaking: %q → %q", want.Name(), text, out)
	return out, want, true
}

// collector forwards a turn's events to the caller, applies them to the
// session and gathers what the reply needs. Engines may emit from several
// goroutines. An early turn's collector holds its events, neither applied
// nor forwarded, until the turn is adopted (release) or cancelled (drop).
type collector struct {
	// outMu orders what goes out (applied and forwarded) and guards the
	// fields below it.
	outMu   sync.Mutex
	holding bool
	held    []outEvent

	mu      sync.Mutex
	ctx     context.Context
	trace   *nadine.Trace
	emit    nadine.EmitFunc
	apply   sessionApply
	check   sentenceCheck
	gate    speechGate              // what of a sentence may be spoken (speakgate.go)
	lang    nadine.Language         // the session language, as this turn changed it
	spoken  []string                // sentences of the current attempt, as said
	said    map[nadine.Language]int // how much of them (in bytes) is in each language
	transl  bool                    // one of them was translated
	gest    []nadine.Gesture
	speech  int                 // speech events of all attempts
	current int                 // speech events of the current attempt
	affect  bool                // the current attempt announced an emotion with a mood
	felt    *nadine.AffectState // the last emotion the current attempt announced
	gen     int                 // the current attempt; events of earlier ones are dropped
	late    *nadine.Reply       // fields the engine knew only after the reply (EventReplyFields)

	speakMu sync.Mutex // orders reply sentences and the silence filler (see sayIfSilent)
	ended   bool       // the turn is over: no filler any more (under speakMu)
}

// newCollector returns the collector of one turn: its events go to apply
// (the session) and emit (the caller), its sentences are checked with
// check, lang is the session language at the turn's start.
func newCollector(ctx context.Context, t *nadine.Trace, lang nadine.Language, emit nadine.EmitFunc, apply sessionApply, check sentenceCheck) *collector {
	if emit == nil {
		emit = func(nadine.Event) {}
	}
	return &collector{ctx: ctx, trace: t, emit: emit, apply: apply, check: check, lang: lang}
}

// attempt returns the emit function for one engine attempt. Events that
// come through it once a later attempt started (from an engine abandoned
// past the turn's budget, or a failed engine's leftover goroutine) are
// dropped.
func (c *collector) attempt() nadine.EmitFunc {
	c.mu.Lock()
	c.gen++
	gen := c.gen
	c.current, c.affect, c.felt, c.spoken, c.transl, c.said = 0, false, nil, nil, false, nil
	c.mu.Unlock()
	return func(e nadine.Event) {
		c.mu.Lock()
		stale := c.gen != gen
		c.mu.Unlock()
		if stale {
			c.trace.Notef("dropped a %s event of an earlier engine attempt", e.Kind)
			return
		}
		c.forward(e)
	}
}

// outEvent is an event on its way out: applied to the session, forwarded
// to the caller, or both.
type outEvent struct {
	e              nadine.Event
	apply, forward bool
}

// send lets an event out, or holds it.
func (c *collector) send(o outEvent) {
	c.outMu.Lock()
	defer c.outMu.Unlock()
	if c.holding {
		c.held = append(c.held, o)
		return
	}
	c.deliver(o)
}

// deliver applies and forwards an event; the caller holds outMu.
func (c *collector) deliver(o outEvent) {
	if o.e.Kind == nadine.EventSpeech && !o.e.Filler {
		c.trace.MarkSpeech(time.Now())
	}
	if o.apply {
		c.apply(o.e)
	}
	if o.forward {
		c.emit(o.e)
	}
}

// release lets the held events out, in order, to emit, and every later
// one as it comes.
func (c *collector) release(emit nadine.EmitFunc) {
	c.outMu.Lock()
	defer c.outMu.Unlock()
	if emit != nil {
		c.emit = emit
	}
	for _, o := range c.held {
		c.deliver(o)
	}
	c.held, c.holding = nil, false
}

// drop discards the held events.
func (c *collector) drop() {
	c.outMu.Lock()
	c.held = nil
	c.outMu.Unlock()
}

func (c *collector) forward(e nadine.Event) {
	if e.Kind == nadine.EventSpeech && !e.Filler {
		c.speakMu.Lock()
		defer c.speakMu.Unlock()
	}
	if e.Kind == nadine.EventSpeech && e.Filler {
		c.filler(e)
		return
	}
	if e.Kind == nadine.EventSession {
		// The engine's state and Nadine's mood: the session's, not the
		// caller's.
		c.mu.Lock()
		c.affect = c.affect || (e.Session != nil && len(e.Session.Affect) > 0)
		c.mu.Unlock()
		c.send(outEvent{e: e, apply: true})
		return
	}
	translated := false
	if e.Kind == nadine.EventSpeech { // the last guard: only speech reaches speak
		clean, err := c.gate.sentence(c.trace, e.Text, e.Language.Or(c.language()))
		if err != nil {
			c.trace.Notef("a sentence was not spoken: %v", err)
		}
		translated, e.Text = clean != strings.TrimSpace(e.Text), clean
	}
	if e.Kind == nadine.EventSpeech && strings.TrimSpace(e.Text) != "" {
		// Checked against the session language (where this turn switched
		// it, the new one), and tagged with the language it is in.
		var changed bool
		e.Text, e.Language, changed = c.check(c.ctx, e.Text, e.Language, c.language())
		translated = translated || changed
	}
	c.mu.Lock()
	switch e.Kind {
	case nadine.EventSpeech:
		if strings.TrimSpace(e.Text) == "" {
			c.mu.Unlock()
			return
		}
		c.spoken = append(c.spoken, e.Text)
		if c.said == nil {
			c.said = map[nadine.Language]int{}
		}
		c.said[e.Language] += len(e.Text)
		c.transl = c.transl || translated
		c.speech++
		c.current++
	case nadine.EventGesture:
		c.gest = append(c.gest, e.Gesture)
	case nadine.EventAffect:
		// Only an engine with its own mood model (the graph's affect
		// agents, which returns its state in an EventSession) spares the
		// manager's appraisal; an emotion alone (the ReAct answer's)
		// still moves and persists the mood.
		if e.Affect != nil && e.Affect.Label.Valid() {
			a := *e.Affect
			c.felt = &a
		}
	case nadine.EventLanguage:
		if e.Language.Valid() {
			c.lang = e.Language
		}
	case nadine.EventReplyFields:
		if e.Reply != nil {
			r := *e.Reply
			c.late = &r
		}
	}
	c.mu.Unlock()
	c.send(outEvent{e: e, apply: true, forward: true})
}

// lateFields adds to r what the engine knew only after the reply was
// published: the fields of an EventReplyFields, and the gestures emitted
// since.
func (c *collector) lateFields(r nadine.Reply) nadine.Reply {
	c.mu.Lock()
	late := c.late
	c.mu.Unlock()
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
	r.Gestures = mergeGestures(r.Gestures, c.gestures())
	return r
}

// filler passes on a filler line (said while the turn waits on a tool)
// unchanged and notes it in the trace. It is not part of the reply: it is
// not collected, not checked for its language, does not count as the
// engine having spoken (a failing engine still falls back) and is not the
// turn's first speech.
func (c *collector) filler(e nadine.Event) {
	if strings.TrimSpace(e.Text) == "" {
		return
	}
	c.trace.Notef("filler: %q", e.Text)
	c.send(outEvent{e: e, forward: true})
}

func (c *collector) spoke() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.speech > 0
}

func (c *collector) spokeThisAttempt() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.current > 0
}

// spokenText returns the sentences spoken in the current attempt, whether
// one of them was translated, and the language most of them are in ("" when
// none was spoken): a German reply with an English "Heavy Metal!" in it is
// German.
func (c *collector) spokenText() ([]string, bool, nadine.Language) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var most nadine.Language
	for _, l := range nadine.Languages() {
		if c.said[l] > c.said[most] {
			most = l
		}
	}
	return append([]string(nil), c.spoken...), c.transl, most
}

// emotion is the emotion the current attempt announced and its intensity
// (0 to 1), or neutral.
func (c *collector) emotion() (nadine.Emotion, float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.felt == nil {
		return nadine.Neutral, 0
	}
	return c.felt.Label, c.felt.Intensity
}

func (c *collector) affectThisAttempt() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.affect
}

func (c *collector) gestures() []nadine.Gesture {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]nadine.Gesture(nil), c.gest...)
}

func (c *collector) language() nadine.Language {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lang
}
