package dialogue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
)

// The ReAct dialogue manager's conversation window: 20 messages, a chunk every
// 14 so that consecutive chunks overlap by 6.
const (
	DefaultHistoryWindow = 20
	DefaultHistoryStride = 14
)

// HistoryAssistantName is the speaker name of Nadine's messages in a
// transcript.
const HistoryAssistantName = "Nadine"

// HistoryOptions configures a History. The zero value is the ReAct dialogue manager's window.
type HistoryOptions struct {
	// Window is how many recent messages the window holds and each stored
	// chunk covers; 0 means DefaultHistoryWindow.
	Window int
	// Stride is how many messages separate two chunks (0: DefaultHistoryStride),
	// capped at Window so that no message is left out of every chunk.
	Stride int
	// Now stamps messages that carry no time; nil means time.Now.
	Now func() time.Time
	// Logger receives warnings about chunks left pending; nil discards them.
	Logger *slog.Logger
}

// History turns per-user conversation windows into long-term memories, crash-
// safely (docs/architecture.md#dialogue). Safe for concurrent use.
type History struct {
	store  nadine.HistoryStore
	emb    nadine.Embedder
	window int
	stride int
	now    func() time.Time
	log    *slog.Logger
	locks  historyLocks

	memMu sync.Mutex
	mem   map[string][]nadine.Message // a stranger's conversation, by conversation id
}

// strangerCap bounds a stranger's messages kept in memory, to be adopted if
// they introduce themselves.
const strangerCap = 200

// NewHistory returns a History over store that embeds chunks with emb. A nil
// emb stores chunks as text only (listed, but never found by similarity).
func NewHistory(store nadine.HistoryStore, emb nadine.Embedder, opts HistoryOptions) *History {
	if opts.Window <= 0 {
		opts.Window = DefaultHistoryWindow
	}
	if opts.Stride <= 0 {
		opts.Stride = DefaultHistoryStride
	}
	opts.Stride = min(opts.Stride, opts.Window)
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &History{
		store:  store,
		emb:    emb,
		window: opts.Window,
		stride: opts.Stride,
		now:    opts.Now,
		log:    opts.Logger,
		locks:  historyLocks{m: map[string]*historyLock{}},
		mem:    map[string][]nadine.Message{},
	}
}

// historyUserID maps an empty user id to the unknown user.
func historyUserID(userID string) string {
	if userID == "" {
		return nadine.UnknownUser
	}
	return userID
}

// historyRemembers reports whether long-term memories are kept for a user.
func historyRemembers(userID string) bool {
	return userID != "" && userID != nadine.UnknownUser
}

// historyChunksDue returns how many chunks a conversation of count messages
// should have stored: one at window messages, then one every stride.
func historyChunksDue(count, window, stride int) int {
	if count < window {
		return 0
	}
	return (count-window)/stride + 1
}

// historyCovered returns how many leading messages the first stored chunks
// cover.
func historyCovered(stored, window, stride int) int {
	if stored <= 0 {
		return 0
	}
	return (stored-1)*stride + window
}

// Append persists one message and stores the chunks due; a chunk that cannot
// be stored stays pending, so the error is about the message only.
func (h *History) Append(ctx context.Context, userID, userName, convID string, m nadine.Message) error {
	if err := h.Record(ctx, userID, userName, convID, m); err != nil {
		return err
	}
	h.StoreDue(ctx, userID, userName, convID)
	return nil
}

// Record persists messages without storing the chunks due, which StoreDue does
// off the reply's critical path. A stranger's are kept in memory only.
func (h *History) Record(ctx context.Context, userID, userName, convID string, msgs ...nadine.Message) error {
	if convID == "" {
		return nadine.Errorf(nadine.EINVALID, "dialogue: history: append: empty conversation id")
	}
	userID = historyUserID(userID)
	for _, m := range msgs {
		if m.Time <= 0 { // also the Unix time of a zero time.Time
			m.Time = h.now().Unix()
		}
		if m.Name == "" {
			switch m.Role {
			case nadine.RoleUser:
				m.Name = userName
			case nadine.RoleAssistant:
				m.Name = HistoryAssistantName
			}
		}
		if !historyRemembers(userID) {
			h.memMu.Lock()
			kept := append(h.mem[convID], m)
			if len(kept) > strangerCap {
				kept = append([]nadine.Message(nil), kept[len(kept)-strangerCap:]...)
			}
			h.mem[convID] = kept
			h.memMu.Unlock()
			continue
		}
		if _, err := h.store.AppendMessage(ctx, userID, convID, m); err != nil {
			return fmt.Errorf("dialogue: history: append to %s/%s: %w", userID, convID, err)
		}
	}
	return nil
}

