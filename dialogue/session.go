package dialogue

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
)

// LanguageFollow says what happens when a visitor speaks another language
// than the session's (configuration language.follow).
type LanguageFollow string

// The language policies.
const (
	// FollowInput answers in the visitor's language and switches the
	// session (and speech-to-text) to it. The default.
	FollowInput LanguageFollow = "input"
	// FollowSession keeps the session language and translates the reply
	// into it (the ReAct dialogue manager's ensure_language).
	FollowSession LanguageFollow = "session"
)

// Valid reports whether f is a known policy.
func (f LanguageFollow) Valid() bool { return f == FollowInput || f == FollowSession }

// SessionState is what the manager shows of the session: the monitor's and
// the API's view of it.
type SessionState struct {
	User           nadine.UserRef     `json:"user"`
	UserEmotion    string             `json:"user_emotion"`
	Language       nadine.Language    `json:"language"`
	ConversationID string             `json:"conversation_id"`
	Mood           nadine.AffectState `json:"mood"`
	Turns          int                `json:"turns"`
	Started        time.Time          `json:"started,omitzero"`
	Active         time.Time          `json:"active,omitzero"`
}

// Ending says how one interaction ended.
type Ending struct {
	// User is who was in front of the robot (UnknownUser for a stranger).
	User nadine.UserRef `json:"user"`
	// Reason names what ended it: "left" (perception), "api", "chat",
	// "idle", "another person", "forgotten".
	Reason string `json:"reason"`
	// Turns is how many turns it had; Duration how long it lasted.
	Turns    int           `json:"turns"`
	Duration time.Duration `json:"duration"`
	// Language is the session language after the end; LanguageChanged: reset to the
	// default, so speech-to-text must be told.
	Language        nadine.Language `json:"language"`
	LanguageChanged bool            `json:"language_changed,omitempty"`
	// Stored says the conversation was stored as long-term memory (never
	// for a stranger).
	Stored bool `json:"stored,omitempty"`
}

// Ended reports whether there was an interaction to end.
func (e Ending) Ended() bool { return e.Reason != "" }

// robotPart is what the manager persists about the robot itself under
// RobotSessionKey: nothing a person said.
type robotPart struct {
	Language nadine.Language `json:"language"`
	Affect   json.RawMessage `json:"affect,omitempty"`
	// UserID says who was in front of the robot, so that a restart in the
	// middle of an interaction resumes it; their part is under their key.
	UserID string    `json:"user_id,omitempty"`
	Active time.Time `json:"active,omitzero"`
}

// personPart is the interaction-level session, kept under the person's key so
// it is erased with them, and never for a stranger.
type personPart struct {
	User           nadine.UserRef  `json:"user"`
	UserEmotion    string          `json:"user_emotion,omitempty"`
	ConversationID string          `json:"conversation_id,omitempty"`
	Greeted        string          `json:"greeted,omitempty"`
	Engine         json.RawMessage `json:"engine,omitempty"`
	ConfirmForget  bool            `json:"confirm_forget,omitempty"`
	Turns          int             `json:"turns"`
	Started        time.Time       `json:"started,omitzero"`
	Active         time.Time       `json:"active,omitzero"`
}

// RobotSessionKey is the checkpoint key of a robot's own session state
// (language, mood).
func RobotSessionKey(robot string) string { return "robot/" + robot + "/session" }

// PersonSessionKey starts with the user id so that erasing the person erases
// their session.
func PersonSessionKey(userID, robot string) string { return userID + "/session/" + robot }

// Keys of state stored before sessions existed: the mood is carried over,
// then they are deleted (docs/architecture.md#dialogue).
const (
	legacyAffectKey     = "robot/affect"
	legacyGraphStateKey = "robot/state"
	legacyGraphRunKey   = "robot/graph"
)

func knownUser(id string) bool { return id != "" && id != nadine.UnknownUser }

// stranger resets the interaction-level part so the next person starts fresh;
// the mood and the language stay.
func stranger(s nadine.Session) nadine.Session {
	return nadine.Session{
		User:        nadine.UserRef{ID: nadine.UnknownUser},
		UserEmotion: "neutral",
		Language:    s.Language,
		Affect:      s.Affect,
	}
}

