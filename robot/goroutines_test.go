package robot_test

import (
	"context"
	"path/filepath"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/sqlite"
)

// quietBody is a body that publishes nowhere.
type quietBody struct{}

func (quietBody) Speak(context.Context, nadine.Speech) error              { return nil }
func (quietBody) Animate(context.Context, nadine.Gesture) error           { return nil }
func (quietBody) PublishAffect(context.Context, nadine.AffectState) error { return nil }
func (quietBody) PublishUserInfo(context.Context, nadine.UserRef) error   { return nil }
func (quietBody) PlaySong(context.Context, nadine.Song) error             { return nil }
func (quietBody) PublishLanguage(context.Context, nadine.Language) error  { return nil }
func (quietBody) ForgetFace(context.Context, string) error                { return nil }
func (quietBody) StopSpeaking(context.Context, string, string) error      { return nil }

// chattyEngine answers every turn as a model engine does, without a
// model: it asks for a filler, announces an emotion and a gesture and
// streams two sentences.
type chattyEngine struct{}

func (chattyEngine) Name() string { return "chatty" }
func (chattyEngine) Respond(_ context.Context, req nadine.Request) (nadine.Reply, error) {
	req.AskFiller()
	req.Emit(nadine.Event{Kind: nadine.EventAffect, Affect: &nadine.AffectState{Label: nadine.Joy, Intensity: 0.5}})
	req.Emit(nadine.Event{Kind: nadine.EventGesture, Gesture: nadine.Smile})
	said := []string{"Geneva lies on its lake.", "It is a lovely city."}
	for _, s := range said {
		req.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: s, Language: req.Turn.Language})
	}
	return nadine.Reply{Text: said[0] + " " + said[1], Language: req.Turn.Language, Emotion: nadine.Joy, EmotionIntensity: 5}, nil
}

// BenchmarkTurnGoroutines measures the goroutines the turn machinery
// (runtime, manager, output; the store's included) creates per turn of an
// engine that needs no model call, published on a body: the count the
// output's design is judged by (docs/output.md).
func BenchmarkTurnGoroutines(b *testing.B) {
	st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "n.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	m, err := dialogue.NewManager(dialogue.ManagerOptions{Engines: []nadine.Engine{chattyEngine{}},
		History: dialogue.NewHistory(st, lexical.New(0), dialogue.HistoryOptions{}), Profiles: st,
		Filler: func(l nadine.Language) (string, nadine.Language) { return "Hmm, let me see.", l }})
	if err != nil {
		b.Fatal(err)
	}
	rt, err := robot.New(robot.Options{Manager: m, Body: quietBody{}, Names: st, SpeakTimeout: time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- rt.Run(ctx, nil) }()
	defer func() {
		stop()
		if err := <-done; err != nil {
			b.Error(err)
		}
	}()
	turn := func() {
		if _, err := rt.Submit(context.Background(), nadine.Turn{Text: "Tell me about Geneva.", Language: nadine.English}, nil); err != nil {
			b.Fatal(err)
		}
	}
	turn() // the store's first connections
	sample := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(sample)
	before := sample[0].Value.Uint64()
	b.ResetTimer()
	for range b.N {
		turn()
	}
	b.StopTimer()
	metrics.Read(sample)
	b.ReportMetric(float64(sample[0].Value.Uint64()-before)/float64(b.N), "goroutines/turn")
}
