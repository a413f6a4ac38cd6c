package nadine

import (
	"context"
	"encoding/json"
)

// ChatModel is a chat-completion model behind one configured profile. Calls
// are recorded in the context's Trace and fail with a coded error.
type ChatModel interface {
	// Chat sends the request and returns the whole answer.
	Chat(ctx context.Context, req ChatRequest) (ChatResponse, error)
	// ChatStream sends the request and calls onDelta with each piece of
	// content as it arrives; it returns the whole answer at the end.
	ChatStream(ctx context.Context, req ChatRequest, onDelta func(string)) (ChatResponse, error)
}

// ChatRequest is one chat-completion call. The profile supplies model,
// temperature and timeout; the request supplies the conversation.
type ChatRequest struct {
	// Role names the caller in the trace: "react_agent", "orchestrator", ...
	Role     string        `json:"role"`
	Messages []ChatMessage `json:"messages"`
	// Format asks for JSON output; the zero value asks for text.
	Format ResponseFormat `json:"format"`
	// Tools are offered as native tool calls (function calling).
	Tools []ToolSpec `json:"tools,omitempty"`
	// MaxTokens overrides the profile's limit when positive.
	MaxTokens int `json:"max_tokens,omitempty"`
}

// ChatMessage is one message of a chat request.
type ChatMessage struct {
	Role    Role   `json:"role"`
	Content string `json:"content"`
	// Images are image URLs or data URLs ("data:image/jpeg;base64,...")
	// attached to a user message, for vision models.
	Images     []string   `json:"images,omitempty"`
	Name       string     `json:"name,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`   // on assistant messages
	ToolCallID string     `json:"tool_call_id,omitempty"` // on tool messages
}

// Response format types.
const (
	FormatText       = ""            // free text
	FormatJSONObject = "json_object" // JSON mode
	FormatJSONSchema = "json_schema" // structured output against Schema
)

// ResponseFormat asks a model for text, any JSON object, or JSON matching a
// schema.
type ResponseFormat struct {
	Type   string          `json:"type,omitempty"`
	Name   string          `json:"name,omitempty"`   // schema name, for json_schema
	Schema json.RawMessage `json:"schema,omitempty"` // JSON Schema, for json_schema
	Strict bool            `json:"strict,omitempty"`
}

// ToolSpec describes a function the model may call natively.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters,omitempty"` // JSON Schema of the arguments
}

// ToolCall is a function call the model asked for.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // JSON text
}

// ChatResponse is a model's answer.
type ChatResponse struct {
	Content          string     `json:"content"`
	ToolCalls        []ToolCall `json:"tool_calls,omitempty"`
	Model            string     `json:"model"`
	PromptTokens     int        `json:"prompt_tokens"`
	CompletionTokens int        `json:"completion_tokens"`
	FinishReason     string     `json:"finish_reason,omitempty"`
}

// Embedder turns texts into vectors for similarity search.
type Embedder interface {
	// Name identifies the vector space ("lexical-v1"): vectors of different
	// names are never compared.
	Name() string
	// Embed returns one vector per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// EmbedOne embeds a single text.
func EmbedOne(ctx context.Context, e Embedder, text string) ([]float32, error) {
	v, err := e.Embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	if len(v) != 1 {
		return nil, Errorf(EBADOUTPUT, "embedder %s returned %d vectors for 1 text", e.Name(), len(v))
	}
	return v[0], nil
}
