package react

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
	"github.com/nadine-robot/nadine/labels"
	"github.com/nadine-robot/nadine/speakable"
)

// Options configures the engine. Agent is required; the rest is optional.
type Options struct {
	// Agent is the model of the ReAct agent (role react_agent).
	Agent nadine.ChatModel
	// Contextualizer rewrites a follow-up into a standalone question (role
	// contextualizer). Without it the input is used as is.
	Contextualizer nadine.ChatModel
	// Tools the agent may call.
	Tools []nadine.Tool
	// Memories, Knowledge and Embedder enable retrieval; without an
	// embedder nothing is retrieved.
	Memories  nadine.MemoryStore
	Knowledge nadine.KnowledgeStore
	Embedder  nadine.Embedder
	// MemoryK and KnowledgeK are how many texts reach the prompt (5 and 3).
	MemoryK, KnowledgeK int
	// MaxSteps bounds the model calls of the agent loop (default 8); the
	// last is asked for the final answer.
	MaxSteps int
	// MaxToolCalls bounds the tool calls of a turn (default 4): then the
	// agent answers with what it knows.
	MaxToolCalls int
	// ParseRetries bounds how often an unusable answer is fed back
	// (default 3).
	ParseRetries int
	// Speculate starts the agent on the raw input's retrieval while the
	// contextualizer rewrites a follow-up, and keeps that call when the
	// standalone question retrieves the same texts (see speculate.go). It
	// only matters with history, a contextualizer and retrieval; the
	// owner's config turns it on by default.
	Speculate bool
	// SkipStandalone leaves an input that needs no history as it is,
	// without asking the contextualizer, when its words show that nothing
	// in it refers back to the conversation (standalone.go): a change from
	// the original ReAct manager, which rewrites every input with history. Such a turn waits
	// on one model call instead of two; the owner's config turns it on by
	// default (features.skip_standalone).
	SkipStandalone bool
	// Place completes "You are physically present ..." in the prompt.
	Place  string
	Now    func() time.Time
	Logger *slog.Logger
}

// Engine is the ReAct engine: one agent that reasons and calls tools.
type Engine struct {
	opts    Options
	prompts *prompts
	log     *slog.Logger
	// static is every text the engine's prompts can hold, without data
	// (staticPrompt): the echo check knows them all, whatever this turn's
	// prompt left out.
	static nadine.Prompt
	// gates prepares the prompts for the check once (the static texts, the
	// same system message call after call).
	gates speakable.Cache
	// calls are the agent's calls in flight, so that none outlives its
	// owner (late.go).
	calls calls
}

var _ nadine.Engine = (*Engine)(nil)

