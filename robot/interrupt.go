package robot

import (
	"context"
	"strings"
	"time"
	"unicode"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/bargein"
)

// Interruptions: a person who talks over Nadine stops her (see
// docs/interruptions.md).
//
// The runtime follows what Nadine is saying (a talk: the lines of the
// turn published to text-to-speech, and what text-to-speech reported
// said), judges what is heard meanwhile (bargein: a real interruption, or
// a backchannel, noise, her own voice), and on an interruption tells
// text-to-speech to stop, withholds the turn's later lines, cancels the
// turn if it still runs and has the manager remember the reply as far as
// it was said. The person's words then start the next turn as any.
// Voice activity alone (mode speech) stops her too, but tentatively: if no
// words come within FalseTimeout, or only a backchannel, she resumes where
// she stopped, once.

// InterruptMode says what stops Nadine while she speaks.
type InterruptMode string

// The interruption modes.
const (
	// InterruptOff: nothing does; heard transcripts are dropped while she
	// speaks (between start_speak and end_speak).
	InterruptOff InterruptMode = "off"
	// InterruptWords: words that are not a backchannel, noise or her own
	// voice: at least MinWords, or a command ("wait", "stop").
	InterruptWords InterruptMode = "words"
	// InterruptSpeech: words, or voice activity lasting MinDuration.
	InterruptSpeech InterruptMode = "speech"
)

// Valid reports whether m is a mode.
func (m InterruptMode) Valid() bool {
	switch m {
	case InterruptOff, InterruptWords, InterruptSpeech:
		return true
	}
	return false
}

// Interruptions configures how a person talking over Nadine stops her. The
// zero value is off.
type Interruptions struct {
	Mode InterruptMode
	// MinWords is how many words of a transcript that is neither a
	// backchannel nor a command stop her (bargein.DefaultMinWords).
	MinWords int
	// MinDuration is how long voice activity stops her in mode speech
	// (DefaultInterruptMinDuration).
	MinDuration time.Duration
	// FalseTimeout is how long after a stop by voice activity words may
	// come before she resumes (DefaultFalseInterruptionTimeout).
	FalseTimeout time.Duration
}

// Defaults of Interruptions.
const (
	DefaultInterruptMinDuration     = 600 * time.Millisecond
	DefaultFalseInterruptionTimeout = 2 * time.Second
	stopReasonWords                 = "interrupted"
	stopReasonSpeech                = "speech"
	// ReasonResumed is UpdateInterrupted's reason when Nadine resumed
	// after a false interruption.
	ReasonResumed  = "resumed"
	wordsPerSecond = 2.5 // a speaking rate, when text-to-speech reports nothing
	cjkPerSecond   = 4.0
	reportWait     = 300 * time.Millisecond // for text-to-speech to report where a stop cut it
)

// Why a heard transcript was not answered while Nadine spoke
// (Update.Reason), besides ReasonSpeaking.
const (
	ReasonBackchannel = "backchannel" // an acknowledgement ("uh-huh", "d'accord")
	ReasonEcho        = "echo"        // her own sentence, heard back
	ReasonNoise       = "noise"       // a sound, a filler word
	// ReasonTalkedOver: the person talked over the turn before it said
	// anything but a filler; their words are the next turn.
	ReasonTalkedOver = "talked_over"
)

// talk is one turn's lines as published to text-to-speech and what it
// reported of them. Guarded by Runtime.mu.
type talk struct {
	turnID   string
	lines    []talkLine
	nextSeq  int  // the next seq to publish
	doneSeq  int  // -1, or the end-of-turn marker's seq once published
	withheld bool // the end-of-turn marker came while stopped
	lang     nadine.Language
	running  bool      // the turn runs (it may say more)
	stopped  bool      // stopped: later lines are withheld
	byWords  bool      // the stop came from words (else voice activity alone)
	resumed  bool      // a false interruption was resumed (at most once)
	stopAt   time.Time // when she was stopped
	estEnd   time.Time // without reports: when she should have finished
	voice    *time.Timer
	resume   *time.Timer
}

