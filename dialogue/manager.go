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
	"github.com/nadine-robot/nadine/speakable"
	"github.com/nadine-robot/nadine/spoken"
)

// ManagerOptions configures a Manager. Zero values are sane defaults except
// Engines and History, which are required.
type ManagerOptions struct {
	// Engines answer turns, tried in order until one succeeds: typically the
	// configured engine and the offline engine last.
	Engines []nadine.Engine
	// History keeps conversation windows and stores them as memories.
	History *History
	// Profiles, when set, supplies the names of users known only by id.
	Profiles nadine.ProfileStore
	// Checkpoints, when set, persists the session so that Nadine's mood, the
	// language and an interaction in progress survive a restart.
	Checkpoints nadine.CheckpointStore
	// Detector and Translator tag or translate each sentence so text-to-speech
	// never reads it with the wrong voice; Detector also tells a transcript's.
	Detector   nadine.LanguageDetector
	Translator nadine.Translator
	// MaxInputChars caps the transcript (default DefaultMaxInputChars).
	MaxInputChars int
	// TurnTimeout bounds all engines but the last (offline), which then
	// answers; an engine that overstays is abandoned (DefaultTurnTimeout).
	TurnTimeout time.Duration
	// FirstSpeech is how long a turn may stay silent before a filler line is
	// said (DefaultFirstSpeech).
	FirstSpeech time.Duration
	// Filler words the filler line ("Hmm, let me see.") said at most once a
	// turn, when silence lasts or a tool asks; nil says none.
	Filler FillerLine
	// Speech bounds what one turn says, cut at a sentence boundary (zero:
	// DefaultMaxSentences and DefaultMaxWords; negative: no bound).
	Speech SpeechBudget
	// Language is the session language at start and after each end of
	// interaction (default English).
	Language nadine.Language
	// KeepLanguage keeps the session language at the end of an
	// interaction instead of going back to Language.
	KeepLanguage bool
	// Follow says what happens when the visitor speaks another language
	// than the session's (default FollowInput).
	Follow LanguageFollow
	// Robot names the robot whose session this manager owns (default
	// "nadine"); it keys the persisted session.
	Robot string
	// IdleTimeout, when positive, ends at start an interaction saved
	// longer ago than this (the process was down meanwhile).
	IdleTimeout time.Duration
	// EarlyWait is how long an early turn (Preempt) waits for its final
	// transcript before it is cancelled (DefaultEarlyWait).
	EarlyWait time.Duration
	// Forget erases a person after a confirmed spoken "forget me", by the
	// CLI's and API's erase path; nil: Nadine says the staff can.
	Forget func(ctx context.Context, userID string) error
	Now    func() time.Time
	NewID  func() string
	Logger *slog.Logger
}

// Manager turns transcripts into replies, one turn at a time. It owns the
// robot's one session: engines read it from requests and change it by events.
type Manager struct {
	opts  ManagerOptions
	log   *slog.Logger
	guard languageGuard // each turn's Output checks its sentences with it (checkSentence)

	turnMu sync.Mutex // one turn at a time, in arrival order

	mu           sync.Mutex // guards the fields below
	sess         nadine.Session
	mood         nadine.AffectState // the mood as last shown on the bus
	personStored bool               // the person's part of the session is in the store
	forgot       string             // a person erased while in front of the robot
	erased       []string           // people erased while the process runs, the last maxErased
	erasing      string             // the person this manager's turn is erasing (forgetPerson)
	restored     bool               // the persisted session was loaded (under turnMu)
	early        *EarlyTurn         // the early turn holding turnMu, if any
	current      *interruptible     // the turn an interruption cancels
	amend        *amendment         // what the history is to hold of a reply cut short
	lastReply    committed          // the last reply put in the history
	waiters      int                // callers of lockTurn waiting for turnMu
	closed       bool               // Close was called: no turn starts any more (set under turnMu too)
	running      int                // goroutines started by goOwned still running
	idle         chan struct{}      // closed when running drops to 0, once Close waits for it
}

