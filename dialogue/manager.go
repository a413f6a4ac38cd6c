package dialogue

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
	"github.com/nadine-robot/nadine/translate"
)

// ManagerOptions configures a Manager. Zero values are sane defaults except
// Engines and History, which are required.
type ManagerOptions struct {
	// Engines answer turns, tried in order until one succeeds: typically the
	// configured engine, the same engine on each fallback profile, and the
	// offline engine last.
	Engines []nadine.Engine
	// History keeps conversation windows and stores them as memories.
	History *History
	// Profiles, when set, supplies the names of users known only by id.
	Profiles nadine.ProfileStore
	// Checkpoints, when set, keeps Nadine's mood across restarts (key
	// AffectKey) for engines without an affect model of their own.
	Checkpoints nadine.CheckpointStore
	// Detector and Translator, when both are set, check each sentence
	// before it is spoken and translate it when it is not in the session
	// language (seed 000's ensure_language); the reply then holds what was
	// said. When the session language is not English, the trace also gets
	// English renderings of the input and the reply, for monitoring.
	Detector   nadine.LanguageDetector
	Translator nadine.Translator
	// MaxInputChars caps the transcript (default DefaultMaxInputChars).
	MaxInputChars int
	// TurnTimeout bounds the time all engines but the last (the offline
	// engine) may take for one turn (DefaultTurnTimeout); when it runs out
	// the last engine answers. An engine that does not return soon after
	// is abandoned (see respond).
	TurnTimeout time.Duration
	// FirstSpeech is how long a turn may stay silent: when no reply
	// sentence has been published FirstSpeech after the transcript, Filler
	// says a line (DefaultFirstSpeech).
	FirstSpeech time.Duration
	// Filler says a short line ("Hmm, let me see.") in lang through emit,
	// at most once per turn (the trace of ctx), and reports whether it did
	// (tools.Filler.Emit). Nil: the silence is not filled.
	Filler func(ctx context.Context, lang nadine.Language, emit nadine.EmitFunc) bool
	// Language is the initial session language (default English).
	Language nadine.Language
	Now      func() time.Time
	NewID    func() string
	Logger   *slog.Logger
}

// SessionState is what the manager knows about the person in front of the
// robot right now.
type SessionState struct {
	User           nadine.UserRef     `json:"user"`
	UserEmotion    string             `json:"user_emotion"`
	Language       nadine.Language    `json:"language"`
	ConversationID string             `json:"conversation_id"`
	Mood           nadine.AffectState `json:"mood"`
}

// Manager turns transcripts into replies, one turn at a time.
type Manager struct {
	opts ManagerOptions
	log  *slog.Logger

	turnMu sync.Mutex // one turn at a time, in arrival order

	mu     sync.Mutex // guards the fields below
	user   nadine.UserRef
	emo    string
	lang   nadine.Language
	convs  map[string]string // user id → current conversation id
	mood   nadine.AffectState
	affect *affect.State // PAD state for engines without one; loaded lazily
}

// AffectKey is the checkpoint holding Nadine's PAD state between runs.
const AffectKey = "robot/affect"

