package robot_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/internal/orderlog"
	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/mqtt"
	"github.com/nadine-robot/nadine/openai"
	"github.com/nadine-robot/nadine/react"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/sqlite"
)

// recordingBody logs each speech once the bus has published it.
type recordingBody struct {
	*mqtt.Bus
	log *orderlog.Log
}

func (b recordingBody) Speak(ctx context.Context, s nadine.Speech) error {
	err := b.Bus.Speak(ctx, s)
	switch {
	case s.Final:
		b.log.Addf("speak:final %s", s.TurnID)
	default:
		b.log.Addf("speak %s", s.TurnID)
	}
	return err
}

// recordingStore logs every write of personal data or state.
type recordingStore struct {
	*sqlite.Store
	log *orderlog.Log
}

func (s recordingStore) SaveProfile(ctx context.Context, p nadine.Profile) error {
	s.log.Add("write:profile")
	return s.Store.SaveProfile(ctx, p)
}

func (s recordingStore) UpdateProfile(ctx context.Context, id string, fn func(nadine.Profile, bool) (nadine.Profile, error)) (nadine.Profile, error) {
	s.log.Add("write:profile")
	return s.Store.UpdateProfile(ctx, id, fn)
}

func (s recordingStore) AppendMessage(ctx context.Context, user, conv string, m nadine.Message) (nadine.Conversation, error) {
	s.log.Add("write:message")
	return s.Store.AppendMessage(ctx, user, conv, m)
}

func (s recordingStore) AddMemory(ctx context.Context, m nadine.Memory) (int64, error) {
	s.log.Add("write:memory")
	return s.Store.AddMemory(ctx, m)
}

func (s recordingStore) StoreChunk(ctx context.Context, user, conv string, i int, m nadine.Memory) error {
	s.log.Add("write:chunk")
	return s.Store.StoreChunk(ctx, user, conv, i, m)
}

func (s recordingStore) SaveCheckpoint(ctx context.Context, key string, data []byte) error {
	s.log.Add("write:state")
	return s.Store.SaveCheckpoint(ctx, key, data)
}

// TestWritesAndSummaryAfterReply pins the turn's structure on the real bus:
// the turn's input and reply are in the history before its final marker is
// published (a crash after the robot spoke loses no spoken turn), and
// every other memory and state write of a turn, and the context summary
// the next graph turn uses, happen after it.
func TestWritesAndSummaryAfterReply(t *testing.T) {
	for _, engine := range []string{"graph", "react"} {
		t.Run(engine, func(t *testing.T) {
			log := &orderlog.Log{}
			srv := llmtest.New(t)
			srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleIntent), llmtest.MatchLastUser("my name"))).Reply("update_user_info")
			srv.On(llmtest.MatchModel(agents.RoleIntent)).Reply("continue_conversation")
			srv.On(llmtest.MatchModel(agents.RoleAppraisal)).Reply(`{"emotion":"joy","intensity":0.5}`)
			srv.On(llmtest.MatchModel(agents.RoleOrchestrator)).Reply(`{"plan":[]}`)
			srv.On(llmtest.MatchModel(agents.RoleMemoryUpdate)).Reply(`{"user_name":"Robin","hobbies":["chess"],"interests":[]}`)
			srv.On(llmtest.MatchModel(agents.RoleContextSummary)).ReplyFunc(func(llmtest.Request) string {
				log.Add("model:summary")
				return "Robin talks with Nadine about Geneva."
			})
			srv.On(llmtest.MatchModel(agents.RoleResponse)).Reply("Geneva is lovely. The lake is right there.")
			srv.On(llmtest.MatchModel("contextualizer")).Reply("What is Geneva like?")
			srv.On(llmtest.MatchModel("react_agent")).Reply("```json\n" + `{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 5, "action_input": "Geneva is lovely. The lake is right there.", "category": "other", "causing_person": "human"}` + "\n```")
			models := func(role string) nadine.ChatModel {
				c, err := openai.New(openai.Config{Profile: "test", BaseURL: srv.URL(), Model: role})
				if err != nil {
					t.Fatal(err)
				}
				return c
			}

			st := robinStore(t, log)
			emb := lexical.New(0)
			var eng nadine.Engine
			var g *agents.Engine
			var err error
			if engine == "graph" {
				g, err = agents.New(agents.Options{Models: models, Store: st, Embedder: emb, MemoryAgents: true})
				eng = g
			} else {
				eng, err = react.New(react.Options{Agent: models("react_agent"), Contextualizer: models("contextualizer"), Memories: st, Knowledge: st, Embedder: emb})
			}
			if err != nil {
				t.Fatal(err)
			}
			broker, updates, shutdown := runRobot(t, eng, st, emb, "nadine-order", log)
			defer func() {
				shutdown()
				if g != nil {
					g.Close()
				}
			}()
			peer := mqtttest.NewPeer(t, mqtttest.HostPort(broker.URL()), "nadine/agent/control/speak")
			c := &control{t: t, peer: peer}

			turns := []string{"Tell me about Geneva.", "My name is Robin and I love chess.", "What else is there?"}
			for i, text := range turns {
				id := fmt.Sprintf("turn-%d", i)
				log.Addf("transcript %s", id)
				peer.Publish("nadine/stt/transcript", fmt.Appendf(nil, `{"text":%q,"final":true,"id":%q}`, text, id))
				c.untilFinal()
				// The turn's work after the reply is done when the runtime
				// says the turn is over; (graph) the next turn's summary is
				// computed in the background.
				untilTurnDone(t, updates, id)
				if log.Count("write:message") < 2*(i+1) {
					t.Errorf("turn %s: %d messages stored, want %d", id, log.Count("write:message"), 2*(i+1))
				}
				if g != nil {
					g.Wait()
				}
			}
			shutdown()

			got := log.Lines()
			t.Logf("order: %s", strings.Join(got, " | "))
			// From a transcript to its turn's final speech, nothing is
			// written but the turn's two messages, and no summary is
			// asked for.
			inTurn, finals, messages := false, 0, 0
			for _, e := range got {
				switch {
				case strings.HasPrefix(e, "transcript "):
					inTurn, messages = true, 0
				case strings.HasPrefix(e, "speak:final"):
					if messages != 2 {
						t.Errorf("%d messages in the history before %s, want the turn's 2", messages, e)
					}
					inTurn = false
					finals++
				case inTurn && e == "write:message":
					messages++
				case inTurn && (strings.HasPrefix(e, "write:") || e == "model:summary"):
					t.Errorf("%s before the turn's reply was published", e)
				}
			}
			if finals != len(turns) {
				t.Fatalf("%d final speeches, want %d", finals, len(turns))
			}
			for _, want := range []string{"write:message", "write:state"} {
				if !slices.Contains(got, want) {
					t.Errorf("no %s after the replies", want)
				}
			}
			if engine == "graph" {
				if n := strings.Count(strings.Join(got, "|"), "model:summary"); n != len(turns) {
					t.Errorf("%d context summaries, want one after each of the %d turns", n, len(turns))
				}
				if !slices.Contains(got, "write:profile") {
					t.Error("the name turn saved no profile")
				}
			}
		})
	}
}

