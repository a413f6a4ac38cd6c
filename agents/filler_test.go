package agents_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/internal/orderlog"
	"github.com/nadine-robot/nadine/tools"
)

// fillerLog is one ordered record of a turn, written by the turn's emit
// function and by the fake search tool and camera.
type fillerLog struct{ orderlog.Log }

// emit logs the reply's sentences as they go out; the filler is logged
// when the turn's output says it (words it: see fillerTurn), which is
// when it is queued ahead of everything still to go out.
func (l *fillerLog) emit(ev nadine.Event) {
	if ev.Kind == nadine.EventSpeech && !ev.Filler {
		l.Add("speech:" + ev.Text)
	}
}

// loggedSearch is the Google Search tool, writing its calls to a log.
type loggedSearch struct{ log *fillerLog }

func (s loggedSearch) Name() string        { return tools.NameSearch }
func (s loggedSearch) Description() string { return "Use it to look things up on the web." }
func (s loggedSearch) Call(_ context.Context, in nadine.ToolInput) (string, error) {
	s.log.Add("search:" + in.Text)
	return "| The Swiss president is Karin Keller-Sutter.", nil
}

// loggedCamera is the robot's camera, writing its captures to a log.
type loggedCamera struct {
	path string
	log  *fillerLog
}

func (c loggedCamera) Capture(context.Context) (nadine.Image, error) {
	c.log.Add("capture")
	return readJPEG(c.path)
}

// fillerTurn runs one turn of h's engine through a dialogue Output whose
// filler lines are f's (none when nil) and whose events go to log, as the
// dialogue manager would, and returns the reply.
func fillerTurn(t *testing.T, h *harness, f *tools.Filler, text string, log *fillerLog) nadine.Reply {
	t.Helper()
	tr := nadine.NewTrace("t-"+text, text, time.Now())
	ctx := nadine.WithTrace(context.Background(), tr)
	opts := dialogue.OutputOptions{To: log.emit, Language: h.lang}
	if f != nil {
		opts.Filler = func(l nadine.Language) (string, nadine.Language) {
			line, lang := f.Line(l)
			log.Add("filler:" + string(lang) + ":" + line)
			return line, lang
		}
	}
	out := dialogue.NewOutput(ctx, opts)
	r, err := h.eng.Respond(ctx, out.Bind(nadine.Request{
		Turn:           nadine.Turn{Text: text, Language: h.lang, UserID: h.user.ID, Time: h.now},
		ConversationID: h.conv,
	}))
	out.Close()
	h.eng.Wait()
	if err != nil {
		t.Fatalf("turn %q: %v", text, err)
	}
	return r
}

// TestSearchTurnSaysAFillerFirst: a turn whose plan searches asks for a
// filler line before the search tool runs (the search agent asks, and a
// search tool wrapped with tools.WithFiller asks too); the turn's output
// says one, in the session language, and the filler is not part of the
// reply. Without filler lines none is said.
func TestSearchTurnSaysAFillerFirst(t *testing.T) {
	tests := []struct {
		name          string
		lines, wrap   bool
		lang          nadine.Language
		wantFillerPfx string // "" for no filler
	}{
		{"search agent", true, false, nadine.English, "filler:en:" + tools.DefaultFillerLines()[nadine.English][0]},
		{"search agent in French", true, false, nadine.French, "filler:fr:" + tools.DefaultFillerLines()[nadine.French][0]},
		{"and a wrapped tool", true, true, nadine.German, "filler:de:" + tools.DefaultFillerLines()[nadine.German][0]},
		{"no lines", false, true, nadine.English, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := tools.NewFiller(tools.FillerConfig{})
			if err != nil {
				t.Fatal(err)
			}
			log := &fillerLog{}
			var tool nadine.Tool = loggedSearch{log}
			if tt.wrap {
				tool = tools.WithFiller(tool)
			}
			if !tt.lines {
				f = nil
			}
			h := newHarness(t, func(o *agents.Options) { o.Tools = []nadine.Tool{tool} })
			h.lang = tt.lang
			planFor(h, "president", `{"plan":[{"agent":"search_agent","message":"Swiss president"}]}`)
			h.srv.On(llmtest.MatchModel(agents.RoleSearchAnswer)).Reply("The Swiss president is Karin Keller-Sutter.")
			h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleResponse), llmtest.MatchLastUser("Keller-Sutter"))).
				Reply("The Swiss president is Karin Keller-Sutter. She is from Wil.")
			h.start()

			r := fillerTurn(t, h, f, "Who is the Swiss president?", log)
			got := log.Lines()
			search, speech := log.Index("search:"), log.Index("speech:")
			if search < 0 || speech < 0 {
				t.Fatalf("log %q: the search or the reply is missing", got)
			}
			if r.Text != "The Swiss president is Karin Keller-Sutter. She is from Wil." {
				t.Errorf("reply %q", r.Text)
			}
			if tt.wantFillerPfx == "" {
				if n := log.Count("filler:"); n != 0 {
					t.Errorf("log %q: a filler without a Filler", got)
				}
				return
			}
			filler := log.Index("filler:")
			if filler < 0 || got[filler] != tt.wantFillerPfx || filler > search {
				t.Errorf("log %q: want %q before the search tool runs", got, tt.wantFillerPfx)
			}
			if n := log.Count("filler:"); n != 1 {
				t.Errorf("log %q: %d fillers, want one per turn", got, n)
			}
			if speech < search {
				t.Errorf("log %q: the reply was spoken before the search", got)
			}
			line := strings.TrimPrefix(tt.wantFillerPfx, "filler:"+string(tt.lang)+":")
			if strings.Contains(r.Text, line) {
				t.Errorf("reply %q contains the filler %q", r.Text, line)
			}
		})
	}
}

// TestVisionTurnSaysAFillerFirst: the vision agent says the filler before
// it takes a picture, and not when the camera is off.
func TestVisionTurnSaysAFillerFirst(t *testing.T) {
	for _, on := range []bool{true, false} {
		t.Run(map[bool]string{true: "on", false: "off"}[on], func(t *testing.T) {
			f, err := tools.NewFiller(tools.FillerConfig{})
			if err != nil {
				t.Fatal(err)
			}
			log := &fillerLog{}
			cam := loggedCamera{path: filepath.Join("testdata", "camera.jpg"), log: log}
			h := newHarness(t, func(o *agents.Options) { o.Camera, o.VisionAgent = cam, on })
			planFor(h, "holding", `{"plan":[{"agent":"vision_agent","message":"What is the person holding?"}]}`)
			h.srv.On(llmtest.MatchModel(agents.RoleVision)).Reply("The person holds a blue book.")
			h.start()
			fillerTurn(t, h, f, "What am I holding?", log)
			got := log.Lines()
			if !on {
				if log.Count("filler:") != 0 {
					t.Errorf("log %q: a filler with the camera off", got)
				}
				return
			}
			filler, capture := log.Index("filler:"), log.Index("capture")
			if filler < 0 || capture < 0 || filler > capture || log.Count("filler:") != 1 {
				t.Errorf("log %q: want one filler before the capture", got)
			}
		})
	}
}
