package web_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/langid"
	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/offline"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/sqlite"
	"github.com/nadine-robot/nadine/web"
)

// newFleetFixture serves robots of one process, as `nadine serve` wires
// robots: one SQLite store, and per robot a dialogue manager (offline
// engine) and a runtime; no bus.
func newFleetFixture(t *testing.T, names ...string) (*fixture, map[string]*robot.Runtime) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "nadine.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	history := dialogue.NewHistory(st, lexical.New(0), dialogue.HistoryOptions{})
	det, err := langid.New()
	if err != nil {
		t.Fatal(err)
	}
	eng := offline.New(offline.Options{Store: st, Detector: det})
	runtimes := map[string]*robot.Runtime{}
	var robots []web.Robot
	for _, name := range names {
		m, err := dialogue.NewManager(dialogue.ManagerOptions{Engines: []nadine.Engine{eng}, History: history,
			Profiles: st, Checkpoints: st, Detector: det, Robot: name})
		if err != nil {
			t.Fatal(err)
		}
		rt, err := robot.New(robot.Options{Manager: m, Names: st})
		if err != nil {
			t.Fatal(err)
		}
		runCtx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- rt.Run(runCtx, nil) }()
		t.Cleanup(func() {
			stop()
			if err := <-done; err != nil {
				t.Errorf("runtime %s: %v", name, err)
			}
		})
		runtimes[name] = rt
		robots = append(robots, web.Robot{Name: name, Runtime: rt, Engine: "offline", Offline: "no model in this test"})
	}
	srv, err := web.Start(ctx, web.Options{Addr: "127.0.0.1:0", Robots: robots, Store: st, Info: web.Info{Version: "test", Engine: "offline"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cctx, cancel := context.WithTimeout(context.Background(), failsafe)
		defer cancel()
		_ = srv.Close(cctx)
	})
	return &fixture{t: t, url: srv.URL(), store: st, srv: srv, logs: &logBuffer{}}, runtimes
}

// TestRobotsAPI: the monitor of a process with several robots lists them,
// and each robot's URLs act on that robot only; the URLs without a robot
// name are the first robot's.
func TestRobotsAPI(t *testing.T) {
	f, rts := newFleetFixture(t, "lobby", "museum/cafe")
	var list web.RobotsResponse
	f.call("GET", "/api/robots", "", http.StatusOK, &list)
	if len(list.Robots) != 2 || list.Robots[0].Name != "lobby" || !list.Robots[0].Default ||
		list.Robots[1].Name != "museum/cafe" || list.Robots[1].Default || list.Robots[1].Engine != "offline" {
		t.Fatalf("GET /api/robots = %+v", list)
	}

	// The café's stream sees the café's turn, not the lobby's.
	events, stop := f.openStream(f.request("GET", "/api/robots/museum%2Fcafe/events", ""))
	defer stop()
	if ev, _ := next(t, events); ev.Name != "session" {
		t.Fatalf("first event %q, want the session", ev.Name)
	}
	var lobbyTurn, cafeTurn web.TurnResponse
	f.call("POST", "/api/turns", `{"text":"What time is it?","user_name":"Maria"}`, http.StatusOK, &lobbyTurn)
	f.call("POST", "/api/robots/museum%2Fcafe/turns", `{"text":"Bonjour","turn_id":"cafe-1"}`, http.StatusOK, &cafeTurn)
	got := until(t, events, func(ev sseEvent) bool { return ev.Name == "turn" })
	for _, ev := range got {
		if strings.Contains(ev.Data, lobbyTurn.TurnID) {
			t.Errorf("the café's stream has the lobby's turn: %s", ev.Data)
		}
	}
	if last := decode[robot.Update](t, got[len(got)-1].Data); last.TurnID != "cafe-1" {
		t.Errorf("the café's stream ended its turn with %+v", last)
	}

	var lobby, cafe dialogue.SessionState
	f.call("GET", "/api/session", "", http.StatusOK, &lobby)
	f.call("GET", "/api/robots/museum%2Fcafe/session", "", http.StatusOK, &cafe)
	if lobby.User.Name != "Maria" || lobby.Turns != 1 || cafe.User.ID != nadine.UnknownUser || cafe.Turns != 1 {
		t.Errorf("sessions: lobby %+v, café %+v", lobby, cafe)
	}
	if rts["museum/cafe"].Session().Language != nadine.French {
		t.Errorf("the café did not switch to French")
	}

	// The language of one robot.
	f.call("PUT", "/api/robots/lobby/language", `{"language":"de"}`, http.StatusOK, nil)
	if rts["lobby"].Session().Language != nadine.German || rts["museum/cafe"].Session().Language != nadine.French {
		t.Errorf("languages: lobby %s, café %s", rts["lobby"].Session().Language, rts["museum/cafe"].Session().Language)
	}
	var one web.RobotInfo
	f.call("GET", "/api/robots/lobby", "", http.StatusOK, &one)
	if one.Name != "lobby" || one.Session.Language != nadine.German {
		t.Errorf("GET /api/robots/lobby = %+v", one)
	}

	// The end of an interaction at one robot.
	f.call("POST", "/api/robots/lobby/session/end", `{}`, http.StatusAccepted, nil)
	eventually(t, "Maria to leave the lobby", func() bool { return rts["lobby"].Session().User.ID == nadine.UnknownUser })
	var recent web.RecentResponse
	f.call("GET", "/api/robots/museum%2Fcafe/turns", "", http.StatusOK, &recent)
	if len(recent.Updates) != 1 || recent.Updates[0].TurnID != "cafe-1" {
		t.Errorf("the café's recent turns: %+v", recent.Updates)
	}

	// An unknown robot.
	var e errorBody
	f.call("GET", "/api/robots/hall/session", "", http.StatusNotFound, &e)
	if e.Code != "not_found" || !strings.Contains(e.Error, "lobby, museum/cafe") {
		t.Errorf("unknown robot: %+v", e)
	}
	f.call("POST", "/api/robots/hall/turns", `{"text":"Hello"}`, http.StatusNotFound, nil)
}