// untilTurnDone waits for the runtime to report the end of turn id (its
// after-reply work done).
func untilTurnDone(t *testing.T, updates <-chan robot.Update, id string) {
	t.Helper()
	timeout := time.After(mqtttest.Failsafe)
	for {
		select {
		case u := <-updates:
			if u.Kind == robot.UpdateTurn && u.TurnID == id {
				return
			}
		case <-timeout:
			t.Fatalf("turn %s never ended", id)
		}
	}
}

// robinStore is a SQLite store in a temporary directory that knows Robin,
// recording its writes in log.
func robinStore(t *testing.T, log *orderlog.Log) recordingStore {
	t.Helper()
	sq, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "n.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sq.Close() })
	if err := sq.SaveProfile(t.Context(), nadine.Profile{UserID: "robin-1", UserName: "Robin"}); err != nil {
		t.Fatal(err)
	}
	return recordingStore{sq, log}
}

// runRobot runs eng's manager, with Robin in front of her, behind a runtime
// on an embedded broker; shutdown stops it once, reporting Run's error.
func runRobot(t *testing.T, eng nadine.Engine, st recordingStore, emb nadine.Embedder, clientID string, log *orderlog.Log) (*mqtt.Broker, <-chan robot.Update, func()) {
	t.Helper()
	ctx := context.Background()
	m, err := dialogue.NewManager(dialogue.ManagerOptions{Engines: []nadine.Engine{eng},
		History: dialogue.NewHistory(st, emb, dialogue.HistoryOptions{}), Profiles: st, Checkpoints: st})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.SetUser(ctx, nadine.UserRef{ID: "robin-1", Name: "Robin"}); err != nil {
		t.Fatal(err)
	}
	broker := mqtttest.StartBroker(t, "127.0.0.1:0")
	cctx, cancel := context.WithTimeout(ctx, mqtttest.Failsafe)
	defer cancel()
	bus, err := mqtt.Connect(cctx, mqtt.Options{URL: broker.URL(), ClientID: clientID})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := robot.New(robot.Options{Manager: m, Body: recordingBody{bus, log}, Names: st, SpeakTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	updates, unsubscribe := rt.Subscribe(64)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- rt.Run(runCtx, bus.Inbound()) }()
	var once sync.Once
	return broker, updates, func() {
		once.Do(func() {
			stop()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
			unsubscribe()
			_ = bus.Close(context.Background())
		})
	}
}