// StoreDue stores the chunks due; one that fails stays pending for the next
// StoreDue, End or Recover.
func (h *History) StoreDue(ctx context.Context, userID, userName, convID string) {
	userID = historyUserID(userID)
	if convID == "" || !historyRemembers(userID) {
		return
	}
	c, err := h.store.Conversation(ctx, userID, convID)
	if err != nil || historyChunksDue(c.Count, h.window, h.stride) <= c.ChunksStored {
		return
	}
	unlock := h.locks.lock(userID, convID)
	defer unlock()
	if err := h.storeDue(ctx, userID, userName, convID); err != nil {
		h.log.Warn("dialogue: history: window chunk left pending", "user_id", nadine.PersonID(userID),
			"conversation_id", convID, "err", err)
	}
}

// Adopt stores a stranger's conversation (kept in memory) under userID and the
// same conversation id, and drops it from memory.
func (h *History) Adopt(ctx context.Context, convID, userID, userName string) error {
	if convID == "" || !historyRemembers(userID) {
		return nil
	}
	h.memMu.Lock()
	msgs := h.mem[convID]
	delete(h.mem, convID)
	h.memMu.Unlock()
	for i, m := range msgs {
		if m.Role == nadine.RoleUser && (m.Name == "" || m.Name == userName) {
			m.Name = userName
		}
		if _, err := h.store.AppendMessage(ctx, userID, convID, m); err != nil {
			return fmt.Errorf("dialogue: history: adopt %d messages into %s/%s: %w", len(msgs)-i, userID, convID, err)
		}
	}
	h.StoreDue(ctx, userID, userName, convID)
	return nil
}

// AmendLast replaces the last message when it is Nadine's reply reading was, so
// a reply cut short is remembered as far as it was said.
func (h *History) AmendLast(ctx context.Context, userID, convID, was, now string) error {
	if convID == "" {
		return nil
	}
	if !historyRemembers(userID) {
		h.memMu.Lock()
		defer h.memMu.Unlock()
		msgs := h.mem[convID]
		if n := len(msgs); n > 0 && msgs[n-1].Role == nadine.RoleAssistant && msgs[n-1].Content == was {
			msgs[n-1].Content = now
		}
		return nil
	}
	c, err := h.store.Conversation(ctx, userID, convID)
	if err != nil {
		return fmt.Errorf("dialogue: history: amend %s/%s: %w", userID, convID, err)
	}
	last, err := h.store.MessageRange(ctx, userID, convID, c.Count-1, c.Count)
	if err != nil {
		return fmt.Errorf("dialogue: history: amend %s/%s: %w", userID, convID, err)
	}
	if len(last) != 1 || last[0].Role != nadine.RoleAssistant || last[0].Content != was {
		return nil
	}
	if err := h.store.AmendMessage(ctx, userID, convID, c.Count-1, now); err != nil {
		return fmt.Errorf("dialogue: history: amend %s/%s: %w", userID, convID, err)
	}
	return nil
}

// Window returns the last Window messages of a conversation, oldest first.
// An ended or unknown conversation has none.
func (h *History) Window(ctx context.Context, userID, convID string) ([]nadine.Message, error) {
	if convID == "" {
		return nil, nil
	}
	if !historyRemembers(userID) {
		h.memMu.Lock()
		defer h.memMu.Unlock()
		msgs := h.mem[convID]
		return append([]nadine.Message(nil), msgs[max(0, len(msgs)-h.window):]...), nil
	}
	msgs, err := h.store.RecentMessages(ctx, historyUserID(userID), convID, h.window)
	if err != nil {
		return nil, fmt.Errorf("dialogue: history: window of %s/%s: %w", historyUserID(userID), convID, err)
	}
	return msgs, nil
}