// TestRobotsOptions: robots need names, unique, and runtimes.
func TestRobotsOptions(t *testing.T) {
	f, rts := newFleetFixture(t, "a")
	rt := rts["a"]
	for name, robots := range map[string][]web.Robot{
		"no name":     {{Runtime: rt}},
		"twice":       {{Name: "a", Runtime: rt}, {Name: "a", Runtime: rt}},
		"no runtime":  {{Name: "a"}},
		"none at all": nil,
	} {
		if _, err := web.New(web.Options{Robots: robots, Store: f.store}); nadine.ErrorCode(err) != nadine.EINVALID {
			t.Errorf("%s: err = %v, want EINVALID", name, err)
		}
	}
}

// TestBrowserRobots: with several robots the monitor shows a robot picker;
// each robot shows its own turns, session and live updates, and the page's
// address keeps the robot chosen.
func TestBrowserRobots(t *testing.T) {
	chromium(t)
	f, rts := newFleetFixture(t, "lobby", "hall")
	p := openBrowser(t)
	p.do("open the monitor",
		chromedp.Navigate(f.url+"/"),
		chromedp.WaitVisible(css(`#robot-picker`)),
		chromedp.WaitReady(css(`body[data-live="on"]`)),
		chromedp.SendKeys(css(`#user-name`), "Maria"),
		chromedp.SendKeys(css(`#utterance`), "Hello, I am Maria"),
		chromedp.Click(css(`#send`)),
		chromedp.WaitVisible(css(`#turns article.turn[data-state="done"] .msg.nadine .text`)),
	)
	if got := rts["lobby"].Session().User.Name; got != "Maria" {
		t.Errorf("the first robot talks with %q, want Maria", got)
	}
	p.do("choose the hall",
		chromedp.SetValue(css(`#robot`), "hall"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#robot').dispatchEvent(new Event('change', {bubbles: true}))`),
		chromedp.WaitVisible(css(`#empty`)),
		chromedp.WaitReady(css(`body[data-live="on"]`)), // the hall's stream
	)
	if got := p.text(`#who-name`); got != "Unknown person" {
		t.Errorf("in front of the hall: %q", got)
	}
	// A turn another client sends to the hall appears live; one sent to the
	// lobby does not.
	f.call("POST", "/api/turns", `{"text":"What time is it?","turn_id":"lobby-2"}`, http.StatusOK, nil)
	f.call("POST", "/api/robots/hall/turns", `{"text":"Tell me a joke","turn_id":"hall-1"}`, http.StatusOK, nil)
	p.do("see the hall's turn", chromedp.WaitVisible(css(`#turns article.turn[data-turn-id="hall-1"][data-state="done"]`)))
	n, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](`document.querySelectorAll('#turns article.turn').length`))
	if err != nil || n != 1 {
		t.Errorf("%d turns shown for the hall (%v), want its one", n, err)
	}
	p.do("type to the hall",
		chromedp.SendKeys(css(`#utterance`), "Bonjour"),
		chromedp.Click(css(`#send`)),
		chromedp.WaitReady(css(`body[data-language="fr"]`)),
	)
	if rts["hall"].Session().Language != nadine.French || rts["lobby"].Session().Language != nadine.English {
		t.Errorf("languages: hall %s, lobby %s", rts["hall"].Session().Language, rts["lobby"].Session().Language)
	}
	p.do("reload on the hall",
		chromedp.Reload(),
		chromedp.WaitVisible(css(`#turns article.turn[data-turn-id="hall-1"][data-state="done"]`)),
	)
	if v, err := chromedp.Run(p.ctx, chromedp.Value(css(`#robot`))); err != nil || v != "hall" {
		t.Errorf("robot chosen after a reload: %q, %v", v, err)
	}
	p.do("back to the lobby",
		chromedp.SetValue(css(`#robot`), "lobby"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#robot').dispatchEvent(new Event('change', {bubbles: true}))`),
		chromedp.WaitVisible(css(`#turns article.turn[data-turn-id="lobby-2"][data-state="done"]`)),
		chromedp.WaitReady(css(`body[data-live="on"]`)), // the lobby's stream
	)
	if got := p.text(`#live`); got != "live" {
		t.Errorf("live indicator: %q", got)
	}
	if got := p.text(`#who-name`); got != "Maria" {
		t.Errorf("in front of the lobby: %q", got)
	}
	p.screenshot("monitor-robots.png")
	p.checkConsole()
}