// Session returns the current session state.
func (m *Manager) Session() SessionState {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sess
	return SessionState{User: s.User, UserEmotion: s.UserEmotion, Language: s.Language, ConversationID: s.ConversationID,
		Mood: m.mood, Turns: s.Turns, Started: s.Started, Active: s.Active}
}

// Language returns the session language.
func (m *Manager) Language() nadine.Language {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sess.Language
}

// SetLanguage sets the session language; it returns an EINVALID error for
// an unsupported language. The caller tells speech-to-text.
func (m *Manager) SetLanguage(l nadine.Language) error {
	if !l.Valid() {
		return nadine.Errorf(nadine.EINVALID, "dialogue: unsupported language %q", string(l))
	}
	m.mu.Lock()
	m.sess.Language = l
	m.mu.Unlock()
	return nil
}

// SetUserEmotion records the facial emotion perception detected; it is
// lowercased into the prompt.
func (m *Manager) SetUserEmotion(e string) {
	e = strings.ToLower(strings.TrimSpace(e))
	if e == "" {
		e = "neutral"
	}
	m.mu.Lock()
	m.sess.UserEmotion = e
	m.mu.Unlock()
}

// SetMood restores Nadine's mood as shown (for example from a checkpoint
// at start).
func (m *Manager) SetMood(a nadine.AffectState) {
	m.mu.Lock()
	m.mood = a
	m.mu.Unlock()
}

// SetUser says who is in front of the robot, after the turn in flight; a new
// visitor never inherits the last one's interaction (docs/architecture.md).
func (m *Manager) SetUser(ctx context.Context, u nadine.UserRef) (Ending, error) {
	if u.ID == "" || m.Erased(u.ID) {
		u = nadine.UserRef{ID: nadine.UnknownUser}
	}
	m.lockTurn()
	defer m.turnMu.Unlock()
	m.ensureRestored(ctx)
	end, err := m.setUserLocked(ctx, u)
	m.mu.Lock()
	present := m.sess.User.ID == u.ID && knownUser(u.ID)
	if present {
		if m.sess.Started.IsZero() {
			m.sess.Started = m.opts.Now()
		}
		m.sess.Active = m.opts.Now()
	}
	m.mu.Unlock()
	if present {
		m.save(ctx)
	}
	return end, err
}

// adopt makes u the session's person; a stranger's conversation so far (in
// memory only) becomes u's.
func (m *Manager) adopt(ctx context.Context, u nadine.UserRef) error {
	m.mu.Lock()
	prev, conv := m.sess.User, m.sess.ConversationID
	m.sess.User = u
	m.personStored = false
	m.mu.Unlock()
	if knownUser(prev.ID) || conv == "" || !knownUser(u.ID) {
		return nil
	}
	return m.opts.History.Adopt(ctx, conv, u.ID, u.Name)
}

// EndInteraction stores the conversation as the person's memory and resets
// the session to a stranger's, after the turn in flight.
func (m *Manager) EndInteraction(ctx context.Context, reason string) (Ending, error) {
	m.lockTurn()
	defer m.turnMu.Unlock()
	m.ensureRestored(ctx)
	return m.endLocked(ctx, reason)
}

