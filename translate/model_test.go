package translate_test

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/internal/golden"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/openai"
	"github.com/nadine-robot/nadine/translate"
)

// fakeModel is a nadine.ChatModel that returns a scripted answer and
// records the requests.
type fakeModel struct {
	mu      sync.Mutex
	answer  string
	err     error
	reqs    []nadine.ChatRequest
	streams int
}

func (f *fakeModel) Chat(_ context.Context, req nadine.ChatRequest) (nadine.ChatResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, req)
	if f.err != nil {
		return nadine.ChatResponse{}, f.err
	}
	return nadine.ChatResponse{Content: f.answer, Model: "fake"}, nil
}

func (f *fakeModel) ChatStream(ctx context.Context, req nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error) {
	f.mu.Lock()
	f.streams++
	f.mu.Unlock()
	return f.Chat(ctx, req)
}

func (f *fakeModel) requests() []nadine.ChatRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]nadine.ChatRequest(nil), f.reqs...)
}

func TestPromptGolden(t *testing.T) {
	tests := []struct {
		name     string
		from, to nadine.Language
	}{
		{"fr_en", nadine.French, nadine.English},
		{"auto_zh", "", nadine.Chinese},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := translate.Prompt(tt.from, tt.to)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "prompt_"+tt.name, []byte(got))
		})
	}
}

func TestModelTranslate(t *testing.T) {
	f := &fakeModel{answer: "  « It is 12 degrees in Geneva. »\n"}
	m := &translate.Model{Model: f, MaxTokens: 200}
	got, err := m.Translate(context.Background(), "Il fait 12 degrés à Genève.", nadine.French, nadine.English)
	if err != nil {
		t.Fatal(err)
	}
	if want := "It is 12 degrees in Geneva."; got != want {
		t.Errorf("Translate = %q, want %q", got, want)
	}
	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	req := reqs[0]
	if req.Role != "translator" {
		t.Errorf("request role = %q, want %q", req.Role, "translator")
	}
	if req.MaxTokens != 200 {
		t.Errorf("request MaxTokens = %d, want 200", req.MaxTokens)
	}
	if req.Format.Type != nadine.FormatText {
		t.Errorf("request format = %q, want text", req.Format.Type)
	}
	wantSystem, _ := translate.Prompt(nadine.French, nadine.English)
	want := []nadine.ChatMessage{
		{Role: nadine.RoleSystem, Content: wantSystem},
		{Role: nadine.RoleUser, Content: "Il fait 12 degrés à Genève."},
	}
	if !reflect.DeepEqual(req.Messages, want) {
		t.Errorf("request messages = %+v, want the system prompt then the text", req.Messages)
	}
	if f.streams != 0 {
		t.Errorf("ChatStream called %d times, want 0", f.streams)
	}
}

func TestModelTranslateErrors(t *testing.T) {
	modelErr := nadine.Errorf(nadine.ERATELIMIT, "fake: slow down")
	tests := []struct {
		name     string
		model    nadine.ChatModel
		text     string
		from, to nadine.Language
		wantCode string
		wantErr  error // in the chain, when set
	}{
		{"no model", nil, "Bonjour", nadine.French, nadine.English, nadine.EINVALID, nil},
		{"bad target", &fakeModel{answer: "x"}, "Bonjour", nadine.French, "es", nadine.EINVALID, nil},
		{"bad source", &fakeModel{answer: "x"}, "Hola", "es", nadine.English, nadine.EINVALID, nil},
		{"model error keeps its code", &fakeModel{err: modelErr}, "Bonjour", nadine.French, nadine.English, nadine.ERATELIMIT, modelErr},
		{"empty answer", &fakeModel{answer: "  \n"}, "Bonjour", nadine.French, nadine.English, nadine.EBADOUTPUT, nil},
		{"only quotes", &fakeModel{answer: `""`}, "Bonjour", "", nadine.English, nadine.EBADOUTPUT, nil},
		{"only a fence", &fakeModel{answer: "```\n```"}, "Bonjour", "", nadine.English, nadine.EBADOUTPUT, nil},
		{"an object without a translation", &fakeModel{answer: "{}"}, "Bonjour", nadine.French, nadine.English, nadine.EBADOUTPUT, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &translate.Model{Model: tt.model}
			got, err := m.Translate(context.Background(), tt.text, tt.from, tt.to)
			if err == nil {
				t.Fatalf("Translate = %q, nil; want a %s error", got, tt.wantCode)
			}
			if code := nadine.ErrorCode(err); code != tt.wantCode {
				t.Errorf("error %q has code %q, want %q", err, code, tt.wantCode)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("error %q does not wrap %q", err, tt.wantErr)
			}
		})
	}
}

// TestModelTranslateNoCall checks the cases answered without the model.
func TestModelTranslateNoCall(t *testing.T) {
	f := &fakeModel{answer: "should not be used"}
	m := &translate.Model{Model: f}
	for _, tt := range []struct {
		text     string
		from, to nadine.Language
	}{
		{"", nadine.French, nadine.English},
		{"  ", "", nadine.German},
		{"Guten Tag", nadine.German, nadine.German},
	} {
		got, err := m.Translate(context.Background(), tt.text, tt.from, tt.to)
		if err != nil || got != tt.text {
			t.Errorf("Translate(%q, %q, %q) = %q, %v; want the text unchanged", tt.text, tt.from, tt.to, got, err)
		}
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("%d model calls, want 0", n)
	}
}

