package robot_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/internal/orderlog"
	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/mqtt"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/sqlite"
	"github.com/nadine-robot/nadine/tools"
)

// fillerBody is the bus, logging each speech it published.
type fillerBody struct {
	*mqtt.Bus
	log *orderlog.Log
}

func (b fillerBody) Speak(ctx context.Context, s nadine.Speech) error {
	err := b.Bus.Speak(ctx, s)
	if err == nil {
		switch {
		case s.Filler:
			b.log.Add("filler:" + s.Text)
		case s.Final:
			b.log.Add("final")
		default:
			b.log.Add("speak:" + s.Text)
		}
	}
	return err
}

// fillerSearch is the Google Search tool, logging its calls.
type fillerSearch struct{ log *orderlog.Log }

func (s fillerSearch) Name() string        { return tools.NameSearch }
func (s fillerSearch) Description() string { return "Use it to look things up on the web." }
func (s fillerSearch) Call(_ context.Context, in nadine.ToolInput) (string, error) {
	s.log.Add("search:" + in.Text)
	return "| The Swiss president is Karin Keller-Sutter.", nil
}

// searchEngine answers every turn by searching, then speaking two
// sentences, as a model engine would.
type searchEngine struct{ search nadine.Tool }

func (e searchEngine) Name() string { return "search" }
func (e searchEngine) Respond(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
	out, err := e.search.Call(ctx, req.ToolInput(req.Turn.Text))
	if err != nil {
		return nadine.Reply{}, err
	}
	if !strings.Contains(out, "Keller-Sutter") {
		return nadine.Reply{}, nadine.Errorf(nadine.EBADOUTPUT, "unexpected search result %q", out)
	}
	said := []string{"The Swiss president is Karin Keller-Sutter.", "She was elected in 2022."}
	for _, s := range said {
		req.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: s, Language: req.Turn.Language})
	}
	return nadine.Reply{Text: strings.Join(said, " "), Language: req.Turn.Language, Emotion: nadine.Neutral}, nil
}

// TestSearchTurnPublishesAFillerFirst: on the embedded broker, a turn that
// searches publishes a filler line on the speak topic ("filler": true, its
// own seq 0), asked for as the search tool is called; the reply's
// sentences and the end-of-turn marker follow.
func TestSearchTurnPublishesAFillerFirst(t *testing.T) {
	broker := mqtttest.StartBroker(t, "127.0.0.1:0")
	addr := mqtttest.HostPort(broker.URL())
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "n.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })

	log := &orderlog.Log{}
	f, err := tools.NewFiller(tools.FillerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := dialogue.NewManager(dialogue.ManagerOptions{
		Engines: []nadine.Engine{searchEngine{search: tools.Traced(tools.WithFiller(fillerSearch{log}))}}, Filler: f.Line,
		History: dialogue.NewHistory(st, lexical.New(0), dialogue.HistoryOptions{}), Profiles: st,
	})
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithTimeout(ctx, mqtttest.Failsafe)
	defer cancel()
	bus, err := mqtt.Connect(cctx, mqtt.Options{URL: broker.URL(), ClientID: "nadine-filler", ReconnectMin: 10 * time.Millisecond, ReconnectMax: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := robot.New(robot.Options{Manager: m, Body: fillerBody{Bus: bus, log: log}, Names: st, SpeakTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	runOnBus(t, rt, bus)
	control := mqtttest.NewPeer(t, addr, "nadine/agent/control/speak", "nadine/agent/control/speak/text")
	stt := mqtttest.NewPeer(t, addr)
	mqtttest.Eventually(t, "nadine connected", bus.Connected)

	stt.Publish("nadine/stt/transcript", []byte(`{"text":"Who is the Swiss president?","language":"en","final":true,"id":"stt-search"}`))

	// What control receives, in order, up to the end-of-turn marker.
	type speak struct {
		Text   string `json:"text"`
		Seq    int    `json:"seq"`
		Final  bool   `json:"final"`
		TurnID string `json:"turn_id"`
		Filler *bool  `json:"filler"`
	}
	var spoken []speak
	fillerText := "" // the filler as mirrored on speak/text
	for len(spoken) == 0 || !spoken[len(spoken)-1].Final {
		p := control.Next()
		switch p.Topic {
		case "nadine/agent/control/speak":
			var s speak
			if err := json.Unmarshal(p.Payload, &s); err != nil {
				t.Fatalf("speak payload %s: %v", p.Payload, err)
			}
			spoken = append(spoken, s)
		case "nadine/agent/control/speak/text":
			if p.Properties != nil && p.Properties.User.Get("filler") == "true" {
				fillerText = string(p.Payload)
			}
		}
	}
	line := tools.DefaultFillerLines()[nadine.English][0]
	if len(spoken) != 4 {
		t.Fatalf("speak messages %+v, want the filler, two sentences and the end marker", spoken)
	}
	if s := spoken[0]; s.Filler == nil || !*s.Filler || s.Text != line || s.Seq != 0 || s.Final || s.TurnID != "stt-search" {
		t.Errorf("first speak message %+v, want the filler %q with \"filler\": true and seq 0", s, line)
	}
	for i, s := range spoken[1:] {
		if s.Filler != nil {
			t.Errorf("speak message %d %+v carries a filler field", i+1, s)
		}
		if s.Seq != i+1 || s.TurnID != "stt-search" {
			t.Errorf("speak message %d %+v, want seq %d", i+1, s, i+1)
		}
	}
	if spoken[1].Text != "The Swiss president is Karin Keller-Sutter." || spoken[2].Text != "She was elected in 2022." || !spoken[3].Final || spoken[3].Text != "" {
		t.Errorf("speak messages %+v, want the reply's sentences then the end marker", spoken)
	}
	if fillerText != line {
		t.Errorf("speak/text filler %q, want %q with the user property filler=true", fillerText, line)
	}

	// The body published the filler before the reply; the tool did not
	// wait for its publication (the turn's Output queued it first, and
	// nothing of the turn waits on the bus). (Control may hear the end
	// marker before Speak returns.)
	mqtttest.Eventually(t, "the end marker to be logged", func() bool { return slices.Contains(log.Lines(), "final") })
	got := log.Lines()
	filler, search, first := slices.Index(got, "filler:"+line), slices.Index(got, "search:Who is the Swiss president?"),
		slices.Index(got, "speak:The Swiss president is Karin Keller-Sutter.")
	if filler < 0 || search < 0 || first < 0 || filler > first || search > first ||
		!slices.Equal(got[first:], []string{"speak:The Swiss president is Karin Keller-Sutter.", "speak:She was elected in 2022.", "final"}) {
		t.Errorf("order %q: want the filler and the search before the reply, then the reply's sentences and the marker", got)
	}
}
