package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
)

// Run gives every subtest its own store from open, which must be new, empty
// and closed through t.Cleanup.
func Run(t *testing.T, open func(t *testing.T) nadine.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s nadine.Store)
	}{
		{"EmptyStore", testEmptyStore},
		{"Profile", testProfile},
		{"UserNames", testUserNames},
		{"UpdateProfile", testUpdateProfile},
		{"UpdateProfileConcurrent", testUpdateProfileConcurrent},
		{"History", testHistory},
		{"EndConversation", testEndConversation},
		{"StoreChunk", testStoreChunk},
		{"StoreChunkConcurrent", testStoreChunkConcurrent},
		{"MemoryAddList", testMemoryAddList},
		{"MemorySearch", testMemorySearch},
		{"HasMemories", testHasMemories},
		{"MemorySearchSeesWrites", testMemorySearchSeesWrites},
		{"MemoryIsolation", testMemoryIsolation},
		{"ForgetUser", testForgetUser},
		{"UserIDs", testUserIDs},
		{"ForgetPerson", testForgetPerson},
		{"DeleteMemories", testDeleteMemories},
		{"MemoryEmbedders", testMemoryEmbedders},
		{"Knowledge", testKnowledge},
		{"KnowledgeSources", testKnowledgeSources},
		{"KnowledgeAddRecordsSources", testKnowledgeAddRecordsSources},
		{"Scenes", testScenes},
		{"Checkpoints", testCheckpoints},
		{"EmptyUserID", testEmptyUserID},
		{"Text", testText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, open(t)) })
	}
}

// t0 is the suite's reference time, in whole seconds.
var t0 = time.Date(2026, 11, 30, 14, 3, 12, 0, time.UTC)

func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := nadine.ErrorCode(err); got != code {
		t.Fatalf("%s: error code %q (%v), want %q", what, got, err, code)
	}
}

