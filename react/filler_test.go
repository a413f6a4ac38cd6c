package react_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/internal/orderlog"
	"github.com/nadine-robot/nadine/openai"
	"github.com/nadine-robot/nadine/react"
	"github.com/nadine-robot/nadine/tools"
)

// fillerOrder is one ordered record of a turn: the events the engine
// emitted and the requests the Serper server received.
type fillerOrder struct{ orderlog.Log }

// emit logs the reply's sentences as they go out; the filler is logged
// when the turn's output words it, which is when it is queued ahead of
// everything still to go out.
func (o *fillerOrder) emit(ev nadine.Event) {
	if ev.Kind == nadine.EventSpeech && !ev.Filler {
		o.Add("speech:" + ev.Text)
	}
}

// TestSearchSaysAFillerBeforeSerperIsAsked: with the search tools wrapped
// WithFiller (as cmd/nadine registers them), a ReAct turn that calls
// Google Search twice asks for a filler line twice; its output says one,
// before Serper receives the first request, and the reply does not
// contain it.
func TestSearchSaysAFillerBeforeSerperIsAsked(t *testing.T) {
	order := &fillerOrder{}
	serper := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		order.Add("serper:" + r.URL.Path)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"organic":[{"title":"Swiss president","link":"https://example.com","snippet":"The president is Karin Keller-Sutter."}]}`))
	}))
	t.Cleanup(serper.Close)

	f, err := tools.NewFiller(tools.FillerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	ts := tools.New(tools.Config{
		Search:    tools.SearchConfig{APIKey: "serper-key", BaseURL: serper.URL},
		Behaviour: tools.BehaviourConfig{Wait: -1},
	}, nil)
	t.Cleanup(func() { _ = tools.CloseAll(ts) })
	for i, tool := range ts {
		switch tool.Name() {
		case tools.NameSearch, tools.NameNews, tools.NameWeather:
			ts[i] = tools.WithFiller(tool)
		}
	}

	srv := llmtest.New(t)
	srv.On(llmtest.MatchLastUser("HUMAN'S INPUT\nWho is the Swiss president?")).Once().
		Reply(`{"action": "Google Search", "action_input": "Swiss president"}`)
	srv.On(llmtest.MatchLastUser("TOOL RESULT (Google Search)")).Once().
		Reply(`{"action": "Google Search", "action_input": "Karin Keller-Sutter"}`)
	srv.On(llmtest.MatchLastUser("TOOL RESULT (Google Search)")).Once().
		Reply("```json\n" + `{"action": "Final Answer", "category": "information request", "emotion": "joy", "emotion_intensity": 3, "causing_person": "human", "action_input": "The Swiss president is Karin Keller-Sutter."}` + "\n```")
	agent, err := openai.New(openai.Config{BaseURL: srv.URL(), Model: "agent", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	eng, err := react.New(react.Options{Agent: agent, Tools: ts})
	if err != nil {
		t.Fatal(err)
	}

	// The turn's output says the filler, as in a dialogue manager's turn.
	tr := nadine.NewTrace("t-filler", "Who is the Swiss president?", time.Now())
	ctx := nadine.WithTrace(context.Background(), tr)
	out := dialogue.NewOutput(ctx, dialogue.OutputOptions{To: order.emit, Language: nadine.English,
		Filler: func(l nadine.Language) (string, nadine.Language) {
			line, lang := f.Line(l)
			order.Add("filler:" + line)
			return line, lang
		}})
	r, err := eng.Respond(ctx, out.Bind(nadine.Request{
		Turn: nadine.Turn{Text: "Who is the Swiss president?", Language: nadine.English, UserID: nadine.UnknownUser},
	}))
	if err != nil {
		t.Fatal(err)
	}
	out.Close()
	got := order.Lines()
	want := "filler:" + tools.DefaultFillerLines()[nadine.English][0]
	filler, first := order.Index("filler:"), order.Index("serper:")
	if filler < 0 || first < 0 || got[filler] != want || filler > first {
		t.Fatalf("order %q: want %q before Serper's first request", got, want)
	}
	n := 0
	for _, l := range got {
		if strings.HasPrefix(l, "filler:") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("order %q: %d fillers for two searches in one turn, want 1", got, n)
	}
	if strings.Count(strings.Join(got, "\n"), "serper:") != 2 {
		t.Errorf("order %q: want two searches", got)
	}
	if strings.Contains(r.Text, strings.TrimPrefix(want, "filler:")) || !strings.Contains(r.Text, "Keller-Sutter") {
		t.Errorf("reply %q", r.Text)
	}
	if d := tr.Snapshot(); len(d.ToolCalls) != 2 {
		t.Errorf("trace tool calls %+v, want the two searches, each recorded once", d.ToolCalls)
	}
}
