package agents

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
	"github.com/nadine-robot/nadine/graph"
	"github.com/nadine-robot/nadine/tools"
	"github.com/nadine-robot/nadine/visual"
)

// Checkpoint keys under which the engine persists its robot-level state
// through the store's CheckpointStore. What concerns a person is under keys
// that start with "<userID>/" (PersonStateKey, PendingKey), which the
// store's ForgetUser erases.
const (
	// CheckpointKey holds the graph run interrupted by a name question
	// asked to the unknown user; a question asked to a known user id is
	// checkpointed under PendingKey(id).
	CheckpointKey = "robot/graph"
	// StateKey holds the robot-level state between turns (affect,
	// language); the person-level state (who they are, the conversation
	// window and summary, greeting bookkeeping, a pending name question) is
	// under PersonStateKey(id).
	StateKey = "robot/state"
)

// Defaults of Options.
const (
	DefaultNameHigh          = 0.85
	DefaultNameLow           = 0.6
	DefaultConversationLimit = 20
	DefaultMaxSteps          = 4
	// NoContext is the context summary of an empty history.
	NoContext = "No context found"
)

// Options configures the engine. Models (with a response model) is
// required; everything else has a sane zero value, except the two agent
// switches, which are off when false (seed 001's NADINE_ENABLE_* flags).
type Options struct {
	// Models returns the model of a role (see Roles); nil for a role means
	// the node falls back to its default (continue_conversation, neutral
	// affect, an empty plan, ...). The response role is required.
	Models func(role string) nadine.ChatModel
	// Store keeps profiles, memories, knowledge, scenes and checkpoints.
	// Without it nothing is remembered and a pending name question does
	// not survive a restart.
	Store nadine.Store
	// Embedder embeds memory texts and queries, and knowledge queries; it
	// must be the embedder the knowledge base was built with.
	Embedder nadine.Embedder
	// Tools holds the search tools the search agent may use ("Google
	// Search", "Google News", "Weather App"); other tools are ignored.
	Tools []nadine.Tool
	// Camera captures what the robot sees, for the vision agent.
	Camera nadine.Camera
	// Filler says a short line ("Let me check that for you.") before the
	// search agent looks something up and before the vision agent takes a
	// picture, at most once per turn; nil says none.
	Filler *tools.Filler
	// Visual recalls memorable scenes (optional).
	Visual *visual.Retriever
	// MemoryAgents enables the memory update and retrieval agents;
	// VisionAgent enables the camera. Both are off when false.
	MemoryAgents, VisionAgent bool
	// NameHigh and NameLow are the name-similarity thresholds: at or above
	// NameHigh a name links to the known user, in [NameLow, NameHigh)
	// Nadine asks, below NameLow the person is new (0.85 and 0.6).
	NameHigh, NameLow float64
	// ConversationLimit is how many messages of history the state keeps
	// (20).
	ConversationLimit int
	// MaxSteps bounds the tool steps of one plan (4), like the ReAct
	// engine's tool steps; the graph's node budget is derived from it.
	MaxSteps int
	// Personality is Nadine's Big Five (affect.NadinePersonality when
	// zero).
	Personality affect.Personality
	// Now is the clock (time.Now).
	Now func() time.Time
	// NewUserID makes the id of a new user from their name (a slug and a
	// random suffix, "alex-3f9a0c1e").
	NewUserID func(name string) string
	// Logger receives one line per background failure (discarded when
	// nil).
	Logger *slog.Logger

	// SearchSummary has seed 001's search_answer model sum the search
	// results up before the response; when false the response agent reads
	// the results itself, one model call less in sequence (always on with
	// SeedWiring).
	SearchSummary bool

	// SeedWiring builds the original sequential wiring of seed 001
	// (classifier → memory → appraisal → contextualizer → orchestrator →
	// response, no background summary), to measure what the parallel
	// wiring saves (nadine bench, tests). Leave it false.
	SeedWiring bool
}

// Engine is the multi-agent graph engine of seed 001 (engine: graph). It is
// safe for concurrent use; turns run one at a time.
type Engine struct {
	opts    Options
	log     *slog.Logger
	prompts prompts
	models  map[string]nadine.ChatModel
	tools   []nadine.Tool
	run     *graph.Runnable[State]
	cps     graph.Checkpointer

	turnMu sync.Mutex
	state  *State // the state between turns; nil until the first turn
	stored bool   // state's person-level part is in the store

	bg     sync.WaitGroup // background work: episodes, context summaries
	closed atomic.Bool

	sumMu   sync.Mutex
	summary *summaryJob

	// instructions are the response prompt's own texts: a reply that
	// repeats them is an echo, never spoken.
	instructions *nadine.Instructions
}

