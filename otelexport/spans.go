package otelexport

import (
	"context"
	"sort"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/redact"
)

// Turn describes a finished turn besides its trace.
type Turn struct {
	Robot    string
	Outcome  string // answered, fallback, failed
	Language nadine.Language
	Reply    string // exported with Options.Content only
}

// node is one span to make: its times, its parent (an index, -1 for the
// turn's span) and how to fill it.
type node struct {
	start, end time.Time
	parent     int
	name       string
	kind       trace.SpanKind
	attrs      []attribute.KeyValue
	err        string // the span's error (its status), if any
	errType    string
	step       bool   // a step: may hold other spans
	role       string // a model call's role, to find its step
}

// Export makes the spans of one finished turn: the turn, its steps (graph
// nodes, parallel groups, ReAct stages, engine attempts) nested by their
// times, and under them each model call (GenAI client spans), tool call
// and retrieval. It returns at once; the spans are sent in the background.
func (e *Exporter) Export(t Turn, d nadine.TraceData) {
	nodes := e.nodes(d)
	end := d.Start.Add(d.Duration)
	for _, n := range nodes {
		if n.end.After(end) {
			end = n.end // a streamed call whose last fields came after the reply
		}
	}
	root := []attribute.KeyValue{
		attribute.String("nadine.robot", t.Robot), attribute.String("nadine.turn.id", d.ID),
		attribute.String("nadine.engine", d.Engine), attribute.String("nadine.turn.outcome", t.Outcome),
		attribute.String("nadine.turn.language", string(t.Language)),
		attribute.Int("nadine.turn.critical_path", d.CriticalPath),
		attribute.Int("nadine.turn.model_calls", len(d.ModelCalls)),
	}
	if d.FirstSpeech > 0 {
		root = append(root, attribute.Float64("nadine.turn.first_speech_s", d.FirstSpeech.Seconds()))
	}
	if e.opts.Content {
		root = append(root, attribute.String("nadine.turn.input", d.Input), attribute.String("nadine.turn.reply", t.Reply))
	}
	ctx, span := e.tracer.Start(context.Background(), "turn", trace.WithTimestamp(d.Start),
		trace.WithSpanKind(trace.SpanKindConsumer), trace.WithAttributes(root...))
	for _, f := range d.Failures {
		msg := f.Error
		if !e.opts.Content {
			msg = redact.Quoted(msg)
		}
		span.AddEvent("failure", trace.WithAttributes(attribute.String("nadine.stage", f.Stage),
			attribute.String("error.type", f.Code), attribute.String("exception.message", msg)))
	}
	if t.Outcome == "failed" || (len(d.Failures) > 0 && t.Outcome == "fallback") {
		span.SetStatus(codes.Error, t.Outcome)
	}
	ctxs := make([]context.Context, len(nodes))
	spans := make([]trace.Span, len(nodes))
	for i, n := range nodes { // parents come first (see nodes)
		pctx := ctx
		if n.parent >= 0 {
			pctx = ctxs[n.parent]
		}
		ctxs[i], spans[i] = e.tracer.Start(pctx, n.name, trace.WithTimestamp(n.start), trace.WithSpanKind(n.kind), trace.WithAttributes(n.attrs...))
		if n.err != "" {
			msg := n.err
			if !e.opts.Content {
				msg = redact.Quoted(msg)
			}
			spans[i].SetStatus(codes.Error, msg)
			if n.errType != "" {
				spans[i].SetAttributes(semconv.ErrorTypeKey.String(n.errType))
			}
		}
	}
	for i := len(nodes) - 1; i >= 0; i-- {
		spans[i].End(trace.WithTimestamp(nodes[i].end))
	}
	span.End(trace.WithTimestamp(end))
}

