package offline

import (
	"hash/fnv"
	"sync"
	"time"
)

// The replies Nadine said lately, per conversation, as hashes only: the
// history window holds 10 turns, the promise is no repeat within 30.
const (
	recentPerConversation = 40
	maxConversations      = 4096
	conversationTTL       = 2 * time.Hour
)

// recentReplies remembers reply hashes by conversation id. It is safe for
// concurrent use.
type recentReplies struct {
	now func() time.Time

	mu    sync.Mutex
	convs map[string]*conversationReplies
}

// conversationReplies is one conversation's latest replies, oldest first.
type conversationReplies struct {
	said []uint64
	seen time.Time
}

func newRecentReplies(now func() time.Time) *recentReplies {
	return &recentReplies{now: now, convs: make(map[string]*conversationReplies)}
}

// replyHash identifies a reply text.
func replyHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// said returns a conversation's reply hashes, newest first; an unknown one
// continues the one ending in lastReply (a stranger's window moved once named).
func (r *recentReplies) said(convID string, lastReply uint64, haveLast bool) []uint64 {
	if convID == "" {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.convs[convID]
	if !ok && haveLast {
		cutoff := r.now().Add(-conversationTTL)
		for _, o := range r.convs {
			if n := len(o.said); n > 0 && o.said[n-1] == lastReply && o.seen.After(cutoff) {
				c = &conversationReplies{said: append([]uint64(nil), o.said...), seen: o.seen}
				r.convs[convID] = c
				ok = true
				break
			}
		}
	}
	if !ok {
		return nil
	}
	out := make([]uint64, len(c.said))
	for i, h := range c.said {
		out[len(c.said)-1-i] = h
	}
	return out
}

// add records a reply of a conversation.
func (r *recentReplies) add(convID string, h uint64) {
	if convID == "" {
		return
	}
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.convs[convID]
	if !ok {
		if len(r.convs) >= maxConversations {
			r.evict(now)
		}
		c = &conversationReplies{}
		r.convs[convID] = c
	}
	c.said = append(c.said, h)
	if len(c.said) > recentPerConversation {
		c.said = append(c.said[:0], c.said[len(c.said)-recentPerConversation:]...)
	}
	c.seen = now
}

// evict drops the conversations idle for longer than conversationTTL, and
// when none is, the one idle the longest. The caller holds r.mu.
func (r *recentReplies) evict(now time.Time) {
	cutoff := now.Add(-conversationTTL)
	oldest, oldestID := now, ""
	for id, c := range r.convs {
		if c.seen.Before(cutoff) {
			delete(r.convs, id)
			continue
		}
		if oldestID == "" || c.seen.Before(oldest) {
			oldest, oldestID = c.seen, id
		}
	}
	if len(r.convs) >= maxConversations && oldestID != "" {
		delete(r.convs, oldestID)
	}
}