var _ nadine.Engine = (*Engine)(nil)

// New returns an engine, or an EINVALID error when the options are unusable.
func New(opts Options) (*Engine, error) {
	if opts.Models == nil {
		return nil, nadine.Errorf(nadine.EINVALID, "agents: Options.Models is required")
	}
	if opts.Models(RoleResponse) == nil {
		return nil, nadine.Errorf(nadine.EINVALID, "agents: no model for the %s role", RoleResponse)
	}
	if opts.NameHigh == 0 {
		opts.NameHigh = DefaultNameHigh
	}
	if opts.NameLow == 0 {
		opts.NameLow = DefaultNameLow
	}
	if opts.NameLow < 0 || opts.NameHigh > 1 || opts.NameLow > opts.NameHigh {
		return nil, nadine.Errorf(nadine.EINVALID, "agents: need 0 <= NameLow <= NameHigh <= 1 (got %v, %v)", opts.NameLow, opts.NameHigh)
	}
	if opts.ConversationLimit <= 0 {
		opts.ConversationLimit = DefaultConversationLimit
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if opts.Personality == (affect.Personality{}) {
		opts.Personality = affect.NadinePersonality()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.NewUserID == nil {
		opts.NewUserID = nadine.NewUserID
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	p, err := loadPrompts()
	if err != nil {
		return nil, err
	}
	e := &Engine{opts: opts, log: opts.Logger, prompts: p, models: map[string]nadine.ChatModel{}, instructions: responseInstructions(p)}
	for _, r := range Roles() {
		if m := opts.Models(r); m != nil {
			e.models[r] = m
		}
	}
	for _, t := range opts.Tools {
		if t != nil {
			e.tools = append(e.tools, tools.Traced(t))
		}
	}
	if opts.Store != nil {
		e.cps = opts.Store
	} else {
		e.cps = &graph.MemoryCheckpointer{}
	}
	if e.run, err = e.build(); err != nil {
		return nil, fmt.Errorf("agents: build graph: %w", err)
	}
	return e, nil
}

// Name implements nadine.Engine.
func (e *Engine) Name() string { return "graph" }

// model returns the model of a role, or nil.
func (e *Engine) model(role string) nadine.ChatModel { return e.models[role] }

// memoryOn reports whether the memory agents run.
func (e *Engine) memoryOn() bool { return e.opts.MemoryAgents && e.opts.Store != nil }

// Respond implements nadine.Engine: it runs the graph for one turn, or
// resumes the run that waits for the answer to a name question.
func (e *Engine) Respond(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
	if strings.TrimSpace(req.Turn.Text) == "" {
		return nadine.Reply{}, nadine.Errorf(nadine.EINVALID, "agents: empty input")
	}
	if req.Emit == nil {
		req.Emit = func(nadine.Event) {}
	}
	sc := newScope(req.Emit)
	sc.queue = true
	r, err := e.runTurn(withScope(ctx, sc), req, sc)
	// What the reply does not need (saving the state and profiles, the
	// next turn's context summary, episodes) runs once it is published.
	if later := sc.queued(); len(later) > 0 {
		req.RunAfterReply(ctx, func(ctx context.Context) {
			e.turnMu.Lock()
			defer e.turnMu.Unlock()
			for _, fn := range later {
				fn(ctx)
			}
		})
	}
	return r, err
}

// runTurn runs one turn under the turn lock; work for after the reply is
// queued in sc.
func (e *Engine) runTurn(ctx context.Context, req nadine.Request, sc *scope) (nadine.Reply, error) {
	e.turnMu.Lock()
	defer e.turnMu.Unlock()
	if e.closed.Load() {
		return nadine.Reply{}, nadine.Errorf(nadine.EUNAVAILABLE, "agents: engine closed")
	}
	tr := nadine.TraceFrom(ctx)

	id := requestUser(req)
	var prev string
	if e.state != nil {
		prev = e.state.UserInfo.ID
	}
	base, loaded := e.loadState(ctx, req)
	key, resume, abandoned := e.pendingRun(ctx, req, prev)
	var (
		out State
		err error
	)
	if resume {
		out, err = e.run.Resume(ctx, key, func(s State) State { return e.beginTurn(ctx, s, req) })
	} else {
		if abandoned {
			base.NameConfirmation, base.NameChecked = NameConfirmation{}, false
		}
		// Without a checkpoint to resume, a pending name question (if
		// any) is asked again by this run.
		base.AwaitingAnswer = false
		out, err = e.run.Run(ctx, key, e.beginTurn(ctx, base, req))
	}
	var ie *graph.InterruptError
	switch {
	case errors.As(err, &ie):
		if !ie.Saved {
			tr.Notef("name question not checkpointed: the answer is handled as a normal turn")
		}
	case err != nil && out.AwaitingAnswer && out.confirmationPending() && out.FinalMessage != "" && sc.spoke():
		// The question was spoken, but its checkpoint could not be saved:
		// an error would make the fallback engine speak again. The state
		// still holds the pending confirmation, so the next turn asks
		// the question again.
		tr.Fail("checkpoint", err)
		tr.Notef("name question not checkpointed: the answer is handled as a normal turn")
	case err != nil:
		return nadine.Reply{}, fmt.Errorf("agents: %w", err)
	}
	e.state, e.stored = &out, false
	sc.afterReply(ctx, func(ctx context.Context) { e.endTurn(ctx, out, id, loaded) })
	return e.reply(out, sc), nil
}

// stale reports whether a run interrupted on state s cannot be resumed by
// req: another conversation, or another recognized person.
func stale(s State, req nadine.Request) bool {
	if req.ConversationID != "" && s.ConversationID != "" && req.ConversationID != s.ConversationID {
		return true
	}
	id := requestUser(req)
	return realID(id) && id != s.UserInfo.ID
}

// beginTurn prepares the state for req: it adopts the person perception
// recognized, the history window (trimmed to ConversationLimit) plus the new
// message, the language and the time, and clears the previous turn's
// results.
func (e *Engine) beginTurn(ctx context.Context, s State, req nadine.Request) State {
	now := req.Turn.Time
	if now.IsZero() {
		now = e.opts.Now()
	}
	s = s.resetTurn()
	id := requestUser(req)
	if id != s.UserInfo.ID {
		if realID(s.UserInfo.ID) {
			nadine.TraceFrom(ctx).Notef("another person: %s replaces %s; new conversation state", id, s.UserInfo.ID)
			s = s.resetConversation()
		}
		s.UserInfo = UserInfo{ID: id, Name: req.Turn.UserName}
		if realID(id) && s.UserInfo.Name == "" && e.opts.Store != nil {
			if p, err := e.opts.Store.Profile(ctx, id); err == nil {
				s.UserInfo.Name = p.UserName
			}
		}
	} else if req.Turn.UserName != "" {
		s.UserInfo.Name = req.Turn.UserName
	}
	hist := req.History
	if n := len(hist); n > e.opts.ConversationLimit {
		hist = hist[n-e.opts.ConversationLimit:]
	}
	msgs := make([]nadine.Message, 0, len(hist)+1)
	msgs = append(msgs, hist...)
	name := ""
	if s.UserInfo.Known() {
		name = s.UserInfo.Name
	}
	s.Messages = append(msgs, nadine.Message{Role: nadine.RoleUser, Content: req.Turn.Text, Name: name, Time: now.Unix()})
	if req.Turn.Language.Valid() {
		s.Language = req.Turn.Language
	} else if !s.Language.Valid() {
		s.Language = nadine.DefaultLanguage
	}
	s.UserEmotion = strings.ToLower(strings.TrimSpace(req.Turn.UserEmotion))
	s.Time = now
	s.ConversationID = req.ConversationID
	s.Turn++
	if s.Affect.Updated.IsZero() {
		s.Affect = affect.New(e.opts.Personality, e.opts.Now())
	}
	return s
}

// endTurn persists the state and starts the context summary of the new
// history in the background: the robot-level part under StateKey, the
// person-level part under the person's PersonStateKey (for a real user
// id). loaded says the turn started from id's stored conversation state:
// when it is gone by now, id was forgotten during the turn, and their
// conversation state is dropped instead of saved again.
func (e *Engine) endTurn(ctx context.Context, s State, id string, loaded bool) {
	tr := nadine.TraceFrom(ctx)
	forgotten := e.opts.Store != nil && loaded && s.UserInfo.ID == id && e.personGone(ctx, id)
	switch {
	case forgotten:
		tr.Notef("%s was forgotten during the turn: their conversation state is dropped", id)
		s = s.resetConversation()
		s.UserInfo = UserInfo{ID: id}
		e.dropSummary()
		// A name question this turn asked them was checkpointed after
		// the forget.
		if err := e.run.Discard(ctx, PendingKey(id)); err != nil {
			tr.Fail("checkpoint", err)
		}
	case s.Intent == IntentEndConversation && !s.AwaitingAnswer:
		s = s.resetConversation()
	case !e.opts.SeedWiring && s.FinalMessage != "":
		e.startSummary(s)
	}
	e.state, e.stored = &s, false
	if e.opts.Store == nil {
		return
	}
	e.saveRobot(ctx, s)
	if !forgotten && realID(s.UserInfo.ID) {
		e.stored = e.savePerson(ctx, s)
	}
	if realID(id) && s.UserInfo.ID != id {
		// The person perception recognized as id turned out to be
		// someone else: id's conversation state is superseded.
		if err := e.opts.Store.DeleteCheckpoint(ctx, PersonStateKey(id)); err != nil {
			tr.Fail("state", fmt.Errorf("agents: delete the conversation state of %s: %w", id, err))
		}
	}
}

// AffectState returns Nadine's current emotional state as published on the
// bus (the persisted state; the personality baseline before any turn).
func (e *Engine) AffectState(ctx context.Context) nadine.AffectState {
	e.turnMu.Lock()
	defer e.turnMu.Unlock()
	var s State
	if e.state != nil {
		s = *e.state
	} else {
		s = e.loadRobot(ctx)
	}
	if s.Affect.Updated.IsZero() {
		s.Affect = affect.New(e.opts.Personality, e.opts.Now())
	}
	return affect.ToBus(affect.Decay(s.Affect, e.opts.Now()))
}

// reply collects the turn's reply.
func (e *Engine) reply(s State, sc *scope) nadine.Reply {
	a := s.Affect
	if em, ok := sc.appraised(); ok {
		a.Emotion = em
	}
	bus := affect.ToBus(a)
	r := nadine.Reply{
		Text:             s.FinalMessage,
		Language:         s.Language,
		Emotion:          bus.Label,
		EmotionIntensity: int(math.Round(bus.Intensity * 10)),
		Gestures:         sc.gestures(),
		UserID:           s.UserInfo.ID,
		UserName:         s.UserInfo.Name,
	}
	switch {
	case s.Intent == IntentFirstGreeting:
		r.Category = nadine.CategoryGreeting
	case s.Intent == IntentEndConversation:
		r.Category = nadine.CategoryFarewell
	case len(s.Dispatched) > 0:
		r.Category = nadine.CategoryInformation
	default:
		r.Category = nadine.CategoryOther
	}
	if !s.UserInfo.Known() {
		r.UserName = ""
	}
	return r
}

// WarmUp sends one tiny request to every distinct configured model, side by
// side (local servers load models lazily), and returns their errors joined.
func (e *Engine) WarmUp(ctx context.Context) error {
	var (
		seen []nadine.ChatModel
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	for _, r := range Roles() {
		m := e.model(r)
		if m == nil || containsModel(seen, m) {
			continue
		}
		seen = append(seen, m)
		wg.Go(func() {
			_, err := m.Chat(ctx, nadine.ChatRequest{Role: "warmup",
				Messages: []nadine.ChatMessage{{Role: nadine.RoleUser, Content: "Hi"}}, MaxTokens: 1})
			if err != nil {
				mu.Lock()
				errs = append(errs, fmt.Errorf("agents: warm up %s: %w", r, err))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// containsModel reports whether ms holds m (models of incomparable types
// are never equal).
func containsModel(ms []nadine.ChatModel, m nadine.ChatModel) bool {
	if !reflect.TypeOf(m).Comparable() {
		return false
	}
	for _, x := range ms {
		if reflect.TypeOf(x) == reflect.TypeOf(m) && x == m {
			return true
		}
	}
	return false
}

// Wait blocks until the background work started so far (episode saves,
// context summaries) is done.
func (e *Engine) Wait() { e.bg.Wait() }

// Close refuses new turns and waits for the background work.
func (e *Engine) Close() error {
	e.turnMu.Lock()
	e.closed.Store(true)
	e.turnMu.Unlock()
	e.bg.Wait()
	return nil
}

// background runs fn off the reply's critical path, tracked by Wait. Its
// context keeps ctx's values but not its cancellation nor its trace (the
// turn's trace is finished by then), and is bounded by timeout.
func (e *Engine) background(ctx context.Context, timeout time.Duration, fn func(ctx context.Context)) {
	bctx := nadine.WithTrace(context.WithoutCancel(ctx), nil)
	e.bg.Go(func() {
		c, cancel := context.WithTimeout(bctx, timeout)
		defer cancel()
		fn(c)
	})
}
