package dialogue_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/sqlite"
)

// historyEmbedder is a deterministic fake embedder: each text becomes 8
// values derived from its FNV hash. It fails while failing is set.
type historyEmbedder struct {
	failing atomic.Bool
	calls   atomic.Int64
}

func (e *historyEmbedder) Name() string { return "fake-v1" }

func (e *historyEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	e.calls.Add(1)
	if e.failing.Load() {
		return nil, nadine.Errorf(nadine.EUNAVAILABLE, "fake embedder: down")
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = historyVector(t)
	}
	return out, nil
}

func historyVector(text string) []float32 {
	v := make([]float32, 8)
	for i := range v {
		h := fnv.New32a()
		fmt.Fprintf(h, "%d:%s", i, text)
		v[i] = float32(h.Sum32()%2000)/1000 - 1
	}
	return v
}

// historyT0 is the time of message 0; message i is i seconds later.
var historyT0 = time.Date(2026, 11, 30, 14, 3, 12, 0, time.UTC)

type historyFixture struct {
	store *sqlite.Store
	emb   *historyEmbedder
	h     *dialogue.History
}

func newHistoryFixture(t *testing.T) *historyFixture {
	t.Helper()
	s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "nadine.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	emb := &historyEmbedder{}
	var mu sync.Mutex
	clock := historyT0.Add(time.Hour)
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Second)
		return clock
	}
	return &historyFixture{store: s, emb: emb, h: dialogue.NewHistory(s, emb, dialogue.HistoryOptions{Now: now})}
}

// historyMessage is message i of a conversation with Alex, alternating
// user and assistant, without a name (History fills it in).
func historyMessage(i int) nadine.Message {
	role := nadine.RoleUser
	if i%2 == 1 {
		role = nadine.RoleAssistant
	}
	return nadine.Message{Role: role, Content: fmt.Sprintf("message %d", i), Time: historyT0.Unix() + int64(i)}
}

// historyNamed is historyMessage(i) as stored: with its speaker's name.
func historyNamed(i int, userName string) nadine.Message {
	m := historyMessage(i)
	m.Name = userName
	if m.Role == nadine.RoleAssistant {
		m.Name = "Nadine"
	}
	return m
}

// historyTranscript is the transcript of messages [from, to).
func historyTranscript(from, to int, userName string) string {
	var msgs []nadine.Message
	for i := from; i < to; i++ {
		msgs = append(msgs, historyNamed(i, userName))
	}
	return dialogue.FormatTranscript(msgs, userName)
}

func (f *historyFixture) append(t *testing.T, userID, convID string, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		if err := f.h.Append(t.Context(), userID, "Alex", convID, historyMessage(i)); err != nil {
			t.Fatalf("Append message %d: %v", i, err)
		}
	}
}

// chunks returns the user's conversation memories, oldest first.
func (f *historyFixture) chunks(t *testing.T, userID string) []nadine.Memory {
	t.Helper()
	ms, err := f.store.Memories(t.Context(), userID, nadine.MemoryConversation)
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(ms)
	return ms
}

