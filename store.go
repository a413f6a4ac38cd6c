package nadine

import (
	"context"
	"time"
)

// Profile is what Nadine knows about a person (the graph's user_info.json).
type Profile struct {
	UserID          string    `json:"user_id"`
	UserName        string    `json:"user_name"`
	CurrentCompany  string    `json:"current_company,omitempty"`
	CurrentPosition string    `json:"current_position,omitempty"`
	Location        string    `json:"location,omitempty"`
	Hobbies         []string  `json:"hobbies,omitempty"`
	Interests       []string  `json:"interests,omitempty"`
	FaceImagePath   string    `json:"face_image_path,omitempty"`
	LastUpdated     time.Time `json:"last_updated"`
}

// MemoryType is the kind of a long-term memory document.
type MemoryType string

// Memory types: raw conversation chunks (the ReAct memory), episode
// summaries (the graph's memory agents), and extracted facts.
const (
	MemoryConversation MemoryType = "conversation"
	MemoryEpisode      MemoryType = "episode"
	MemoryFact         MemoryType = "fact"
)

// Memory is one long-term memory document of one user.
type Memory struct {
	ID             int64             `json:"id"`
	UserID         string            `json:"user_id"`
	Type           MemoryType        `json:"type"`
	Text           string            `json:"text"`
	ConversationID string            `json:"conversation_id,omitempty"`
	Time           time.Time         `json:"time"`               // date, time and timestamp of the metadata
	Metadata       map[string]string `json:"metadata,omitempty"` // anything else
	Embedder       string            `json:"embedder"`           // the Embedder.Name that made Embedding
	Embedding      []float32         `json:"-"`
}

// ScoredMemory is a memory with its cosine similarity to a query.
type ScoredMemory struct {
	Memory
	Score float64 `json:"score"`
}

// MemoryQuery selects one user's memories by similarity.
type MemoryQuery struct {
	Embedding []float32
	Embedder  string       // only vectors of this space are compared
	Types     []MemoryType // all types when empty
	K         int          // how many, best first
}

// KnowledgeChunk is one section of the knowledge base, shared by all users.
type KnowledgeChunk struct {
	ID        int64             `json:"id"`
	Source    string            `json:"source"` // file it came from
	Title     string            `json:"title"`  // section header
	Text      string            `json:"text"`
	Metadata  map[string]string `json:"metadata,omitempty"` // e.g. "visual": an image to show
	Embedder  string            `json:"embedder"`
	Embedding []float32         `json:"-"`
}

// ScoredChunk is a knowledge chunk with its similarity to a query.
type ScoredChunk struct {
	KnowledgeChunk
	Score float64 `json:"score"`
}

// Scene is one memorable scene the perception layer stored for a user
// (the visual memory).
type Scene struct {
	UserID       string             `json:"user_id"`
	SceneID      string             `json:"scene_id"`
	Time         time.Time          `json:"time"`
	ImagePath    string             `json:"image_path"`
	Memorability float64            `json:"memorability"`
	EmotionProbs map[string]float64 `json:"emotion_probs,omitempty"`
	Description  string             `json:"description,omitempty"`
	// ImageEmbedding is the CLIP image vector perception wrote.
	ImageEmbedding []float32 `json:"-"`
	// DescriptionEmbedding embeds Description with DescriptionEmbedder.
	DescriptionEmbedding []float32 `json:"-"`
	DescriptionEmbedder  string    `json:"description_embedder,omitempty"`
}

// Conversation is the persisted state of one user's conversation window.
type Conversation struct {
	UserID       string    `json:"user_id"`
	ID           string    `json:"conversation_id"`
	Count        int       `json:"count"`         // messages appended so far
	ChunksStored int       `json:"chunks_stored"` // window chunks already stored as memories
	Started      time.Time `json:"started"`
	Updated      time.Time `json:"updated"`
	Ended        bool      `json:"ended"`
}

// ProfileStore keeps profiles and the user id → name map.
type ProfileStore interface {
	// Profile returns a user's profile, or an ENOTFOUND error.
	Profile(ctx context.Context, userID string) (Profile, error)
	// SaveProfile stores p as the user's whole profile and records its name
	// in the id → name map.
	SaveProfile(ctx context.Context, p Profile) error
	// SetUserName records a name in the id → name map (face_stored).
	SetUserName(ctx context.Context, userID, name string) error
	// Users lists every known user, ordered by id.
	Users(ctx context.Context) ([]UserRef, error)
	// UserIDs lists every id personal data is stored under, once each and
	// ordered: unlike Users, also ids known only from their data (a face id).
	UserIDs(ctx context.Context) ([]string, error)
	// ForgetUser erases everything about a user (docs/architecture.md#stores):
	// once it returns, not even the store's files hold the erased text.
	ForgetUser(ctx context.Context, userID string) error
}

