package agents

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/fence"
	"github.com/nadine-robot/nadine/labels"
)

// orchestrator is the orchestrator node: the plan of tool steps, over a
// context summary computed in the background after each turn.
type orchestrator struct {
	planner, summarizer nadine.ChatModel // roles orchestrator and context_summary
	prompts             prompts
	search              *searchAgent  // the search tools the plan may name
	maxSteps            int           // Options.MaxSteps
	summaryWait         time.Duration // Options.SummaryWait
	conversationLimit   int           // Options.ConversationLimit
	now                 func() time.Time
	log                 *slog.Logger
	// work runs the next turn's summary.
	work *work
	// contextOf and turnEnded are the context summary's wiring, set once
	// by New: awaited from the background (backgroundContext,
	// startSummary) or made inline on the critical path (inlineContext,
	// nothing after the turn) by the sequential wiring.
	contextOf func(ctx context.Context, s State, key string, hist []nadine.Message) (State, string)
	turnEnded func(State)

	mu      sync.Mutex
	summary *summaryJob // the latest background summary
}

// orchestrate plans speculatively in the parallel group, then dispatches; a
// plan is never made twice, and the fast path discards it.
func (o *orchestrator) orchestrate(ctx context.Context, s State) (State, error) {
	tr := nadine.TraceFrom(ctx)
	if s.Planned {
		if s.Intent.fastPath() && len(s.PlanSteps) > 0 {
			tr.Notef("orchestrator: speculative plan discarded (%s)", s.Intent)
			s.PlanSteps = nil
		}
		return s, nil
	}
	if s.Intent.fastPath() {
		s.Planned, s.PlanSteps = true, nil
		tr.Notef("orchestrator: fast path for %s", s.Intent)
		return s, nil
	}
	msg := s.latest()
	if s.Intent == "" && looksLikeGreetingOnly(msg) {
		tr.Notef("orchestrator: a greeting or farewell is not planned speculatively")
		return s, nil
	}
	s, context := o.contextualize(ctx, s)
	steps, err := planSteps(ctx, o.planner, o.prompts, o.search.toolsPrompt(), context, msg)
	if err != nil {
		tr.Fail("orchestrator", err)
	}
	steps, notes := validatePlan(steps, msg, o.maxSteps)
	for _, n := range notes {
		tr.Notef("orchestrator: %s", n)
	}
	s.PlanSteps, s.Planned = steps, true
	return s, nil
}

// orchestratorInput's Context is a data section on its own lines, else " "
// and NoContext.
type orchestratorInput struct{ Context, Message string }

func newOrchestratorInput(context, msg string) orchestratorInput {
	if context == "" || context == NoContext {
		return orchestratorInput{" " + NoContext, msg}
	}
	return orchestratorInput{"\n" + fence.Text(fence.Recent, context), msg}
}

// conversationData fences a transcript as a data section: what people said
// (their names included) is never an instruction.
func conversationData(msgs []nadine.Message) string {
	return fence.Text(fence.Recent, transcript(msgs))
}

// planSteps asks the orchestrator model for a plan. The steps are not
// checked.
func planSteps(ctx context.Context, m nadine.ChatModel, p prompts, searchTools routerPrompt, context, msg string) ([]PlanStep, error) {
	// One line per step, not a JSON object of fields: "Google News:
	// Geneva news today" is 5 tokens where the JSON plan was 23, and a
	// search turn waits for all of them. Where the server constrains
	// answers, the schema keeps the lines (a list of them, a few tokens
	// more).
	content, err := ask(ctx, m, nadine.ChatRequest{Role: RoleOrchestrator, Format: planFormat, Messages: []nadine.ChatMessage{
		{Role: nadine.RoleSystem, Content: p.render("orchestrator", searchTools)},
		{Role: nadine.RoleUser, Content: p.render("orchestrator_input", newOrchestratorInput(context, msg))},
	}})
	if err != nil {
		return nil, err
	}
	return parsePlan(content)
}