// endLocked ends the interaction; the caller holds turnMu.
func (m *Manager) endLocked(ctx context.Context, reason string) (Ending, error) {
	if reason == "" {
		reason = "left"
	}
	m.settleAmendment(ctx) // the conversation is stored as it was said
	now := m.opts.Now()
	m.mu.Lock()
	s := m.sess
	reset := stranger(s)
	if !m.opts.KeepLanguage {
		reset.Language = m.opts.Language
	}
	changed := reset.Language != s.Language
	if !s.InInteraction() && !changed && s.UserEmotion == reset.UserEmotion {
		m.mu.Unlock()
		return Ending{}, nil
	}
	m.sess = reset
	m.personStored = false
	m.mu.Unlock()

	end := Ending{User: s.User, Reason: reason, Turns: s.Turns, Language: reset.Language, LanguageChanged: changed}
	if !s.Started.IsZero() {
		end.Duration = now.Sub(s.Started)
	}
	var err error
	if s.ConversationID != "" {
		if err = m.opts.History.End(ctx, s.User.ID, s.User.Name, s.ConversationID); err != nil {
			err = fmt.Errorf("dialogue: end interaction of %s: %w", s.User.ID, err)
		} else {
			end.Stored = knownUser(s.User.ID)
		}
	}
	if knownUser(s.User.ID) && m.opts.Checkpoints != nil {
		if derr := m.opts.Checkpoints.DeleteCheckpoint(ctx, PersonSessionKey(s.User.ID, m.opts.Robot)); derr != nil {
			m.log.Warn("dialogue: session of the person who left not deleted", "user", nadine.PersonID(s.User.ID), "err", derr)
		}
	}
	m.save(ctx)
	m.log.Info("interaction ended", "robot", m.opts.Robot, "user", nadine.PersonID(s.User.ID), "reason", reason, "turns", s.Turns,
		"duration", end.Duration.Round(time.Second), "stored", end.Stored, "language", reset.Language)
	return end, err
}

// Forgotten tells the manager a person was erased (here or elsewhere): if in
// front of the robot, nothing of the turn in flight is stored for them.
func (m *Manager) Forgotten(userID string) {
	if !knownUser(userID) {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sess.User.ID != userID {
		return
	}
	m.forgot = userID
	m.sess = stranger(m.sess)
	m.personStored = false
}

// checkForgotten resets the session to a stranger's when its person was erased
// by another process (`nadine memory forget` while `serve` runs).
func (m *Manager) checkForgotten(ctx context.Context) bool {
	m.mu.Lock()
	id, stored, forgot := m.sess.User.ID, m.personStored, m.forgot
	m.forgot = ""
	m.mu.Unlock()
	if forgot != "" {
		return true
	}
	if !knownUser(id) || !stored || m.opts.Checkpoints == nil {
		return false
	}
	_, err := m.opts.Checkpoints.LoadCheckpoint(ctx, PersonSessionKey(id, m.opts.Robot))
	if nadine.ErrorCode(err) != nadine.ENOTFOUND {
		return false
	}
	m.mu.Lock()
	if m.sess.User.ID == id {
		m.sess = stranger(m.sess)
		m.personStored = false
	}
	m.mu.Unlock()
	return true
}

// save persists the session: the robot's part always, the person's part
// for a known person only (a stranger leaves nothing on disk).
func (m *Manager) save(ctx context.Context) {
	if m.opts.Checkpoints == nil {
		return
	}
	m.mu.Lock()
	s := m.sess
	m.mu.Unlock()
	r := robotPart{Language: s.Language, Affect: s.Affect, Active: s.Active}
	if knownUser(s.User.ID) {
		r.UserID = s.User.ID
	}
	if err := m.saveJSON(ctx, RobotSessionKey(m.opts.Robot), r); err != nil {
		m.log.Warn("dialogue: session not saved", "err", err)
	}
	if !knownUser(s.User.ID) {
		return
	}
	p := personPart{User: s.User, UserEmotion: s.UserEmotion, ConversationID: s.ConversationID, Greeted: s.Greeted,
		Engine: s.Engine, ConfirmForget: s.ConfirmForget, Turns: s.Turns, Started: s.Started, Active: s.Active}
	if err := m.saveJSON(ctx, PersonSessionKey(s.User.ID, m.opts.Robot), p); err != nil {
		m.log.Warn("dialogue: session not saved", "user", nadine.PersonID(s.User.ID), "err", err)
		return
	}
	m.mu.Lock()
	if m.sess.User.ID == s.User.ID {
		m.personStored = true
	}
	m.mu.Unlock()
}

func (m *Manager) saveJSON(ctx context.Context, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", key, err)
	}
	return m.opts.Checkpoints.SaveCheckpoint(ctx, key, b)
}