// NewManager returns a manager, or an EINVALID error when no engine or no
// history is given.
func NewManager(opts ManagerOptions) (*Manager, error) {
	if len(opts.Engines) == 0 {
		return nil, nadine.Errorf(nadine.EINVALID, "dialogue: no engine configured")
	}
	if opts.History == nil {
		return nil, nadine.Errorf(nadine.EINVALID, "dialogue: no history configured")
	}
	if opts.MaxInputChars <= 0 {
		opts.MaxInputChars = DefaultMaxInputChars
	}
	if opts.TurnTimeout <= 0 {
		opts.TurnTimeout = DefaultTurnTimeout
	}
	if opts.FirstSpeech <= 0 {
		opts.FirstSpeech = DefaultFirstSpeech
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.NewID == nil {
		opts.NewID = randomID
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Manager{
		opts:  opts,
		log:   opts.Logger,
		user:  nadine.UserRef{ID: nadine.UnknownUser},
		emo:   "neutral",
		lang:  opts.Language.Or(nadine.DefaultLanguage),
		convs: map[string]string{},
		mood:  nadine.AffectState{Label: nadine.Neutral},
	}, nil
}

func randomID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Session returns the current session state.
func (m *Manager) Session() SessionState {
	m.mu.Lock()
	defer m.mu.Unlock()
	return SessionState{User: m.user, UserEmotion: m.emo, Language: m.lang, ConversationID: m.convs[m.user.ID], Mood: m.mood}
}

// Language returns the session language.
func (m *Manager) Language() nadine.Language {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.lang
}

// SetLanguage sets the session language; it returns an EINVALID error for
// an unsupported language.
func (m *Manager) SetLanguage(l nadine.Language) error {
	if !l.Valid() {
		return nadine.Errorf(nadine.EINVALID, "dialogue: unsupported language %q", string(l))
	}
	m.mu.Lock()
	m.lang = l
	m.mu.Unlock()
	return nil
}

// SetUser says who is in front of the robot (face recognition, seed 000's
// nadine/user/name). An empty id means the unknown user.
func (m *Manager) SetUser(u nadine.UserRef) {
	if u.ID == "" {
		u.ID = nadine.UnknownUser
	}
	m.mu.Lock()
	m.user = u
	m.mu.Unlock()
}

// SetUserEmotion records the facial emotion perception detected; it is
// lowercased into the prompt.
func (m *Manager) SetUserEmotion(e string) {
	e = strings.ToLower(strings.TrimSpace(e))
	if e == "" {
		e = "neutral"
	}
	m.mu.Lock()
	m.emo = e
	m.mu.Unlock()
}

// SetMood restores Nadine's mood (for example from a checkpoint at start).
func (m *Manager) SetMood(a nadine.AffectState) {
	m.mu.Lock()
	m.mood = a
	m.mu.Unlock()
}

// EndInteraction ends the current user's conversation (the user left): the
// remaining window is stored as long-term memory and the history cleared.
// It waits for a turn in flight to finish.
func (m *Manager) EndInteraction(ctx context.Context) error {
	m.turnMu.Lock()
	defer m.turnMu.Unlock()
	m.mu.Lock()
	u := m.user
	conv, ok := m.convs[u.ID]
	delete(m.convs, u.ID)
	m.mu.Unlock()
	if !ok {
		return nil
	}
	if err := m.opts.History.End(ctx, u.ID, u.Name, conv); err != nil {
		return fmt.Errorf("dialogue: end interaction of %s: %w", u.ID, err)
	}
	return nil
}

// ProcessInput answers one turn and returns the collected reply.
func (m *Manager) ProcessInput(ctx context.Context, turn nadine.Turn) (nadine.Reply, error) {
	return m.Stream(ctx, turn, nil)
}

// Stream answers one turn, passing each event to emit as soon as it exists
// (sentences, gestures, affect, language and user changes, then done), and
// returns the collected reply. emit may be nil. The turn is recorded in the
// context's trace when there is one, else in a new trace. An error is returned only
// for bad input (EINVALID); when engines fail the reply is a fallback line
// in the user's language and the trace says why.
func (m *Manager) Stream(ctx context.Context, turn nadine.Turn, emit nadine.EmitFunc) (nadine.Reply, error) {
	start := m.opts.Now()
	text, truncated, err := Normalize(turn.Text, m.opts.MaxInputChars)
	if err != nil {
		return nadine.Reply{}, err
	}
	m.turnMu.Lock()
	defer m.turnMu.Unlock()

	// A caller that publishes the turn's events (the robot runtime) may
	// start the trace itself, so that what it does is recorded too.
	trace := nadine.TraceFrom(ctx)
	if trace == nil {
		if turn.ID == "" {
			turn.ID = m.opts.NewID()
		}
		trace = nadine.NewTrace(turn.ID, text, start)
		ctx = nadine.WithTrace(ctx, trace)
	} else {
		trace.SetInput(text)
	}
	if truncated {
		trace.Notef("input cut to %d characters", m.opts.MaxInputChars)
	}
	req := m.request(ctx, turn, text, start)
	// Work the reply does not need (memory and state writes, the next
	// turn's context summary) runs once the reply is published.
	var (
		laterMu sync.Mutex
		later   []func(context.Context)
	)
	req.AfterReply = func(fn func(context.Context)) {
		laterMu.Lock()
		later = append(later, fn)
		laterMu.Unlock()
	}
	out := newCollector(ctx, trace, req.Turn.Language, emit, m.applyEvent, m.ensureLanguage)
	stopFiller := m.fillSilence(ctx, trace, start, out)

	var (
		reply   nadine.Reply
		lastErr error
	)
	answered := false
	budget, cancelBudget := context.WithDeadline(ctx, start.Add(m.opts.TurnTimeout))
	defer cancelBudget()
	for i, eng := range m.opts.Engines {
		engCtx, last := budget, i == len(m.opts.Engines)-1
		if last {
			engCtx = ctx // the last engine always gets its chance
		} else if budget.Err() != nil {
			continue
		}
		if i > 0 {
			req.FallbackReason = fallbackReason(lastErr)
		}
		stepDone := trace.StartStep("engine:" + eng.Name())
		req.Emit = out.attempt()
		r, err := m.respond(engCtx, eng, req, !last)
		if err == nil && strings.TrimSpace(r.Text) == "" {
			err = nadine.Errorf(nadine.EBADOUTPUT, "engine %s returned an empty reply", eng.Name())
		}
		stepDone(err)
		if err != nil {
			lastErr = err
			trace.Fail("engine:"+eng.Name(), err)
			m.log.Warn("engine failed", "engine", eng.Name(), "code", nadine.ErrorCode(err), "err", err, "next", i+1 < len(m.opts.Engines))
			if out.spoke() {
				trace.Notef("engine %s failed after speaking part of its reply", eng.Name())
			}
			if ctx.Err() != nil {
				break
			}
			continue
		}
		reply, answered = r, true
		reply.Fallback = i > 0
		trace.SetEngine(eng.Name())
		break
	}
	if !answered {
		reply = nadine.Reply{Text: apology(req.Turn.Language), Language: req.Turn.Language, Emotion: nadine.Sadness, EmotionIntensity: 3, Category: nadine.CategoryOther, Fallback: true}
		trace.SetEngine("apology")
	}
	reply = m.finish(reply, req, out)
	stopFiller()
	trace.Finish(m.opts.Now())
	reply.Trace = trace
	m.translateForMonitor(ctx, text, reply)

	out.forward(nadine.Event{Kind: nadine.EventDone, Reply: &reply})
	bg := context.WithoutCancel(ctx)
	laterMu.Lock()
	queued := later
	later = nil
	laterMu.Unlock()
	for _, fn := range queued {
		fn(bg)
	}
	m.remember(bg, req, reply)
	d := trace.Snapshot()
	m.log.Info("turn", "user", reply.UserID, "language", reply.Language, "engine", d.Engine,
		"input", text, "reply", reply.Text, "elapsed", d.Duration.Round(time.Millisecond),
		"model_calls", len(d.ModelCalls), "critical_path", d.CriticalPath, "fallback", reply.Fallback)
	return reply, nil
}

// request builds the engine request from the turn and the session.
func (m *Manager) request(ctx context.Context, turn nadine.Turn, text string, now time.Time) nadine.Request {
	m.mu.Lock()
	if turn.UserID != "" && turn.UserID != m.user.ID {
		m.user = nadine.UserRef{ID: turn.UserID, Name: turn.UserName}
	}
	if turn.UserName != "" && turn.UserID == "" && m.user.ID == nadine.UnknownUser {
		m.user.Name = turn.UserName
	}
	if turn.UserEmotion != "" {
		m.emo = strings.ToLower(strings.TrimSpace(turn.UserEmotion))
	}
	if turn.Language.Valid() {
		m.lang = turn.Language
	}
	user, emo, lang, mood := m.user, m.emo, m.lang, m.mood
	conv := m.convs[user.ID]
	if conv == "" {
		conv = m.opts.NewID()
		m.convs[user.ID] = conv
	}
	m.mu.Unlock()

	if user.Name == "" && user.ID != nadine.UnknownUser && m.opts.Profiles != nil {
		if p, err := m.opts.Profiles.Profile(ctx, user.ID); err == nil {
			user.Name = p.UserName
		}
	}
	history, err := m.opts.History.Window(ctx, user.ID, conv)
	if err != nil {
		nadine.TraceFrom(ctx).Fail("history", err)
		m.log.Warn("history window unavailable", "user", user.ID, "err", err)
	}
	if turn.Time.IsZero() {
		turn.Time = now
	}
	return nadine.Request{
		Turn: nadine.Turn{Text: text, Language: lang, UserID: user.ID, UserName: user.Name,
			UserEmotion: emo, Time: turn.Time},
		ConversationID: conv,
		History:        history,
		Mood:           mood,
	}
}

// applyEvent updates the session from an engine's event.
func (m *Manager) applyEvent(e nadine.Event) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch e.Kind {
	case nadine.EventLanguage:
		if e.Language.Valid() {
			m.lang = e.Language
		}
	case nadine.EventUser:
		if e.User != nil && e.User.ID != "" {
			m.user = *e.User
		}
	case nadine.EventAffect:
		if e.Affect != nil {
			m.mood = *e.Affect
		}
	}
}

// finish fills what the engine left out and speaks a reply that was not
// streamed.
func (m *Manager) finish(r nadine.Reply, req nadine.Request, out *collector) nadine.Reply {
	s := m.Session()
	if !r.Language.Valid() {
		r.Language = out.language()
	}
	if !r.Emotion.Valid() {
		var intensity float64
		r.Emotion, intensity = out.emotion()
		if r.EmotionIntensity == 0 {
			r.EmotionIntensity = int(math.Round(intensity * 10))
		}
	}
	r.EmotionIntensity = max(0, min(10, r.EmotionIntensity))
	if r.Category != "" && !r.Category.Valid() {
		r.Category = nadine.CategoryOther
	}
	if r.UserID == "" {
		r.UserID, r.UserName = s.User.ID, s.User.Name
	}
	if !out.spokeThisAttempt() {
		for _, sent := range nadine.SplitSentences(r.Text) {
			out.forward(nadine.Event{Kind: nadine.EventSpeech, Text: sent, Language: r.Language})
		}
	}
	if said, translated := out.said(); translated {
		// Some sentences were translated before they were spoken: the reply
		// is what Nadine said.
		r.Text, r.Language = strings.Join(said, " "), out.language()
	}
	r.Gestures = mergeGestures(r.Gestures, out.gestures())
	if !out.affectThisAttempt() {
		// Engines without an affect model (react, offline) still move
		// Nadine's mood: her reply's emotion is appraised on the PAD state.
		a := m.appraise(req, r)
		out.forward(nadine.Event{Kind: nadine.EventAffect, Affect: &a})
	}
	return r
}

// appraise moves Nadine's PAD state with the reply's emotion (as the
// graph's affective appraisal does), returns it as shown on the bus, then
// advances the turn (mood decays toward the personality baseline) and
// persists it after the reply.
func (m *Manager) appraise(req nadine.Request, r nadine.Reply) nadine.AffectState {
	now := m.opts.Now()
	ctx := context.Background()
	m.mu.Lock()
	if m.affect == nil {
		st := affect.New(affect.NadinePersonality(), now)
		if m.opts.Checkpoints != nil {
			if b, err := m.opts.Checkpoints.LoadCheckpoint(ctx, AffectKey); err == nil && json.Unmarshal(b, &st) != nil {
				st = affect.New(affect.NadinePersonality(), now)
			}
		}
		m.affect = &st
	}
	shown := affect.Appraise(*m.affect, r.Emotion, float64(r.EmotionIntensity)/10, now)
	next := affect.Update(shown, now)
	m.affect = &next
	m.mu.Unlock()
	if m.opts.Checkpoints != nil {
		req.RunAfterReply(ctx, func(ctx context.Context) {
			if b, err := json.Marshal(next); err == nil {
				if err := m.opts.Checkpoints.SaveCheckpoint(ctx, AffectKey, b); err != nil {
					m.log.Warn("mood not saved", "err", err)
				}
			}
		})
	}
	return affect.ToBus(shown)
}

// remember appends the exchange to the conversation window of the user the
// turn ended with. It runs after the reply was emitted.
func (m *Manager) remember(ctx context.Context, req nadine.Request, r nadine.Reply) {
	m.mu.Lock()
	user := m.user
	conv := m.convs[user.ID]
	if conv == "" {
		conv = m.opts.NewID()
		m.convs[user.ID] = conv
	}
	m.mu.Unlock()
	h := m.opts.History
	if user.ID != req.Turn.UserID && req.Turn.UserID == nadine.UnknownUser {
		// The unknown person introduced themself: their conversation so far
		// becomes the named user's.
		for _, msg := range req.History {
			if err := h.Append(ctx, user.ID, user.Name, conv, msg); err != nil {
				m.log.Warn("history: move window", "user", user.ID, "err", err)
			}
		}
		if err := h.End(ctx, req.Turn.UserID, "", req.ConversationID); err != nil {
			m.log.Warn("history: end unknown window", "err", err)
		}
		m.mu.Lock()
		delete(m.convs, req.Turn.UserID)
		m.mu.Unlock()
	}
	now := m.opts.Now().Unix()
	msgs := []nadine.Message{
		{Role: nadine.RoleUser, Content: req.Turn.Text, Name: user.Name, Time: req.Turn.Time.Unix()},
		{Role: nadine.RoleAssistant, Content: r.Text, Name: "Nadine", Time: now},
	}
	for _, msg := range msgs {
		if err := h.Append(ctx, user.ID, user.Name, conv, msg); err != nil {
			m.log.Error("history: append", "user", user.ID, "err", err)
		}
	}
}

// Recover stores every window chunk that was due when the process stopped.
func (m *Manager) Recover(ctx context.Context) error {
	return m.opts.History.Recover(ctx)
}

func mergeGestures(a, b []nadine.Gesture) []nadine.Gesture {
	seen := map[nadine.Gesture]bool{}
	var out []nadine.Gesture
	for _, g := range append(append([]nadine.Gesture(nil), a...), b...) {
		if g != "" && !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	return out
}

// ensureLanguage returns the sentence in want, translating it when the
// detector is sure it is in another language.
func (m *Manager) ensureLanguage(ctx context.Context, text string, want nadine.Language) (string, bool) {
	if m.opts.Detector == nil || m.opts.Translator == nil {
		return text, false
	}
	out, translated, err := translate.Ensure(ctx, m.opts.Detector, m.opts.Translator, text, want)
	if err != nil {
		nadine.TraceFrom(ctx).Fail("translate", err)
		m.log.Warn("sentence spoken untranslated", "language", want, "err", err)
		return text, false
	}
	if translated {
		nadine.TraceFrom(ctx).Notef("sentence translated to %s before speaking: %q → %q", want.Name(), text, out)
	}
	return out, translated
}

// translateForMonitor keeps English renderings of the input and the reply
// in the trace when the reply is not in English. It runs after the reply
// was spoken, the two translations side by side.
func (m *Manager) translateForMonitor(ctx context.Context, input string, r nadine.Reply) {
	if m.opts.Translator == nil || r.Language == nadine.English || !r.Language.Valid() {
		return
	}
	var in, out string
	var errIn, errOut error
	var wg sync.WaitGroup
	wg.Go(func() { in, errIn = m.opts.Translator.Translate(ctx, input, "", nadine.English) })
	wg.Go(func() { out, errOut = m.opts.Translator.Translate(ctx, r.Text, r.Language, nadine.English) })
	wg.Wait()
	if err := errors.Join(errIn, errOut); err != nil {
		r.Trace.Fail("translate:monitor", err)
		return
	}
	r.Trace.SetTranslations(in, out)
}

// apology is the floor: the line said when every engine failed (seed 000's
// fixed sentence, in the user's language).
func apology(l nadine.Language) string {
	switch l {
	case nadine.French:
		return "Excusez-moi, je ne peux pas répondre à cette question pour le moment."
	case nadine.German:
		return "Entschuldigung, ich kann diese Frage gerade nicht beantworten."
	case nadine.Chinese:
		return "抱歉，我现在无法回答这个问题。"
	}
	return "Sorry, I am unable to answer this question right now."
}

// collector forwards a turn's events to the caller, applies them to the
// session and gathers what the reply needs. Engines may emit from several
// goroutines.
type collector struct {
	mu      sync.Mutex
	ctx     context.Context
	trace   *nadine.Trace
	emit    nadine.EmitFunc
	apply   func(nadine.Event)
	check   func(context.Context, string, nadine.Language) (string, bool)
	lang    nadine.Language
	spoken  []string // sentences of the current attempt, as said
	transl  bool     // one of them was translated
	gest    []nadine.Gesture
	speech  int                 // speech events of all attempts
	current int                 // speech events of the current attempt
	affect  bool                // the current attempt announced an emotion with a mood
	felt    *nadine.AffectState // the last emotion the current attempt announced
	gen     int                 // the current attempt; events of earlier ones are dropped

	speakMu sync.Mutex // orders reply sentences and the silence filler (see sayIfSilent)
	ended   bool       // the turn is over: no filler any more (under speakMu)
}

func newCollector(ctx context.Context, t *nadine.Trace, lang nadine.Language, emit nadine.EmitFunc, apply func(nadine.Event),
	check func(context.Context, string, nadine.Language) (string, bool)) *collector {
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
	c.current, c.affect, c.felt, c.spoken, c.transl = 0, false, nil, nil, false
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

func (c *collector) forward(e nadine.Event) {
	if e.Kind == nadine.EventSpeech && !e.Filler {
		c.speakMu.Lock()
		defer c.speakMu.Unlock()
	}
	if e.Kind == nadine.EventSpeech && e.Filler {
		c.filler(e)
		return
	}
	translated := false
	if e.Kind == nadine.EventSpeech && strings.TrimSpace(e.Text) != "" {
		// The session language: where this turn switched it, the new one.
		e.Text, translated = c.check(c.ctx, e.Text, c.language())
		e.Language = c.language()
	}
	c.mu.Lock()
	switch e.Kind {
	case nadine.EventSpeech:
		if strings.TrimSpace(e.Text) == "" {
			c.mu.Unlock()
			return
		}
		c.spoken = append(c.spoken, e.Text)
		c.transl = c.transl || translated
		c.speech++
		c.current++
		c.trace.MarkSpeech(time.Now())
	case nadine.EventGesture:
		c.gest = append(c.gest, e.Gesture)
	case nadine.EventAffect:
		// Only an engine with its own mood model (the graph's affect
		// agents) spares the manager's appraisal; an emotion alone (the
		// ReAct answer's) still moves and persists the mood.
		c.affect = c.affect || (e.Affect != nil && e.Affect.MoodLabel != "")
		if e.Affect != nil && e.Affect.Label.Valid() {
			a := *e.Affect
			c.felt = &a
		}
	case nadine.EventLanguage:
		if e.Language.Valid() {
			c.lang = e.Language
		}
	}
	c.mu.Unlock()
	c.apply(e)
	c.emit(e)
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
	c.emit(e)
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

// said returns the sentences spoken in the current attempt and whether one
// of them was translated.
func (c *collector) said() ([]string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.spoken...), c.transl
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