// validatePlan normalizes agent names, drops unknown agents and repeated
// steps, and keeps at most max, each change with a note.
func validatePlan(steps []PlanStep, msg string, max int) ([]PlanStep, []string) {
	var out []PlanStep
	var notes []string
	for _, st := range steps {
		agent, tool, ok := planAgent(st.Agent, searchToolNames)
		switch {
		case !ok:
			notes = append(notes, "unknown agent "+quote(st.Agent)+" dropped")
			continue
		case agent == NodeResponse:
			notes = append(notes, "response_agent step ignored: the response always comes last")
			continue
		case len(out) == max:
			notes = append(notes, "plan cut to "+strconv.Itoa(max)+" steps")
			return out, notes
		}
		if strings.TrimSpace(st.Agent) != agent {
			notes = append(notes, "agent "+quote(st.Agent)+" read as "+agent)
		}
		m := strings.TrimSpace(st.Message)
		if m == "" {
			m = msg
		}
		if t := strings.TrimSpace(st.Tool); t != "" {
			tool = t
			if m, ok := labels.Match(t, searchToolNames); ok {
				tool = m
			}
		}
		step := PlanStep{Agent: agent, Message: m, Tool: tool}
		if slices.ContainsFunc(out, func(o PlanStep) bool {
			return o.Agent == step.Agent && o.Tool == step.Tool && labels.Key(o.Message) == labels.Key(step.Message)
		}) {
			notes = append(notes, "a step planned twice runs once: "+agent+" "+quote(m))
			continue
		}
		out = append(out, step)
	}
	return out, notes
}

// contextualize reads the background summary when it covers this history and
// arrives within SummaryWait, else the last one and last exchange: nothing waits.
func (o *orchestrator) contextualize(ctx context.Context, s State) (State, string) {
	tr := nadine.TraceFrom(ctx)
	hist := s.history()
	if len(hist) == 0 {
		s.ContextSummary, s.ContextKey = NoContext, ""
		return s, NoContext
	}
	key := historyKey(hist)
	if s.ContextKey == key && s.ContextSummary != "" {
		tr.Notef("context summary: ready in the state")
		return s, s.ContextSummary
	}
	return o.contextOf(ctx, s, key, hist)
}

// backgroundContext is the context of hist from the summary the previous
// turn started in the background, or the last known one.
func (o *orchestrator) backgroundContext(ctx context.Context, s State, key string, hist []nadine.Message) (State, string) {
	tr := nadine.TraceFrom(ctx)
	job, text, ok := o.awaitSummary(ctx, key)
	if ok {
		s.ContextSummary, s.ContextKey = text, key
		tr.Notef("context summary: computed in the background after the previous turn")
		return s, text
	}
	if job != nil {
		// Still running: its summary becomes the last known one for
		// the next turn, if it is done by the end of this one.
		s.live.lateSummary(job)
		tr.Notef("context summary: not ready within %v; the last known summary and the last exchange are used", o.summaryWait)
	} else {
		tr.Notef("context summary: none for this history; the last known summary and the last exchange are used")
	}
	return s, lastKnownContext(s.ContextSummary, hist)
}

// inlineContext summarizes hist on the critical path, as the sequential
// wiring does.
func (o *orchestrator) inlineContext(ctx context.Context, s State, key string, hist []nadine.Message) (State, string) {
	tr := nadine.TraceFrom(ctx)
	tr.Notef("context summary: computed inline")
	text, err := summarize(ctx, o.summarizer, o.prompts, hist)
	if err != nil {
		tr.Fail("context_summary", err)
		return s, fallbackContext(hist)
	}
	s.ContextSummary, s.ContextKey = text, key
	return s, text
}

// lastKnownContext is the context of a history whose summary is not ready:
// the last known summary (of an older history), then the last exchange.
func lastKnownContext(summary string, hist []nadine.Message) string {
	last := fallbackContext(hist)
	if summary == "" || summary == NoContext {
		return last
	}
	return summary + "\nMost recently:\n" + last
}

