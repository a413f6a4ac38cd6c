package llmtest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Matcher selects requests for a rule.
type Matcher func(Request) bool

// MatchLastUser matches when the last user message contains substr
// (case-insensitive).
func MatchLastUser(substr string) Matcher {
	return func(r Request) bool { return containsFold(r.LastUser(), substr) }
}

// MatchSystem matches when a system message contains substr (case-insensitive).
func MatchSystem(substr string) Matcher {
	return func(r Request) bool { return containsFold(r.System(), substr) }
}

// MatchAny matches when any message, or any embedding input, contains
// substr (case-insensitive).
func MatchAny(substr string) Matcher {
	return func(r Request) bool {
		for _, m := range r.Messages {
			if containsFold(m.Content, substr) {
				return true
			}
		}
		for _, in := range r.Input {
			if containsFold(in, substr) {
				return true
			}
		}
		return false
	}
}

// MatchModel matches requests for the named model.
func MatchModel(name string) Matcher {
	return func(r Request) bool { return r.Model == name }
}

// MatchToolResult matches when the last message is a tool result that
// contains substr (case-insensitive): the second leg of a tool round trip.
func MatchToolResult(substr string) Matcher {
	return func(r Request) bool {
		m := r.Last()
		return m.Role == "tool" && containsFold(m.Content, substr)
	}
}

// MatchTool matches requests that offer the named function.
func MatchTool(name string) Matcher {
	return func(r Request) bool { return r.HasTool(name) }
}

// MatchFormat matches requests whose response_format type is typ ("" for
// none, "json_object", "json_schema").
func MatchFormat(typ string) Matcher {
	return func(r Request) bool { return r.ResponseFormat == typ }
}

// MatchStream matches streaming (true) or non-streaming (false) requests.
func MatchStream(stream bool) Matcher {
	return func(r Request) bool { return r.Stream == stream }
}

// MatchAll matches when every matcher matches.
func MatchAll(ms ...Matcher) Matcher {
	return func(r Request) bool {
		for _, m := range ms {
			if m != nil && !m(r) {
				return false
			}
		}
		return true
	}
}

func containsFold(s, substr string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(substr))
}

// Fault makes a rule answer with a failure instead of a reply.
type Fault struct {
	// Status is the HTTP status to answer with, in OpenAI's error JSON
	// format (with Message, or a default message).
	Status  int
	Message string
	// RetryAfter is the raw Retry-After header value ("1", or an HTTP date).
	RetryAfter string
	// Hang blocks until the client cancels the request (or the server
	// closes), writing nothing.
	Hang bool
	// Garbage answers 200 with a body that is not JSON (for a streaming
	// request: an event whose data is not JSON).
	Garbage bool
	// Disconnect closes the connection without answering.
	Disconnect bool
	// Reset resets the connection (TCP RST) without answering.
	Reset bool
	// AbortAfter, when positive, streams that many content chunks (for a
	// non-streaming request: writes part of the body) and then breaks the
	// connection.
	AbortAfter int
}

// Rule scripts the answer to the requests it matches; the first matching
// rule not used up answers. Its methods are safe while the server runs.
type Rule struct {
	// Match selects requests; nil matches every request.
	Match Matcher
	// Embeddings makes the rule apply to embedding requests instead of chat
	// requests. An embedding rule can only carry a Fault; without one it
	// answers with the deterministic vectors.
	Embeddings bool
	// Content is the assistant's text.
	Content string
	// ContentFunc, when set, computes the text from the request.
	ContentFunc func(Request) string
	// ToolCalls are function calls the assistant asks for.
	ToolCalls []ToolCall
	// Fault, when set, replaces the reply by a failure.
	Fault *Fault
	// Times is how many requests the rule answers before it is used up;
	// 0 means unlimited.
	Times int
	// FinishReason overrides the finish reason ("stop", or "tool_calls"
	// when there are tool calls).
	FinishReason string
	// PromptTokens and CompletionTokens override the usage, which is
	// otherwise counted in words.
	PromptTokens, CompletionTokens int
	// FirstByteLatency is waited before the first byte of the answer,
	// ChunkDelay between streamed chunks. They override the server's
	// options when positive.
	FirstByteLatency, ChunkDelay time.Duration
	// PauseAfter pauses a streamed answer once the content sent contains
	// it, until Resume is closed (or the request or the server ends): a
	// model still writing, at a point the test chooses.
	PauseAfter string
	Resume     <-chan struct{}

	srv  *Server
	hits int
}

// lock runs f under the server's lock (rules may be edited while the
// server answers).
func (r *Rule) lock(f func()) *Rule {
	if r.srv != nil {
		r.srv.mu.Lock()
		defer r.srv.mu.Unlock()
	}
	f()
	return r
}