func (f *historyFixture) conversation(t *testing.T, userID, convID string) nadine.Conversation {
	t.Helper()
	c, err := f.store.Conversation(t.Context(), userID, convID)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// checkChunks checks that the user's memories are exactly the chunks
// covering the given [from, to) message ranges, with text, vector and
// metadata.
func checkChunks(t *testing.T, f *historyFixture, userID, convID string, ranges [][2]int) {
	t.Helper()
	got := f.chunks(t, userID)
	if len(got) != len(ranges) {
		t.Fatalf("%d chunks stored, want %d", len(got), len(ranges))
	}
	for i, r := range ranges {
		m := got[i]
		want := historyTranscript(r[0], r[1], "Alex")
		if m.Text != want {
			t.Errorf("chunk %d text:\n%s\nwant messages %d to %d:\n%s", i, m.Text, r[0], r[1]-1, want)
		}
		last := time.Unix(historyT0.Unix()+int64(r[1]-1), 0)
		wantMeta := map[string]string{
			"date":            last.Format("2006-01-02"),
			"time":            last.Format("15:04:05"),
			"timestamp":       strconv.FormatInt(last.Unix(), 10),
			"conversation_id": convID,
		}
		for k, v := range wantMeta {
			if m.Metadata[k] != v {
				t.Errorf("chunk %d metadata %q = %q, want %q", i, k, m.Metadata[k], v)
			}
		}
		if m.UserID != userID || m.ConversationID != convID || m.Type != nadine.MemoryConversation || !m.Time.Equal(last) {
			t.Errorf("chunk %d = %+v, want a conversation memory of %s/%s at %v", i, m, userID, convID, last)
		}
		if m.Embedder != "fake-v1" || !slices.Equal(m.Embedding, historyVector(want)) {
			t.Errorf("chunk %d vector = %s %v, want the fake embedding of its text", i, m.Embedder, m.Embedding)
		}
	}
}

func TestHistoryChunkBoundaries(t *testing.T) {
	tests := []struct {
		messages int
		chunks   [][2]int // message ranges of the stored chunks
	}{
		{1, nil},
		{19, nil},
		{20, [][2]int{{0, 20}}},
		{21, [][2]int{{0, 20}}},
		{33, [][2]int{{0, 20}}},
		{34, [][2]int{{0, 20}, {14, 34}}},
		{47, [][2]int{{0, 20}, {14, 34}}},
		{48, [][2]int{{0, 20}, {14, 34}, {28, 48}}},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.messages), func(t *testing.T) {
			f := newHistoryFixture(t)
			f.append(t, "alex", "c1", 0, tt.messages)
			checkChunks(t, f, "alex", "c1", tt.chunks)
			if c := f.conversation(t, "alex", "c1"); c.Count != tt.messages || c.ChunksStored != len(tt.chunks) {
				t.Errorf("conversation = %+v, want %d messages and %d chunks", c, tt.messages, len(tt.chunks))
			}
			// Consecutive chunks share exactly 6 lines.
			got := f.chunks(t, "alex")
			for i := 1; i < len(got); i++ {
				prev, next := strings.Split(got[i-1].Text, "\n"), strings.Split(got[i].Text, "\n")
				shared := 0
				for _, line := range next {
					if slices.Contains(prev, line) {
						shared++
					}
				}
				if shared != 6 || !slices.Equal(prev[len(prev)-6:], next[:6]) {
					t.Errorf("chunks %d and %d share %d lines, want their last and first 6", i-1, i, shared)
				}
			}
			// The window is the last 20 messages, with speaker names.
			win, err := f.h.Window(t.Context(), "alex", "c1")
			if err != nil {
				t.Fatal(err)
			}
			var want []nadine.Message
			for i := max(0, tt.messages-20); i < tt.messages; i++ {
				want = append(want, historyNamed(i, "Alex"))
			}
			if !slices.Equal(win, want) {
				t.Errorf("Window = %v, want messages %d to %d", win, max(0, tt.messages-20), tt.messages-1)
			}
		})
	}
}

func TestHistoryEnd(t *testing.T) {
	tests := []struct {
		messages int
		chunks   [][2]int // all chunks after End, the final one last
	}{
		{5, [][2]int{{0, 5}}},
		{20, [][2]int{{0, 20}}}, // nothing new since the chunk: no final
		{25, [][2]int{{0, 20}, {5, 25}}},
		{34, [][2]int{{0, 20}, {14, 34}}},
		{40, [][2]int{{0, 20}, {14, 34}, {20, 40}}},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.messages), func(t *testing.T) {
			ctx := t.Context()
			f := newHistoryFixture(t)
			f.append(t, "alex", "c1", 0, tt.messages)
			f.append(t, "alex", "other", 0, 3)
			if err := f.h.End(ctx, "alex", "Alex", "c1"); err != nil {
				t.Fatal(err)
			}
			checkChunks(t, f, "alex", "c1", tt.chunks)
			if c := f.conversation(t, "alex", "c1"); !c.Ended {
				t.Errorf("conversation = %+v, want ended", c)
			}
			win, err := f.h.Window(ctx, "alex", "c1")
			if err != nil || len(win) != 0 {
				t.Errorf("Window after End = %v, %v; want empty", win, err)
			}
			if win, _ := f.h.Window(ctx, "alex", "other"); len(win) != 3 {
				t.Errorf("Window of the other conversation = %d messages, want 3", len(win))
			}
			// Ending again, or ending what never started, does nothing.
			for _, conv := range []string{"c1", "never", ""} {
				if err := f.h.End(ctx, "alex", "Alex", conv); err != nil {
					t.Errorf("End(%q) again: %v", conv, err)
				}
			}
			if got := len(f.chunks(t, "alex")); got != len(tt.chunks) {
				t.Errorf("%d chunks after ending again, want %d", got, len(tt.chunks))
			}
			if err := f.h.Append(ctx, "alex", "Alex", "c1", historyMessage(0)); nadine.ErrorCode(err) != nadine.EINVALID {
				t.Errorf("Append to an ended conversation: %v, want EINVALID", err)
			}
		})
	}
}

