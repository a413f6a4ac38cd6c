package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
)

// PersonStateKey returns the checkpoint key of a person's conversation
// state, "<userID>/graph/state", which the store's ForgetUser erases; "" for
// the unknown user, whose conversation state is kept in memory only.
func PersonStateKey(userID string) string {
	if !realID(userID) {
		return ""
	}
	return userID + "/graph/state"
}

// PendingKey returns the checkpoint key of a run interrupted by a name
// question asked to userID: "<userID>/graph/pending" for a real user id
// (ForgetUser erases it), CheckpointKey for the unknown user.
func PendingKey(userID string) string {
	if !realID(userID) {
		return CheckpointKey
	}
	return userID + "/graph/pending"
}

// requestUser returns the user id of a request (the unknown user when
// perception recognized nobody).
func requestUser(req nadine.Request) string {
	if req.Turn.UserID == "" {
		return nadine.UnknownUser
	}
	return req.Turn.UserID
}

// robotState is what the engine persists under StateKey: Nadine's own
// state, nothing about a person.
type robotState struct {
	Affect   affect.State    `json:"affect"`
	Language nadine.Language `json:"language"`
}

// personState is what the engine persists under PersonStateKey: the
// conversation state of one person. A State field in neither robotState
// nor personState lives in memory only.
type personState struct {
	UserInfo          UserInfo         `json:"user_info"`
	Messages          []nadine.Message `json:"messages"`
	ConversationID    string           `json:"conversation_id,omitempty"`
	Turn              int              `json:"turn"`
	Time              time.Time        `json:"time"`
	UserEmotion       string           `json:"user_emotion,omitempty"`
	ContextSummary    string           `json:"context_summary,omitempty"`
	ContextKey        string           `json:"context_key,omitempty"`
	FirstGreetingDone bool             `json:"first_greeting_done"`
	GreetedUserID     string           `json:"greeted_user_id"`
	NameConfirmation  NameConfirmation `json:"name_confirmation"`
	NameChecked       bool             `json:"name_checked"`
}

// personOf returns the person-level part of s.
func personOf(s State) personState {
	return personState{
		UserInfo: s.UserInfo, Messages: s.Messages, ConversationID: s.ConversationID, Turn: s.Turn, Time: s.Time,
		UserEmotion: s.UserEmotion, ContextSummary: s.ContextSummary, ContextKey: s.ContextKey,
		FirstGreetingDone: s.FirstGreetingDone, GreetedUserID: s.GreetedUserID,
		NameConfirmation: s.NameConfirmation, NameChecked: s.NameChecked,
	}
}

// into returns s with its person-level part replaced by p.
func (p personState) into(s State) State {
	s.UserInfo, s.Messages, s.ConversationID, s.Turn, s.Time = p.UserInfo, p.Messages, p.ConversationID, p.Turn, p.Time
	s.UserEmotion, s.ContextSummary, s.ContextKey = p.UserEmotion, p.ContextSummary, p.ContextKey
	s.FirstGreetingDone, s.GreetedUserID = p.FirstGreetingDone, p.GreetedUserID
	s.NameConfirmation, s.NameChecked = p.NameConfirmation, p.NameChecked
	return s
}