// End stores what is pending and a final overlapping chunk, then clears the
// conversation; on error the conversation stays open so End can be retried.
func (h *History) End(ctx context.Context, userID, userName, convID string) error {
	if convID == "" {
		return nil
	}
	userID = historyUserID(userID)
	if !historyRemembers(userID) {
		h.memMu.Lock()
		delete(h.mem, convID)
		h.memMu.Unlock()
	}
	unlock := h.locks.lock(userID, convID)
	defer unlock()
	c, err := h.store.Conversation(ctx, userID, convID)
	if nadine.ErrorCode(err) == nadine.ENOTFOUND {
		return nil
	}
	if err != nil {
		return fmt.Errorf("dialogue: history: end %s/%s: %w", userID, convID, err)
	}
	if c.Ended {
		return nil
	}
	var final *nadine.Memory
	if historyRemembers(userID) {
		if err := h.storeDue(ctx, userID, userName, convID); err != nil {
			return fmt.Errorf("dialogue: history: end %s/%s: conversation kept open: %w", userID, convID, err)
		}
		if c, err = h.store.Conversation(ctx, userID, convID); err != nil {
			return fmt.Errorf("dialogue: history: end %s/%s: %w", userID, convID, err)
		}
		if c.Count > historyCovered(c.ChunksStored, h.window, h.stride) {
			from := max(0, c.Count-h.window)
			msgs, err := h.store.MessageRange(ctx, userID, convID, from, c.Count)
			if err != nil {
				return fmt.Errorf("dialogue: history: end %s/%s: %w", userID, convID, err)
			}
			m, err := h.memory(ctx, userID, userName, convID, msgs, "final", from)
			if err != nil {
				return fmt.Errorf("dialogue: history: end %s/%s: conversation kept open: %w", userID, convID, err)
			}
			final = &m
		}
	}
	if err := h.store.EndConversation(ctx, userID, convID, final); err != nil {
		return fmt.Errorf("dialogue: history: end %s/%s: %w", userID, convID, err)
	}
	return nil
}

// Recover stores every chunk left due when the process stopped; call it at
// start. It carries on past a failing conversation.
func (h *History) Recover(ctx context.Context) error {
	cs, err := h.store.OpenConversations(ctx)
	if err != nil {
		return fmt.Errorf("dialogue: history: recover: %w", err)
	}
	var errs []error
	stored, cleared := 0, 0
	for _, c := range cs {
		if !historyRemembers(c.UserID) {
			// A stranger's words written by an earlier version: a
			// stranger leaves nothing on disk.
			if err := h.store.EndConversation(ctx, c.UserID, c.ID, nil); err != nil {
				errs = append(errs, fmt.Errorf("%s/%s: %w", c.UserID, c.ID, err))
			} else {
				cleared++
			}
			continue
		}
		due := historyChunksDue(c.Count, h.window, h.stride)
		if !historyRemembers(c.UserID) || due <= c.ChunksStored {
			continue
		}
		err := func() error {
			unlock := h.locks.lock(c.UserID, c.ID)
			defer unlock()
			return h.storeDue(ctx, c.UserID, "", c.ID)
		}()
		if err != nil {
			errs = append(errs, fmt.Errorf("%s/%s: %w", c.UserID, c.ID, err))
			continue
		}
		stored += due - c.ChunksStored
	}
	if stored > 0 {
		h.log.Info("dialogue: history: recovered window chunks", "chunks", stored)
	}
	if cleared > 0 {
		h.log.Info("dialogue: history: strangers' conversations left on disk by an earlier version erased", "conversations", cleared)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("dialogue: history: recover: %w", err)
	}
	return nil
}