// New returns an engine, or an EINVALID error without an agent model.
func New(opts Options) (*Engine, error) {
	if opts.Agent == nil {
		return nil, nadine.Errorf(nadine.EINVALID, "react: no agent model")
	}
	if opts.MemoryK <= 0 {
		opts.MemoryK = 5
	}
	if opts.KnowledgeK <= 0 {
		opts.KnowledgeK = 3
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = 8
	}
	if opts.MaxToolCalls <= 0 {
		opts.MaxToolCalls = 4
	}
	if opts.ParseRetries < 0 {
		opts.ParseRetries = 0
	} else if opts.ParseRetries == 0 {
		opts.ParseRetries = 3
	}
	if opts.Place == "" {
		opts.Place = "at MIRALab, University of Geneva, in Switzerland"
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	p, err := loadPrompts()
	if err != nil {
		return nil, err
	}
	// Every call is recorded in the turn's trace (nadine.TraceTool records a
	// tool once however often it is wrapped).
	traced := make([]nadine.Tool, len(opts.Tools))
	for i, t := range opts.Tools {
		traced[i] = nadine.TraceTool(t)
	}
	opts.Tools = traced
	e := &Engine{opts: opts, prompts: p, log: opts.Logger}
	e.static = e.staticPrompt()
	return e, nil
}

// Name implements nadine.Engine.
func (e *Engine) Name() string { return "react" }

// Respond contextualizes, retrieves and runs the agent; with Options.Speculate
// the first call starts beside the contextualizer and is kept only on the same prompt.
func (e *Engine) Respond(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
	if n := e.calls.cancelUnclaimed(); n > 0 {
		nadine.TraceFrom(ctx).Notef("cancelled %d agent stream(s) of an earlier turn cancelled after it replied", n)
	}
	now := req.Turn.Time
	if now.IsZero() {
		now = e.opts.Now()
	}
	rewrite := e.rewrites(ctx, req)
	spec := e.speculate(ctx, req, now, rewrite) // nil when it cannot help
	defer spec.stop(&e.calls)
	question := req.Turn.Text
	if rewrite {
		question = e.contextualize(ctx, req)
	}
	msgs, ok := spec.prompt(question)
	if !ok {
		knowledge, memories := e.retrieve(ctx, req, question, "retrieve")
		msgs = e.messages(req, knowledge, memories, now)
	}
	return e.loop(ctx, req, msgs, spec.confirm(ctx, msgs))
}

// rewrites reports whether the input goes to the contextualizer: not when
// nothing would use the rewrite, nor (SkipStandalone) when it needs no history.
func (e *Engine) rewrites(ctx context.Context, req nadine.Request) bool {
	if len(req.History) == 0 || e.opts.Contextualizer == nil || !e.retrieves() {
		return false
	}
	if e.opts.SkipStandalone && standalone(req.Turn.Text, req.Turn.Language) {
		nadine.TraceFrom(ctx).Notef("contextualize: skipped, the input refers to nothing in the history")
		return false
	}
	return true
}

// contextualize rewrites the input into a standalone question for retrieval;
// a failure keeps the input as is.
func (e *Engine) contextualize(ctx context.Context, req nadine.Request) string {
	ctx, done := nadine.BeginStep(ctx, "contextualize")
	msgs := []nadine.ChatMessage{{Role: nadine.RoleSystem, Content: render(e.prompts.contextualize, nil)}}
	msgs = append(msgs, historyMessages(req.History)...)
	msgs = append(msgs, nadine.ChatMessage{Role: nadine.RoleUser, Content: req.Turn.Text})
	resp, err := e.opts.Contextualizer.Chat(ctx, nadine.ChatRequest{Role: "contextualizer", Messages: msgs, MaxTokens: 200})
	q := cleanRewrite(resp.Content, req.Turn.Text)
	if err == nil && q == "" {
		err = nadine.Errorf(nadine.EBADOUTPUT, "react: contextualizer returned nothing")
	}
	done(err)
	if err != nil {
		nadine.TraceFrom(ctx).Fail("contextualize", err)
		return req.Turn.Text
	}
	return q
}

// retrieves reports whether retrieval is configured.
func (e *Engine) retrieves() bool {
	return e.opts.Embedder != nil && (e.opts.Knowledge != nil || e.opts.Memories != nil)
}

// retrieve finds memories (never for the unknown user) and knowledge side by
// side; stage names the step in the trace.
func (e *Engine) retrieve(ctx context.Context, req nadine.Request, question, stage string) (knowledge, memories []string) {
	if !e.retrieves() {
		return nil, nil
	}
	ctx, done := nadine.BeginStep(ctx, stage)
	tr := nadine.TraceFrom(ctx)
	vec, err := nadine.EmbedOne(ctx, e.opts.Embedder, question)
	if err != nil {
		done(err)
		tr.Fail(stage, err)
		return nil, nil
	}
	var wg sync.WaitGroup
	user := req.Turn.UserID
	if e.opts.Memories != nil && user != "" && user != nadine.UnknownUser {
		wg.Go(func() {
			start := time.Now()
			res, err := e.opts.Memories.SearchMemories(ctx, user, nadine.MemoryQuery{
				Embedding: vec, Embedder: e.opts.Embedder.Name(), K: e.opts.MemoryK})
			if err != nil {
				tr.Fail(stage+":memory", err)
				return
			}
			r := nadine.Retrieval{Kind: "memory", Query: question, Start: start, Duration: time.Since(start), Step: nadine.StepOf(ctx).ID}
			for _, m := range res {
				memories = append(memories, m.Text)
				r.Results = append(r.Results, nadine.RetrievedItem{ID: fmt.Sprint(m.ID), Text: short(m.Text), Score: m.Score})
			}
			tr.AddRetrieval(r)
		})
	}
	if e.opts.Knowledge != nil {
		wg.Go(func() {
			start := time.Now()
			res, err := e.opts.Knowledge.SearchKnowledge(ctx, vec, e.opts.Embedder.Name(), e.opts.KnowledgeK)
			if err != nil {
				tr.Fail(stage+":knowledge", err)
				return
			}
			r := nadine.Retrieval{Kind: "knowledge", Query: question, Start: start, Duration: time.Since(start), Step: nadine.StepOf(ctx).ID}
			for _, c := range res {
				knowledge = append(knowledge, c.Text)
				r.Results = append(r.Results, nadine.RetrievedItem{ID: fmt.Sprint(c.ID), Text: short(c.Text), Score: c.Score})
			}
			tr.AddRetrieval(r)
		})
	}
	wg.Wait()
	done(nil)
	return knowledge, memories
}

// messages builds the prompt: the system message, the chat history, then
// the human turn, dated now.
func (e *Engine) messages(req nadine.Request, knowledge, memories []string, now time.Time) []nadine.ChatMessage {
	msgs := []nadine.ChatMessage{{Role: nadine.RoleSystem, Content: render(e.prompts.system, struct{ Place string }{e.opts.Place})}}
	msgs = append(msgs, historyMessages(req.History)...)
	d := humanInput(req, e.opts.Tools, knowledge, memories, now)
	d.NativeTools = e.nativeTools()
	return append(msgs, nadine.ChatMessage{Role: nadine.RoleUser, Content: render(e.prompts.human, d)})
}

// agentCall is one streamed call of the agent model and what came of it.
type agentCall struct {
	start time.Time
	step  nadine.Step // its agent:n step, which the call hangs from
	st    *streamer
	resp  nadine.ChatResponse
	err   error
}

// pendingCall is an agent call on another goroutine: replied closes when the
// reply text is complete (or the call ends), done when the call ends.
type pendingCall struct {
	replied chan struct{}
	done    chan struct{}
	once    sync.Once
	early   bool        // replied came before the end: the reply text is complete
	start   time.Time   // set before the call starts
	step    nadine.Step // set before the call starts
	st      *streamer   // set before the call starts
	call    agentCall   // set before done is closed

	// Its ownership, under the engine's calls lock (late.go).
	cancel   context.CancelFunc // ends the call
	detached bool               // outlives its turn's context (replyEarly)
	claimed  bool               // its turn's deferred reading waits for it
	orphaned bool               // cancelled by a later turn or Close
}

func newPendingCall() *pendingCall {
	return &pendingCall{replied: make(chan struct{}), done: make(chan struct{})}
}

// markReplied closes replied, once; complete says the reply text is done.
func (p *pendingCall) markReplied(complete bool) {
	p.once.Do(func() {
		p.early = complete
		close(p.replied)
	})
}

// end records the finished call.
func (p *pendingCall) end(c agentCall) {
	p.call = c
	p.markReplied(false)
	close(p.done)
}

// wait returns the call once it has ended.
func (p *pendingCall) wait() agentCall {
	<-p.done
	return p.call
}

// startAgent starts one streamed call of the agent on another goroutine.
func (e *Engine) startAgent(ctx context.Context, req nadine.Request, msgs []nadine.ChatMessage, o callOpts, emit nadine.EmitFunc) *pendingCall {
	p := newPendingCall()
	go e.runAgentWith(ctx, req, msgs, o, emit, p)
	return p
}

// runAgent makes one streamed agent call into p; a final answer's affect and
// sentences are emitted as they arrive.
func (e *Engine) runAgent(ctx context.Context, req nadine.Request, msgs []nadine.ChatMessage, emit nadine.EmitFunc, p *pendingCall) {
	e.runAgentWith(ctx, req, msgs, callOpts{}, emit, p)
}

// runAgentWith is runAgent for a call of the loop (see callOpts).
func (e *Engine) runAgentWith(ctx context.Context, req nadine.Request, msgs []nadine.ChatMessage, o callOpts, emit nadine.EmitFunc, p *pendingCall) {
	ctx = nadine.OpenStep(ctx) // the call hangs from its agent:n step (endStep)
	c := agentCall{start: time.Now(), step: nadine.StepOf(ctx), st: &streamer{p: e.parser(ctx, req, msgs, o),
		onMeta:     func(s step) { emit(affectEvent(s)) },
		onSent:     func(s string) { emit(nadine.Event{Kind: nadine.EventSpeech, Text: s, Language: req.Turn.Language}) },
		onText:     func() { emit(nadine.Event{Kind: nadine.EventSpeechEnd}) },
		onComplete: func() { p.markReplied(true) },
	}}
	p.st, p.start, p.step = c.st, c.start, c.step
	// Once the reply text is complete the engine returns and the turn's
	// context ends; the fields after the text (category, causing_person)
	// still stream in, and are read after the reply (see replyEarly). So
	// the call outlives ctx once replyEarly detached it, owned by the
	// engine (late.go) and bounded by the role's attempt timeout; before
	// that, the end of ctx ends it.
	callCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	if !e.calls.add(p, cancel) {
		c.err = nadine.Errorf(nadine.EUNAVAILABLE, "react: the engine is closed")
		p.end(c)
		return
	}
	defer e.calls.remove(p)
	stop := context.AfterFunc(ctx, func() {
		if !e.calls.isDetached(p) {
			cancel()
		}
	})
	defer stop()
	c.resp, c.err = e.opts.Agent.ChatStream(callCtx, e.agentRequest(msgs, o), c.st.write)
	p.end(c)
}

// parser records the engine-written texts of msgs on the trace, for the echo
// check of what is spoken.
func (e *Engine) parser(ctx context.Context, req nadine.Request, msgs []nadine.ChatMessage, o callOpts) parser {
	pr := e.promptOf(req, msgs, o)
	tr := nadine.TraceFrom(ctx)
	tr.AddPrompt(e.static)
	tr.AddPrompt(pr)
	return parser{user: displayName(req.Turn), tools: e.toolNames(), check: e.gates.New([]nadine.Prompt{e.static, pr}), lang: req.Turn.Language}
}

// promptOf is what the engine wrote into msgs: the system message and all after
// the history; the person's input and the tools' words stay theirs.
func (e *Engine) promptOf(req nadine.Request, msgs []nadine.ChatMessage, o callOpts) nadine.Prompt {
	pr := nadine.Prompt{Role: "react_agent", Said: append([]string{req.Turn.Text}, o.said...)}
	for i, m := range msgs {
		if m.Role == nadine.RoleAssistant || (i > 0 && i <= len(req.History)) {
			continue
		}
		pr.Instructions = append(pr.Instructions, m.Content)
		if i == 0 {
			if _, persona, ok := strings.Cut(m.Content, "\n"); ok {
				pr.Persona = append(pr.Persona, persona)
			}
		}
	}
	return pr
}

// loop runs the agent until its final answer, feeding an unusable answer back a
// bounded number of times; first is a kept speculation's call, or nil.
func (e *Engine) loop(ctx context.Context, req nadine.Request, msgs []nadine.ChatMessage, first *pendingCall) (nadine.Reply, error) {
	tr := nadine.TraceFrom(ctx)
	t := toolTurn{ran: map[string]bool{}}
	parseErrors, proseAnswers, junkAnswers := 0, 0, 0
	for n := 1; n <= e.opts.MaxSteps; n++ {
		if err := ctx.Err(); err != nil {
			return nadine.Reply{}, nadine.Errorf(nadine.EUNAVAILABLE, "react: %w", err)
		}
		t.last = t.last || n == e.opts.MaxSteps
		o := callOpts{said: t.said, last: t.last}
		p := e.parser(ctx, req, msgs, o)
		pc := first
		if n > 1 || pc == nil {
			pc = e.startAgent(ctx, req, msgs, o, req.Emit)
		}
		// With someone to publish the reply before the turn's deferred
		// work (the dialogue manager), the turn ends with the reply text.
		if <-pc.replied; pc.early && pc.st.spoke() && req.AfterReply != nil {
			return e.replyEarly(ctx, req, pc, n), nil
		}
		c := pc.wait()
		done := endStep(tr, c.step, fmt.Sprintf("agent:%d", n), c.start)
		if c.st.spoke() {
			// The reply was spoken as it streamed: keep what was said,
			// even if the stream broke or the JSON after the text is
			// wrong, rather than say something else.
			done(c.err)
			if c.err != nil {
				tr.Fail("react_agent", c.err)
			}
			s := c.st.finish(tr)
			return e.reply(req, s), nil
		}
		if c.err != nil {
			done(c.err)
			return nadine.Reply{}, fmt.Errorf("react: agent: %w", c.err)
		}
		if len(c.resp.ToolCalls) > 0 && strings.TrimSpace(c.resp.Content) == "" {
			done(nil)
			msgs = e.nativeCalls(ctx, req, p, c.resp, msgs, &t)
			continue
		}
		s, notes, perr := p.parse(c.resp.Content)
		var pe *parseError
		if errors.As(perr, &pe) {
			switch pe.kind {
			case prose:
				if proseAnswers++; proseAnswers >= 2 || parseErrors >= e.opts.ParseRetries {
					s, notes = p.proseStep(pe.text)
					perr = nil
				}
			case junk:
				if junkAnswers++; junkAnswers > 1 {
					done(perr)
					tr.Fail("parse", perr)
					return nadine.Reply{}, nadine.Errorf(nadine.EBADOUTPUT, "react: the model's answer is not a reply, twice: %v", perr)
				}
			}
		}
		if perr != nil {
			done(perr)
			tr.Fail("parse", perr)
			parseErrors++
			if parseErrors > e.opts.ParseRetries {
				return nadine.Reply{}, nadine.Errorf(nadine.EBADOUTPUT, "react: %d unusable answers, last: %v", parseErrors, perr)
			}
			msgs = append(msgs,
				nadine.ChatMessage{Role: nadine.RoleAssistant, Content: c.resp.Content},
				nadine.ChatMessage{Role: nadine.RoleUser, Content: render(e.prompts.parseError, struct{ Error, Input string }{perr.Error(), req.Turn.Text})})
			continue
		}
		done(nil)
		for _, note := range notes {
			tr.Notef("agent answer: %s", note)
		}
		if s.final() {
			req.Emit(affectEvent(s))
			return e.reply(req, s), nil
		}
		obs := e.runTool(ctx, req, s.Action, s.Input, &t)
		msgs = append(msgs,
			nadine.ChatMessage{Role: nadine.RoleAssistant, Content: c.resp.Content},
			nadine.ChatMessage{Role: nadine.RoleUser, Content: render(e.prompts.observation, observationData{s.Action, obs, req.Turn.Text, t.last})})
	}
	return nadine.Reply{}, nadine.Errorf(nadine.EBADOUTPUT, "react: no final answer after %d steps", e.opts.MaxSteps)
}

// toolTurn is what a turn's loop knows of its tool calls.
type toolTurn struct {
	ran   map[string]bool // the calls run (see callKey)
	calls int             // how many were run
	said  []string        // their observations: the tools' words, which Nadine may repeat
	last  bool            // no tool may be called any more: the next answer is the final one
}

// runTool runs a tool call once per turn: a repeated call is not run, and
// the next answer must be the final one, as after MaxToolCalls calls.
func (e *Engine) runTool(ctx context.Context, req nadine.Request, tool, input string, t *toolTurn) string {
	tr := nadine.TraceFrom(ctx)
	key := tool + "\x00" + labels.Key(input)
	switch {
	case t.ran[key]:
		tr.Notef("agent: %s called again with the same input: not run; the agent answers with what it has", tool)
		t.last = true
		return render(e.prompts.repeated, nil)
	case t.last:
		tr.Notef("agent: %s called after the last tool call of the turn: not run", tool)
		return render(e.prompts.repeated, nil)
	}
	t.ran[key] = true
	obs := e.callTool(ctx, req, step{Action: tool, Input: input})
	t.said = append(t.said, obs)
	if t.calls++; t.calls >= e.opts.MaxToolCalls {
		tr.Notef("agent: %d tool calls, the most in a turn: the agent answers with what it has", t.calls)
		t.last = true
	}
	return obs
}

// nativeCalls runs the tool calls of an answer made of native calls, and
// returns msgs with the answer and one tool message per call.
func (e *Engine) nativeCalls(ctx context.Context, req nadine.Request, p parser, resp nadine.ChatResponse, msgs []nadine.ChatMessage, t *toolTurn) []nadine.ChatMessage {
	tr := nadine.TraceFrom(ctx)
	msgs = append(msgs, nadine.ChatMessage{Role: nadine.RoleAssistant, Content: resp.Content, ToolCalls: resp.ToolCalls})
	for _, tc := range resp.ToolCalls {
		input := strings.TrimSpace(tc.Arguments)
		if raw, ok := labels.ExtractJSON(tc.Arguments); ok {
			input = strings.TrimSpace(labels.Text(raw, toolKeys...))
		}
		var obs string
		tool, ok := labels.Match(tc.Name, p.tools)
		if ok {
			if tool != tc.Name {
				tr.Notef("agent answer: tool call %q read as the tool %q", tc.Name, tool)
			}
			obs = e.runTool(ctx, req, tool, input, t)
		} else {
			tr.Notef("agent answer: tool call %q names no tool", tc.Name)
			obs = fmt.Sprintf("There is no tool named %q: use one of %s, or answer.", tc.Name, strings.Join(p.tools, ", "))
		}
		msgs = append(msgs, nadine.ChatMessage{Role: nadine.RoleTool, ToolCallID: tc.ID,
			Content: render(e.prompts.observation, observationData{cmp.Or(tool, tc.Name), obs, req.Turn.Text, t.last})})
	}
	return msgs
}

// callOpts is what one agent call knows of its loop: the tools' words so far
// (sayable) and whether tools are closed. The first call's is the zero value.
type callOpts struct {
	said []string
	last bool
}

// agentRequest offers tools as native calls only when the model takes them and
// one may still be called; the profile sends what its server accepts.
func (e *Engine) agentRequest(msgs []nadine.ChatMessage, o callOpts) nadine.ChatRequest {
	native := e.nativeTools()
	req := nadine.ChatRequest{Role: "react_agent", Messages: msgs, Format: stepFormat(e.toolNames(), o.last || native)}
	if native && !o.last {
		req.Tools = e.toolSpecs()
	}
	return req
}

// nativeTools reports whether the tools are offered as native calls: the
// agent's model runs in structured mode tools, and there are tools.
func (e *Engine) nativeTools() bool {
	return len(e.opts.Tools) > 0 && nadine.StructuredOf(e.opts.Agent) == nadine.StructuredTools
}

// replyEarly ends the turn once the reply text is spoken, while the model
// still writes the fields after it; those are read when the call ends.
func (e *Engine) replyEarly(ctx context.Context, req nadine.Request, p *pendingCall, n int) nadine.Reply {
	tr := nadine.TraceFrom(ctx)
	endStep(tr, p.step, fmt.Sprintf("agent:%d", n), p.start)(nil)
	tr.Notef("agent answer: the reply is complete; the fields after it are read after the reply")
	s := p.st.meta
	s.Input = strings.Join(p.st.sentences, " ")
	e.calls.detach(p)
	req.RunAfterReply(ctx, func(context.Context) {
		if !e.calls.claim(p) {
			tr.Notef("agent answer after the reply: the stream was cancelled before it was read")
		}
		c := p.wait()
		if c.err != nil {
			tr.Fail("react_agent", c.err)
		}
		late := c.st.finish(tr)
		tr.Notef("agent answer after the reply: category %q, causing person %q", late.Category, late.CausingPerson)
		if g := nadine.CategoryGesture(late.Category); g != "" && late.Category != s.Category {
			req.Emit(nadine.Event{Kind: nadine.EventGesture, Gesture: g})
		}
		req.Emit(nadine.Event{Kind: nadine.EventReplyFields, Reply: &nadine.Reply{Category: late.Category, CausingPerson: late.CausingPerson}})
	})
	return e.reply(req, s)
}

// toolNames lists the names of the tools, as the model must write them.
func (e *Engine) toolNames() []string {
	names := make([]string, len(e.opts.Tools))
	for i, t := range e.opts.Tools {
		names[i] = t.Name()
	}
	return names
}

// endStep returns the function that records step s (its ID and Parent
// from nadine.StepOf), named name and begun at start.
func endStep(tr *nadine.Trace, s nadine.Step, name string, start time.Time) func(error) {
	return func(err error) {
		s.Name, s.Start, s.Duration = name, start, time.Since(start)
		if err != nil {
			s.Error = err.Error()
		}
		tr.AddStep(s)
	}
}

// callTool runs a tool and returns its observation; a failing tool becomes
// an observation that tells Nadine so.
func (e *Engine) callTool(ctx context.Context, req nadine.Request, s step) string {
	var tool nadine.Tool
	for _, t := range e.opts.Tools {
		if t.Name() == s.Action {
			tool = t
		}
	}
	out, err := tool.Call(ctx, req.ToolInput(s.Input))
	if err != nil {
		if ctx.Err() == nil { // not a cancelled turn's
			e.log.Warn("tool failed", "tool", s.Action, "err", err)
		}
		out = fmt.Sprintf("The tool %q failed (%s). Tell the human politely that you cannot get this information right now.", s.Action, nadine.ErrorCode(err))
	}
	return out
}

// reply builds the Reply of a final answer whose text is already checked as
// speech; its category drives a gesture.
func (e *Engine) reply(req nadine.Request, s step) nadine.Reply {
	r := nadine.Reply{
		Text: s.Input, Language: req.Turn.Language, Emotion: s.Emotion, EmotionIntensity: s.Intensity,
		Category: s.Category, CausingPerson: s.CausingPerson,
	}
	if g := nadine.CategoryGesture(s.Category); g != "" {
		req.Emit(nadine.Event{Kind: nadine.EventGesture, Gesture: g})
		r.Gestures = []nadine.Gesture{g}
	}
	return r
}

// affectEvent announces Nadine's emotion from a final answer's metadata.
func affectEvent(s step) nadine.Event {
	a := nadine.AffectState{Label: s.Emotion, Intensity: float64(s.Intensity) / 10}
	if p, ok := affect.EmotionPAD(s.Emotion); ok {
		a.Arousal = p.A * a.Intensity
	}
	return nadine.Event{Kind: nadine.EventAffect, Affect: &a}
}

// historyMessages converts the conversation window to chat messages.
func historyMessages(h []nadine.Message) []nadine.ChatMessage {
	out := make([]nadine.ChatMessage, 0, len(h))
	for _, m := range h {
		role := m.Role
		if role != nadine.RoleAssistant {
			role = nadine.RoleUser
		}
		out = append(out, nadine.ChatMessage{Role: role, Content: m.Content})
	}
	return out
}

func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 200 {
		return string(r[:199]) + "…"
	}
	return s
}