// loadState returns the state req's turn starts from, and whether the
// person's conversation state was in the store.
//
// The robot-level part comes from memory, else from the store. For a real
// user id the person-level part is read from the store at every turn
// (memory is not trusted: the user may have been forgotten by another
// process) when memory holds that person's state or none; when memory
// holds another person's, beginTurn starts a new conversation state
// anyway. When memory holds the person's state but the store no longer
// does, the person was forgotten: the conversation state is reset and the
// user is taken as the request gives them; the affect survives.
func (e *Engine) loadState(ctx context.Context, req nadine.Request) (State, bool) {
	tr := nadine.TraceFrom(ctx)
	id := requestUser(req)
	var s State
	inMemory := e.state != nil
	if inMemory {
		s = *e.state
	} else {
		s = e.loadRobot(ctx)
	}
	if e.opts.Store == nil || !realID(id) || inMemory && s.UserInfo.ID != id {
		return s, false
	}
	data, err := e.opts.Store.LoadCheckpoint(ctx, PersonStateKey(id))
	switch {
	case err == nil:
		var p personState
		if err := json.Unmarshal(data, &p); err != nil {
			tr.Fail("state", fmt.Errorf("agents: decode the conversation state of %s: %w", id, err))
			return s, true
		}
		if p.UserInfo.ID != id {
			tr.Fail("state", nadine.Errorf(nadine.EINVALID, "agents: the conversation state of %s belongs to %q", id, p.UserInfo.ID))
			return s, true
		}
		return p.into(s), true
	case nadine.ErrorCode(err) == nadine.ENOTFOUND:
		if inMemory {
			if e.stored {
				tr.Notef("the stored conversation state of %s is gone (the user was forgotten): new conversation state", id)
			}
			s = s.resetConversation()
			s.UserInfo = e.userInfo(ctx, id, req.Turn.UserName)
			e.dropSummary()
		}
		return s, false
	default:
		tr.Fail("state", fmt.Errorf("agents: load the conversation state of %s: %w", id, err))
		return s, false
	}
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

// loadRobot returns the robot-level state in the store (a zero State
// without one). A state saved by an earlier version, which held the
// person's data too, is rewritten without it.
func (e *Engine) loadRobot(ctx context.Context) State {
	var s State
	if e.opts.Store == nil {
		return s
	}
	tr := nadine.TraceFrom(ctx)
	data, err := e.opts.Store.LoadCheckpoint(ctx, StateKey)
	switch {
	case nadine.ErrorCode(err) == nadine.ENOTFOUND:
		return s
	case err != nil:
		tr.Fail("state", err)
		return s
	}
	var (
		r      robotState
		fields map[string]json.RawMessage
	)
	if err := json.Unmarshal(data, &r); err != nil {
		tr.Fail("state", fmt.Errorf("agents: decode state: %w", err))
		return s
	}
	s.Affect, s.Language = r.Affect, r.Language
	if json.Unmarshal(data, &fields) == nil {
		for k := range fields {
			if k != "affect" && k != "language" {
				tr.Notef("the robot state held a person's data (older version): rewritten without it")
				e.saveRobot(ctx, s)
				break
			}
		}
	}
	return s
}

// saveRobot persists the robot-level part of s under StateKey.
func (e *Engine) saveRobot(ctx context.Context, s State) {
	e.save(ctx, StateKey, robotState{Affect: s.Affect, Language: s.Language})
}

// savePerson persists the person-level part of s under their
// PersonStateKey, and reports whether it did.
func (e *Engine) savePerson(ctx context.Context, s State) bool {
	key := PersonStateKey(s.UserInfo.ID)
	return key != "" && e.save(ctx, key, personOf(s))
}

func (e *Engine) save(ctx context.Context, key string, v any) bool {
	data, err := json.Marshal(v)
	if err == nil {
		err = e.opts.Store.SaveCheckpoint(ctx, key, data)
	}
	if err != nil {
		nadine.TraceFrom(ctx).Fail("state", fmt.Errorf("agents: save %s: %w", key, err))
		e.log.Error("agents: save state", "key", key, "err", err)
		return false
	}
	return true
}

// personGone reports whether the store no longer holds id's conversation
// state.
func (e *Engine) personGone(ctx context.Context, id string) bool {
	_, err := e.opts.Store.LoadCheckpoint(ctx, PersonStateKey(id))
	return nadine.ErrorCode(err) == nadine.ENOTFOUND
}

// dropSummary forgets the context summary computed in the background.
func (e *Engine) dropSummary() {
	e.sumMu.Lock()
	e.summary = nil
	e.sumMu.Unlock()
}

// pendingRun returns the key of the run interrupted by a name question that
// req answers, if any, and discards the questions req cannot answer: asked
// in another conversation, to the unknown person now recognized, or to the
// previous person (prev) when someone else talks. It reports whether it
// abandoned one.
func (e *Engine) pendingRun(ctx context.Context, req nadine.Request, prev string) (key string, resume, abandoned bool) {
	tr := nadine.TraceFrom(ctx)
	id := requestUser(req)
	key = PendingKey(id)
	keys := []string{key}
	if realID(id) {
		keys = append(keys, CheckpointKey)
	}
	if realID(prev) && prev != id {
		keys = append(keys, PendingKey(prev))
	}
	for _, k := range keys {
		cp, ok, err := e.run.Pending(ctx, k)
		if err != nil {
			tr.Fail("checkpoint", err)
			e.log.Warn("agents: unusable checkpoint discarded", "key", k, "err", err)
			if err := e.run.Discard(ctx, k); err != nil {
				tr.Fail("checkpoint", err)
			}
			continue
		}
		if !ok {
			continue
		}
		if k == key && !stale(cp.State, req) {
			tr.Notef("resuming the run interrupted at %s (%s)", cp.Node, cp.Reason)
			resume = true
			continue
		}
		tr.Notef("name question abandoned: another person or conversation")
		if err := e.run.Discard(ctx, k); err != nil {
			tr.Fail("checkpoint", err)
		}
		abandoned = true
	}
	return key, resume, abandoned
}