func must(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func testEmptyStore(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	users, err := s.Users(ctx)
	must(t, "Users", err)
	if len(users) != 0 {
		t.Errorf("Users = %v, want none", users)
	}
	open, err := s.OpenConversations(ctx)
	must(t, "OpenConversations", err)
	if len(open) != 0 {
		t.Errorf("OpenConversations = %v, want none", open)
	}
	emb, err := s.MemoryEmbedders(ctx)
	must(t, "MemoryEmbedders", err)
	if len(emb) != 0 {
		t.Errorf("MemoryEmbedders = %v, want none", emb)
	}
	n, err := s.KnowledgeCount(ctx)
	must(t, "KnowledgeCount", err)
	if n != 0 {
		t.Errorf("KnowledgeCount = %d, want 0", n)
	}
	ms, err := s.Memories(ctx, "alice")
	must(t, "Memories", err)
	if len(ms) != 0 {
		t.Errorf("Memories = %v, want none", ms)
	}
	res, err := s.SearchMemories(ctx, "alice", nadine.MemoryQuery{Embedding: []float32{1, 0}, Embedder: "e1", K: 5})
	must(t, "SearchMemories", err)
	if len(res) != 0 {
		t.Errorf("SearchMemories = %v, want none", res)
	}
	scenes, err := s.Scenes(ctx, "alice")
	must(t, "Scenes", err)
	if len(scenes) != 0 {
		t.Errorf("Scenes = %v, want none", scenes)
	}
}

func equalProfile(t *testing.T, got, want nadine.Profile) {
	t.Helper()
	if got.UserID != want.UserID || got.UserName != want.UserName || got.CurrentCompany != want.CurrentCompany ||
		got.CurrentPosition != want.CurrentPosition || got.Location != want.Location ||
		got.FaceImagePath != want.FaceImagePath || !got.LastUpdated.Equal(want.LastUpdated) ||
		!slices.Equal(got.Hobbies, want.Hobbies) || !slices.Equal(got.Interests, want.Interests) {
		t.Errorf("Profile = %+v, want %+v", got, want)
	}
}

func testProfile(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	_, err := s.Profile(ctx, "alice")
	wantCode(t, "Profile of unknown user", err, nadine.ENOTFOUND)

	full := nadine.Profile{
		UserID: "alice", UserName: "Alice Smith", CurrentCompany: "NTU", CurrentPosition: "engineer",
		Location: "Singapore", Hobbies: []string{"climbing", "chess"}, Interests: []string{"robots"},
		FaceImagePath: "faces/alice.jpg", LastUpdated: t0,
	}
	must(t, "SaveProfile", s.SaveProfile(ctx, full))
	got, err := s.Profile(ctx, "alice")
	must(t, "Profile", err)
	equalProfile(t, got, full)

	// A save replaces the whole profile.
	small := nadine.Profile{UserID: "alice", UserName: "Alice", Location: "Geneva", LastUpdated: t0.Add(time.Hour)}
	must(t, "SaveProfile again", s.SaveProfile(ctx, small))
	got, err = s.Profile(ctx, "alice")
	must(t, "Profile after second save", err)
	equalProfile(t, got, small)

	// Other users are untouched and unknown.
	_, err = s.Profile(ctx, "bob")
	wantCode(t, "Profile of another user", err, nadine.ENOTFOUND)

	users, err := s.Users(ctx)
	must(t, "Users", err)
	if want := []nadine.UserRef{{ID: "alice", Name: "Alice"}}; !slices.Equal(users, want) {
		t.Errorf("Users = %v, want %v", users, want)
	}
}

func testUserNames(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	must(t, "SetUserName", s.SetUserName(ctx, "u2", "Bob"))
	must(t, "SaveProfile", s.SaveProfile(ctx, nadine.Profile{UserID: "u3", UserName: "Carol", LastUpdated: t0}))
	must(t, "SetUserName", s.SetUserName(ctx, "u1", "Alice"))
	must(t, "SetUserName rename", s.SetUserName(ctx, "u2", "Robert"))

	users, err := s.Users(ctx)
	must(t, "Users", err)
	want := []nadine.UserRef{{ID: "u1", Name: "Alice"}, {ID: "u2", Name: "Robert"}, {ID: "u3", Name: "Carol"}}
	if !slices.Equal(users, want) {
		t.Errorf("Users = %v, want %v", users, want)
	}

	// SaveProfile records the new name in the map.
	must(t, "SaveProfile rename", s.SaveProfile(ctx, nadine.Profile{UserID: "u3", UserName: "Caroline", LastUpdated: t0}))
	users, err = s.Users(ctx)
	must(t, "Users", err)
	want[2].Name = "Caroline"
	if !slices.Equal(users, want) {
		t.Errorf("Users after rename = %v, want %v", users, want)
	}
}

func message(i int) nadine.Message {
	role, name := nadine.RoleUser, "Alice"
	if i%2 == 1 {
		role, name = nadine.RoleAssistant, "Nadine"
	}
	return nadine.Message{Role: role, Content: fmt.Sprintf("message %d", i), Name: name, Time: t0.Unix() + int64(i)}
}

func appendN(t *testing.T, s nadine.Store, userID, convID string, from, to int) nadine.Conversation {
	t.Helper()
	var c nadine.Conversation
	for i := from; i < to; i++ {
		var err error
		c, err = s.AppendMessage(t.Context(), userID, convID, message(i))
		must(t, "AppendMessage", err)
	}
	return c
}

func wantMessages(t *testing.T, what string, got []nadine.Message, from, to int) {
	t.Helper()
	var want []nadine.Message
	for i := from; i < to; i++ {
		want = append(want, message(i))
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s = %v, want messages %d to %d: %v", what, got, from, to-1, want)
	}
}

func testHistory(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	_, err := s.Conversation(ctx, "alice", "c1")
	wantCode(t, "Conversation before any message", err, nadine.ENOTFOUND)

	for i := range 5 {
		c, err := s.AppendMessage(ctx, "alice", "c1", message(i))
		must(t, "AppendMessage", err)
		if c.UserID != "alice" || c.ID != "c1" || c.Count != i+1 || c.ChunksStored != 0 || c.Ended {
			t.Fatalf("AppendMessage %d returned %+v, want alice/c1 with Count %d, open, no chunk", i, c, i+1)
		}
	}
	// The same conversation id for another user is another conversation.
	appendN(t, s, "bob", "c1", 0, 2)
	appendN(t, s, "alice", "c2", 0, 1)

	tests := []struct {
		name     string
		n        int
		from, to int
	}{
		{"last 3", 3, 2, 5},
		{"last 1", 1, 4, 5},
		{"all with 0", 0, 0, 5},
		{"all with -1", -1, 0, 5},
		{"more than stored", 100, 0, 5},
	}
	for _, tt := range tests {
		got, err := s.RecentMessages(ctx, "alice", "c1", tt.n)
		must(t, "RecentMessages", err)
		wantMessages(t, "RecentMessages "+tt.name, got, tt.from, tt.to)
	}
	ranges := []struct{ from, to, wantFrom, wantTo int }{
		{0, 5, 0, 5},
		{1, 3, 1, 3},
		{3, 100, 3, 5},
		{2, 2, 0, 0},
		{5, 9, 0, 0},
	}
	for _, r := range ranges {
		got, err := s.MessageRange(ctx, "alice", "c1", r.from, r.to)
		must(t, "MessageRange", err)
		wantMessages(t, fmt.Sprintf("MessageRange(%d, %d)", r.from, r.to), got, r.wantFrom, r.wantTo)
	}
	got, err := s.RecentMessages(ctx, "bob", "c1", 0)
	must(t, "RecentMessages of bob", err)
	wantMessages(t, "RecentMessages of bob", got, 0, 2)

	// A reply cut short is amended in place; nobody else's is touched.
	must(t, "AmendMessage", s.AmendMessage(ctx, "bob", "c1", 1, "message 1 cut… [interrupted]"))
	got, err = s.RecentMessages(ctx, "bob", "c1", 0)
	must(t, "RecentMessages of bob", err)
	if len(got) != 2 || got[1].Content != "message 1 cut… [interrupted]" || got[1].Role != nadine.RoleAssistant || got[1].Time != message(1).Time {
		t.Errorf("after AmendMessage: %v", got)
	}
	wantCode(t, "AmendMessage of no message", s.AmendMessage(ctx, "bob", "c1", 2, "x"), nadine.ENOTFOUND)
	wantCode(t, "AmendMessage of another user's", s.AmendMessage(ctx, "carol", "c1", 1, "x"), nadine.ENOTFOUND)
	must(t, "AmendMessage back", s.AmendMessage(ctx, "bob", "c1", 1, message(1).Content))

	c, err := s.Conversation(ctx, "alice", "c1")
	must(t, "Conversation", err)
	if c.Count != 5 || c.ChunksStored != 0 || c.Ended {
		t.Errorf("Conversation = %+v, want Count 5, no chunk, open", c)
	}
	_, err = s.Conversation(ctx, "carol", "c1")
	wantCode(t, "Conversation of another user", err, nadine.ENOTFOUND)

	open, err := s.OpenConversations(ctx)
	must(t, "OpenConversations", err)
	gotOpen := map[string]int{}
	for _, c := range open {
		gotOpen[c.UserID+"/"+c.ID] = c.Count
	}
	if want := map[string]int{"alice/c1": 5, "bob/c1": 2, "alice/c2": 1}; !mapsEqual(gotOpen, want) {
		t.Errorf("OpenConversations counts = %v, want %v", gotOpen, want)
	}
}

func mapsEqual[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func testEndConversation(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	appendN(t, s, "alice", "c1", 0, 7)
	appendN(t, s, "alice", "c2", 0, 3)
	appendN(t, s, "bob", "c1", 0, 3)

	final := nadine.Memory{UserID: "alice", Type: nadine.MemoryConversation, Text: "final chunk of c1",
		ConversationID: "c1", Time: t0, Embedder: "e1", Embedding: []float32{1, 0, 0}}
	must(t, "EndConversation", s.EndConversation(ctx, "alice", "c1", &final))
	must(t, "EndConversation without final", s.EndConversation(ctx, "alice", "c2", nil))

	for _, conv := range []string{"c1", "c2"} {
		c, err := s.Conversation(ctx, "alice", conv)
		must(t, "Conversation", err)
		if !c.Ended {
			t.Errorf("Conversation %s = %+v, want ended", conv, c)
		}
		msgs, err := s.RecentMessages(ctx, "alice", conv, 0)
		must(t, "RecentMessages", err)
		if len(msgs) != 0 {
			t.Errorf("RecentMessages of ended %s = %v, want none", conv, msgs)
		}
	}
	open, err := s.OpenConversations(ctx)
	must(t, "OpenConversations", err)
	if len(open) != 1 || open[0].UserID != "bob" || open[0].ID != "c1" || open[0].Count != 3 {
		t.Errorf("OpenConversations = %+v, want only bob/c1 with 3 messages", open)
	}
	msgs, err := s.RecentMessages(ctx, "bob", "c1", 0)
	must(t, "RecentMessages of bob", err)
	wantMessages(t, "RecentMessages of bob", msgs, 0, 3)

	ms, err := s.Memories(ctx, "alice")
	must(t, "Memories", err)
	if len(ms) != 1 || ms[0].Text != final.Text || ms[0].ConversationID != "c1" || ms[0].Type != nadine.MemoryConversation {
		t.Errorf("Memories after EndConversation = %+v, want only the final chunk", ms)
	}
	ms, err = s.Memories(ctx, "bob")
	must(t, "Memories of bob", err)
	if len(ms) != 0 {
		t.Errorf("Memories of bob = %+v, want none", ms)
	}
}

func chunk(userID, convID string, i int) nadine.Memory {
	return nadine.Memory{UserID: userID, Type: nadine.MemoryConversation, Text: fmt.Sprintf("chunk %d of %s", i, convID),
		ConversationID: convID, Time: t0.Add(time.Duration(i) * time.Minute), Embedder: "e1", Embedding: []float32{1, float32(i)}}
}

func chunkTexts(t *testing.T, s nadine.Store, userID string) []string {
	t.Helper()
	ms, err := s.Memories(t.Context(), userID, nadine.MemoryConversation)
	must(t, "Memories", err)
	var texts []string
	for _, m := range ms {
		texts = append(texts, m.Text)
	}
	sort.Strings(texts)
	return texts
}

func testStoreChunk(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	appendN(t, s, "alice", "c1", 0, 34)
	steps := []struct {
		index      int
		wantStored int
		wantTexts  []string
	}{
		{0, 1, []string{"chunk 0 of c1"}},
		{0, 1, []string{"chunk 0 of c1"}}, // again: nothing happens
		{1, 2, []string{"chunk 0 of c1", "chunk 1 of c1"}},
		{0, 2, []string{"chunk 0 of c1", "chunk 1 of c1"}},
		{1, 2, []string{"chunk 0 of c1", "chunk 1 of c1"}},
	}
	for i, st := range steps {
		must(t, "StoreChunk", s.StoreChunk(ctx, "alice", "c1", st.index, chunk("alice", "c1", st.index)))
		c, err := s.Conversation(ctx, "alice", "c1")
		must(t, "Conversation", err)
		if c.ChunksStored != st.wantStored || c.Count != 34 {
			t.Errorf("step %d: after StoreChunk(%d) Conversation = %+v, want ChunksStored %d, Count 34", i, st.index, c, st.wantStored)
		}
		if got := chunkTexts(t, s, "alice"); !slices.Equal(got, st.wantTexts) {
			t.Errorf("step %d: after StoreChunk(%d) chunks = %q, want %q", i, st.index, got, st.wantTexts)
		}
	}
	// The stored chunk is a memory like any other.
	res, err := s.SearchMemories(ctx, "alice", nadine.MemoryQuery{Embedding: []float32{1, 1}, Embedder: "e1", K: 1})
	must(t, "SearchMemories", err)
	if len(res) != 1 || res[0].Text != "chunk 1 of c1" || res[0].ConversationID != "c1" {
		t.Errorf("SearchMemories = %+v, want chunk 1 of c1", res)
	}
	// Messages stay until the conversation ends.
	msgs, err := s.RecentMessages(ctx, "alice", "c1", 0)
	must(t, "RecentMessages", err)
	wantMessages(t, "RecentMessages", msgs, 0, 34)
}

func testStoreChunkConcurrent(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	appendN(t, s, "alice", "c1", 0, 20)
	const workers = 8
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		wg.Go(func() { errs[w] = s.StoreChunk(ctx, "alice", "c1", 0, chunk("alice", "c1", 0)) })
	}
	wg.Wait()
	for w, err := range errs {
		must(t, fmt.Sprintf("StoreChunk in worker %d", w), err)
	}
	if got := chunkTexts(t, s, "alice"); !slices.Equal(got, []string{"chunk 0 of c1"}) {
		t.Errorf("chunks after %d concurrent StoreChunk(0) = %q, want one", workers, got)
	}
	c, err := s.Conversation(ctx, "alice", "c1")
	must(t, "Conversation", err)
	if c.ChunksStored != 1 {
		t.Errorf("ChunksStored = %d, want 1", c.ChunksStored)
	}
}

// memory is a test memory of user u with vector v.
func memory(u, text string, typ nadine.MemoryType, minute int, embedder string, v ...float32) nadine.Memory {
	return nadine.Memory{UserID: u, Type: typ, Text: text, ConversationID: "conv-" + text,
		Time: t0.Add(time.Duration(minute) * time.Minute), Metadata: map[string]string{"source": text},
		Embedder: embedder, Embedding: v}
}

func add(t *testing.T, s nadine.Store, ms ...nadine.Memory) []int64 {
	t.Helper()
	ids := make([]int64, len(ms))
	for i, m := range ms {
		id, err := s.AddMemory(t.Context(), m)
		must(t, "AddMemory", err)
		ids[i] = id
	}
	return ids
}

func testMemoryAddList(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	in := []nadine.Memory{
		memory("alice", "a", nadine.MemoryConversation, 1, "e1", 1, 0),
		memory("alice", "b", nadine.MemoryEpisode, 3, "e1", 0, 1),
		memory("alice", "c", nadine.MemoryFact, 2, "e1", 1, 1),
		memory("bob", "d", nadine.MemoryFact, 4, "e1", 1, 1),
	}
	ids := add(t, s, in...)
	if ids[0] == ids[1] || ids[1] == ids[2] || ids[0] == ids[2] {
		t.Errorf("AddMemory ids = %v, want distinct", ids)
	}

	ms, err := s.Memories(ctx, "alice")
	must(t, "Memories", err)
	// Newest first: b (minute 3), c (2), a (1).
	want := []int{1, 2, 0}
	if len(ms) != len(want) {
		t.Fatalf("Memories = %+v, want %d memories", ms, len(want))
	}
	for i, w := range want {
		m, exp := ms[i], in[w]
		if m.ID != ids[w] || m.UserID != "alice" || m.Type != exp.Type || m.Text != exp.Text ||
			m.ConversationID != exp.ConversationID || !m.Time.Equal(exp.Time) {
			t.Errorf("Memories[%d] = %+v, want %+v with id %d", i, m, exp, ids[w])
		}
		wantMeta := map[string]string{
			"source":          exp.Text,
			"conversation_id": exp.ConversationID,
			"date":            exp.Time.Format("2006-01-02"),
			"time":            exp.Time.Format("15:04:05"),
			"timestamp":       strconv.FormatInt(exp.Time.Unix(), 10),
		}
		for k, v := range wantMeta {
			if m.Metadata[k] != v {
				t.Errorf("Memories[%d].Metadata[%q] = %q, want %q (metadata %v)", i, k, m.Metadata[k], v, m.Metadata)
			}
		}
	}

	types := []struct {
		types []nadine.MemoryType
		want  []string
	}{
		{[]nadine.MemoryType{nadine.MemoryFact}, []string{"c"}},
		{[]nadine.MemoryType{nadine.MemoryConversation, nadine.MemoryEpisode}, []string{"b", "a"}},
		{[]nadine.MemoryType{nadine.MemoryEpisode, nadine.MemoryFact, nadine.MemoryConversation}, []string{"b", "c", "a"}},
	}
	for _, tt := range types {
		ms, err := s.Memories(ctx, "alice", tt.types...)
		must(t, "Memories by type", err)
		var got []string
		for _, m := range ms {
			got = append(got, m.Text)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Memories(%v) = %q, want %q", tt.types, got, tt.want)
		}
	}
}

func texts(res []nadine.ScoredMemory) []string {
	var out []string
	for _, r := range res {
		out = append(out, r.Text)
	}
	return out
}

func testMemorySearch(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	add(t, s,
		memory("alice", "a1", nadine.MemoryConversation, 1, "e1", 1, 0, 0, 0),
		memory("alice", "a2", nadine.MemoryEpisode, 2, "e1", 0.9, 0.1, 0, 0),
		memory("alice", "a3", nadine.MemoryFact, 3, "e1", 0, 1, 0, 0),
		memory("alice", "a4", nadine.MemoryConversation, 4, "e2", 1, 0, 0, 0), // another vector space
		memory("alice", "a5", nadine.MemoryConversation, 5, "e1", 1, 0, 0),    // another dimension
		memory("alice", "a6", nadine.MemoryConversation, 6, ""),               // no vector
		memory("alice", "a7", nadine.MemoryFact, 7, "e1", -1, 0, 0, 0),
	)
	q := []float32{1, 0, 0, 0}
	tests := []struct {
		name  string
		query nadine.MemoryQuery
		want  []string
	}{
		{"all of e1", nadine.MemoryQuery{Embedding: q, Embedder: "e1", K: 10}, []string{"a1", "a2", "a3", "a7"}},
		{"top 2", nadine.MemoryQuery{Embedding: q, Embedder: "e1", K: 2}, []string{"a1", "a2"}},
		{"top 1", nadine.MemoryQuery{Embedding: q, Embedder: "e1", K: 1}, []string{"a1"}},
		{"scaled query", nadine.MemoryQuery{Embedding: []float32{5, 0, 0, 0}, Embedder: "e1", K: 1}, []string{"a1"}},
		{"types", nadine.MemoryQuery{Embedding: q, Embedder: "e1", K: 10,
			Types: []nadine.MemoryType{nadine.MemoryEpisode, nadine.MemoryFact}}, []string{"a2", "a3", "a7"}},
		{"one type", nadine.MemoryQuery{Embedding: q, Embedder: "e1", K: 10,
			Types: []nadine.MemoryType{nadine.MemoryConversation}}, []string{"a1"}},
		{"other space", nadine.MemoryQuery{Embedding: q, Embedder: "e2", K: 10}, []string{"a4"}},
		{"other dimension", nadine.MemoryQuery{Embedding: []float32{1, 0, 0}, Embedder: "e1", K: 10}, []string{"a5"}},
		{"unknown space", nadine.MemoryQuery{Embedding: q, Embedder: "e3", K: 10}, nil},
		{"dimension nobody has", nadine.MemoryQuery{Embedding: []float32{1, 0, 0, 0, 0, 0, 0}, Embedder: "e1", K: 10}, nil},
		{"other user", nadine.MemoryQuery{Embedding: q, Embedder: "e1", K: 10}, nil},
	}
	for _, tt := range tests {
		user := "alice"
		if tt.name == "other user" {
			user = "bob"
		}
		res, err := s.SearchMemories(ctx, user, tt.query)
		must(t, "SearchMemories "+tt.name, err)
		if got := texts(res); !slices.Equal(got, tt.want) {
			t.Errorf("SearchMemories %s = %q, want %q", tt.name, got, tt.want)
		}
	}

	res, err := s.SearchMemories(ctx, "alice", nadine.MemoryQuery{Embedding: q, Embedder: "e1", K: 10})
	must(t, "SearchMemories", err)
	wantScores := []float64{1, 0.9 / sqrt(0.82), 0, -1}
	for i, r := range res {
		if d := r.Score - wantScores[i]; d > 1e-5 || d < -1e-5 {
			t.Errorf("result %d (%s) score = %v, want %v", i, r.Text, r.Score, wantScores[i])
		}
		if r.UserID != "alice" || r.ID == 0 || r.ConversationID != "conv-"+r.Text || r.Metadata["source"] != r.Text {
			t.Errorf("result %d = %+v, want alice's memory %s with its fields", i, r.Memory, r.Text)
		}
		if r.Embedding != nil {
			t.Errorf("result %d (%s) carries its vector; a search returns none", i, r.Text)
		}
	}
	if len(res) > 0 && (res[0].Type != nadine.MemoryConversation || !res[0].Time.Equal(t0.Add(time.Minute))) {
		t.Errorf("first result = %+v, want type conversation at %v", res[0].Memory, t0.Add(time.Minute))
	}
}

// testHasMemories: existence by user and type, without reading memories.
func testHasMemories(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	has := func(user string, types ...nadine.MemoryType) bool {
		t.Helper()
		ok, err := s.HasMemories(ctx, user, types...)
		must(t, "HasMemories", err)
		return ok
	}
	if has("alice") || has("alice", nadine.MemoryEpisode) {
		t.Error("HasMemories of an empty store = true")
	}
	add(t, s,
		memory("alice", "c1", nadine.MemoryConversation, 1, "e1", 1, 0),
		memory("alice", "e1", nadine.MemoryEpisode, 2, ""), // without a vector: still a memory
		memory("bob", "f1", nadine.MemoryFact, 3, "e1", 0, 1),
	)
	tests := []struct {
		user  string
		types []nadine.MemoryType
		want  bool
	}{
		{"alice", nil, true},
		{"alice", []nadine.MemoryType{nadine.MemoryEpisode}, true},
		{"alice", []nadine.MemoryType{nadine.MemoryConversation}, true},
		{"alice", []nadine.MemoryType{nadine.MemoryFact}, false},
		{"alice", []nadine.MemoryType{nadine.MemoryFact, nadine.MemoryEpisode}, true},
		{"bob", []nadine.MemoryType{nadine.MemoryFact}, true},
		{"bob", []nadine.MemoryType{nadine.MemoryEpisode}, false},
		{"carol", nil, false},
	}
	for _, tt := range tests {
		if got := has(tt.user, tt.types...); got != tt.want {
			t.Errorf("HasMemories(%s, %v) = %v, want %v", tt.user, tt.types, got, tt.want)
		}
	}
	must(t, "DeleteMemories", s.DeleteMemories(ctx, "alice"))
	if has("alice") || !has("bob") {
		t.Errorf("after DeleteMemories(alice): alice %v, bob %v; want false, true", has("alice"), has("bob"))
	}
	must(t, "ForgetUser", s.ForgetUser(ctx, "bob"))
	if has("bob") {
		t.Error("HasMemories(bob) after ForgetUser = true")
	}
}

func sqrt(x float64) float64 {
	// Newton's method keeps the suite free of math just for this.
	z := x
	for range 50 {
		z -= (z*z - x) / (2 * z)
	}
	return z
}

func testMemorySearchSeesWrites(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	q := nadine.MemoryQuery{Embedding: []float32{1, 0}, Embedder: "e1", K: 3}
	search := func() []string {
		res, err := s.SearchMemories(ctx, "alice", q)
		must(t, "SearchMemories", err)
		return texts(res)
	}
	ids := add(t, s, memory("alice", "old", nadine.MemoryFact, 1, "e1", 0, 1))
	if got, want := search(), []string{"old"}; !slices.Equal(got, want) {
		t.Fatalf("search = %q, want %q", got, want)
	}
	add(t, s, memory("alice", "new", nadine.MemoryFact, 2, "e1", 1, 0))
	if got, want := search(), []string{"new", "old"}; !slices.Equal(got, want) {
		t.Errorf("search after AddMemory = %q, want %q", got, want)
	}
	must(t, "UpdateMemoryEmbedding", s.UpdateMemoryEmbedding(ctx, "alice", ids[0], "e1", []float32{1, 0.01}))
	res, err := s.SearchMemories(ctx, "alice", q)
	must(t, "SearchMemories", err)
	if len(res) != 2 || res[1].Text != "old" || res[1].Score < 0.99 {
		t.Errorf("search after UpdateMemoryEmbedding = %+v, want old with score near 1", res)
	}
	appendN(t, s, "alice", "c1", 0, 20)
	must(t, "StoreChunk", s.StoreChunk(ctx, "alice", "c1", 0, memory("alice", "chunk", nadine.MemoryConversation, 3, "e1", 1, 0)))
	if got := search(); len(got) != 3 || !slices.Contains(got, "chunk") {
		t.Errorf("search after StoreChunk = %q, want the chunk among 3", got)
	}
	must(t, "DeleteMemories", s.DeleteMemories(ctx, "alice"))
	if got := search(); len(got) != 0 {
		t.Errorf("search after DeleteMemories = %q, want none", got)
	}
	final := memory("alice", "final", nadine.MemoryConversation, 4, "e1", 1, 0)
	must(t, "EndConversation", s.EndConversation(ctx, "alice", "c1", &final))
	if got, want := search(), []string{"final"}; !slices.Equal(got, want) {
		t.Errorf("search after EndConversation = %q, want %q", got, want)
	}
	must(t, "ForgetUser", s.ForgetUser(ctx, "alice"))
	if got := search(); len(got) != 0 {
		t.Errorf("search after ForgetUser = %q, want none", got)
	}
}

func testMemoryIsolation(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	const users, perUser, dims = 50, 4, 8
	rng := rand.New(rand.NewPCG(1, 2))
	vecs := map[string][][]float32{}
	owner := map[int64]string{}
	for u := range users {
		user := fmt.Sprintf("user-%02d", u)
		for d := range perUser {
			v := make([]float32, dims)
			for i := range v {
				v[i] = float32(rng.NormFloat64())
			}
			vecs[user] = append(vecs[user], v)
			typ := []nadine.MemoryType{nadine.MemoryConversation, nadine.MemoryEpisode, nadine.MemoryFact}[d%3]
			id := add(t, s, memory(user, fmt.Sprintf("%s doc %d", user, d), typ, d, "e1", v...))[0]
			owner[id] = user
		}
	}
	for u := range users {
		user := fmt.Sprintf("user-%02d", u)
		other := fmt.Sprintf("user-%02d", (u+1)%users)
		for d := range perUser {
			// The query is exactly another user's document: a perfect match
			// that must never come back.
			for _, k := range []int{1, perUser, 100} {
				res, err := s.SearchMemories(ctx, user, nadine.MemoryQuery{Embedding: vecs[other][d], Embedder: "e1", K: k})
				must(t, "SearchMemories", err)
				if want := min(k, perUser); len(res) != want {
					t.Errorf("%s: search with %s's doc %d, K %d: %d results, want %d", user, other, d, k, len(res), want)
				}
				for _, r := range res {
					if r.UserID != user || owner[r.ID] != user || !strings.HasPrefix(r.Text, user+" ") {
						t.Fatalf("%s: search returned %+v, which belongs to %q", user, r.Memory, owner[r.ID])
					}
					if r.Score > 0.999999 {
						t.Errorf("%s: result %q scored %v against another user's vector", user, r.Text, r.Score)
					}
				}
			}
		}
		ms, err := s.Memories(ctx, user)
		must(t, "Memories", err)
		if len(ms) != perUser {
			t.Errorf("Memories(%s) = %d memories, want %d", user, len(ms), perUser)
		}
		for _, m := range ms {
			if m.UserID != user || owner[m.ID] != user {
				t.Fatalf("Memories(%s) returned %+v of %q", user, m, owner[m.ID])
			}
		}
	}
}

// fixture returns the checkpoint keys it saved for the user.
func fixture(t *testing.T, s nadine.Store, user string) []string {
	ctx := t.Context()
	must(t, "SaveProfile", s.SaveProfile(ctx, nadine.Profile{UserID: user, UserName: "Name of " + user, Hobbies: []string{"chess"}, LastUpdated: t0}))
	appendN(t, s, user, "c1", 0, 22)
	must(t, "StoreChunk", s.StoreChunk(ctx, user, "c1", 0, chunk(user, "c1", 0)))
	appendN(t, s, user, "c0", 0, 2)
	must(t, "EndConversation", s.EndConversation(ctx, user, "c0", nil))
	add(t, s, memory(user, user+" fact", nadine.MemoryFact, 1, "e1", 1, 0), memory(user, user+" episode", nadine.MemoryEpisode, 2, "e1", 0, 1))
	must(t, "UpsertScenes", s.UpsertScenes(ctx, []nadine.Scene{{UserID: user, SceneID: "s1", Time: t0, ImagePath: "scenes/" + user + ".jpg"}}))
	keys := []string{user + "/graph", user + "/a/b"}
	for _, k := range keys {
		must(t, "SaveCheckpoint", s.SaveCheckpoint(ctx, k, []byte("state of "+k)))
	}
	return keys
}

// wantUserData checks that everything fixture stored for user is there.
func wantUserData(t *testing.T, s nadine.Store, user string, keys []string) {
	t.Helper()
	ctx := t.Context()
	p, err := s.Profile(ctx, user)
	if err != nil || p.UserName != "Name of "+user {
		t.Errorf("Profile(%s) = %+v, %v; want the saved profile", user, p, err)
	}
	c, err := s.Conversation(ctx, user, "c1")
	if err != nil || c.Count != 22 || c.ChunksStored != 1 {
		t.Errorf("Conversation(%s, c1) = %+v, %v; want 22 messages and 1 chunk", user, c, err)
	}
	msgs, err := s.RecentMessages(ctx, user, "c1", 0)
	if err != nil || len(msgs) != 22 {
		t.Errorf("RecentMessages(%s) = %d messages, %v; want 22", user, len(msgs), err)
	}
	ms, err := s.Memories(ctx, user)
	if err != nil || len(ms) != 3 {
		t.Errorf("Memories(%s) = %d memories, %v; want 3", user, len(ms), err)
	}
	sc, err := s.Scenes(ctx, user)
	if err != nil || len(sc) != 1 {
		t.Errorf("Scenes(%s) = %d scenes, %v; want 1", user, len(sc), err)
	}
	for _, k := range keys {
		data, err := s.LoadCheckpoint(ctx, k)
		if err != nil || string(data) != "state of "+k {
			t.Errorf("LoadCheckpoint(%s) = %q, %v; want the saved state", k, data, err)
		}
	}
}

func testForgetUser(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	aliceKeys := fixture(t, s, "alice")
	// alice2 and "alice" + other characters share alice's prefix but not
	// "alice/": they must survive.
	alice2Keys := fixture(t, s, "alice2")
	bobKeys := fixture(t, s, "bob")
	must(t, "SaveCheckpoint", s.SaveCheckpoint(ctx, "alice", []byte("state of alice")))
	must(t, "SaveCheckpoint", s.SaveCheckpoint(ctx, "alice-graph", []byte("state of alice-graph")))
	must(t, "SaveCheckpoint", s.SaveCheckpoint(ctx, "global", []byte("state of global")))
	must(t, "SaveCheckpoint", s.SaveCheckpoint(ctx, "x/alice/y", []byte("state of x/alice/y")))

	must(t, "ForgetUser", s.ForgetUser(ctx, "alice"))

	_, err := s.Profile(ctx, "alice")
	wantCode(t, "Profile after ForgetUser", err, nadine.ENOTFOUND)
	users, err := s.Users(ctx)
	must(t, "Users", err)
	for _, u := range users {
		if u.ID == "alice" {
			t.Errorf("Users after ForgetUser = %v, still has alice", users)
		}
	}
	if len(users) != 2 {
		t.Errorf("Users after ForgetUser = %v, want alice2 and bob", users)
	}
	for _, conv := range []string{"c0", "c1"} {
		_, err = s.Conversation(ctx, "alice", conv)
		wantCode(t, "Conversation after ForgetUser", err, nadine.ENOTFOUND)
	}
	msgs, err := s.RecentMessages(ctx, "alice", "c1", 0)
	if err != nil || len(msgs) != 0 {
		t.Errorf("RecentMessages after ForgetUser = %v, %v; want none", msgs, err)
	}
	open, err := s.OpenConversations(ctx)
	must(t, "OpenConversations", err)
	for _, c := range open {
		if c.UserID == "alice" {
			t.Errorf("OpenConversations after ForgetUser has %+v", c)
		}
	}
	ms, err := s.Memories(ctx, "alice")
	if err != nil || len(ms) != 0 {
		t.Errorf("Memories after ForgetUser = %v, %v; want none", ms, err)
	}
	res, err := s.SearchMemories(ctx, "alice", nadine.MemoryQuery{Embedding: []float32{1, 0}, Embedder: "e1", K: 5})
	if err != nil || len(res) != 0 {
		t.Errorf("SearchMemories after ForgetUser = %v, %v; want none", res, err)
	}
	sc, err := s.Scenes(ctx, "alice")
	if err != nil || len(sc) != 0 {
		t.Errorf("Scenes after ForgetUser = %v, %v; want none", sc, err)
	}
	for _, k := range aliceKeys {
		_, err := s.LoadCheckpoint(ctx, k)
		wantCode(t, "LoadCheckpoint("+k+") after ForgetUser", err, nadine.ENOTFOUND)
	}
	wantUserData(t, s, "alice2", alice2Keys)
	wantUserData(t, s, "bob", bobKeys)
	for _, k := range []string{"alice", "alice-graph", "global", "x/alice/y"} {
		data, err := s.LoadCheckpoint(ctx, k)
		if err != nil || string(data) != "state of "+k {
			t.Errorf("LoadCheckpoint(%s) after ForgetUser(alice) = %q, %v; want it kept", k, data, err)
		}
	}
	must(t, "ForgetUser of an unknown user", s.ForgetUser(ctx, "nobody"))
	must(t, "ForgetUser twice", s.ForgetUser(ctx, "alice"))
}

// testUserIDs: every table's ids, once each and ordered, until forgotten.
func testUserIDs(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	ids, err := s.UserIDs(ctx)
	if err != nil || len(ids) != 0 {
		t.Fatalf("UserIDs of an empty store = %v, %v; want none", ids, err)
	}
	// One id per holder: a name only (face_stored), a profile, a
	// conversation only (a plain name on user/name), a memory
	// only, a scene only; and one with everything.
	must(t, "SetUserName", s.SetUserName(ctx, "face-17", "Robin"))
	must(t, "SaveProfile", s.SaveProfile(ctx, nadine.Profile{UserID: "p-1", UserName: "Pat", LastUpdated: t0}))
	appendN(t, s, "Alex", "c1", 0, 2)
	add(t, s, memory("m-1", "a memory", nadine.MemoryFact, 1, "e1", 1, 0))
	must(t, "UpsertScenes", s.UpsertScenes(ctx, []nadine.Scene{{UserID: "s-1", SceneID: "s1", Time: t0}}))
	fixture(t, s, "all")
	must(t, "SaveCheckpoint", s.SaveCheckpoint(ctx, "robot/affect", []byte("{}")))

	want := []string{"Alex", "all", "face-17", "m-1", "p-1", "s-1"}
	ids, err = s.UserIDs(ctx)
	must(t, "UserIDs", err)
	if !slices.Equal(ids, want) {
		t.Errorf("UserIDs = %q, want %q", ids, want)
	}
	for _, id := range []string{"Alex", "m-1", "s-1", "all"} {
		must(t, "ForgetUser "+id, s.ForgetUser(ctx, id))
	}
	ids, err = s.UserIDs(ctx)
	must(t, "UserIDs", err)
	if want := []string{"face-17", "p-1"}; !slices.Equal(ids, want) {
		t.Errorf("UserIDs after forgetting = %q, want %q", ids, want)
	}
}

// testForgetPerson goes through nadine.Forgetter, the one erase path of the
// CLI, the API and the monitor: nothing stays under the person's id.
func testForgetPerson(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	fixture(t, s, "alex-3f9a1c")     // a graph profile, named "Name of alex-3f9a1c"
	appendN(t, s, "Sam", "c1", 0, 4) // a plain name is the id
	add(t, s, memory("Sam", "Sam likes tea", nadine.MemoryConversation, 1, "e1", 1, 0))
	must(t, "SetUserName", s.SetUserName(ctx, "face-9", "Kim")) // a face-recognition id
	add(t, s, memory("face-9", "Kim is a pilot", nadine.MemoryEpisode, 2, "e1", 0, 1))
	must(t, "SaveProfile", s.SaveProfile(ctx, nadine.Profile{UserID: "lee-1", UserName: "Lee", LastUpdated: t0}))
	must(t, "SaveProfile", s.SaveProfile(ctx, nadine.Profile{UserID: "lee-2", UserName: "LEE", LastUpdated: t0}))
	bobKeys := fixture(t, s, "bob")

	people, err := nadine.People(ctx, s)
	must(t, "People", err)
	wantPeople := []nadine.UserRef{{ID: "Sam", Name: "Sam"}, {ID: "alex-3f9a1c", Name: "Name of alex-3f9a1c"},
		{ID: "bob", Name: "Name of bob"}, {ID: "face-9", Name: "Kim"}, {ID: "lee-1", Name: "Lee"}, {ID: "lee-2", Name: "LEE"}}
	if !slices.Equal(people, wantPeople) {
		t.Errorf("People = %v, want %v", people, wantPeople)
	}

	erased := map[string]bool{}
	f := &nadine.Forgetter{Store: s, Also: []nadine.UserEraser{nadine.UserEraserFunc(func(_ context.Context, id string) error {
		erased[id] = true
		return nil
	})}}
	for _, tt := range []struct{ who, id string }{
		{"alex-3f9a1c", "alex-3f9a1c"}, // profile id
		{"sam", "Sam"},                 // a plain name, another case
		{" Kim ", "face-9"},            // display name of a face id
	} {
		u, err := f.Forget(ctx, tt.who)
		if err != nil || u.ID != tt.id {
			t.Errorf("Forget(%q) = %+v, %v; want %s", tt.who, u, err, tt.id)
			continue
		}
		if !erased[tt.id] {
			t.Errorf("Forget(%q) did not ask the other holders to erase %s", tt.who, tt.id)
		}
		if ms, err := s.Memories(ctx, tt.id); err != nil || len(ms) != 0 {
			t.Errorf("Memories(%s) after Forget = %d, %v; want none", tt.id, len(ms), err)
		}
		if msgs, err := s.RecentMessages(ctx, tt.id, "c1", 0); err != nil || len(msgs) != 0 {
			t.Errorf("RecentMessages(%s) after Forget = %d, %v; want none", tt.id, len(msgs), err)
		}
	}
	ids, err := s.UserIDs(ctx)
	must(t, "UserIDs", err)
	if want := []string{"bob", "lee-1", "lee-2"}; !slices.Equal(ids, want) {
		t.Errorf("UserIDs after forgetting = %q, want %q", ids, want)
	}
	_, err = f.Forget(ctx, "lee")
	wantCode(t, "Forget of an ambiguous name", err, nadine.EINVALID)
	if !strings.Contains(err.Error(), "lee-1") || !strings.Contains(err.Error(), "lee-2") {
		t.Errorf("ambiguity error %q does not list the candidates", err)
	}
	_, err = f.Forget(ctx, "nobody")
	wantCode(t, "Forget of nobody", err, nadine.ENOTFOUND)
	if u, err := f.Forget(ctx, "lee-2"); err != nil || u.ID != "lee-2" {
		t.Errorf("Forget(lee-2) = %+v, %v", u, err)
	}
	wantUserData(t, s, "bob", bobKeys)
}

func testDeleteMemories(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	fixture(t, s, "alice")
	bobKeys := fixture(t, s, "bob")
	must(t, "DeleteMemories", s.DeleteMemories(ctx, "alice"))

	ms, err := s.Memories(ctx, "alice")
	if err != nil || len(ms) != 0 {
		t.Errorf("Memories after DeleteMemories = %v, %v; want none", ms, err)
	}
	res, err := s.SearchMemories(ctx, "alice", nadine.MemoryQuery{Embedding: []float32{1, 0}, Embedder: "e1", K: 5})
	if err != nil || len(res) != 0 {
		t.Errorf("SearchMemories after DeleteMemories = %v, %v; want none", res, err)
	}
	p, err := s.Profile(ctx, "alice")
	if err != nil || p.UserName != "Name of alice" {
		t.Errorf("Profile after DeleteMemories = %+v, %v; want it kept", p, err)
	}
	c, err := s.Conversation(ctx, "alice", "c1")
	if err != nil || c.Count != 22 {
		t.Errorf("Conversation after DeleteMemories = %+v, %v; want it kept", c, err)
	}
	wantUserData(t, s, "bob", bobKeys)
}

func testMemoryEmbedders(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	ids := add(t, s,
		memory("alice", "a", nadine.MemoryFact, 1, "e1", 1, 0),
		memory("alice", "b", nadine.MemoryFact, 2, "e2", 1, 0, 0),
		memory("bob", "c", nadine.MemoryFact, 3, "e1", 0, 1),
		memory("bob", "d", nadine.MemoryFact, 4, ""), // no vector
	)
	got, err := s.MemoryEmbedders(ctx)
	must(t, "MemoryEmbedders", err)
	if want := map[string]int{"e1": 2, "e2": 1}; !mapsEqual(got, want) {
		t.Errorf("MemoryEmbedders = %v, want %v", got, want)
	}

	// Re-embed alice's "a" into e2.
	must(t, "UpdateMemoryEmbedding", s.UpdateMemoryEmbedding(ctx, "alice", ids[0], "e2", []float32{0, 0, 1}))
	got, err = s.MemoryEmbedders(ctx)
	must(t, "MemoryEmbedders", err)
	if want := map[string]int{"e1": 1, "e2": 2}; !mapsEqual(got, want) {
		t.Errorf("MemoryEmbedders after update = %v, want %v", got, want)
	}
	res, err := s.SearchMemories(ctx, "alice", nadine.MemoryQuery{Embedding: []float32{0, 0, 1}, Embedder: "e2", K: 1})
	must(t, "SearchMemories", err)
	if len(res) != 1 || res[0].Text != "a" || res[0].Score < 0.9999 {
		t.Errorf("SearchMemories in the new space = %+v, want a with score 1", res)
	}
	res, err = s.SearchMemories(ctx, "alice", nadine.MemoryQuery{Embedding: []float32{1, 0}, Embedder: "e1", K: 5})
	must(t, "SearchMemories", err)
	if len(res) != 0 {
		t.Errorf("SearchMemories in the old space = %+v, want none", res)
	}

	// Another user's memory id, and an unknown id, are not found; nothing changes.
	err = s.UpdateMemoryEmbedding(ctx, "bob", ids[1], "e1", []float32{1, 0})
	wantCode(t, "UpdateMemoryEmbedding of another user's memory", err, nadine.ENOTFOUND)
	err = s.UpdateMemoryEmbedding(ctx, "alice", ids[3]+1000, "e1", []float32{1, 0})
	wantCode(t, "UpdateMemoryEmbedding of an unknown id", err, nadine.ENOTFOUND)
	res, err = s.SearchMemories(ctx, "alice", nadine.MemoryQuery{Embedding: []float32{1, 0, 0}, Embedder: "e2", K: 1})
	must(t, "SearchMemories", err)
	if len(res) != 1 || res[0].Text != "b" || res[0].Score < 0.9999 {
		t.Errorf("alice's b after bob's update attempt = %+v, want unchanged", res)
	}
}

func testKnowledge(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	chunks := []nadine.KnowledgeChunk{
		{Source: "nadine.pdf", Title: "Hardware", Text: "Nadine has 27 degrees of freedom.", Embedder: "e1", Embedding: []float32{1, 0, 0},
			Metadata: map[string]string{"visual": "images/hardware.png"}},
		{Source: "nadine.pdf", Title: "Software", Text: "Nadine runs an interaction layer.", Embedder: "e1", Embedding: []float32{0.6, 0.8, 0}},
		{Source: "wiki.txt", Title: "History", Text: "Nadine was unveiled in 2013.", Embedder: "e2", Embedding: []float32{1, 0, 0}},
	}
	must(t, "AddKnowledge", s.AddKnowledge(ctx, chunks))
	must(t, "AddKnowledge of nothing", s.AddKnowledge(ctx, nil))
	n, err := s.KnowledgeCount(ctx)
	must(t, "KnowledgeCount", err)
	if n != 3 {
		t.Errorf("KnowledgeCount = %d, want 3", n)
	}
	spaces, err := s.KnowledgeEmbedders(ctx)
	must(t, "KnowledgeEmbedders", err)
	if len(spaces) != 2 || spaces["e1"] != 2 || spaces["e2"] != 1 {
		t.Errorf("KnowledgeEmbedders = %v, want e1:2 e2:1", spaces)
	}
	// A personal memory with the very same vector is not knowledge.
	add(t, s, memory("alice", "personal", nadine.MemoryFact, 1, "e1", 1, 0, 0))

	tests := []struct {
		name     string
		q        []float32
		embedder string
		k        int
		want     []string
	}{
		{"all of e1", []float32{1, 0, 0}, "e1", 5, []string{"Hardware", "Software"}},
		{"top 1", []float32{0, 1, 0}, "e1", 1, []string{"Software"}},
		{"other space", []float32{1, 0, 0}, "e2", 5, []string{"History"}},
		{"other dimension", []float32{1, 0}, "e1", 5, nil},
	}
	for _, tt := range tests {
		res, err := s.SearchKnowledge(ctx, tt.q, tt.embedder, tt.k)
		must(t, "SearchKnowledge "+tt.name, err)
		var got []string
		for _, r := range res {
			got = append(got, r.Title)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("SearchKnowledge %s = %q, want %q", tt.name, got, tt.want)
		}
	}
	res, err := s.SearchKnowledge(ctx, []float32{1, 0, 0}, "e1", 1)
	must(t, "SearchKnowledge", err)
	if len(res) != 1 || res[0].Source != "nadine.pdf" || res[0].Text != chunks[0].Text ||
		res[0].Metadata["visual"] != "images/hardware.png" || res[0].Embedder != "e1" || res[0].Score < 0.9999 || res[0].ID == 0 {
		t.Errorf("SearchKnowledge = %+v, want the Hardware chunk with its fields and score 1", res)
	}
	// Knowledge is not personal memory either.
	mres, err := s.SearchMemories(ctx, "alice", nadine.MemoryQuery{Embedding: []float32{1, 0, 0}, Embedder: "e1", K: 10})
	must(t, "SearchMemories", err)
	if got := texts(mres); !slices.Equal(got, []string{"personal"}) {
		t.Errorf("SearchMemories = %q, want only alice's memory", got)
	}

	must(t, "ClearKnowledge", s.ClearKnowledge(ctx))
	n, err = s.KnowledgeCount(ctx)
	must(t, "KnowledgeCount", err)
	if n != 0 {
		t.Errorf("KnowledgeCount after ClearKnowledge = %d, want 0", n)
	}
	res, err = s.SearchKnowledge(ctx, []float32{1, 0, 0}, "e1", 5)
	must(t, "SearchKnowledge", err)
	if len(res) != 0 {
		t.Errorf("SearchKnowledge after ClearKnowledge = %+v, want none", res)
	}
	mres, err = s.SearchMemories(ctx, "alice", nadine.MemoryQuery{Embedding: []float32{1, 0, 0}, Embedder: "e1", K: 10})
	must(t, "SearchMemories", err)
	if len(mres) != 1 {
		t.Errorf("SearchMemories after ClearKnowledge = %+v, want alice's memory kept", mres)
	}
	must(t, "AddKnowledge after clear", s.AddKnowledge(ctx, chunks[2:]))
	res, err = s.SearchKnowledge(ctx, []float32{1, 0, 0}, "e2", 5)
	must(t, "SearchKnowledge", err)
	if len(res) != 1 || res[0].Title != "History" {
		t.Errorf("SearchKnowledge after re-adding = %+v, want History", res)
	}
}

func equalScene(t *testing.T, got, want nadine.Scene) {
	t.Helper()
	if got.UserID != want.UserID || got.SceneID != want.SceneID || !got.Time.Equal(want.Time) ||
		got.ImagePath != want.ImagePath || got.Memorability != want.Memorability || got.Description != want.Description ||
		!mapsEqual(got.EmotionProbs, want.EmotionProbs) || !slices.Equal(got.ImageEmbedding, want.ImageEmbedding) ||
		!slices.Equal(got.DescriptionEmbedding, want.DescriptionEmbedding) || got.DescriptionEmbedder != want.DescriptionEmbedder {
		t.Errorf("scene = %+v, want %+v", got, want)
	}
}

func scenesByID(t *testing.T, s nadine.Store, user string) map[string]nadine.Scene {
	t.Helper()
	scenes, err := s.Scenes(t.Context(), user)
	must(t, "Scenes", err)
	out := map[string]nadine.Scene{}
	for _, sc := range scenes {
		out[sc.SceneID] = sc
	}
	if len(out) != len(scenes) {
		t.Errorf("Scenes(%s) lists a scene id twice: %+v", user, scenes)
	}
	return out
}

func testScenes(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	a1 := nadine.Scene{UserID: "alice", SceneID: "s1", Time: t0, ImagePath: "scenes/a1.jpg", Memorability: 0.8,
		EmotionProbs: map[string]float64{"joy": 0.7, "neutral": 0.3}, Description: "Alice waving",
		ImageEmbedding: []float32{0.1, 0.2, 0.3}, DescriptionEmbedding: []float32{1, 0}, DescriptionEmbedder: "e1"}
	a2 := nadine.Scene{UserID: "alice", SceneID: "s2", Time: t0.Add(time.Hour), ImagePath: "scenes/a2.jpg", Memorability: 0.5}
	b1 := nadine.Scene{UserID: "bob", SceneID: "s1", Time: t0, ImagePath: "scenes/b1.jpg", Memorability: 0.9, Description: "Bob"}
	must(t, "UpsertScenes", s.UpsertScenes(ctx, []nadine.Scene{a1, a2, b1}))
	must(t, "UpsertScenes of nothing", s.UpsertScenes(ctx, nil))

	got := scenesByID(t, s, "alice")
	if len(got) != 2 {
		t.Fatalf("Scenes(alice) = %+v, want s1 and s2", got)
	}
	equalScene(t, got["s1"], a1)
	equalScene(t, got["s2"], a2)
	gotB := scenesByID(t, s, "bob")
	if len(gotB) != 1 {
		t.Fatalf("Scenes(bob) = %+v, want s1", gotB)
	}
	equalScene(t, gotB["s1"], b1)

	// Upsert replaces by (user, scene id) only.
	a1b := a1
	a1b.Description, a1b.Memorability, a1b.EmotionProbs = "Alice laughing", 0.95, map[string]float64{"joy": 1}
	a1b.DescriptionEmbedding = []float32{0, 1}
	must(t, "UpsertScenes update", s.UpsertScenes(ctx, []nadine.Scene{a1b}))
	got = scenesByID(t, s, "alice")
	if len(got) != 2 {
		t.Fatalf("Scenes(alice) after update = %+v, want 2", got)
	}
	equalScene(t, got["s1"], a1b)
	equalScene(t, got["s2"], a2)
	gotB = scenesByID(t, s, "bob")
	equalScene(t, gotB["s1"], b1)

	if got := scenesByID(t, s, "carol"); len(got) != 0 {
		t.Errorf("Scenes(carol) = %+v, want none", got)
	}
}

func testCheckpoints(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	_, err := s.LoadCheckpoint(ctx, "alice/graph")
	wantCode(t, "LoadCheckpoint of a missing key", err, nadine.ENOTFOUND)

	state := []byte{0, 1, 2, 255, 'x'}
	must(t, "SaveCheckpoint", s.SaveCheckpoint(ctx, "alice/graph", state))
	must(t, "SaveCheckpoint other", s.SaveCheckpoint(ctx, "bob/graph", []byte("bob")))
	got, err := s.LoadCheckpoint(ctx, "alice/graph")
	must(t, "LoadCheckpoint", err)
	if !slices.Equal(got, state) {
		t.Errorf("LoadCheckpoint = %v, want %v", got, state)
	}
	must(t, "SaveCheckpoint overwrite", s.SaveCheckpoint(ctx, "alice/graph", []byte("second")))
	got, err = s.LoadCheckpoint(ctx, "alice/graph")
	must(t, "LoadCheckpoint", err)
	if string(got) != "second" {
		t.Errorf("LoadCheckpoint after overwrite = %q, want %q", got, "second")
	}
	must(t, "SaveCheckpoint empty", s.SaveCheckpoint(ctx, "empty", nil))
	got, err = s.LoadCheckpoint(ctx, "empty")
	must(t, "LoadCheckpoint empty", err)
	if len(got) != 0 {
		t.Errorf("LoadCheckpoint of empty data = %v, want empty", got)
	}

	must(t, "DeleteCheckpoint", s.DeleteCheckpoint(ctx, "alice/graph"))
	_, err = s.LoadCheckpoint(ctx, "alice/graph")
	wantCode(t, "LoadCheckpoint after delete", err, nadine.ENOTFOUND)
	must(t, "DeleteCheckpoint of a missing key", s.DeleteCheckpoint(ctx, "alice/graph"))
	got, err = s.LoadCheckpoint(ctx, "bob/graph")
	must(t, "LoadCheckpoint other", err)
	if string(got) != "bob" {
		t.Errorf("LoadCheckpoint(bob/graph) = %q, want it kept", got)
	}
}

func testEmptyUserID(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	m := memory("", "x", nadine.MemoryFact, 1, "e1", 1, 0)
	calls := []struct {
		name string
		call func() error
	}{
		{"Profile", func() error { _, err := s.Profile(ctx, ""); return err }},
		{"SaveProfile", func() error { return s.SaveProfile(ctx, nadine.Profile{UserName: "X"}) }},
		{"SetUserName", func() error { return s.SetUserName(ctx, "", "X") }},
		{"ForgetUser", func() error { return s.ForgetUser(ctx, "") }},
		{"AppendMessage", func() error { _, err := s.AppendMessage(ctx, "", "c1", message(0)); return err }},
		{"RecentMessages", func() error { _, err := s.RecentMessages(ctx, "", "c1", 5); return err }},
		{"AmendMessage", func() error { return s.AmendMessage(ctx, "", "c1", 0, "x") }},
		{"MessageRange", func() error { _, err := s.MessageRange(ctx, "", "c1", 0, 5); return err }},
		{"Conversation", func() error { _, err := s.Conversation(ctx, "", "c1"); return err }},
		{"StoreChunk", func() error { return s.StoreChunk(ctx, "", "c1", 0, m) }},
		{"EndConversation", func() error { return s.EndConversation(ctx, "", "c1", nil) }},
		{"AddMemory", func() error { _, err := s.AddMemory(ctx, m); return err }},
		{"SearchMemories", func() error {
			_, err := s.SearchMemories(ctx, "", nadine.MemoryQuery{Embedding: []float32{1, 0}, Embedder: "e1", K: 5})
			return err
		}},
		{"Memories", func() error { _, err := s.Memories(ctx, ""); return err }},
		{"HasMemories", func() error { _, err := s.HasMemories(ctx, ""); return err }},
		{"DeleteMemories", func() error { return s.DeleteMemories(ctx, "") }},
		{"UpdateMemoryEmbedding", func() error { return s.UpdateMemoryEmbedding(ctx, "", 1, "e1", []float32{1}) }},
		{"UpsertScenes", func() error { return s.UpsertScenes(ctx, []nadine.Scene{{SceneID: "s1"}}) }},
		{"Scenes", func() error { _, err := s.Scenes(ctx, ""); return err }},
	}
	for _, c := range calls {
		wantCode(t, c.name+" with an empty user id", c.call(), nadine.EINVALID)
	}
	users, err := s.Users(ctx)
	must(t, "Users", err)
	if len(users) != 0 {
		t.Errorf("Users = %v after rejected calls, want none", users)
	}
}

func testText(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	bad := "caf\xe9 \xff\xfe ok"
	repaired := strings.ToValidUTF8(bad, "\uFFFD")
	huge := strings.Repeat("All work and no play makes Nadine a dull robot. ", 1<<15) // 1.5 MB
	tests := []struct {
		name string
		text string
	}{
		{"invalid UTF-8", bad},
		{"huge", huge},
		{"unicode", "你好, Grüße, 🤖"},
		{"empty", ""},
	}
	for i, tt := range tests {
		m := memory("alice", tt.text, nadine.MemoryFact, i, "e1", 1, float32(i))
		m.ConversationID, m.Metadata = "c1", map[string]string{"case": tt.name}
		id, err := s.AddMemory(ctx, m)
		must(t, "AddMemory "+tt.name, err)
		ms, err := s.Memories(ctx, "alice")
		must(t, "Memories", err)
		var got *nadine.Memory
		for j := range ms {
			if ms[j].ID == id {
				got = &ms[j]
			}
		}
		if got == nil {
			t.Fatalf("%s: memory %d not listed", tt.name, id)
		}
		want := tt.text
		if got.Text != want && got.Text != strings.ToValidUTF8(want, "\uFFFD") {
			t.Errorf("%s: text read back = %d bytes %.40q, want %d bytes %.40q (or repaired)", tt.name, len(got.Text), got.Text, len(want), want)
		}
	}
	msg := nadine.Message{Role: nadine.RoleUser, Content: bad, Name: "Al\xffce", Time: t0.Unix()}
	_, err := s.AppendMessage(ctx, "alice", "c1", msg)
	must(t, "AppendMessage with invalid UTF-8", err)
	_, err = s.AppendMessage(ctx, "alice", "c1", nadine.Message{Role: nadine.RoleUser, Content: huge, Time: t0.Unix()})
	must(t, "AppendMessage huge", err)
	msgs, err := s.RecentMessages(ctx, "alice", "c1", 0)
	must(t, "RecentMessages", err)
	if len(msgs) != 2 {
		t.Fatalf("RecentMessages = %d messages, want 2", len(msgs))
	}
	if msgs[0].Content != bad && msgs[0].Content != repaired {
		t.Errorf("message content = %q, want %q or %q", msgs[0].Content, bad, repaired)
	}
	if msgs[1].Content != huge {
		t.Errorf("huge message content = %d bytes, want %d", len(msgs[1].Content), len(huge))
	}
	must(t, "SaveProfile with invalid UTF-8", s.SaveProfile(ctx, nadine.Profile{UserID: "alice", UserName: "Al\xffce", Hobbies: []string{"t\xffa"}, LastUpdated: t0}))
	if _, err := s.Profile(ctx, "alice"); err != nil {
		t.Errorf("Profile after saving invalid UTF-8: %v", err)
	}
}