// talkLine is one line of a talk.
type talkLine struct {
	seq    int // as published, -1 while withheld
	text   string
	lang   nadine.Language
	filler bool
	said   bool      // reported said whole
	cut    int       // words said when a stop cut it, -1 when not cut (or unknown)
	end    time.Time // when it should have been said, at a usual speaking rate
}

// newJudge returns the judge of heard utterances, or nil when off.
func newJudge(o Interruptions) (*bargein.Judge, error) {
	if o.Mode == "" || o.Mode == InterruptOff {
		return nil, nil
	}
	return bargein.New(o.MinWords)
}

// beginTalk starts the talk of a turn about to run.
func (r *Runtime) beginTalk(turnID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopTalkTimers(r.talk)
	r.talk = &talk{turnID: turnID, running: true, doneSeq: -1}
}

// turnReturned records that a talk's turn returned: it says nothing more.
func (r *Runtime) turnReturned(turnID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t := r.talk; t != nil && t.turnID == turnID {
		t.running = false
	}
}

// line records a line about to be published and returns its seq, or false
// when Nadine was stopped and the line is withheld.
func (r *Runtime) line(turnID string, e nadine.Event) (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.talk
	if t == nil || t.turnID != turnID {
		return e.Seq, true // not a turn the runtime follows (an operator's without a talk)
	}
	l := talkLine{seq: -1, text: e.Text, lang: e.Language, filler: e.Filler, cut: -1}
	t.lang = e.Language.Or(t.lang)
	if t.stopped {
		t.lines = append(t.lines, l)
		return 0, false
	}
	l.seq = t.nextSeq
	t.nextSeq++
	start := r.opts.Now()
	if t.estEnd.After(start) {
		start = t.estEnd
	}
	t.estEnd = start.Add(speakingTime(e.Text))
	l.end = t.estEnd
	t.lines = append(t.lines, l)
	return l.seq, true
}

// done records the end-of-turn marker about to be published and returns
// its seq, or false when it is withheld.
func (r *Runtime) done(turnID string, e nadine.Event) (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.talk
	if t == nil || t.turnID != turnID {
		return e.Seq, true
	}
	if t.stopped {
		t.withheld = true
		return 0, false
	}
	t.doneSeq = t.nextSeq
	t.nextSeq++
	return t.doneSeq, true
}

// speakingTime is how long text takes to say at a usual rate.
func speakingTime(text string) time.Duration {
	words, cjk := 0, 0
	for _, f := range strings.Fields(text) {
		n := 0
		for _, r := range f {
			if unicode.Is(unicode.Han, r) {
				n++
			}
		}
		if n == 0 {
			words++
		}
		cjk += n
	}
	return time.Duration((float64(words)/wordsPerSecond + float64(cjk)/cjkPerSecond) * float64(time.Second))
}

// spokenReport records text-to-speech's report of a line said, or cut.
func (r *Runtime) spokenReport(rep nadine.SpokenReport) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reports = true
	t := r.talk
	if t == nil || t.turnID != rep.TurnID {
		return
	}
	for i := range t.lines {
		l := &t.lines[i]
		if l.seq != rep.Seq {
			continue
		}
		if rep.Cut {
			l.cut = max(rep.Words, 0)
		} else {
			l.said, l.cut = true, -1
		}
		if t.stopped && t.byWords {
			// Where the stop cut her: the history is to hold it, before
			// the person's words are answered.
			r.m.Amend(t.turnID, t.said(true, r.opts.Now()), true)
		}
		return
	}
}

// speakingNow returns the talk Nadine is in the middle of saying, from
// text-to-speech's reports or start/end_speak; nil with neither (r.mu is held).
func (r *Runtime) speakingNow(now time.Time) *talk {
	t := r.talk
	if t == nil || t.stopped || len(t.lines) == 0 {
		if now.Before(r.speaking) && t != nil && !t.stopped {
			return t
		}
		return nil
	}
	switch {
	case r.reports:
		if now.After(t.estEnd.Add(r.opts.SpeakTimeout)) {
			return nil // text-to-speech stopped reporting: listen again
		}
		for _, l := range t.lines {
			if l.seq >= 0 && !l.said && l.cut < 0 {
				return t
			}
		}
		if t.running {
			return t // the next line may be on its way
		}
		return nil
	case now.Before(r.speaking):
		return t
	}
	// Text-to-speech tells nothing (or finished): she is not known to be
	// speaking, and nothing heard is held against her speech.
	return nil
}

