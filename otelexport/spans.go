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
}

// Export returns at once; the spans are sent in the background.
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

// nodes nests spans as the trace recorded them (nadine.OpenStep), never by time,
// so clocks read in different places cannot misplace a span.
func (e *Exporter) nodes(d nadine.TraceData) []node {
	steps := make([]node, 0, len(d.Steps))
	index := map[int]int{} // step ID → its index in d.Steps
	for i, s := range d.Steps {
		if s.ID != 0 {
			index[s.ID] = i
		}
	}
	// depth is a step's distance from the turn, to order parents first; a
	// parent chain that loops (a trace built by hand) is cut at the turn.
	depth := make([]int, len(d.Steps))
	parent := make([]int, len(d.Steps))
	for i, s := range d.Steps {
		parent[i] = -1
		if j, ok := index[s.Parent]; ok && s.Parent != 0 && j != i {
			parent[i] = j
		}
	}
	for i := range d.Steps {
		for j := parent[i]; j >= 0 && depth[i] <= len(d.Steps); j = parent[j] {
			depth[i]++
		}
		if depth[i] > len(d.Steps) {
			parent[i], depth[i] = -1, 0
		}
	}
	order := make([]int, len(d.Steps))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		i, j := order[a], order[b]
		if depth[i] != depth[j] {
			return depth[i] < depth[j]
		}
		return d.Steps[i].Start.Before(d.Steps[j].Start)
	})
	at := make([]int, len(d.Steps)) // a step's index in d.Steps → in steps
	for k, i := range order {
		at[i] = k
	}
	for _, i := range order {
		s := d.Steps[i]
		n := node{start: s.Start, end: s.Start.Add(s.Duration), parent: -1, name: s.Name, kind: trace.SpanKindInternal, err: s.Error}
		if parent[i] >= 0 {
			n.parent = at[parent[i]]
		}
		if s.Detail != "" && (e.opts.Content || strings.Contains(s.Detail, "parallel group")) {
			n.attrs = append(n.attrs, attribute.String("nadine.step.detail", s.Detail))
		}
		steps = append(steps, n)
	}
	out := steps
	leaf := func(n node, step int) {
		n.parent = -1
		if i, ok := index[step]; ok && step != 0 {
			n.parent = at[i]
		}
		out = append(out, n)
	}
	for _, c := range d.ModelCalls {
		op := semconv.GenAIOperationNameChat
		if c.Role == "embeddings" {
			op = semconv.GenAIOperationNameEmbeddings
		}
		n := node{start: c.Start, end: c.Start.Add(c.Latency), name: op.Value.AsString() + " " + c.Model, kind: trace.SpanKindClient,
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
		leaf(n, c.Step)
	}
	for _, c := range d.ToolCalls {
		n := node{start: c.Start, end: c.Start.Add(c.Duration), name: "execute_tool " + c.Tool, kind: trace.SpanKindInternal,
			attrs: []attribute.KeyValue{semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolNameKey.String(c.Tool)}, err: c.Error}
		if e.opts.Content {
			n.attrs = append(n.attrs, attribute.String("nadine.tool.input", c.Input), attribute.String("nadine.tool.output", c.Output))
		}
		leaf(n, c.Step)
	}
	for _, r := range d.Retrievals {
		n := node{start: r.Start, end: r.Start.Add(r.Duration), name: "retrieve " + r.Kind, kind: trace.SpanKindInternal,
			attrs: []attribute.KeyValue{attribute.String("nadine.retrieval.kind", r.Kind), attribute.Int("nadine.retrieval.results", len(r.Results))}}
		if e.opts.Content {
			n.attrs = append(n.attrs, attribute.String("nadine.retrieval.query", r.Query))
		}
		leaf(n, r.Step)
	}
	return out
}
