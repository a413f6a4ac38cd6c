package nadine

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"time"
)

// Trace records everything one turn did, for the CLI, the monitor and the
// logs alike; safe for concurrent use, and a nil *Trace does nothing.
type Trace struct {
	mu    sync.Mutex
	end   time.Time        // set by Finish
	steps int              // the last step ID given (OpenStep, AddStep)
	clock func() time.Time // the turn's clock (SetClock); nil: time.Now
	// prompts are what the engines wrote into the turn's model calls, for
	// the echo check (AddPrompt); never serialized.
	prompts    []Prompt
	promptSeen map[string]bool
	TraceData
}

// TraceData is the content of a Trace, without its lock.
type TraceData struct {
	ID          string           `json:"id"`
	Engine      string           `json:"engine"` // the engine that produced the reply
	Input       string           `json:"input"`
	Start       time.Time        `json:"start"`
	Duration    time.Duration    `json:"duration_ns"`
	FirstSpeech time.Duration    `json:"first_speech_ns,omitempty"` // from Start to the first speech event
	Steps       []Step           `json:"steps,omitempty"`
	ModelCalls  []ModelCall      `json:"model_calls,omitempty"`
	ToolCalls   []ToolCallRecord `json:"tool_calls,omitempty"`
	Retrievals  []Retrieval      `json:"retrievals,omitempty"`
	Failures    []Failure        `json:"failures,omitempty"`
	Notes       []string         `json:"notes,omitempty"`
	// Translations holds English renderings of the input and the reply when
	// the session language is not English (for monitoring).
	InputEnglish string `json:"input_english,omitempty"`
	ReplyEnglish string `json:"reply_english,omitempty"`
	// CriticalPath is the number of model calls the reply waited on in
	// sequence (see Finish).
	CriticalPath int `json:"critical_path"`
	// Speculations are the verdicts on the work started before it was
	// known to be wanted (see Speculation).
	Speculations []Speculation `json:"speculations,omitempty"`
}

// Step is one stage of a turn; ID and Parent, set where the step runs
// (OpenStep), give the trace its tree, never guessed from times.
type Step struct {
	ID       int           `json:"id,omitempty"`     // unique in the trace, from 1
	Parent   int           `json:"parent,omitempty"` // the step it ran in; 0: the turn itself
	Name     string        `json:"name"`
	Start    time.Time     `json:"start"`
	Duration time.Duration `json:"duration_ns"`
	Error    string        `json:"error,omitempty"`
	Detail   string        `json:"detail,omitempty"`
}

// ModelCall is one call of a chat model or embedder.
type ModelCall struct {
	Role             string        `json:"role"`    // who called: "orchestrator"
	Profile          string        `json:"profile"` // config profile: "small"
	Model            string        `json:"model"`
	Start            time.Time     `json:"start"`
	Latency          time.Duration `json:"latency_ns"`
	PromptTokens     int           `json:"prompt_tokens"`
	CompletionTokens int           `json:"completion_tokens"`
	Attempts         int           `json:"attempts"` // 1 plus retries
	Stream           bool          `json:"stream,omitempty"`
	// FirstToken is when the first piece of a streamed answer reached the
	// caller, from Start (0: not streamed, or nothing came).
	FirstToken time.Duration `json:"first_token_ns,omitempty"`
	Error      string        `json:"error,omitempty"`
	// Code is a failed call's error code (ErrorCode), or CallCanceled.
	Code string `json:"code,omitempty"`
	// Step is the ID of the step that made the call (StepOf); 0: the turn.
	Step int `json:"step,omitempty"`
}

// CallCanceled is the Code of a model call its caller gave up (a discarded
// speculation, a replaced early turn, a shutdown): no fault of the model's.
const CallCanceled = "canceled"

// ToolCallRecord is one tool call.
type ToolCallRecord struct {
	Tool     string        `json:"tool"`
	Input    string        `json:"input"`
	Output   string        `json:"output"`
	Start    time.Time     `json:"start"`
	Duration time.Duration `json:"duration_ns"`
	Error    string        `json:"error,omitempty"`
	Step     int           `json:"step,omitempty"` // the step that made the call (StepOf); 0: the turn
}

