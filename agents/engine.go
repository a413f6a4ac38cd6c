package agents

import (
	"context"
	"encoding/json"
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

// Options configures the engine: Models (with a response model) is required,
// the rest has a sane zero value; the two agent switches are off when false.
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
	// Visual recalls memorable scenes and reads their pictures for the
	// response (optional; visual.Retriever).
	Visual nadine.SceneRetriever
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

	// SearchSummary has the search_answer model sum the search
	// results up before the response; when false the response agent reads
	// the results itself, one model call less in sequence (always on with
	// SeedWiring).
	SearchSummary bool

	// Speculate starts the response agent, on the inputs an empty plan
	// gives, while the orchestrator plans, and keeps it when the plan is
	// empty: a plain turn then waits on one model call instead of two (see
	// speculate.go). The owner's config turns it on (features.speculate);
	// the sequential wiring never speculates.
	Speculate bool

	// SummaryWait bounds how long a turn waits for the context summary
	// the previous turn started in the background (DefaultSummaryWait
	// when zero, no wait when negative); past it, the orchestrator reads
	// the last known summary and the last exchange.
	SummaryWait time.Duration

	// SeedWiring builds the original sequential wiring of the graph
	// (classifier → memory → appraisal → contextualizer → orchestrator →
	// response, no background summary), to measure what the parallel
	// wiring saves (nadine bench, tests). Leave it false.
	SeedWiring bool
}

// Engine is the multi-agent graph engine (engine: graph). It is
// safe for concurrent use; turns run one at a time.
type Engine struct {
	opts    Options
	log     *slog.Logger
	prompts prompts
	models  map[string]nadine.ChatModel
	tools   []nadine.Tool
	run     *graph.Runnable[State]

	// Nodes with their own dependencies.
	intentNode       intentClassifier
	responseNode     *responder
	recallNode       *memoryRecall
	memoryNode       *memoryUpdater
	orchestratorNode *orchestrator
	affectNode       *affective
	searchNode       *searchAgent
	visionNode       *visionAgent
	knowledgeNode    *knowledgeAgent

	turnMu sync.Mutex

	work   *work // the goroutines beside and after the turns
	closed atomic.Bool
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
	if opts.SummaryWait == 0 {
		opts.SummaryWait = DefaultSummaryWait
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
	e := &Engine{opts: opts, log: opts.Logger, prompts: p, models: map[string]nadine.ChatModel{}, work: newWork()}
	for _, r := range Roles() {
		if m := opts.Models(r); m != nil {
			e.models[r] = m
		}
	}
	for _, t := range opts.Tools {
		if t != nil {
			e.tools = append(e.tools, nadine.TraceTool(t))
		}
	}
	e.makeNodes()
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
	t := newTurn(ctx, req)
	r, err := e.runTurn(ctx, req, t)
	// What the reply does not need (saving the state and profiles, the
	// next turn's context summary, episodes) runs once it is published:
	// the nodes queued it in the turn, and it goes to the request's
	// AfterReply, the one way a turn defers work.
	if later := t.queued(); len(later) > 0 {
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

// runTurn runs one turn under the turn lock, from req's session; its state
// goes back in an EventSession after the reply.
func (e *Engine) runTurn(ctx context.Context, req nadine.Request, t *turn) (nadine.Reply, error) {
	e.turnMu.Lock()
	defer e.turnMu.Unlock()
	if e.closed.Load() {
		return nadine.Reply{}, nadine.Errorf(nadine.EUNAVAILABLE, "agents: engine closed")
	}
	tr := nadine.TraceFrom(ctx)
	defer func() {
		// A speculative response the run never reached (it failed, or
		// stopped at a name question) is never heard.
		if sp := t.takeSpeculation(); sp != nil {
			sp.settle(false, "the turn ended without its response")
		}
	}()

	base, pending := e.stateFrom(ctx, req)
	cps := &graph.MemoryCheckpointer{}
	if len(pending) > 0 {
		if err := cps.SaveCheckpoint(ctx, pendingKey, pending); err != nil {
			tr.Fail("checkpoint", err)
		}
	}
	run := e.run.WithCheckpoints(cps)
	resume, abandoned := e.pendingRun(ctx, run, req)
	var (
		out State
		err error
	)
	if resume {
		out, err = run.Resume(ctx, pendingKey, func(s State) State { return e.beginTurn(ctx, s, req, t) })
	} else {
		if abandoned {
			base.NameConfirmation, base.NameChecked = NameConfirmation{}, false
		}
		// Without a checkpoint to resume, a pending name question (if
		// any) is asked again by this run.
		base.AwaitingAnswer = false
		out, err = run.Run(ctx, pendingKey, e.beginTurn(ctx, base, req, t))
	}
	// A name question interrupts the run (its checkpoint is in cps, and
	// goes back to the session); anything else is a failure.
	if err != nil && !errors.Is(err, graph.ErrInterrupted) {
		return nadine.Reply{}, fmt.Errorf("agents: %w", err)
	}
	out.live = nil // the turn is over for the state; t stays with the engine
	t.afterReply(ctx, func(ctx context.Context) { e.endTurn(ctx, out, cps, t) })
	return e.reply(out, t), nil
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

// beginTurn adopts the person perception recognized, the trimmed history plus
// the new message, the language and the time, and clears the last results.
func (e *Engine) beginTurn(ctx context.Context, s State, req nadine.Request, t *turn) State {
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
	s.live = t
	return s
}

// endTurn returns the state to the session and starts the next context summary
// in the background; a farewell ends the engine's conversation state.
func (e *Engine) endTurn(ctx context.Context, s State, cps *graph.MemoryCheckpointer, t *turn) {
	switch {
	case s.Intent == IntentEndConversation && !s.AwaitingAnswer:
		s = s.resetConversation()
		_ = cps.DeleteCheckpoint(ctx, pendingKey)
	case s.FinalMessage != "":
		if text, key, ok := t.lateResult(); ok {
			// The summary this turn could not wait for is the last known
			// one, should the next turn not wait for its own either.
			s.ContextSummary, s.ContextKey = text, key
		}
		e.orchestratorNode.turnEnded(s)
	}
	t.send(e.sessionUpdate(ctx, s, cps))
}

// AffectState returns Nadine's emotional state in a session as published
// on the bus (the personality baseline before any turn).
func (e *Engine) AffectState(sess nadine.Session) nadine.AffectState {
	var st affect.State
	if len(sess.Affect) == 0 || json.Unmarshal(sess.Affect, &st) != nil || st.Updated.IsZero() {
		st = affect.New(e.opts.Personality, e.opts.Now())
	}
	return affect.ToBus(affect.Decay(st, e.opts.Now()))
}

// reply collects the turn's reply.
func (e *Engine) reply(s State, t *turn) nadine.Reply {
	a := s.Affect
	if em, ok := t.appraised(); ok {
		a.Emotion = em
	}
	bus := affect.ToBus(a)
	r := nadine.Reply{
		Text:             s.FinalMessage,
		Language:         s.Language,
		Emotion:          bus.Label,
		EmotionIntensity: int(math.Round(bus.Intensity * 10)),
		Gestures:         t.gestures(),
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

// Wait blocks until the work started so far after the turns (episode
// saves, context summaries) is done.
func (e *Engine) Wait() { e.work.wait() }

// Close refuses new turns, cancels the next turn's summaries, and waits for
// every goroutine the engine started (an episode save runs to its end).
func (e *Engine) Close() error {
	e.turnMu.Lock()
	e.closed.Store(true)
	e.turnMu.Unlock()
	e.work.close()
	return nil
}