// NewManager returns a manager, or an EINVALID error when no engine or no
// history is given.
func NewManager(opts ManagerOptions) (*Manager, error) {
	if len(opts.Engines) == 0 {
		return nil, nadine.Errorf(nadine.EINVALID, "dialogue: no engine configured")
	}
	if opts.History == nil {
		return nil, nadine.Errorf(nadine.EINVALID, "dialogue: no history configured")
	}
	// The sentence gate's classifier is trained here, once per process,
	// rather than while the first reply waits for it.
	if err := speakable.WarmUp(); err != nil {
		return nil, fmt.Errorf("dialogue: %w", err)
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
	opts.Speech = opts.Speech.withDefaults()
	opts.Language = opts.Language.Or(nadine.DefaultLanguage)
	if opts.Follow == "" {
		opts.Follow = FollowInput
	}
	if !opts.Follow.Valid() {
		return nil, nadine.Errorf(nadine.EINVALID, "dialogue: language follow %q: want input or session", opts.Follow)
	}
	if opts.Robot == "" {
		opts.Robot = "nadine"
	}
	if opts.EarlyWait <= 0 {
		opts.EarlyWait = DefaultEarlyWait
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
	m := &Manager{
		opts:  opts,
		log:   opts.Logger,
		guard: languageGuard{detector: opts.Detector, translator: opts.Translator, log: opts.Logger},
		mood:  nadine.AffectState{Label: nadine.Neutral},
	}
	m.sess = stranger(nadine.Session{Language: opts.Language})
	return m, nil
}

func randomID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// ProcessInput answers one turn and returns the collected reply.
func (m *Manager) ProcessInput(ctx context.Context, turn nadine.Turn) (nadine.Reply, error) {
	return m.Stream(ctx, turn, nil)
}

// Stream answers one turn, emitting each event as it exists. Only bad input
// errs (failing engines give a fallback); cancelled before speaking: ErrAbandoned.
func (m *Manager) Stream(ctx context.Context, turn nadine.Turn, emit nadine.EmitFunc) (nadine.Reply, error) {
	start := m.opts.Now()
	text, truncated, err := Normalize(turn.Text, m.opts.MaxInputChars)
	if err != nil {
		return nadine.Reply{}, err
	}
	m.lockTurn()
	defer m.turnMu.Unlock()
	if m.isClosed() {
		return nadine.Reply{}, errClosed
	}
	t := m.prepare(ctx, turn, text, truncated, start, emit, false)
	t.change()
	reply := t.answer()
	if ctx.Err() != nil && !t.out.spoke() {
		m.turnDone(t.trace.TurnID())
		t.out.End()
		t.out.Drop() // nothing more is said
		t.out.Close()
		t.trace.Notef("abandoned: the turn was cancelled before it said anything")
		return nadine.Reply{}, ErrAbandoned
	}
	return t.complete(reply), nil
}

// ErrAbandoned is Stream's error for a turn cancelled before it said
// anything of its reply: nothing of it was committed.
var ErrAbandoned error = nadine.Errorf(nadine.EUNAVAILABLE, "dialogue: the turn was cancelled before it said anything")

// errClosed refuses a turn once the manager is closed.
var errClosed = nadine.Errorf(nadine.EUNAVAILABLE, "dialogue: the manager is closed")

// goOwned runs f on a goroutine Close waits for, unless closed. The caller
// holds turnMu (Close sets closed under it): none starts while Close waits.
func (m *Manager) goOwned(f func()) bool {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return false
	}
	m.running++
	m.mu.Unlock()
	go func() {
		defer func() {
			m.mu.Lock()
			m.running--
			if m.running == 0 && m.idle != nil {
				close(m.idle)
				m.idle = nil
			}
			m.mu.Unlock()
		}()
		f()
	}()
	return true
}

func (m *Manager) isClosed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

// Close waits for the turn in flight, refuses later turns, then waits until
// ctx ends for engines abandoned past a turn's budget.
func (m *Manager) Close(ctx context.Context) error {
	m.lockTurn()
	m.mu.Lock()
	m.closed = true
	var idle chan struct{}
	if m.running > 0 {
		if m.idle == nil {
			m.idle = make(chan struct{})
		}
		idle = m.idle
	}
	m.mu.Unlock()
	m.turnMu.Unlock()
	if idle == nil {
		return nil
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		m.mu.Lock()
		n := m.running
		m.mu.Unlock()
		return nadine.Errorf(nadine.EUNAVAILABLE, "dialogue: close: %d abandoned engine calls still running: %w", n, ctx.Err())
	}
}

// request settles the turn's person and language; the session change comes
// back, applied at once or only when an early turn is adopted.
func (m *Manager) request(ctx context.Context, turn nadine.Turn, text string, now time.Time, out *Output) (nadine.Request, func()) {
	tr := nadine.TraceFrom(ctx)
	if turn.UserID != "" {
		if end, err := m.setUserLocked(ctx, nadine.UserRef{ID: turn.UserID, Name: turn.UserName}); err != nil {
			tr.Fail("session", err)
		} else if end.Ended() {
			tr.Notef("another person: the interaction of %s ended", end.User.ID)
		}
	}
	if turn.UserEmotion != "" {
		m.SetUserEmotion(turn.UserEmotion)
	}
	lang, source := m.turnLanguage(turn, text)
	m.mu.Lock()
	s := m.sess
	mood := m.mood
	m.mu.Unlock()
	if s.ConversationID == "" {
		s.ConversationID = m.opts.NewID()
	}
	if s.Started.IsZero() {
		s.Started = now
	}
	s.Active = now
	switched := lang != s.Language && m.opts.Follow == FollowInput
	if switched {
		tr.Notef("the visitor speaks %s (%s): the session follows", lang.Name(), source)
		s.Language = lang
	} else if lang != s.Language {
		tr.Notef("the visitor speaks %s (%s): the reply is kept in %s", lang.Name(), source, s.Language.Name())
	}
	change := func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.sess.ConversationID == "" {
			m.sess.ConversationID = s.ConversationID
		}
		if m.sess.Started.IsZero() {
			m.sess.Started = s.Started
		}
		m.sess.Active = s.Active
		if switched {
			m.sess.Language = lang
		}
	}
	if switched {
		out.Emit(nadine.Event{Kind: nadine.EventLanguage, Language: lang})
	}

	user := s.User
	if user.Name == "" && knownUser(user.ID) && m.opts.Profiles != nil {
		if p, err := m.opts.Profiles.Profile(ctx, user.ID); err == nil {
			user.Name = p.UserName
		}
	}
	history, err := m.opts.History.Window(ctx, user.ID, s.ConversationID)
	if err != nil {
		tr.Fail("history", err)
		m.log.Warn("history window unavailable", "user", nadine.PersonID(user.ID), "err", err)
	}
	if turn.Time.IsZero() {
		turn.Time = now
	}
	return nadine.Request{
		Turn: nadine.Turn{ID: turn.ID, Text: text, Language: s.Language, UserID: user.ID, UserName: user.Name,
			UserEmotion: s.UserEmotion, Time: turn.Time},
		ConversationID: s.ConversationID,
		History:        history,
		Mood:           mood,
		Session:        s,
	}, change
}