// HistoryStore persists conversation windows so that a crash or restart
// loses no message and no pending chunk.
type HistoryStore interface {
	// AppendMessage appends a message to a conversation, creating it if
	// needed, and returns the conversation's state after the append.
	AppendMessage(ctx context.Context, userID, convID string, m Message) (Conversation, error)
	// AmendMessage replaces a message's content, so a reply the person cut
	// short is remembered as far as it was said.
	AmendMessage(ctx context.Context, userID, convID string, position int, content string) error
	// RecentMessages returns the last n messages of a conversation, oldest
	// first (all when n <= 0). Messages of an ended conversation are gone.
	RecentMessages(ctx context.Context, userID, convID string, n int) ([]Message, error)
	// MessageRange returns messages [from, to) by position in the conversation.
	MessageRange(ctx context.Context, userID, convID string, from, to int) ([]Message, error)
	// Conversation returns a conversation's state, or ENOTFOUND.
	Conversation(ctx context.Context, userID, convID string) (Conversation, error)
	// OpenConversations lists conversations not ended, for recovery at start.
	OpenConversations(ctx context.Context) ([]Conversation, error)
	// StoreChunk stores chunk number index and advances ChunksStored in one
	// transaction, so a chunk is never stored twice.
	StoreChunk(ctx context.Context, userID, convID string, index int, m Memory) error
	// EndConversation stores final (when not nil) as the last chunk, clears
	// the conversation's messages and marks it ended, in one transaction.
	EndConversation(ctx context.Context, userID, convID string, final *Memory) error
}

// MemoryStore keeps long-term memories. Every method takes the user id: a
// query for one user never returns another user's memory.
type MemoryStore interface {
	// AddMemory stores a memory and returns its id.
	AddMemory(ctx context.Context, m Memory) (int64, error)
	// SearchMemories returns the user's memories most similar to the query,
	// without their vectors (Embedding is nil: nothing on a turn needs it).
	SearchMemories(ctx context.Context, userID string, q MemoryQuery) ([]ScoredMemory, error)
	// Memories lists a user's memories, newest first (all types when none given).
	Memories(ctx context.Context, userID string, types ...MemoryType) ([]Memory, error)
	// HasMemories reads no memory: its cost does not grow with how many the
	// user has (any type when none given).
	HasMemories(ctx context.Context, userID string, types ...MemoryType) (bool, error)
	// DeleteMemories erases a user's long-term memories, keeping the
	// profile, as unrecoverably as ForgetUser.
	DeleteMemories(ctx context.Context, userID string) error
	// MemoryEmbedders counts stored memory vectors per embedder name, so a
	// changed embedder is noticed instead of mixing vector spaces.
	MemoryEmbedders(ctx context.Context) (map[string]int, error)
	// UpdateMemoryEmbedding replaces one memory's vector (re-embedding).
	UpdateMemoryEmbedding(ctx context.Context, userID string, id int64, embedder string, v []float32) error
}

// KnowledgeStore keeps the knowledge base, which is shared by all users and
// kept apart from personal memory.
type KnowledgeStore interface {
	// AddKnowledge stores chunks (with their vectors).
	AddKnowledge(ctx context.Context, chunks []KnowledgeChunk) error
	// SearchKnowledge returns the k chunks most similar to embedding among
	// those embedded by embedder, best first.
	SearchKnowledge(ctx context.Context, embedding []float32, embedder string, k int) ([]ScoredChunk, error)
	// KnowledgeCount returns how many chunks are stored.
	KnowledgeCount(ctx context.Context) (int, error)
	// KnowledgeEmbedders counts stored knowledge vectors per embedder name,
	// so a changed embedder rebuilds the base instead of finding nothing.
	KnowledgeEmbedders(ctx context.Context) (map[string]int, error)
	// ClearKnowledge deletes the whole knowledge base, sources included.
	ClearKnowledge(ctx context.Context) error
	// PutKnowledge replaces each document's source (and those it Replaces)
	// with its chunks, all in one transaction (docs/architecture.md#stores).
	PutKnowledge(ctx context.Context, docs []KnowledgeDocument) error
	// KnowledgeSources lists the recorded sources, ordered by key, with
	// how many chunks each has and their embedder.
	KnowledgeSources(ctx context.Context) ([]KnowledgeSource, error)
	// RemoveKnowledge deletes sources and their chunks in every embedding
	// space and returns how many keys were recorded; an unknown key is no error.
	RemoveKnowledge(ctx context.Context, keys ...string) (int, error)
	// KnowledgeChunks returns the chunks of one source with their vectors,
	// in the order they were stored; an unknown key has none.
	KnowledgeChunks(ctx context.Context, key string) ([]KnowledgeChunk, error)
}

// SceneStore indexes the memorable scenes perception stored.
type SceneStore interface {
	// UpsertScenes stores scenes, replacing those with the same user and
	// scene id.
	UpsertScenes(ctx context.Context, scenes []Scene) error
	// Scenes lists one user's scenes.
	Scenes(ctx context.Context, userID string) ([]Scene, error)
}

// CheckpointStore keeps graph checkpoints between turns and restarts.
type CheckpointStore interface {
	// SaveCheckpoint replaces what key held; a person's keys must start with
	// "<userID>/" so that ForgetUser erases them.
	SaveCheckpoint(ctx context.Context, key string, data []byte) error
	// LoadCheckpoint returns a checkpoint, or ENOTFOUND.
	LoadCheckpoint(ctx context.Context, key string) ([]byte, error)
	// DeleteCheckpoint removes a checkpoint; a missing one is not an error.
	DeleteCheckpoint(ctx context.Context, key string) error
}

// Store is everything Nadine persists. The sqlite package implements it for
// one robot, the postgres package for fleets.
type Store interface {
	ProfileStore
	ProfileUpdater
	HistoryStore
	MemoryStore
	KnowledgeStore
	SceneStore
	CheckpointStore
	Close() error
}