// Retrieval is one similarity search.
type Retrieval struct {
	Kind     string          `json:"kind"` // "memory", "knowledge", "episode", "conversation", "visual"
	Query    string          `json:"query"`
	Results  []RetrievedItem `json:"results"`
	Start    time.Time       `json:"start"`
	Duration time.Duration   `json:"duration_ns"`
	Note     string          `json:"note,omitempty"`
	Step     int             `json:"step,omitempty"` // the step that searched (StepOf); 0: the turn
}

// RetrievedItem is one search result, its text shortened for display.
type RetrievedItem struct {
	ID    string  `json:"id"`
	Text  string  `json:"text"`
	Score float64 `json:"score"`
}

// Failure says what failed during a turn, and why.
type Failure struct {
	Stage string `json:"stage"` // "engine:react", "model:orchestrator", ...
	Code  string `json:"code"`
	Error string `json:"error"`
}

// NewTrace starts a trace for a turn.
func NewTrace(id, input string, start time.Time) *Trace {
	return &Trace{TraceData: TraceData{ID: id, Input: input, Start: start}}
}

// SetClock puts everything the turn measures through its trace on one
// clock, the dialogue manager's injected one.
func (t *Trace) SetClock(now func() time.Time) {
	if t == nil || now == nil {
		return
	}
	t.mu.Lock()
	t.clock = now
	t.mu.Unlock()
}

// Now reads the turn's clock (time.Now for a nil trace or one without a clock).
func (t *Trace) Now() time.Time {
	if t == nil {
		return time.Now()
	}
	t.mu.Lock()
	c := t.clock
	t.mu.Unlock()
	if c == nil {
		return time.Now()
	}
	return c()
}

// StartStep starts a step of the turn itself and returns what ends it; use
// BeginStep for a step whose work hangs from it.
func (t *Trace) StartStep(name string) func(err error) {
	if t == nil {
		return func(error) {}
	}
	start := t.Now()
	return func(err error) {
		s := Step{Name: name, Start: start, Duration: t.Now().Sub(start)}
		if err != nil {
			s.Error = err.Error()
		}
		t.AddStep(s)
	}
}

// AddStep records a finished step; one without an ID gets a new one (a
// step that holds nothing: see OpenStep for one that does).
func (t *Trace) AddStep(s Step) {
	if t == nil {
		return
	}
	t.mu.Lock()
	if s.ID == 0 {
		t.steps++
		s.ID = t.steps
	}
	t.Steps = append(t.Steps, s)
	t.mu.Unlock()
}

type stepKey struct{}

// stepScope is the step a context is in, in which trace.
type stepScope struct {
	t    *Trace
	step Step // its ID and Parent
}

// OpenStep returns a context in a new child step, so work recorded with it
// hangs from that step; whoever ends it records AddStep(StepOf(ctx)).
func OpenStep(ctx context.Context) context.Context {
	t := TraceFrom(ctx)
	if t == nil {
		return ctx
	}
	parent := StepOf(ctx).ID
	t.mu.Lock()
	t.steps++
	id := t.steps
	t.mu.Unlock()
	return context.WithValue(ctx, stepKey{}, stepScope{t: t, step: Step{ID: id, Parent: parent}})
}

// StepOf returns the step ctx is in, with ID and Parent set; the zero Step
// is the turn itself.
func StepOf(ctx context.Context) Step {
	sc, ok := ctx.Value(stepKey{}).(stepScope)
	if !ok || sc.t == nil || sc.t != TraceFrom(ctx) {
		return Step{} // another trace's step: this one starts at its turn
	}
	return sc.step
}

// BeginStep opens a named step (OpenStep) and returns its context and the
// function that records it when it ends.
func BeginStep(ctx context.Context, name string) (context.Context, func(err error)) {
	t := TraceFrom(ctx)
	if t == nil {
		return ctx, func(error) {}
	}
	ctx = OpenStep(ctx)
	s := StepOf(ctx)
	s.Name, s.Start = name, t.Now()
	return ctx, func(err error) {
		s.Duration = t.Now().Sub(s.Start)
		if err != nil {
			s.Error = err.Error()
		}
		t.AddStep(s)
	}
}

// AddModelCall records a call; one ending after Finish (a streamed answer's
// last fields) updates the critical path.
func (t *Trace) AddModelCall(c ModelCall) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.ModelCalls = append(t.ModelCalls, c)
	if !t.end.IsZero() {
		t.CriticalPath = criticalPath(t.ModelCalls, t.end)
	}
	t.mu.Unlock()
}