func TestHistoryUnknownUser(t *testing.T) {
	for _, user := range []string{nadine.UnknownUser, ""} {
		t.Run(fmt.Sprintf("%q", user), func(t *testing.T) {
			ctx := t.Context()
			f := newHistoryFixture(t)
			f.append(t, user, "c1", 0, 48)
			win, err := f.h.Window(ctx, user, "c1")
			if err != nil || len(win) != 20 || win[19].Content != "message 47" {
				t.Fatalf("Window = %d messages, %v; want the last 20", len(win), err)
			}
			if err := f.h.Recover(ctx); err != nil {
				t.Fatal(err)
			}
			if err := f.h.End(ctx, user, "", "c1"); err != nil {
				t.Fatal(err)
			}
			if got := f.chunks(t, nadine.UnknownUser); len(got) != 0 {
				t.Errorf("%d memories stored for the unknown user, want none", len(got))
			}
			if f.emb.calls.Load() != 0 {
				t.Errorf("embedder called %d times for the unknown user, want never", f.emb.calls.Load())
			}
			// A stranger leaves nothing on disk: not even the conversation.
			if _, err := f.store.Conversation(ctx, nadine.UnknownUser, "c1"); nadine.ErrorCode(err) != nadine.ENOTFOUND {
				t.Errorf("the stranger's conversation is in the store: %v", err)
			}
			if win, _ := f.h.Window(ctx, user, "c1"); len(win) != 0 {
				t.Errorf("Window after End = %d messages, want none", len(win))
			}
		})
	}
}

// TestHistoryAdopt: a stranger who introduces themself keeps their
// conversation: it is stored under their id from then on, in order, and
// only from then on.
func TestHistoryAdopt(t *testing.T) {
	ctx := t.Context()
	f := newHistoryFixture(t)
	f.append(t, nadine.UnknownUser, "c1", 0, 4)
	if _, err := f.store.Conversation(ctx, nadine.UnknownUser, "c1"); nadine.ErrorCode(err) != nadine.ENOTFOUND {
		t.Fatalf("the stranger's words reached the store: %v", err)
	}
	if err := f.h.Adopt(ctx, "c1", "alex-1", "Alex"); err != nil {
		t.Fatal(err)
	}
	f.append(t, "alex-1", "c1", 4, 6)
	got, err := f.store.RecentMessages(ctx, "alex-1", "c1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 6 || got[0].Content != "message 0" || got[5].Content != "message 5" {
		t.Errorf("adopted conversation = %+v", got)
	}
	if win, _ := f.h.Window(ctx, nadine.UnknownUser, "c1"); len(win) != 0 {
		t.Errorf("the stranger's window still holds %d messages", len(win))
	}
}

// TestHistoryRecoverErasesStrangers: strangers' conversations an earlier
// version wrote to disk are erased at start.
func TestHistoryRecoverErasesStrangers(t *testing.T) {
	ctx := t.Context()
	f := newHistoryFixture(t)
	if _, err := f.store.AppendMessage(ctx, nadine.UnknownUser, "old", nadine.Message{Role: nadine.RoleUser, Content: "My secret PIN is 4242", Time: 1}); err != nil {
		t.Fatal(err)
	}
	if err := f.h.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	if msgs, _ := f.store.RecentMessages(ctx, nadine.UnknownUser, "old", 0); len(msgs) != 0 {
		t.Errorf("the stranger's messages survived Recover: %+v", msgs)
	}
}