// summarize asks the context_summary model for one sentence about hist.
func summarize(ctx context.Context, m nadine.ChatModel, p prompts, hist []nadine.Message) (string, error) {
	if len(hist) == 0 {
		return NoContext, nil
	}
	content, err := ask(ctx, m, nadine.ChatRequest{Role: RoleContextSummary, Messages: []nadine.ChatMessage{
		{Role: nadine.RoleSystem, Content: p.render("context_summary", nil)},
		{Role: nadine.RoleUser, Content: conversationData(hist)},
	}})
	if err != nil {
		return "", err
	}
	text := answerText(content, "summary", "context_summary", "context", "text")
	noteText(ctx, RoleContextSummary, content, text)
	if text == "" {
		return "", nadine.Errorf(nadine.EBADOUTPUT, "agents: empty context summary")
	}
	return nadine.Shorten(text, 400), nil
}

// fallbackContext is the last exchange, when no summary could be made.
func fallbackContext(hist []nadine.Message) string {
	if len(hist) > 2 {
		hist = hist[len(hist)-2:]
	}
	return nadine.Shorten(transcript(hist), 300)
}

// transcript renders messages one per line: "User: ..." and "Nadine: ...".
func transcript(msgs []nadine.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		who := "Nadine"
		if m.Role == nadine.RoleUser {
			who = "User"
			if m.Name != "" {
				who = m.Name
			}
		} else if m.Role != nadine.RoleAssistant {
			continue
		}
		b.WriteString(who + ": " + strings.TrimSpace(m.Content) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// historyKey is the last four messages, so a window that dropped its oldest
// message keeps its summary.
func historyKey(hist []nadine.Message) string {
	if len(hist) > 4 {
		hist = hist[len(hist)-4:]
	}
	h := sha256.New()
	for _, m := range hist {
		h.Write([]byte(m.Role))
		h.Write([]byte{0})
		h.Write([]byte(strings.TrimSpace(m.Content)))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// summaryJob is a context summary computed in the background.
type summaryJob struct {
	key  string
	done chan struct{}
	text string
	err  error
}

// startSummary summarizes, in the background, the history the next turn
// will have: this turn's window, message and reply.
func (o *orchestrator) startSummary(s State) {
	if o.summarizer == nil {
		return
	}
	hist := append(append([]nadine.Message(nil), s.Messages...),
		nadine.Message{Role: nadine.RoleAssistant, Content: s.FinalMessage, Name: "Nadine", Time: o.now().Unix()})
	if n := len(hist); n > o.conversationLimit {
		hist = hist[n-o.conversationLimit:]
	}
	job := &summaryJob{key: historyKey(hist), done: make(chan struct{})}
	o.mu.Lock()
	o.summary = job
	o.mu.Unlock()
	started := o.work.precompute(time.Minute, func(ctx context.Context) {
		defer close(job.done)
		job.text, job.err = summarize(ctx, o.summarizer, o.prompts, hist)
		if job.err != nil && !errors.Is(ctx.Err(), context.Canceled) { // not cut by Close
			o.log.Warn("agents: background context summary failed", "err", job.err)
		}
	})
	if !started {
		job.err = nadine.Errorf(nadine.EUNAVAILABLE, "agents: engine closed")
		close(job.done)
	}
}

// DefaultSummaryWait is how long a turn waits, at most, for the context
// summary the previous turn started in the background (Options.SummaryWait).
const DefaultSummaryWait = 30 * time.Millisecond

// awaitSummary waits at most SummaryWait for key's summary; it returns the job
// when there is one, and ok when its summary is ready.
func (o *orchestrator) awaitSummary(ctx context.Context, key string) (*summaryJob, string, bool) {
	o.mu.Lock()
	job := o.summary
	o.mu.Unlock()
	if job == nil || job.key != key {
		return nil, "", false
	}
	if wait := o.summaryWait; wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-job.done:
		case <-t.C:
		case <-ctx.Done():
		}
	}
	text, ok := job.result()
	return job, text, ok
}

// result returns the job's summary once it is done.
func (j *summaryJob) result() (string, bool) {
	select {
	case <-j.done:
		return j.text, j.err == nil
	default:
		return "", false
	}
}

func quote(s string) string { return "\"" + nadine.Shorten(s, 40) + "\"" }