// AddToolCall records a tool call.
func (t *Trace) AddToolCall(c ToolCallRecord) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.ToolCalls = append(t.ToolCalls, c)
	t.mu.Unlock()
}

// AddRetrieval records a similarity search.
func (t *Trace) AddRetrieval(r Retrieval) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.Retrievals = append(t.Retrievals, r)
	t.mu.Unlock()
}

// Fail records that a stage failed.
func (t *Trace) Fail(stage string, err error) {
	if t == nil || err == nil {
		return
	}
	t.mu.Lock()
	t.Failures = append(t.Failures, Failure{Stage: stage, Code: ErrorCode(err), Error: err.Error()})
	t.mu.Unlock()
}

// Notef records a free-form note.
func (t *Trace) Notef(format string, args ...any) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.Notes = append(t.Notes, fmt.Sprintf(format, args...))
	t.mu.Unlock()
}

// SetInput records the normalized input of the turn.
func (t *Trace) SetInput(input string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.Input = input
	t.mu.Unlock()
}

// TurnID returns the trace's turn id.
func (t *Trace) TurnID() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ID
}

// SetID renames the trace's turn (an early turn adopted by the final
// transcript takes its id).
func (t *Trace) SetID(id string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.ID = id
	t.mu.Unlock()
}

// SetEngine records which engine produced the reply.
func (t *Trace) SetEngine(name string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.Engine = name
	t.mu.Unlock()
}

// SetTranslations records English renderings of the input and the reply.
func (t *Trace) SetTranslations(input, reply string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.InputEnglish, t.ReplyEnglish = input, reply
	t.mu.Unlock()
}

// MarkSpeech records the time of the first speech event, once.
func (t *Trace) MarkSpeech(now time.Time) {
	if t == nil {
		return
	}
	t.mu.Lock()
	if t.FirstSpeech == 0 {
		t.FirstSpeech = now.Sub(t.Start)
	}
	t.mu.Unlock()
}

// Finish sets the turn's duration and its critical path: the longest chain
// of model calls, one after another, that the reply waited on.
func (t *Trace) Finish(end time.Time) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.end = end
	t.Duration = end.Sub(t.Start)
	t.CriticalPath = criticalPath(t.ModelCalls, end)
}

func criticalPath(calls []ModelCall, end time.Time) int {
	type span struct{ start, end time.Time }
	var spans []span
	for _, c := range calls {
		if !c.Start.Before(end) {
			continue
		}
		spans = append(spans, span{c.Start, c.Start.Add(c.Latency)})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].end.Before(spans[j].end) })
	best := 0
	chain := make([]int, len(spans))
	for i, s := range spans {
		chain[i] = 1
		for j := 0; j < i; j++ {
			if !spans[j].end.After(s.start) && chain[j]+1 > chain[i] {
				chain[i] = chain[j] + 1
			}
		}
		if chain[i] > best {
			best = chain[i]
		}
	}
	return best
}

// MarshalJSON encodes the trace under its lock.
func (t *Trace) MarshalJSON() ([]byte, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return json.Marshal(t.TraceData)
}

// Snapshot returns a copy of the trace's content.
func (t *Trace) Snapshot() TraceData {
	if t == nil {
		return TraceData{}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	d := t.TraceData
	d.Steps = append([]Step(nil), d.Steps...)
	d.ModelCalls = append([]ModelCall(nil), d.ModelCalls...)
	d.ToolCalls = append([]ToolCallRecord(nil), d.ToolCalls...)
	d.Retrievals = append([]Retrieval(nil), d.Retrievals...)
	d.Failures = append([]Failure(nil), d.Failures...)
	d.Notes = append([]string(nil), d.Notes...)
	d.Speculations = append([]Speculation(nil), d.Speculations...)
	return d
}

type traceKey struct{}

// WithTrace returns a context carrying t, where model clients, tools and
// stores record what they do.
func WithTrace(ctx context.Context, t *Trace) context.Context {
	return context.WithValue(ctx, traceKey{}, t)
}

// TraceFrom returns the context's trace, or nil (whose methods do nothing).
func TraceFrom(ctx context.Context) *Trace {
	t, _ := ctx.Value(traceKey{}).(*Trace)
	return t
}