// setUserLocked is SetUser for a caller that holds turnMu.
func (m *Manager) setUserLocked(ctx context.Context, u nadine.UserRef) (Ending, error) {
	m.mu.Lock()
	cur := m.sess.User
	m.mu.Unlock()
	switch {
	case u.ID == cur.ID:
		if u.Name != "" {
			m.mu.Lock()
			m.sess.User.Name = u.Name
			m.mu.Unlock()
		}
		return Ending{}, nil
	case !knownUser(u.ID):
		return Ending{}, nil
	}
	var (
		end Ending
		err error
	)
	if knownUser(cur.ID) {
		end, err = m.endLocked(ctx, "another person")
	}
	if aerr := m.adopt(ctx, u); aerr != nil {
		m.log.Warn("dialogue: stranger's conversation not kept", "user", nadine.PersonID(u.ID), "err", aerr)
	}
	m.nameNewPerson(ctx, u)
	return end, err
}

// nameNewPerson records an unnamed id's arrival name (user_detected brings
// it before face_stored does), so lists and later turns know them by it.
func (m *Manager) nameNewPerson(ctx context.Context, u nadine.UserRef) {
	name := strings.TrimSpace(u.Name)
	if m.opts.Profiles == nil || name == "" || strings.EqualFold(name, nadine.UnknownUser) {
		return
	}
	p, err := m.opts.Profiles.Profile(ctx, u.ID)
	switch {
	case err == nil && p.UserName != "":
		return
	case err != nil && nadine.ErrorCode(err) != nadine.ENOTFOUND:
		m.log.Warn("dialogue: the name of the person in front of the robot not checked", "err", err)
		return
	}
	users, err := m.opts.Profiles.Users(ctx)
	if err != nil {
		m.log.Warn("dialogue: the name of the person in front of the robot not checked", "err", err)
		return
	}
	for _, x := range users {
		if x.ID == u.ID && x.Name != "" {
			return
		}
	}
	if err := m.opts.Profiles.SetUserName(ctx, u.ID, name); err != nil {
		m.log.Warn("dialogue: the name of a new person not recorded", "err", err)
	}
}