// Reply sets the assistant's text.
func (r *Rule) Reply(content string) *Rule {
	return r.lock(func() { r.Content, r.ContentFunc = content, nil })
}

// Replyf sets the assistant's text with fmt.Sprintf.
func (r *Rule) Replyf(format string, args ...any) *Rule {
	return r.Reply(fmt.Sprintf(format, args...))
}

// ReplyJSON sets the assistant's text to v encoded as JSON; it panics if v
// cannot be encoded (a bug in the test).
func (r *Rule) ReplyJSON(v any) *Rule {
	b, err := json.Marshal(v)
	if err != nil {
		panic("llmtest: ReplyJSON: " + err.Error())
	}
	return r.Reply(string(b))
}

// ReplyFunc computes the assistant's text from the request.
func (r *Rule) ReplyFunc(f func(Request) string) *Rule {
	return r.lock(func() { r.ContentFunc = f })
}

// ReplyToolCall adds a function call to the answer (arguments as JSON text);
// call it again for parallel calls.
func (r *Rule) ReplyToolCall(name, arguments string) *Rule {
	return r.lock(func() {
		r.ToolCalls = append(r.ToolCalls, ToolCall{Name: name, Arguments: arguments})
	})
}

func (r *Rule) fault(f func(*Fault)) *Rule {
	return r.lock(func() {
		if r.Fault == nil {
			r.Fault = &Fault{}
		}
		f(r.Fault)
	})
}

// Fail answers with an HTTP error status in OpenAI's error format.
func (r *Rule) Fail(status int) *Rule { return r.fault(func(f *Fault) { f.Status = status }) }

// Message sets the error message of a Fail.
func (r *Rule) Message(msg string) *Rule { return r.fault(func(f *Fault) { f.Message = msg }) }

// RetryAfter sets a Retry-After header of whole seconds on a Fail.
func (r *Rule) RetryAfter(seconds int) *Rule {
	return r.RetryAfterHeader(strconv.Itoa(seconds))
}

// RetryAfterHeader sets the raw Retry-After header value (seconds or an
// HTTP date) on a Fail.
func (r *Rule) RetryAfterHeader(v string) *Rule {
	return r.fault(func(f *Fault) { f.RetryAfter = v })
}

// Hang blocks the request until the client gives up.
func (r *Rule) Hang() *Rule { return r.fault(func(f *Fault) { f.Hang = true }) }

// Garbage answers 200 with a body that is not JSON.
func (r *Rule) Garbage() *Rule { return r.fault(func(f *Fault) { f.Garbage = true }) }

// Disconnect closes the connection without an answer.
func (r *Rule) Disconnect() *Rule { return r.fault(func(f *Fault) { f.Disconnect = true }) }

// Reset resets the connection (TCP RST) without an answer.
func (r *Rule) Reset() *Rule { return r.fault(func(f *Fault) { f.Reset = true }) }

// AbortAfter streams n content chunks of the reply and then breaks the
// connection.
func (r *Rule) AbortAfter(n int) *Rule { return r.fault(func(f *Fault) { f.AbortAfter = n }) }

// Once makes the rule answer one request only.
func (r *Rule) Once() *Rule { return r.Limit(1) }

// Limit makes the rule answer n requests (0: unlimited); it sets Times.
func (r *Rule) Limit(n int) *Rule { return r.lock(func() { r.Times = n }) }

// Finish sets the finish reason.
func (r *Rule) Finish(reason string) *Rule { return r.lock(func() { r.FinishReason = reason }) }

// Usage sets the reported token counts.
func (r *Rule) Usage(prompt, completion int) *Rule {
	return r.lock(func() { r.PromptTokens, r.CompletionTokens = prompt, completion })
}

// Latency waits d before the first byte of each answer of this rule.
func (r *Rule) Latency(d time.Duration) *Rule { return r.lock(func() { r.FirstByteLatency = d }) }

// Delay waits d between streamed chunks of this rule's answers.
func (r *Rule) Delay(d time.Duration) *Rule { return r.lock(func() { r.ChunkDelay = d }) }

// Pause makes a streamed answer stop once the content sent contains after,
// until resume is closed.
func (r *Rule) Pause(after string, resume <-chan struct{}) *Rule {
	return r.lock(func() { r.PauseAfter, r.Resume = after, resume })
}

// Hits returns how many requests the rule has answered.
func (r *Rule) Hits() int {
	if r.srv != nil {
		r.srv.mu.Lock()
		defer r.srv.mu.Unlock()
	}
	return r.hits
}