// restore loads the persisted session at start (turnMu held): an interaction
// idle past IdleTimeout is ended; an erased person is not restored.
func (m *Manager) restore(ctx context.Context) error {
	if m.opts.Checkpoints == nil {
		return nil
	}
	var r robotPart
	b, err := m.opts.Checkpoints.LoadCheckpoint(ctx, RobotSessionKey(m.opts.Robot))
	switch {
	case err == nil:
		if err := json.Unmarshal(b, &r); err != nil {
			m.log.Warn("dialogue: saved session unreadable; starting fresh", "err", err)
			r = robotPart{}
		}
	case nadine.ErrorCode(err) == nadine.ENOTFOUND:
		r.Affect = m.legacyAffect(ctx)
	default:
		return fmt.Errorf("dialogue: load session: %w", err)
	}
	// What earlier versions kept under robot keys goes: the mood was
	// carried over, the rest concerned people.
	for _, key := range []string{legacyAffectKey, legacyGraphStateKey, legacyGraphRunKey} {
		if err := m.opts.Checkpoints.DeleteCheckpoint(ctx, key); err != nil {
			m.log.Warn("dialogue: state of an earlier version not deleted", "key", key, "err", err)
		}
	}
	m.mu.Lock()
	// The language goes back to the configured default between
	// interactions (unless kept), so a robot restarted idle speaks the
	// default as configured now, not as it was when the last one ended.
	if r.Language.Valid() && (m.opts.KeepLanguage || !r.Active.IsZero() || knownUser(r.UserID)) {
		m.sess.Language = r.Language
	}
	if len(r.Affect) > 0 {
		m.sess.Affect = r.Affect
		if st, ok := decodeAffect(r.Affect); ok {
			m.mood = affect.ToBus(st)
		}
	}
	m.mu.Unlock()
	if !knownUser(r.UserID) {
		return nil
	}
	b, err = m.opts.Checkpoints.LoadCheckpoint(ctx, PersonSessionKey(r.UserID, m.opts.Robot))
	if err != nil {
		if nadine.ErrorCode(err) != nadine.ENOTFOUND {
			return fmt.Errorf("dialogue: load session of %s: %w", r.UserID, err)
		}
		return nil
	}
	var p personPart
	if err := json.Unmarshal(b, &p); err != nil || p.User.ID != r.UserID {
		m.log.Warn("dialogue: saved session of the person unreadable; starting fresh", "user", nadine.PersonID(r.UserID))
		return nil
	}
	m.mu.Lock()
	m.sess.User, m.sess.UserEmotion, m.sess.ConversationID = p.User, p.UserEmotion, p.ConversationID
	m.sess.Greeted, m.sess.Engine, m.sess.Turns, m.sess.Started, m.sess.Active = p.Greeted, p.Engine, p.Turns, p.Started, p.Active
	m.sess.ConfirmForget = p.ConfirmForget
	if m.sess.UserEmotion == "" {
		m.sess.UserEmotion = "neutral"
	}
	m.personStored = true
	stale := m.opts.IdleTimeout > 0 && !p.Active.IsZero() && m.opts.Now().Sub(p.Active) > m.opts.IdleTimeout
	m.mu.Unlock()
	if stale {
		if _, err := m.endLocked(ctx, "idle"); err != nil {
			return err
		}
	}
	return nil
}

// legacyAffect reads Nadine's mood from the keys earlier versions used.
func (m *Manager) legacyAffect(ctx context.Context) json.RawMessage {
	if b, err := m.opts.Checkpoints.LoadCheckpoint(ctx, legacyAffectKey); err == nil {
		if _, ok := decodeAffect(b); ok {
			return b
		}
	}
	if b, err := m.opts.Checkpoints.LoadCheckpoint(ctx, legacyGraphStateKey); err == nil {
		var old struct {
			Affect json.RawMessage `json:"affect"`
		}
		if json.Unmarshal(b, &old) == nil {
			if _, ok := decodeAffect(old.Affect); ok {
				return old.Affect
			}
		}
	}
	return nil
}

// decodeAffect decodes a session's affect state.
func decodeAffect(b json.RawMessage) (affect.State, bool) {
	var st affect.State
	if len(b) == 0 || json.Unmarshal(b, &st) != nil || st.Updated.IsZero() {
		return affect.State{}, false
	}
	return st, true
}

// InInteraction reports whether someone is known to be in front of the
// robot or has spoken since the last end of interaction.
func (s SessionState) InInteraction() bool {
	return knownUser(s.User.ID) || s.Turns > 0 || s.ConversationID != ""
}