// turnLanguage returns the language of the turn and where it comes from.
func (m *Manager) turnLanguage(turn nadine.Turn, text string) (nadine.Language, string) {
	if turn.Language.Valid() {
		return turn.Language, "transcript"
	}
	if m.opts.Detector != nil {
		if l, _, ok := m.opts.Detector.Detect(text); ok && l.Valid() {
			return l, "detected"
		}
	}
	return m.Language(), "session"
}

// applyEvent updates the session from an engine's event. While the person
// was erased during the turn, only Nadine's own state is taken.
func (m *Manager) applyEvent(e nadine.Event) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.forgot != "" && (e.Kind == nadine.EventUser || e.Kind == nadine.EventSession) {
		if e.Session != nil && len(e.Session.Affect) > 0 {
			m.sess.Affect = e.Session.Affect
		}
		return
	}
	switch e.Kind {
	case nadine.EventLanguage:
		if e.Language.Valid() {
			m.sess.Language = e.Language
		}
	case nadine.EventUser:
		if e.User != nil && e.User.ID != "" {
			m.sess.User = *e.User
		}
	case nadine.EventAffect:
		if e.Affect != nil {
			m.mood = *e.Affect
		}
	case nadine.EventSession:
		if u := e.Session; u != nil {
			if len(u.Affect) > 0 {
				m.sess.Affect = u.Affect
			}
			if len(u.Engine) > 0 {
				if string(u.Engine) == "null" {
					m.sess.Engine = nil
				} else {
					m.sess.Engine = u.Engine
				}
			}
			if u.Greeted != "" {
				m.sess.Greeted = u.Greeted
			}
		}
	}
}

// finish makes the reply what was said: a sentence translated or cut by the
// speech budget is in the history as said.
func (m *Manager) finish(r nadine.Reply, out *Output) nadine.Reply {
	out.Wait() // the session has taken what the engine's events change
	s := m.Session()
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
	lang := r.Language
	if !lang.Valid() {
		lang = out.Language()
	}
	before := out.accepted()
	if !out.spokeThisAttempt() {
		for _, sent := range spoken.SplitSentences(r.Text) {
			out.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: sent, Language: lang})
		}
	}
	out.Wait()
	if !out.spokeThisAttempt() && out.accepted() == before && strings.TrimSpace(r.Text) != "" {
		// The speech gate let nothing of the reply through (the last
		// engine's: a model's is asked again or falls back first, and the
		// offline engine's can carry a name or a fact with an address in
		// it): the floor is said, so she is never silent and the history
		// never holds what she did not say.
		out.trace.Notef("nothing of the reply could be said: the apology is said instead")
		r.Text = apology(lang)
		out.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: r.Text, Language: lang})
		out.Wait()
	}
	said, changed, lang := out.said()
	if changed {
		// Some sentences were changed before they were spoken (cleaned,
		// translated) or left unsaid by the speech budget: the reply is
		// what Nadine said.
		r.Text = strings.Join(said, " ")
	}
	// The reply's language is the language its sentences were spoken in.
	r.Language = lang.Or(out.Language())
	r.Gestures = mergeGestures(r.Gestures, out.gestures())
	if !out.affectThisAttempt() {
		// Engines without an affect model (react, offline) still move
		// Nadine's mood: her reply's emotion is appraised on the PAD state.
		a := m.appraise(r)
		out.Emit(nadine.Event{Kind: nadine.EventAffect, Affect: &a})
	}
	return r
}

