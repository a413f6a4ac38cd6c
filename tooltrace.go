package nadine

import (
	"context"
	"io"
	"strings"
	"time"
)

// TraceTool wraps t so that each call is recorded in the context's trace
// and a panic becomes an EINTERNAL error; wrapping twice records once.
func TraceTool(t Tool) Tool {
	if t == nil {
		return nil
	}
	if _, ok := t.(*tracedTool); ok {
		return t
	}
	return &tracedTool{t}
}

// Untraced returns the tool inside t's trace wrapper (see TraceTool) and
// true, or t and false when t is not one.
func Untraced(t Tool) (Tool, bool) {
	if tr, ok := t.(*tracedTool); ok {
		return tr.Tool, true
	}
	return t, false
}

// tracedTool records each call of the tool it wraps.
type tracedTool struct{ Tool }

var _ Tool = (*tracedTool)(nil)

// Call runs the tool and records the call.
func (t *tracedTool) Call(ctx context.Context, in ToolInput) (out string, err error) {
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			out, err = "", Errorf(EINTERNAL, "tools: %s panicked: %v", t.Name(), p)
		}
		rec := ToolCallRecord{
			Tool:     t.Name(),
			Input:    in.Text,
			Output:   out,
			Start:    start,
			Duration: time.Since(start),
			Step:     StepOf(ctx).ID,
		}
		if err != nil {
			rec.Error = err.Error()
		}
		TraceFrom(ctx).AddToolCall(rec)
	}()
	return t.Tool.Call(ctx, in)
}

// Close closes the wrapped tool when it has a Close method.
func (t *tracedTool) Close() error {
	if c, ok := t.Tool.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// Unwrap returns the wrapped tool.
func (t *tracedTool) Unwrap() Tool { return t.Tool }

// UnwrapTool returns the tool inside t's wrappers: each wrapper with an
// Unwrap() Tool method is taken off.
func UnwrapTool(t Tool) Tool {
	for {
		u, ok := t.(interface{ Unwrap() Tool })
		if !ok {
			return t
		}
		t = u.Unwrap()
	}
}

// LookupTool finds the tool called name: the exact name first, then
// ignoring case, surrounding spaces and quotes (models vary the spelling).
func LookupTool(tools []Tool, name string) (Tool, bool) {
	for _, t := range tools {
		if t.Name() == name {
			return t, true
		}
	}
	n := strings.ToLower(strings.Trim(strings.TrimSpace(name), "\"'`"))
	for _, t := range tools {
		if strings.ToLower(t.Name()) == n {
			return t, true
		}
	}
	return nil, false
}