// saying is what Nadine says in talk t, for telling her own voice heard
// back from someone else's.
func (t *talk) saying() []string {
	out := make([]string, 0, len(t.lines))
	for _, l := range t.lines {
		out = append(out, l.text)
	}
	return out
}

// heardWhileSpeaking reports whether a transcript heard while Nadine speaks
// is handled (it interrupted her); otherwise it was dropped and logged.
func (r *Runtime) heardWhileSpeaking(ctx context.Context, tr nadine.Transcript) bool {
	if r.judge == nil {
		return true
	}
	r.mu.Lock()
	t := r.speakingNow(r.opts.Now())
	var saying []string
	if t != nil {
		saying = t.saying()
	} else if s := r.talk; s != nil && s.stopped && !s.byWords {
		saying = s.saying() // stopped by voice activity: are these the words?
		t = s
	}
	r.mu.Unlock()
	if t == nil {
		return true
	}
	v := r.judge.Hear(tr.Text, saying...)
	if v.Stop {
		r.interrupt(ctx, t.turnID, true)
		return true
	}
	r.mu.Lock()
	tentative := t.stopped && !t.byWords
	if t.voice != nil && !v.Stop {
		r.stopTimerOf(&t.voice) // the voice was this
	}
	r.mu.Unlock()
	if tentative && tr.Final {
		// The voice that stopped her was a backchannel, noise or her
		// own voice: she goes on.
		r.resumeTalk(ctx, t.turnID)
	}
	if !tr.Final {
		return false
	}
	why := ReasonSpeaking
	switch v.Kind {
	case bargein.Backchannel:
		why = ReasonBackchannel
	case bargein.Echo:
		why = ReasonEcho
	case bargein.Noise:
		why = ReasonNoise
	}
	r.log.Info("transcript heard while Nadine speaks: not an interruption", "id", tr.ID, "kind", v.Kind, "words", v.Words)
	r.queueMark(nadine.InboxDropped, tr.Seq)
	r.broadcast(Update{Kind: UpdateDropped, TurnID: tr.ID, Input: tr.Text, Reason: why})
	return false
}