// appraise moves Nadine's PAD state with the reply's emotion, as the graph's
// appraisal does, then lets the mood decay one turn toward the baseline.
func (m *Manager) appraise(r nadine.Reply) nadine.AffectState {
	now := m.opts.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	st, ok := decodeAffect(m.sess.Affect)
	if !ok {
		st = affect.New(affect.NadinePersonality(), now)
	}
	shown := affect.Appraise(st, r.Emotion, float64(r.EmotionIntensity)/10, now)
	next := affect.Update(shown, now)
	if b, err := json.Marshal(next); err == nil {
		m.sess.Affect = b
	}
	bus := affect.ToBus(shown)
	m.mood = bus
	return bus
}

// commit records the turn for the person it ended with, before the done
// event; keep is false when that person was erased during the turn.
func (m *Manager) commit(ctx context.Context, req nadine.Request, r nadine.Reply) (nadine.UserRef, string, bool) {
	m.mu.Lock()
	forgot := m.forgot // cleared when the next turn starts
	if forgot != "" && (forgot == req.Turn.UserID || forgot == m.sess.User.ID) {
		if m.sess.User.ID == forgot {
			m.sess = stranger(m.sess)
		}
		m.personStored = false
		m.mu.Unlock()
		nadine.TraceFrom(ctx).Notef("%s was erased during the turn: nothing of it is stored", forgot)
		return nadine.UserRef{}, "", false
	}
	user, conv := m.sess.User, m.sess.ConversationID
	m.sess.Turns++
	m.sess.Active = m.opts.Now()
	m.mu.Unlock()
	h := m.opts.History
	if prev := req.Turn.UserID; user.ID != prev && knownUser(user.ID) {
		if knownUser(prev) {
			// A known person turned out to be someone else: their
			// conversation ends, the new person's starts.
			if err := h.End(ctx, prev, req.Turn.UserName, conv); err != nil {
				m.log.Warn("history: end superseded conversation", "user", nadine.PersonID(prev), "err", err)
			}
			conv = m.opts.NewID()
			m.mu.Lock()
			m.sess.ConversationID = conv
			m.mu.Unlock()
		} else if err := h.Adopt(ctx, conv, user.ID, user.Name); err != nil {
			m.log.Warn("history: the stranger's conversation not moved", "user", nadine.PersonID(user.ID), "err", err)
		}
		m.mu.Lock()
		m.personStored = false
		m.mu.Unlock()
	}
	// A reply the person cut short is kept as far as it was said (Amend).
	turnID := nadine.TraceFrom(ctx).TurnID()
	said := m.amendedText(turnID, r.Text)
	msgs := []nadine.Message{
		{Role: nadine.RoleUser, Content: req.Turn.Text, Name: user.Name, Time: req.Turn.Time.Unix()},
		{Role: nadine.RoleAssistant, Content: said, Name: HistoryAssistantName, Time: m.opts.Now().Unix()},
	}
	if err := h.Record(ctx, user.ID, user.Name, conv, msgs...); err != nil {
		m.log.Error("history: append", "user", nadine.PersonID(user.ID), "err", err)
	}
	m.mu.Lock()
	m.lastReply = committed{turnID: turnID, userID: user.ID, convID: conv, text: said}
	m.mu.Unlock()
	return user, conv, true
}

// Recover restores the session and stores the window chunks a stop left
// due; without it, the first turn restores the session.
func (m *Manager) Recover(ctx context.Context) error {
	m.lockTurn()
	m.restored = true
	err := m.restore(ctx)
	m.turnMu.Unlock()
	return errors.Join(err, m.opts.History.Recover(ctx))
}

// ensureRestored restores the persisted session once; the caller holds
// turnMu.
func (m *Manager) ensureRestored(ctx context.Context) {
	if m.restored {
		return
	}
	m.restored = true
	if err := m.restore(ctx); err != nil {
		m.log.Warn("dialogue: session not restored", "err", err)
	}
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

// translateForMonitor puts English renderings in the trace for the monitor,
// after the reply was spoken so that it never waits on them.
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

// apology is the floor: the line said when every engine failed (the dialogue manager's
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