func TestClean(t *testing.T) {
	tests := []struct {
		answer, source, want string
	}{
		{"Hello.", "Bonjour.", "Hello."},
		{"  Hello.\n", "Bonjour.", "Hello."},
		{`"Hello."`, "Bonjour.", "Hello."},
		{"“Hello.”", "Bonjour.", "Hello."},
		{"« Bonjour. »", "Hello.", "Bonjour."},
		{"„Hallo.“", "Hello.", "Hallo."},
		{"「你好。」", "Hello.", "你好。"},
		{"'J'ai faim.'", "I am hungry.", "J'ai faim."},
		{"```\nHello.\n```", "Bonjour.", "Hello."},
		{"```text\nHello.\n```", "Bonjour.", "Hello."},
		{"```\n\"Hello.\"\n```", "Bonjour.", "Hello."},
		{"```Hello.```", "Bonjour.", "Hello."},
		// Quotes that are part of the text stay.
		{`"Hello," she said.`, "« Bonjour », dit-elle.", `"Hello," she said.`},
		{`"Yes" and "no".`, "« Oui » et « non ».", `"Yes" and "no".`},
		{`"Hello."`, `"Bonjour."`, `"Hello."`},
		{"", "Bonjour.", ""},
		{`""`, "Bonjour.", ""},
		// What chatty and reasoning models add around a translation.
		{"<think>The user wants English.</think>\nHello.", "Bonjour.", "Hello."},
		{"Here is the English translation:\n\n\"Hello.\"", "Bonjour.", "Hello."},
		{"Translation: Hello.", "Bonjour.", "Hello."},
		{`{"translation": "Hello."}`, "Bonjour.", "Hello."},
		{"```json\n{\"translated_text\": \"Hallo.\"}\n```", "Hello.", "Hallo."},
		// A JSON answer's one text, whatever its key; none when it holds two.
		{`{"fr": "Il fait beau.", "confidence": 0.93}`, "It is sunny.", "Il fait beau."},
		{"```json\n{\"source\": \"It is sunny.\", \"de\": \"Es ist sonnig.\"}\n```", "It is sunny.", "Es ist sonnig."},
		{`{"traduction": 'Il fait beau.', "ok": True}`, "It is sunny.", "Il fait beau."},
		{`{"fr": "Il fait beau.", "note": "informal"}`, "It is sunny.", ""},
		{"{}", "It is sunny.", ""},
		{`{"status": "ok", "lang": "fr"}`, "It is sunny.", ""},
		{`{"a": 1}`, `{"a": 1}`, `{"a": 1}`}, // JSON translated is JSON
	}
	for _, tt := range tests {
		if got := translate.Clean(tt.answer, tt.source); got != tt.want {
			t.Errorf("Clean(%q, %q) = %q, want %q", tt.answer, tt.source, got, tt.want)
		}
	}
}

// TestModelOverWire runs Model with the real OpenAI client against the
// scripted server, and checks what went over the wire and what the trace
// recorded.
func TestModelOverWire(t *testing.T) {
	srv := llmtest.New(t)
	srv.On(llmtest.MatchAll(llmtest.MatchSystem("into German"), llmtest.MatchLastUser("I am smiling now."))).
		Reply("\"Ich lächle jetzt.\"")
	srv.On(llmtest.MatchSystem("into English")).Reply("")
	client, err := openai.New(openai.Config{Profile: "small", BaseURL: srv.URL(), Model: "test-model"})
	if err != nil {
		t.Fatal(err)
	}
	m := &translate.Model{Model: client}
	trace := nadine.NewTrace("t1", "I am smiling now.", time.Now())
	ctx := nadine.WithTrace(context.Background(), trace)

	got, err := m.Translate(ctx, "I am smiling now.", nadine.English, nadine.German)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Ich lächle jetzt."; got != want {
		t.Errorf("Translate = %q, want %q", got, want)
	}
	last, ok := srv.LastChat()
	if !ok {
		t.Fatal("no chat request received")
	}
	if len(last.Messages) != 2 || last.Messages[0].Role != "system" || last.Messages[1].Role != "user" {
		t.Errorf("messages = %+v, want system then user", last.Messages)
	}
	if last.Stream {
		t.Error("request was streamed, want a plain completion")
	}
	calls := trace.Snapshot().ModelCalls
	if len(calls) != 1 || calls[0].Role != "translator" || calls[0].Profile != "small" {
		t.Errorf("trace model calls = %+v, want one call with role translator, profile small", calls)
	}

	// An empty answer is a bad output.
	_, err = m.Translate(ctx, "Ich lächle jetzt.", nadine.German, nadine.English)
	if code := nadine.ErrorCode(err); code != nadine.EBADOUTPUT {
		t.Errorf("empty answer: error %v has code %q, want %q", err, code, nadine.EBADOUTPUT)
	}
}