// EndIdle ends every open conversation not updated for idle (a previous run's
// users long gone), carrying on past a failing one.
func (h *History) EndIdle(ctx context.Context, idle time.Duration) error {
	cs, err := h.store.OpenConversations(ctx)
	if err != nil {
		return fmt.Errorf("dialogue: history: end idle: %w", err)
	}
	cutoff := h.now().Add(-idle)
	var errs []error
	for _, c := range cs {
		if c.Updated.After(cutoff) {
			continue
		}
		if err := h.End(ctx, c.UserID, "", c.ID); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// storeDue stores the conversation's due chunks one by one, in order. The
// caller holds the conversation's lock.
func (h *History) storeDue(ctx context.Context, userID, userName, convID string) error {
	for {
		c, err := h.store.Conversation(ctx, userID, convID)
		if err != nil {
			return err
		}
		if c.Ended || historyChunksDue(c.Count, h.window, h.stride) <= c.ChunksStored {
			return nil
		}
		k := c.ChunksStored
		from := k * h.stride
		msgs, err := h.store.MessageRange(ctx, userID, convID, from, from+h.window)
		if err != nil {
			return err
		}
		// Embedding happens before, and outside, the store's transaction.
		m, err := h.memory(ctx, userID, userName, convID, msgs, strconv.Itoa(k), from)
		if err != nil {
			return fmt.Errorf("chunk %d: %w", k, err)
		}
		if err := h.store.StoreChunk(ctx, userID, convID, k, m); err != nil {
			return fmt.Errorf("chunk %d: %w", k, err)
		}
	}
}

// memory builds the long-term memory of the chunk starting at from; its
// metadata is taken from the chunk's last message.
func (h *History) memory(ctx context.Context, userID, userName, convID string, msgs []nadine.Message, chunk string, from int) (nadine.Memory, error) {
	text := FormatTranscript(msgs, userName)
	var ts int64
	if len(msgs) > 0 {
		ts = msgs[len(msgs)-1].Time
	}
	if ts <= 0 {
		ts = h.now().Unix()
	}
	at := time.Unix(ts, 0)
	m := nadine.Memory{
		UserID:         userID,
		Type:           nadine.MemoryConversation,
		Text:           text,
		ConversationID: convID,
		Time:           at,
		Metadata: map[string]string{
			"date":            at.Format("2006-01-02"),
			"time":            at.Format("15:04:05"),
			"timestamp":       strconv.FormatInt(ts, 10),
			"conversation_id": convID,
			"chunk":           chunk,
			"first_message":   strconv.Itoa(from),
			"messages":        strconv.Itoa(len(msgs)),
		},
	}
	if h.emb != nil {
		v, err := nadine.EmbedOne(ctx, h.emb, text)
		if err != nil {
			return nadine.Memory{}, fmt.Errorf("embed with %s: %w", h.emb.Name(), err)
		}
		m.Embedder, m.Embedding = h.emb.Name(), v
	}
	return m, nil
}

// FormatTranscript renders messages as the conversation memory's documents
// do: one "[2006-01-02 15:04:05] Name: text" line per message.
func FormatTranscript(msgs []nadine.Message, userName string) string {
	var b strings.Builder
	for i, m := range msgs {
		if i > 0 {
			b.WriteByte('\n')
		}
		if m.Time > 0 {
			b.WriteString(time.Unix(m.Time, 0).Format("[2006-01-02 15:04:05] "))
		}
		b.WriteString(historySpeaker(m, userName))
		b.WriteString(": ")
		b.WriteString(strings.Join(strings.Fields(strings.ReplaceAll(m.Content, "\r", " ")), " "))
	}
	return b.String()
}

// historySpeaker names the speaker of a transcript line.
func historySpeaker(m nadine.Message, userName string) string {
	if m.Name != "" {
		return m.Name
	}
	switch m.Role {
	case nadine.RoleUser:
		if userName != "" {
			return userName
		}
		return "User"
	case nadine.RoleAssistant:
		return HistoryAssistantName
	case nadine.RoleSystem:
		return "System"
	case nadine.RoleTool:
		return "Tool"
	}
	return string(m.Role)
}

// historyLocks serializes chunk storage per conversation, so that two
// goroutines never embed the same chunk twice.
type historyLocks struct {
	mu sync.Mutex
	m  map[string]*historyLock
}

type historyLock struct {
	mu   sync.Mutex
	refs int
}

// lock locks a conversation and returns its unlock function.
func (l *historyLocks) lock(userID, convID string) func() {
	key := userID + "\x00" + convID
	l.mu.Lock()
	k := l.m[key]
	if k == nil {
		k = &historyLock{}
		l.m[key] = k
	}
	k.refs++
	l.mu.Unlock()
	k.mu.Lock()
	return func() {
		k.mu.Unlock()
		l.mu.Lock()
		k.refs--
		if k.refs == 0 {
			delete(l.m, key)
		}
		l.mu.Unlock()
	}
}
