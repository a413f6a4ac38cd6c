package nadine

import "context"

// Engine turns one user turn into a reply: it emits the events as they
// happen, returns the collected Reply and records its work in TraceFrom(ctx).
type Engine interface {
	// Name names the engine in traces and logs ("react", "graph", "offline").
	Name() string
	// Respond returns an error when it cannot answer; the dialogue manager
	// then falls back to the next engine.
	Respond(ctx context.Context, req Request) (Reply, error)
}

// Request is what an engine gets for one turn.
type Request struct {
	Turn           Turn      // normalized text; language, user and emotion filled in
	ConversationID string    // the conversation this turn belongs to
	History        []Message // the conversation window before this turn, oldest first
	// Mood is Nadine's own emotion after the previous turn, persisted so
	// engines can carry it forward.
	Mood AffectState
	// Session is a copy: engines change the session only by emitting events.
	Session Session
	// Emit receives the turn's events; never nil, safe for concurrent use.
	Emit EmitFunc
	// Filler asks the output for a filler line as the turn starts waiting on
	// something slow; the output decides. Engines call AskFiller instead.
	Filler func()
	// Hold opens a held branch of the output for speculative work; without it
	// nothing is speculated. Engines call StartSpeculation instead.
	Hold func() Branch
	// AfterReply queues work the reply does not need (memory writes) to run in
	// order once it is published, before the next turn; engines call RunAfterReply.
	AfterReply func(fn func(ctx context.Context))
	// FallbackReason is the error code that made an earlier engine fail; empty
	// when this one was asked first, so a fallback never gives a false reason.
	FallbackReason string
}

// AskFiller asks the turn's output for a filler line; without an output it
// does nothing.
func (req Request) AskFiller() {
	if req.Filler != nil {
		req.Filler()
	}
}

// ToolInput returns the input of a call of a tool with text, for this
// turn: its language, person, events, filler and deferred work.
func (req Request) ToolInput(text string) ToolInput {
	return ToolInput{Text: text, Language: req.Turn.Language, UserID: req.Turn.UserID, Emit: req.Emit,
		Filler: req.Filler, AfterReply: req.AfterReply}
}

// RunAfterReply queues fn with req.AfterReply, or runs it now when the
// caller (a test, a tool) gave no queue.
func (req Request) RunAfterReply(ctx context.Context, fn func(ctx context.Context)) {
	runAfterReply(ctx, req.AfterReply, fn)
}

// runAfterReply queues fn with queue, or runs it now without one.
func runAfterReply(ctx context.Context, queue func(fn func(ctx context.Context)), fn func(ctx context.Context)) {
	if queue != nil {
		queue(fn)
		return
	}
	fn(ctx)
}

// Tool's result is an instruction to Nadine ("Tell the human 'I am smiling
// now'"), so a physical action and its spoken acknowledgment stay in one turn.
type Tool interface {
	// Name is the tool's name as the model sees it ("Weather App").
	Name() string
	// Description says when to use the tool, rendered into the prompt.
	Description() string
	// Call emits physical effects (gestures, songs, a language switch)
	// through in.Emit.
	Call(ctx context.Context, in ToolInput) (string, error)
}

// ToolInput is one call of a tool.
type ToolInput struct {
	Text     string   // the model's action_input
	Language Language // the session language (the singing tool offers only songs in it)
	UserID   string
	Emit     EmitFunc // never nil
	// Filler is the turn's Request.Filler, for a slow tool (a search, a new
	// song) to ask for a filler line; tools call AskFiller instead.
	Filler func()
	// AfterReply holds work that outlives the turn (composing a song) until the
	// reply, so an early turn never heard starts none; tools call RunAfterReply.
	AfterReply func(fn func(ctx context.Context))
}

// AskFiller asks the turn's output for a filler line; without one it does
// nothing.
func (in ToolInput) AskFiller() {
	if in.Filler != nil {
		in.Filler()
	}
}

// RunAfterReply queues fn with in.AfterReply, or runs it now when the
// caller (a test) gave no queue.
func (in ToolInput) RunAfterReply(ctx context.Context, fn func(ctx context.Context)) {
	runAfterReply(ctx, in.AfterReply, fn)
}

// Camera captures what the robot sees, for the graph's vision agent.
type Camera interface {
	// Capture's image is held in memory only: what the camera saw of a person
	// (a stranger too) leaves nothing on disk.
	Capture(ctx context.Context) (Image, error)
}