func TestHistoryRecover(t *testing.T) {
	ctx := t.Context()
	f := newHistoryFixture(t)
	// Simulate a crash: messages reached the store, chunks never did.
	direct := func(user, conv string, n int) {
		for i := range n {
			if _, err := f.store.AppendMessage(ctx, user, conv, historyNamed(i, "Alex")); err != nil {
				t.Fatal(err)
			}
		}
	}
	direct("alex", "c1", 50)
	direct("bob", "c2", 10)
	direct(nadine.UnknownUser, "c3", 30)

	for range 2 { // a second Recover stores nothing more
		if err := f.h.Recover(ctx); err != nil {
			t.Fatal(err)
		}
		checkChunks(t, f, "alex", "c1", [][2]int{{0, 20}, {14, 34}, {28, 48}})
	}
	if got := f.chunks(t, "bob"); len(got) != 0 {
		t.Errorf("bob has %d chunks, want none (10 messages)", len(got))
	}
	if got := f.chunks(t, nadine.UnknownUser); len(got) != 0 {
		t.Errorf("the unknown user has %d chunks, want none", len(got))
	}
	// The conversation carries on where it stopped.
	f.append(t, "alex", "c1", 50, 62)
	checkChunks(t, f, "alex", "c1", [][2]int{{0, 20}, {14, 34}, {28, 48}, {42, 62}})
}

func TestHistoryEmbeddingFailure(t *testing.T) {
	tests := []struct {
		name string
		heal func(t *testing.T, f *historyFixture) // after the embedder is back
	}{
		{"next Append", func(t *testing.T, f *historyFixture) { f.append(t, "alex", "c1", 35, 36) }},
		{"Recover", func(t *testing.T, f *historyFixture) {
			if err := f.h.Recover(t.Context()); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			f := newHistoryFixture(t)
			f.emb.failing.Store(true)
			f.append(t, "alex", "c1", 0, 35) // every Append succeeds
			if got := f.chunks(t, "alex"); len(got) != 0 {
				t.Fatalf("%d chunks stored while the embedder fails, want none", len(got))
			}
			if c := f.conversation(t, "alex", "c1"); c.Count != 35 || c.ChunksStored != 0 {
				t.Fatalf("conversation = %+v, want 35 messages, no chunk", c)
			}
			if err := f.h.Recover(ctx); err == nil {
				t.Error("Recover while the embedder fails returned nil, want the failure")
			}
			// End cannot store either: it fails and keeps every message.
			if err := f.h.End(ctx, "alex", "Alex", "c1"); err == nil {
				t.Error("End while the embedder fails returned nil, want the failure")
			}
			if c := f.conversation(t, "alex", "c1"); c.Ended || c.Count != 35 {
				t.Errorf("conversation after failed End = %+v, want open with 35 messages", c)
			}

			f.emb.failing.Store(false)
			tt.heal(t, f)
			// The pending chunks hold their own windows, not the current one.
			checkChunks(t, f, "alex", "c1", [][2]int{{0, 20}, {14, 34}})

			if err := f.h.End(ctx, "alex", "Alex", "c1"); err != nil {
				t.Fatal(err)
			}
			n := f.conversation(t, "alex", "c1").Count
			checkChunks(t, f, "alex", "c1", [][2]int{{0, 20}, {14, 34}, {n - 20, n}})
		})
	}
}

func TestHistoryEndIdle(t *testing.T) {
	ctx := t.Context()
	storeNow := historyT0
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "nadine.db"), sqlite.Options{Now: func() time.Time { return storeNow }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.AppendMessage(ctx, "alex", "old", historyNamed(0, "Alex")); err != nil {
		t.Fatal(err)
	}
	now := historyT0.Add(10 * time.Minute)
	storeNow = now
	h := dialogue.NewHistory(s, &historyEmbedder{}, dialogue.HistoryOptions{Now: func() time.Time { return now }})
	if err := h.Append(ctx, "alex", "Alex", "new", historyMessage(0)); err != nil {
		t.Fatal(err)
	}
	if err := h.EndIdle(ctx, 5*time.Minute); err != nil {
		t.Fatal(err)
	}
	open, err := s.OpenConversations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 1 || open[0].ID != "new" {
		t.Errorf("open conversations = %+v, want only the recent one", open)
	}
	ms, err := s.Memories(ctx, "alex")
	if err != nil || len(ms) != 1 || ms[0].ConversationID != "old" {
		t.Errorf("memories = %+v, %v; want the idle conversation's final chunk", ms, err)
	}
}