// voiceStarted stops Nadine tentatively on voice lasting MinDuration (mode
// speech), unless a transcript judged not to interrupt came meanwhile.
func (r *Runtime) voiceStarted(ctx context.Context) {
	if r.judge == nil || r.opts.Interruptions.Mode != InterruptSpeech {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.speakingNow(r.opts.Now())
	if t == nil || r.closed || t.voice != nil {
		return
	}
	turnID := t.turnID
	r.timers.Add(1)
	t.voice = time.AfterFunc(r.opts.Interruptions.MinDuration, func() {
		defer r.timers.Done()
		r.mu.Lock()
		still := r.talk == t && t.voice != nil && !t.stopped
		t.voice = nil
		r.mu.Unlock()
		if still {
			r.interrupt(ctx, turnID, false)
		}
	})
}

// interrupt stops Nadine in turn turnID and withholds her later lines; by
// voice alone the cancel waits for words or FalseTimeout.
func (r *Runtime) interrupt(ctx context.Context, turnID string, byWords bool) {
	r.mu.Lock()
	t := r.talk
	if t == nil || t.turnID != turnID || (t.stopped && (t.byWords || !byWords)) {
		r.mu.Unlock()
		return
	}
	first := !t.stopped
	if first {
		t.stopAt = r.opts.Now()
	}
	t.stopped, t.byWords = true, byWords
	r.stopTimerOf(&t.voice)
	r.stopTimerOf(&t.resume)
	if !byWords && !t.resumed && !r.closed {
		r.timers.Add(1)
		t.resume = time.AfterFunc(r.opts.Interruptions.FalseTimeout, func() {
			defer r.timers.Done()
			r.mu.Lock()
			pending := r.talk == t && t.resume != nil
			t.resume = nil
			r.mu.Unlock()
			if pending {
				r.resumeTalk(ctx, turnID)
			}
		})
	}
	r.mu.Unlock()
	if first && r.opts.Body != nil {
		why := stopReasonWords
		if !byWords {
			why = stopReasonSpeech
		}
		if err := r.opts.Body.StopSpeaking(ctx, turnID, why); err != nil {
			r.log.Warn("bus: stop not published", "turn", turnID, "err", err)
		}
	}
	r.log.Info("Nadine interrupted", "turn", turnID, "by_words", byWords)
	u := Update{Kind: UpdateInterrupted, TurnID: turnID, Reason: stopReasonSpeech}
	if byWords {
		u.Reason, u.Said = stopReasonWords, r.amendInterrupted(ctx, turnID)
	}
	r.broadcast(u)
}

// amendInterrupted has the manager remember the reply as far as it was said,
// written once text-to-speech had time to report where the stop cut it.
func (r *Runtime) amendInterrupted(ctx context.Context, turnID string) string {
	r.mu.Lock()
	said := r.talk.said(r.reports, r.opts.Now())
	closed := r.closed
	if !closed {
		r.timers.Add(1)
	}
	r.mu.Unlock()
	r.m.Amend(turnID, said, true)
	if !closed {
		time.AfterFunc(reportWait, func() {
			defer r.timers.Done()
			r.m.SettleAmendment(context.WithoutCancel(ctx))
		})
	}
	return said
}

// said is the reply as far as it was said, from reports or else the lines
// published before the stop; fillers excluded (r.mu is held).
func (t *talk) said(reports bool, now time.Time) string {
	var parts []string
	for _, l := range t.lines {
		if l.filler || l.seq < 0 {
			continue
		}
		switch {
		case !reports || l.said:
			parts = append(parts, l.text)
		case l.cut > 0:
			parts = append(parts, cutText(l.text, l.cut))
		}
	}
	return strings.Join(parts, " ")
}

// cutText is the first n words of text, and an ellipsis.
func cutText(text string, n int) string {
	f := strings.Fields(text)
	if n >= len(f) {
		return text
	}
	return strings.Join(f[:n], " ") + "…"
}

// resumeTalk resumes, once, a talk stopped by voice alone: lines not said
// and withheld ones are published anew with new seqs.
func (r *Runtime) resumeTalk(ctx context.Context, turnID string) {
	r.mu.Lock()
	t := r.talk
	if t == nil || t.turnID != turnID || !t.stopped || t.byWords || t.resumed || r.closed {
		r.mu.Unlock()
		return
	}
	r.stopTimerOf(&t.resume)
	t.stopped, t.resumed = false, true
	var out []nadine.Speech
	for i := range t.lines {
		l := &t.lines[i]
		unsaid := l.seq < 0 || !l.said && (r.reports || l.end.After(t.stopAt))
		if l.filler || !unsaid {
			continue
		}
		l.seq, l.cut = t.nextSeq, -1
		t.nextSeq++
		out = append(out, nadine.Speech{Text: l.text, Language: l.lang, Seq: l.seq, TurnID: turnID})
	}
	if t.withheld || t.doneSeq >= 0 {
		t.withheld = false
		t.doneSeq = t.nextSeq
		t.nextSeq++
		out = append(out, nadine.Speech{Language: t.lang, Seq: t.doneSeq, Final: true, TurnID: turnID})
	}
	r.mu.Unlock()
	r.log.Info("false interruption: Nadine resumes", "turn", turnID, "sentences", len(out))
	r.broadcast(Update{Kind: UpdateInterrupted, TurnID: turnID, Reason: ReasonResumed})
	if r.opts.Body == nil {
		return
	}
	for _, s := range out {
		if err := r.opts.Body.Speak(ctx, s); err != nil {
			r.log.Warn("bus: resumed sentence not published", "turn", turnID, "err", err)
		}
	}
}

// stopTalkTimers stops a talk's timers (r.mu is held).
func (r *Runtime) stopTalkTimers(t *talk) {
	if t != nil {
		r.stopTimerOf(&t.voice)
		r.stopTimerOf(&t.resume)
	}
}

// talkInterrupted reports whether the talk of turn turnID was stopped by
// the person's words.
func (r *Runtime) talkInterrupted(turnID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.talk != nil && r.talk.turnID == turnID && r.talk.stopped && r.talk.byWords
}
