package llmtest

import (
	"encoding/json"
	"slices"
	"strings"
)

// Endpoint paths served by a Server.
const (
	PathChat       = "/v1/chat/completions"
	PathEmbeddings = "/v1/embeddings"
	PathModels     = "/v1/models"
)

// Request is one chat-completion or embedding request the server received,
// decoded from its JSON body.
type Request struct {
	Path  string `json:"path"` // PathChat or PathEmbeddings
	Model string `json:"model"`

	// Chat completions.
	Messages []Message `json:"messages,omitempty"`
	// ResponseFormat is response_format.type: "", "text", "json_object" or
	// "json_schema"; SchemaName, Schema and Strict come from its json_schema.
	ResponseFormat      string          `json:"response_format,omitempty"`
	SchemaName          string          `json:"schema_name,omitempty"`
	Schema              json.RawMessage `json:"schema,omitempty"`
	Strict              bool            `json:"strict,omitempty"`
	Tools               []string        `json:"tools,omitempty"` // names of the offered functions
	Stream              bool            `json:"stream,omitempty"`
	IncludeUsage        bool            `json:"include_usage,omitempty"` // stream_options.include_usage
	MaxTokens           int             `json:"max_tokens,omitempty"`
	MaxCompletionTokens int             `json:"max_completion_tokens,omitempty"`
	Temperature         *float64        `json:"temperature,omitempty"`
	HasStop             bool            `json:"has_stop,omitempty"` // the body had a "stop" field

	// Embeddings.
	Input      []string `json:"input,omitempty"`
	Dimensions int      `json:"dimensions,omitempty"`

	// Authorized is false when the server has an API key and the request
	// did not carry it (the request was answered with 401).
	Authorized bool `json:"authorized"`
	// Fields lists the body's top-level field names.
	Fields []string `json:"fields,omitempty"`
	// Body is the raw JSON body.
	Body json.RawMessage `json:"body,omitempty"`
}

// Message is one decoded chat message.
type Message struct {
	Role string `json:"role"`
	// Content is the text: the content string, or the text parts joined by
	// newlines.
	Content string `json:"content"`
	// Images are the URLs of the image_url parts (data URLs included).
	Images     []string   `json:"images,omitempty"`
	Name       string     `json:"name,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// ToolCall is a function call, in a request's assistant message or in a
// scripted reply.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// IsChat reports whether r is a chat-completion request.
func (r Request) IsChat() bool { return r.Path == PathChat }

// IsEmbeddings reports whether r is an embedding request.
func (r Request) IsEmbeddings() bool { return r.Path == PathEmbeddings }

// LastUser returns the text of the last user message, or "".
func (r Request) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// System returns the text of the system messages, joined by newlines.
func (r Request) System() string {
	var parts []string
	for _, m := range r.Messages {
		if m.Role == "system" || m.Role == "developer" {
			parts = append(parts, m.Content)
		}
	}
	return strings.Join(parts, "\n")
}

// Last returns the last message, or the zero Message.
func (r Request) Last() Message {
	if len(r.Messages) == 0 {
		return Message{}
	}
	return r.Messages[len(r.Messages)-1]
}

// HasTool reports whether the request offered a function with this name.
func (r Request) HasTool(name string) bool {
	for _, t := range r.Tools {
		if t == name {
			return true
		}
	}
	return false
}

// HasField reports whether the body had this top-level field.
func (r Request) HasField(name string) bool {
	for _, f := range r.Fields {
		if f == name {
			return true
		}
	}
	return false
}

// wireRequest is the union of the chat and embedding request bodies.
type wireRequest struct {
	Model          string        `json:"model"`
	Messages       []wireMessage `json:"messages"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string          `json:"name"`
			Schema json.RawMessage `json:"schema"`
			Strict bool            `json:"strict"`
		} `json:"json_schema"`
	} `json:"response_format"`
	Tools []struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	Stream        bool `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	MaxTokens           int             `json:"max_tokens"`
	MaxCompletionTokens int             `json:"max_completion_tokens"`
	Temperature         *float64        `json:"temperature"`
	Input               json.RawMessage `json:"input"`
	Dimensions          int             `json:"dimensions"`
}

type wireMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Name       string          `json:"name"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

type wirePart struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL *struct {
		URL string `json:"url"`
	} `json:"image_url"`
}

// decodeRequest decodes a request body received on path.
func decodeRequest(path string, body []byte) (Request, error) {
	r := Request{Path: path, Body: json.RawMessage(body)}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return r, err
	}
	for k := range fields {
		r.Fields = append(r.Fields, k)
	}
	slices.Sort(r.Fields)
	_, r.HasStop = fields["stop"]
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return r, err
	}
	r.Model = w.Model
	r.Stream = w.Stream
	r.IncludeUsage = w.StreamOptions != nil && w.StreamOptions.IncludeUsage
	r.MaxTokens = w.MaxTokens
	r.MaxCompletionTokens = w.MaxCompletionTokens
	r.Temperature = w.Temperature
	r.Dimensions = w.Dimensions
	if f := w.ResponseFormat; f != nil {
		r.ResponseFormat = f.Type
		if s := f.JSONSchema; s != nil {
			r.SchemaName, r.Schema, r.Strict = s.Name, s.Schema, s.Strict
		}
	}
	for _, t := range w.Tools {
		r.Tools = append(r.Tools, t.Function.Name)
	}
	for _, wm := range w.Messages {
		m := Message{Role: wm.Role, Name: wm.Name, ToolCallID: wm.ToolCallID}
		if err := decodeContent(wm.Content, &m); err != nil {
			return r, err
		}
		for _, tc := range wm.ToolCalls {
			m.ToolCalls = append(m.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
		r.Messages = append(r.Messages, m)
	}
	if len(w.Input) > 0 {
		var one string
		if err := json.Unmarshal(w.Input, &one); err == nil {
			r.Input = []string{one}
		} else if err := json.Unmarshal(w.Input, &r.Input); err != nil {
			return r, err
		}
	}
	return r, nil
}

func decodeContent(raw json.RawMessage, m *Message) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] == '"' {
		return json.Unmarshal(raw, &m.Content)
	}
	var parts []wirePart
	if err := json.Unmarshal(raw, &parts); err != nil {
		return err
	}
	var texts []string
	for _, p := range parts {
		switch {
		case p.Type == "text":
			texts = append(texts, p.Text)
		case p.Type == "image_url" && p.ImageURL != nil:
			m.Images = append(m.Images, p.ImageURL.URL)
		}
	}
	m.Content = strings.Join(texts, "\n")
	return nil
}
