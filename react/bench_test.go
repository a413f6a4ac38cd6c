package react_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/openai"
	"github.com/nadine-robot/nadine/react"
	"github.com/nadine-robot/nadine/sqlite"
)

// BenchmarkFirstSentence measures, against a model with a 300 ms time to
// first token that generates 50 tokens a second (and a 50 ms embedder), how
// long a follow-up turn with history takes to its first spoken sentence and
// to its end: with the answer's metadata before the text (the oldest
// order), with the emotion only before it (the order before), with the
// text right after the action (the prompt's order), and with the agent's
// first call started speculatively beside the contextualizer. Each
// iteration takes a second or two: run it with -benchtime=5x.
func BenchmarkFirstSentence(b *testing.B) {
	const (
		standalone = "What will the weather be in Geneva tomorrow?"
		text       = "Tomorrow will be sunny in Geneva. Perfect weather for a walk by the lake, Alex!"
	)
	oldOrder := "```json\n{\"action\": \"Final Answer\", \"category\": \"information request\", \"emotion\": \"joy\", \"emotion_intensity\": 6, \"causing_person\": \"Alex\", \"action_input\": \"" + text + "\"}\n```"
	emotionFirst := "```json\n{\"action\": \"Final Answer\", \"emotion\": \"joy\", \"emotion_intensity\": 6, \"action_input\": \"" + text + "\", \"category\": \"information request\", \"causing_person\": \"Alex\"}\n```"
	newOrder := answer("joy", 6, text, "information request", "Alex")
	for _, bb := range []struct {
		name      string
		answer    string
		speculate bool
	}{
		{"old-order", oldOrder, false},
		{"emotion-first", emotionFirst, false},
		{"prompt-order", newOrder, false},
		{"prompt-order+speculate", newOrder, true},
	} {
		b.Run(bb.name, func(b *testing.B) {
			srv := llmtest.New(b, llmtest.WithLatency(300*time.Millisecond), llmtest.WithTokenRate(50),
				llmtest.WithEmbeddingLatency(50*time.Millisecond))
			srv.On(llmtest.MatchModel("ctx-model")).Reply(standalone)
			srv.On(llmtest.MatchModel("agent-model")).Reply(bb.answer)
			eng := benchEngine(b, srv, bb.speculate)
			var first, total time.Duration
			b.ResetTimer()
			for b.Loop() {
				var once sync.Once
				start := time.Now()
				emit := func(e nadine.Event) {
					if e.Kind == nadine.EventSpeech {
						once.Do(func() { first += time.Since(start) })
					}
				}
				if _, err := eng.Respond(context.Background(), nadine.Request{
					Turn:    nadine.Turn{Text: "And tomorrow?", Language: nadine.English, UserID: "alex-1", UserName: "Alex"},
					History: specHistory, Emit: emit,
				}); err != nil {
					b.Fatal(err)
				}
				total += time.Since(start)
			}
			b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "ms/first-sentence")
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/turn")
		})
	}
}

func benchEngine(b *testing.B, srv *llmtest.Server, speculate bool) *react.Engine {
	b.Helper()
	ctx := context.Background()
	agent, err := openai.New(openai.Config{Profile: "default", BaseURL: srv.URL(), Model: "agent-model", Timeout: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	ctxModel, err := openai.New(openai.Config{Profile: "small", BaseURL: srv.URL(), Model: "ctx-model", Timeout: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	emb, err := openai.NewEmbedder(openai.EmbedderConfig{Profile: "default", BaseURL: srv.URL(), Model: "embed-model"})
	if err != nil {
		b.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "nadine.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	const memory = "[2026-11-29 10:00:00] Alex: I love skiing in Verbier."
	v, err := nadine.EmbedOne(ctx, emb, memory)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := st.AddMemory(ctx, nadine.Memory{UserID: "alex-1", Type: nadine.MemoryConversation, Text: memory, Time: time.Now(), Embedder: emb.Name(), Embedding: v}); err != nil {
		b.Fatal(err)
	}
	eng, err := react.New(react.Options{Agent: agent, Contextualizer: ctxModel, Memories: st, Knowledge: st, Embedder: emb, Speculate: speculate})
	if err != nil {
		b.Fatal(err)
	}
	return eng
}