// nodes lists the spans under the turn's, each parent before its
// children. A member of a parallel group hangs from its group (the step
// names it); another step from the innermost step that started before it
// and holds its time; a call, a tool call or a retrieval from the step
// named for its role among those that hold it (the graph node
// "intention_classifier" for the role "intent_classifier"), else from the
// innermost one. Where two steps side by side (siblings) both hold a span,
// which of them made it is not known: a span that started while a sibling
// of its innermost holder ran too hangs from their parent, unless its
// name points at one.
func (e *Exporter) nodes(d nadine.TraceData) []node {
	var steps []node
	var groups []string // the parallel group each step belongs to, if any
	for _, s := range d.Steps {
		n := node{start: s.Start, end: s.Start.Add(s.Duration), parent: -1, name: s.Name, kind: trace.SpanKindInternal, step: true, err: s.Error}
		if s.Detail != "" && (e.opts.Content || strings.Contains(s.Detail, "parallel group")) {
			n.attrs = append(n.attrs, attribute.String("nadine.step.detail", s.Detail))
		}
		steps = append(steps, n)
	}
	sort.SliceStable(steps, func(i, j int) bool {
		if !steps[i].start.Equal(steps[j].start) {
			return steps[i].start.Before(steps[j].start)
		}
		return steps[i].end.After(steps[j].end)
	})
	for _, n := range steps {
		g := ""
		for _, a := range n.attrs {
			if a.Key == "nadine.step.detail" {
				g = groupOf(a.Value.AsString())
			}
		}
		groups = append(groups, g)
	}
	// place returns the parent of a span among the steps that hold it:
	// the preferred one (or the innermost), unless a sibling holds it too.
	// Only the first placed steps have their parent yet.
	place := func(n node, holders []int, placed int, prefer func(j int) int) int {
		best, bestScore := -1, 0
		for _, j := range holders {
			score := prefer(j)*1_000_000_000_000 - int(steps[j].end.Sub(steps[j].start)/time.Microsecond)
			if best < 0 || score > bestScore {
				best, bestScore = j, score
			}
		}
		for best >= 0 && prefer(best) == 0 {
			ambiguous := false
			for j := range placed {
				if j != best && steps[j].parent == steps[best].parent && running(steps[j], n.start) {
					ambiguous = true
				}
			}
			if !ambiguous {
				break
			}
			best = steps[best].parent
		}
		return best
	}
	for i := range steps {
		var holders []int
		for j := 0; j < i; j++ {
			if holds(steps[j], steps[i]) {
				holders = append(holders, j)
			}
		}
		if g := groups[i]; g != "" {
			for _, j := range holders {
				if steps[j].name == g {
					steps[i].parent = j
				}
			}
			if steps[i].parent >= 0 {
				continue
			}
		}
		steps[i].parent = place(steps[i], holders, i, func(int) int { return 0 })
	}
	out := steps
	leaf := func(n node) {
		var holders []int
		for j := range steps {
			if holds(steps[j], n) {
				holders = append(holders, j)
			}
		}
		n.parent = place(n, holders, len(steps), func(j int) int { return affinity(steps[j].name, n.role) })
		out = append(out, n)
	}
	for _, c := range d.ModelCalls {
		op := semconv.GenAIOperationNameChat
		if c.Role == "embeddings" {
			op = semconv.GenAIOperationNameEmbeddings
		}
		n := node{start: c.Start, end: c.Start.Add(c.Latency), name: op.Value.AsString() + " " + c.Model, kind: trace.SpanKindClient, role: c.Role,
			attrs: []attribute.KeyValue{op, semconv.GenAIProviderNameOpenAI, semconv.GenAIRequestModelKey.String(c.Model),
				semconv.GenAIUsageInputTokensKey.Int(c.PromptTokens), semconv.GenAIUsageOutputTokensKey.Int(c.CompletionTokens),
				attribute.String("nadine.model.role", c.Role), attribute.String("nadine.model.profile", c.Profile),
				attribute.Int("nadine.model.attempts", c.Attempts), attribute.Bool("nadine.model.stream", c.Stream)}}
		if c.FirstToken > 0 {
			n.attrs = append(n.attrs, attribute.Float64("nadine.model.first_token_s", c.FirstToken.Seconds()))
		}
		if c.Error != "" {
			n.err, n.errType = c.Error, c.Code
			if n.errType == "" {
				n.errType = nadine.EINTERNAL
			}
		}
		leaf(n)
	}
	for _, c := range d.ToolCalls {
		n := node{start: c.Start, end: c.Start.Add(c.Duration), name: "execute_tool " + c.Tool, kind: trace.SpanKindInternal, role: c.Tool,
			attrs: []attribute.KeyValue{semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolNameKey.String(c.Tool)}, err: c.Error}
		if e.opts.Content {
			n.attrs = append(n.attrs, attribute.String("nadine.tool.input", c.Input), attribute.String("nadine.tool.output", c.Output))
		}
		leaf(n)
	}
	for _, r := range d.Retrievals {
		n := node{start: r.Start, end: r.Start.Add(r.Duration), name: "retrieve " + r.Kind, kind: trace.SpanKindInternal, role: r.Kind,
			attrs: []attribute.KeyValue{attribute.String("nadine.retrieval.kind", r.Kind), attribute.Int("nadine.retrieval.results", len(r.Results))}}
		if e.opts.Content {
			n.attrs = append(n.attrs, attribute.String("nadine.retrieval.query", r.Query))
		}
		leaf(n)
	}
	return out
}

// running reports whether step p ran at t.
func running(p node, t time.Time) bool {
	return !t.Before(p.start.Add(-slack)) && !t.After(p.end.Add(slack))
}

// groupOf reads the parallel group a graph node ran in from its step's
// detail ("in parallel group understand").
func groupOf(detail string) string {
	const in = "in parallel group "
	i := strings.Index(detail, in)
	if i < 0 {
		return ""
	}
	g := detail[i+len(in):]
	if j := strings.IndexByte(g, ';'); j >= 0 {
		g = g[:j]
	}
	return strings.TrimSpace(g)
}

// slack absorbs the clock readings of a step and of the calls it made,
// taken in different places.
const slack = 2 * time.Millisecond

// holds reports whether step p's time holds n's.
func holds(p, n node) bool {
	return !n.start.Before(p.start.Add(-slack)) && !n.end.After(p.end.Add(slack))
}

// affinity says how much a step's name and a role have in common: the
// length of their longest common prefix, or of a shared word, when it is
// at least 5 letters ("intention_classifier" and "intent_classifier" share
// "inten", "affective_appraisal" and "appraisal" "appraisal").
func affinity(step, role string) int {
	if role == "" {
		return 0
	}
	step = strings.TrimPrefix(step, "failover:")
	n := 0
	for n < len(step) && n < len(role) && step[n] == role[n] {
		n++
	}
	for _, w := range strings.FieldsFunc(step, func(r rune) bool { return r == '_' || r == ':' || r == ' ' }) {
		for _, v := range strings.FieldsFunc(role, func(r rune) bool { return r == '_' || r == ' ' }) {
			if w == v && len(w) > n {
				n = len(w)
			}
		}
	}
	if n < 5 {
		return 0
	}
	return n
}