func TestHistoryStampsMessages(t *testing.T) {
	ctx := t.Context()
	f := newHistoryFixture(t)
	zero := time.Time{}
	msgs := []nadine.Message{
		{Role: nadine.RoleUser, Content: "no time"},
		{Role: nadine.RoleUser, Content: "zero time.Time", Time: zero.Unix()},
		{Role: nadine.RoleAssistant, Content: "named", Name: "Nadine v2", Time: 5},
	}
	for _, m := range msgs {
		if err := f.h.Append(ctx, "alex", "Alex", "c1", m); err != nil {
			t.Fatal(err)
		}
	}
	win, err := f.h.Window(ctx, "alex", "c1")
	if err != nil || len(win) != 3 {
		t.Fatalf("Window = %v, %v", win, err)
	}
	if win[0].Time <= historyT0.Unix() || win[1].Time <= win[0].Time || win[0].Name != "Alex" {
		t.Errorf("stamped messages = %+v, want Now times and the user's name", win[:2])
	}
	if win[2].Time != 5 || win[2].Name != "Nadine v2" {
		t.Errorf("message with time and name = %+v, want them kept", win[2])
	}
	if err := f.h.Append(ctx, "alex", "Alex", "", msgs[0]); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("Append without conversation id: %v, want EINVALID", err)
	}
}

func TestFormatTranscript(t *testing.T) {
	at := historyT0.Unix()
	stamp := func(sec int64) string { return time.Unix(at+sec, 0).Format("[2006-01-02 15:04:05] ") }
	tests := []struct {
		name     string
		msgs     []nadine.Message
		userName string
		want     string
	}{
		{"empty", nil, "Alex", ""},
		{"names from roles", []nadine.Message{
			{Role: nadine.RoleUser, Content: "Hello", Time: at},
			{Role: nadine.RoleAssistant, Content: "Hi Alex", Time: at + 3},
		}, "Alex", stamp(0) + "Alex: Hello\n" + stamp(3) + "Nadine: Hi Alex"},
		{"message names win", []nadine.Message{
			{Role: nadine.RoleUser, Content: "Hello", Name: "Sam", Time: at},
		}, "Alex", stamp(0) + "Sam: Hello"},
		{"no user name", []nadine.Message{{Role: nadine.RoleUser, Content: "Hello", Time: at}}, "", stamp(0) + "User: Hello"},
		{"no time", []nadine.Message{{Role: nadine.RoleAssistant, Content: "Hi"}}, "Alex", "Nadine: Hi"},
		{"line breaks", []nadine.Message{{Role: nadine.RoleUser, Content: "one\ntwo\r\n  three ", Time: at}}, "Alex", stamp(0) + "Alex: one two three"},
	}
	for _, tt := range tests {
		if got := dialogue.FormatTranscript(tt.msgs, tt.userName); got != tt.want {
			t.Errorf("%s: FormatTranscript =\n%q\nwant\n%q", tt.name, got, tt.want)
		}
	}
	// The seed's format, in local time.
	got := dialogue.FormatTranscript([]nadine.Message{{Role: nadine.RoleUser, Content: "Hello", Time: at}}, "Alex")
	if want := "[" + time.Unix(at, 0).Format(time.DateTime) + "] Alex: Hello"; got != want {
		t.Errorf("FormatTranscript = %q, want %q", got, want)
	}
}

func TestHistoryConcurrentAppends(t *testing.T) {
	f := newHistoryFixture(t)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 12 {
				if err := f.h.Append(t.Context(), "alex", "Alex", "c1", nadine.Message{Role: nadine.RoleUser,
					Content: fmt.Sprintf("w%d m%d", w, i), Time: historyT0.Unix()}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	c := f.conversation(t, "alex", "c1")
	chunks := f.chunks(t, "alex")
	if c.Count != 48 || c.ChunksStored != 3 || len(chunks) != 3 {
		t.Errorf("conversation = %+v with %d chunks, want 48 messages and 3 chunks", c, len(chunks))
	}
	if calls := f.emb.calls.Load(); calls != 3 {
		t.Errorf("embedder called %d times, want once per chunk", calls)
	}
}
