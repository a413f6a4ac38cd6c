package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
	"github.com/nadine-robot/nadine/graph"
)

// pendingKey is the key of the run interrupted by a name question in the
// engine's per-turn checkpointer.
const pendingKey = "pending"

// requestUser returns the user id of a request (the unknown user when
// perception recognized nobody).
func requestUser(req nadine.Request) string {
	if req.Turn.UserID == "" {
		return nadine.UnknownUser
	}
	return req.Turn.UserID
}

// sessionState is what the engine keeps between turns, in the session the
// dialogue manager owns; the engine keeps no copy of its own.
type sessionState struct {
	UserInfo         UserInfo         `json:"user_info"`
	ConversationID   string           `json:"conversation_id,omitempty"`
	Turn             int              `json:"turn"`
	Time             time.Time        `json:"time"`
	ContextSummary   string           `json:"context_summary,omitempty"`
	ContextKey       string           `json:"context_key,omitempty"`
	NameConfirmation NameConfirmation `json:"name_confirmation"`
	NameChecked      bool             `json:"name_checked"`
	// Pending is the checkpoint of the run a name question interrupted.
	Pending json.RawMessage `json:"pending,omitempty"`
}

// sessionOf returns the session part of s (the profile is read again from
// the store at each turn: it is not kept in the session).
func sessionOf(s State) sessionState {
	u := s.UserInfo
	u.Profile = nil
	return sessionState{
		UserInfo: u, ConversationID: s.ConversationID, Turn: s.Turn, Time: s.Time,
		ContextSummary: s.ContextSummary, ContextKey: s.ContextKey,
		NameConfirmation: s.NameConfirmation, NameChecked: s.NameChecked,
	}
}

// into returns s with the session part p.
func (p sessionState) into(s State) State {
	s.UserInfo, s.ConversationID, s.Turn, s.Time = p.UserInfo, p.ConversationID, p.Turn, p.Time
	s.ContextSummary, s.ContextKey = p.ContextSummary, p.ContextKey
	s.NameConfirmation, s.NameChecked = p.NameConfirmation, p.NameChecked
	return s
}

// stateFrom returns the state req's turn starts from; a session part
// belonging to another person is not used.
func (e *Engine) stateFrom(ctx context.Context, req nadine.Request) (State, []byte) {
	tr := nadine.TraceFrom(ctx)
	var s State
	sess := req.Session
	if len(sess.Affect) > 0 {
		if err := json.Unmarshal(sess.Affect, &s.Affect); err != nil {
			tr.Fail("state", fmt.Errorf("agents: decode the affect state: %w", err))
			s.Affect = affect.State{}
		}
	}
	s.Language = req.Turn.Language
	if sess.Greeted != "" {
		s.FirstGreetingDone, s.GreetedUserID = true, sess.Greeted
		if sess.Greeted == nadine.UnknownUser {
			s.GreetedUserID = ""
		}
	}
	var pending []byte
	if len(sess.Engine) > 0 {
		var p sessionState
		switch err := json.Unmarshal(sess.Engine, &p); {
		case err != nil:
			tr.Fail("state", fmt.Errorf("agents: decode the session state: %w", err))
		case realID(p.UserInfo.ID) && p.UserInfo.ID != requestUser(req) && realID(requestUser(req)):
			tr.Notef("the session state belongs to %s, not %s: not used", p.UserInfo.ID, requestUser(req))
		default:
			s = p.into(s)
			pending = p.Pending
		}
	}
	if s.UserInfo.ID == "" {
		s.UserInfo = UserInfo{ID: requestUser(req), Name: req.Turn.UserName}
	}
	if s.UserInfo.Profile == nil && e.memoryOn() {
		s.UserInfo = e.userInfo(ctx, s.UserInfo.ID, s.UserInfo.Name)
	}
	return s, pending
}

// userInfo returns the user id, named name or else as in their stored
// profile (with the profile when the memory agents run).
func (e *Engine) userInfo(ctx context.Context, id, name string) UserInfo {
	u := UserInfo{ID: id, Name: name}
	if !realID(id) || e.opts.Store == nil {
		return u
	}
	p, err := e.opts.Store.Profile(ctx, id)
	if err != nil {
		return u
	}
	if u.Name == "" {
		u.Name = p.UserName
	}
	if e.memoryOn() {
		u.Profile = &p
	}
	return u
}

// sessionUpdate returns the turn's state to the session: the engine part (with
// an interrupted run's checkpoint), Nadine's affect and the greeting.
func (e *Engine) sessionUpdate(ctx context.Context, s State, cps *graph.MemoryCheckpointer) nadine.Event {
	tr := nadine.TraceFrom(ctx)
	p := sessionOf(s)
	if data, err := cps.LoadCheckpoint(ctx, pendingKey); err == nil {
		p.Pending = data
	}
	u := &nadine.SessionUpdate{}
	if b, err := json.Marshal(p); err != nil {
		tr.Fail("state", fmt.Errorf("agents: encode the session state: %w", err))
	} else {
		u.Engine = b
	}
	if !s.Affect.Updated.IsZero() {
		if b, err := json.Marshal(s.Affect); err == nil {
			u.Affect = b
		}
	}
	if s.FirstGreetingDone {
		u.Greeted = s.GreetedUserID
		if u.Greeted == "" {
			u.Greeted = nadine.UnknownUser
		}
	}
	return nadine.Event{Kind: nadine.EventSession, Session: u}
}

// pendingRun discards a name question's run that req cannot resume (another
// conversation or person) and reports whether it resumes or abandoned one.
func (e *Engine) pendingRun(ctx context.Context, run *graph.Runnable[State], req nadine.Request) (resume, abandoned bool) {
	tr := nadine.TraceFrom(ctx)
	cp, ok, err := run.Pending(ctx, pendingKey)
	if err != nil {
		tr.Fail("checkpoint", err)
		e.log.Warn("agents: unusable checkpoint discarded", "err", err)
		_ = run.Discard(ctx, pendingKey)
		return false, true
	}
	if !ok {
		return false, false
	}
	if !stale(cp.State, req) {
		tr.Notef("resuming the run interrupted at %s (%s)", cp.Node, cp.Reason)
		return true, false
	}
	tr.Notef("name question abandoned: another person or conversation")
	_ = run.Discard(ctx, pendingKey)
	return false, true
}
