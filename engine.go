package nadine

import "context"

// Engine turns one user turn into a reply. Two engines answer with models
// (react, the ReAct agent; agents, the multi-agent graph) and one without
// (offline). An engine emits the reply's events through Request.Emit as they
// happen and returns the collected Reply; it records what it did in the
// Trace carried by the context (see TraceFrom).
type Engine interface {
	// Name names the engine in traces and logs ("react", "graph", "offline").
	Name() string
	// Respond answers one turn. It returns an error when it cannot answer;
	// the dialogue manager then falls back to the next engine.
	Respond(ctx context.Context, req Request) (Reply, error)
}

// Request is what an engine gets for one turn.
type Request struct {
	Turn           Turn      // normalized text; language, user and emotion filled in
	ConversationID string    // the conversation this turn belongs to
	History        []Message // the conversation window before this turn, oldest first
	// Mood is Nadine's own emotion after the previous turn (persisted between
	// turns, unlike the original ReAct manager), so engines can carry it forward.
	Mood AffectState
	// Session is the robot's session as the turn starts (a copy: engines
	// change it only by emitting events).
	Session Session
	// Emit receives the turn's events; never nil, safe for concurrent use.
	Emit EmitFunc
	// Filler, when set, asks the turn's output for a filler line ("Let me
	// check that for you.") as the turn starts waiting on something slow;
	// the output decides whether one is said (see dialogue.Output).
	// Engines call AskFiller rather than this field.
	Filler func()
	// Hold, when set, opens a held branch of the turn's output for
	// speculative work: its events are kept until the branch is released
	// or dropped. Engines call StartSpeculation rather than this field;
	// without it nothing is speculated.
	Hold func() Branch
	// AfterReply, when set, queues work the reply does not need (memory
	// and state writes, the next turn's context summary) to run once the
	// reply has been published, before the next turn starts, in the order
	// queued. Engines call RunAfterReply rather than this field.
	AfterReply func(fn func(ctx context.Context))
	// FallbackReason, when set, says why an earlier engine could not
	// answer this turn and this one (typically the offline engine) is
	// answering instead: the error code of that failure (EUNAVAILABLE,
	// ERATELIMIT, EBADOUTPUT, EINTERNAL). It is empty when this engine is
	// the first asked (for example offline by configuration), so that
	// what a fallback says about why is true.
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

// Tool is something the ReAct agent and the graph's tool agents can
// call. Its result is an instruction to Nadine ("Tell the human 'I
// am smiling now'"), so a physical action and its verbal acknowledgment stay
// in one turn.
type Tool interface {
	// Name is the tool's name as the model sees it ("Weather App").
	Name() string
	// Description says when to use the tool, rendered into the prompt.
	Description() string
	// Call runs the tool. Physical effects (gestures, songs, a language
	// switch) are emitted through in.Emit.
	Call(ctx context.Context, in ToolInput) (string, error)
}

// ToolInput is one call of a tool.
type ToolInput struct {
	Text     string   // the model's action_input
	Language Language // the session language (the singing tool offers only songs in it)
	UserID   string
	Emit     EmitFunc // never nil
	// Filler is the turn's Request.Filler: a tool the turn waits on (a
	// search, a new song) asks for a filler line as it starts. Tools call
	// AskFiller rather than this field.
	Filler func()
	// AfterReply is the turn's Request.AfterReply: work a tool starts
	// that outlives the turn (composing a song) waits for the reply, so
	// that a turn that is never heard (an early turn whose final
	// transcript said something else) starts none. Tools call
	// RunAfterReply rather than this field.
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

// Camera captures what the robot currently sees (the graph's vision agent
// asks perception for a capture on the bus).
type Camera interface {
	// Capture returns an image of the current view. It is held in memory
	// only: what the camera saw of a person (a stranger too) leaves
	// nothing on disk.
	Capture(ctx context.Context) (Image, error)
}
