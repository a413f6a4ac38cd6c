package web_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/web"
)

// browserTimeout only bounds a hang of the browser test; nothing asserts
// how long a step takes.
const browserTimeout = 90 * time.Second

// chromium returns Debian's Chromium, or skips the test when it is not
// installed, except in CI (CI set), where .ci/run installs it and its
// absence fails the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed; CI must install it (.ci/run: apt-get install chromium)")
	}
	t.Skip("chromium is not installed (Debian: apt-get install chromium); skipping the browser test")
	return ""
}

// page is a headless Chromium tab driven by a test.
type page struct {
	t   *testing.T
	ctx context.Context // bounded by browserTimeout
	dir string          // where screenshots go

	mu       sync.Mutex
	problems []string // exceptions and console errors of the page
}

// openBrowser starts headless Chromium with a new empty profile; it is
// closed at the end of the test.
func openBrowser(t *testing.T) *page {
	t.Helper()
	bin := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 1000),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	browser, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelBrowser)
	// The first call starts the browser, with no timeout: a timeout on it
	// would bound the browser's whole life.
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	p := &page{t: t, dir: os.Getenv("NADINE_WEB_SCREENSHOTS")}
	if p.dir == "" {
		p.dir = t.TempDir()
	}

	// Every exception and console error of the page fails the test (a
	// Content-Security-Policy violation shows up as one).
	consoleCtx, stopConsole := context.WithCancel(browser)
	messages := chromedp.Console(consoleCtx)
	consoleDone := make(chan struct{})
	go func() {
		defer close(consoleDone)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == chromedp.ConsoleError {
				p.mu.Lock()
				p.problems = append(p.problems, string(m.Type)+": "+m.Text+" ("+m.URL+")")
				p.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() { stopConsole(); <-consoleDone })

	ctx, cancel := context.WithTimeout(browser, browserTimeout)
	t.Cleanup(cancel)
	p.ctx = ctx
	return p
}

// screenshot saves a full-page PNG and names it in the log.
func (p *page) screenshot(name string) {
	p.t.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Logf("screenshot: %v", err)
		return
	}
	path := filepath.Join(p.dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatalf("save screenshot: %v", err)
	}
	p.t.Logf("screenshot of the monitor: %s", path)
}

// do runs actions; on failure it saves a screenshot and fails the test.
func (p *page) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.screenshot("monitor-failure.png")
		p.t.Fatalf("%s: %v", what, err)
	}
}

// text returns the visible text of the first element sel matches.
func (p *page) text(sel string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Text(css(sel)))
	if err != nil {
		p.screenshot("monitor-failure.png")
		p.t.Fatalf("text of %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

// newestTurn returns a selector of the newest turn (shown first).
func (p *page) newestTurn() string {
	p.t.Helper()
	a, err := chromedp.Run(p.ctx, chromedp.AttributeValue(css(`#turns article.turn:first-child`), "data-turn-id"))
	if err != nil || !a.Exists || a.Value == "" {
		p.t.Fatalf("turn id: %+v, %v", a, err)
	}
	return `#turns article.turn[data-turn-id="` + a.Value + `"]`
}

// checkConsole fails the test for each exception or error the page logged,
// except those that contain one of the expected strings.
func (p *page) checkConsole(expected ...string) {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
next:
	for _, m := range p.problems {
		for _, e := range expected {
			if strings.Contains(m, e) {
				continue next
			}
		}
		p.t.Errorf("page console: %s", m)
	}
}

func css(s string) chromedp.CSS { return chromedp.CSS(s) }

// TestBrowser drives the monitor in headless Chromium against the real
// server on a free port, over a real MQTT bus: an operator types as Alex,
// sees the reply and its trace, switches to French with the combo box and
// sees the French reply with its English translation; then a transcript
// heard on the bus appears without reloading. The screenshot of the page is
// saved in a temporary directory (or in $NADINE_WEB_SCREENSHOTS, to keep
// it) and named in the log.
func TestBrowser(t *testing.T) {
	chromium(t)
	f := newFixture(t, fixtureOptions{bus: true, info: web.Info{
		Version: "test", Engine: "offline", Offline: "no language model in this test", Embedder: "lexical-v1-512",
	}})
	mqtttest.Eventually(t, "bus connected", f.bus.Connected)
	p := openBrowser(t)
	do, text := p.do, p.text

	do("open the monitor",
		chromedp.Navigate(f.url+"/"),
		chromedp.WaitVisible(css(`#utterance`)),
		chromedp.WaitReady(css(`body[data-live="on"]`)), // the live stream is open
	)

	// Alex, smiling, says hello.
	do("send an utterance as Alex",
		chromedp.SendKeys(css(`#user-name`), "Alex"),
		chromedp.SetValue(css(`#user-emotion`), "happy"),
		chromedp.SendKeys(css(`#utterance`), "Hello, my name is Alex"),
		chromedp.Click(css(`#send`)),
		chromedp.WaitVisible(css(`#turns article.turn[data-state="done"] .msg.nadine .text`)),
	)
	first := p.newestTurn()
	if got := text(first + ` .msg.nadine .text`); !strings.Contains(got, "Alex") {
		t.Errorf("reply = %q, want a greeting for Alex", got)
	}
	if got := text(first + ` .msg.user .text`); got != "Hello, my name is Alex" {
		t.Errorf("input shown = %q", got)
	}
	if got := text(first + ` .msg.nadine .who`); !strings.Contains(got, "joy") || !strings.Contains(got, "wave") {
		t.Errorf("Nadine's emotion and gestures = %q, want joy and wave", got)
	}
	if got := text(first + ` .msg.user .who`); !strings.Contains(got, "Alex") || !strings.Contains(got, "happy") {
		t.Errorf("user line = %q, want Alex, happy", got)
	}

	// Its trace opens as a timeline.
	do("expand the trace",
		chromedp.Click(css(first+` details.trace > summary`)),
		chromedp.WaitVisible(css(first+` details.trace[open] .tl-row.step`)),
	)
	if got := text(first + ` details.trace .tl-row.step .tl-label`); !strings.HasPrefix(got, "engine:offline") && !strings.HasPrefix(got, "offline") {
		t.Errorf("first step = %q", got)
	}
	if got := text(first + ` details.trace > summary`); !strings.Contains(got, "offline") || !strings.Contains(got, "critical path") {
		t.Errorf("trace summary = %q", got)
	}

	// Who is in front of the robot.
	do("see Alex in front of the robot", chromedp.WaitVisible(css(`#user-list button`)))
	if got := text(`#who-name`); got != "Alex" {
		t.Errorf("in front of Nadine: %q", got)
	}
	if got := text(`#who-emotion`); got != "happy" {
		t.Errorf("face: %q", got)
	}

	// The combo box switches to French; the next reply is French, with
	// English translations of the input and the reply.
	do("switch to French",
		chromedp.SetValue(css(`#language`), "fr"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#language').dispatchEvent(new Event('change', {bubbles: true}))`),
		chromedp.WaitReady(css(`body[data-language="fr"]`)),
	)
	if got := f.rt.Session().Language; got != "fr" {
		t.Fatalf("session language = %q after the combo box", got)
	}
	do("say Bonjour",
		chromedp.SendKeys(css(`#utterance`), "Bonjour"),
		chromedp.Click(css(`#send`)),
		chromedp.WaitVisible(css(`#turns article.turn[data-language="fr"][data-state="done"] .msg.nadine .text`)),
	)
	second := p.newestTurn()
	if second == first {
		t.Fatal("the French turn is not shown first")
	}
	if got := text(second + ` .msg.nadine .text`); !strings.Contains(got, "Bonjour") {
		t.Errorf("French reply = %q", got)
	}
	if got := text(second + ` .msg.user .english`); !strings.Contains(got, "Hello") {
		t.Errorf("English translation of the input = %q", got)
	}
	if got := text(second + ` .msg.nadine .english`); got == "" || strings.Contains(got, "Bonjour") {
		t.Errorf("English translation of the reply = %q", got)
	}
	if got := text(`#session-language`); got != "French" {
		t.Errorf("session language shown = %q", got)
	}

	// A transcript heard on the robot bus appears without reloading.
	stt := mqtttest.NewPeer(t, mqtttest.HostPort(f.broker.URL()))
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"Quelle heure est-il ?","final":true,"id":"stt-7"}`))
	const heard = `#turns article.turn[data-turn-id="stt-7"]`
	do("see the turn heard on the bus",
		chromedp.WaitVisible(css(heard+`[data-state="done"] .msg.nadine .text`)),
	)
	if got := text(heard + ` .msg.user .text`); got != "Quelle heure est-il ?" {
		t.Errorf("bus turn input = %q", got)
	}
	if got := text(heard + ` .source`); got != "heard on the robot" {
		t.Errorf("bus turn source = %q", got)
	}
	if got := text(heard + ` .msg.nadine .text`); !strings.HasPrefix(got, "Il est") {
		t.Errorf("bus turn reply = %q", got)
	}

	// The person talks over that reply while text-to-speech says it: the
	// turn shows that she was interrupted and what had been said.
	stt.Publish("nadine/agent/feedback/start_speak", nil)
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"attends une seconde j'ai une question","final":false}`))
	do("see the reply marked interrupted",
		chromedp.WaitVisible(css(heard+`[data-interrupted="interrupted"] .msg.nadine .interrupted`)),
	)
	if got := text(heard + ` .msg.nadine .interrupted`); !strings.Contains(got, "Il est") {
		t.Errorf("interrupted reply shown as %q", got)
	}
	stt.Publish("nadine/agent/feedback/end_speak", nil)

	// The user list shows Alex's profile; the mood plot is drawn.
	do("open Alex's profile",
		chromedp.Click(css(`#user-list button`)),
		chromedp.WaitVisible(css(`#user-detail h3`)),
		chromedp.WaitReady(css(`#pad-plot polyline.p`)),
		chromedp.Click(css(second+` details.trace > summary`)),
		chromedp.WaitVisible(css(second+` details.trace[open] .trace-section.english`)),
	)
	if got := text(`#user-detail h3`); got != "Alex" {
		t.Errorf("profile shown = %q", got)
	}

	// A page opened later shows the turns so far and who is there.
	do("reload the page",
		chromedp.Reload(),
		chromedp.WaitVisible(css(heard+`[data-state="done"] .msg.nadine .text`)),
		chromedp.WaitVisible(css(first+`[data-state="done"] .msg.nadine .text`)),
	)
	if got := text(heard + ` .msg.nadine .text`); !strings.HasPrefix(got, "Il est") {
		t.Errorf("bus turn after a reload = %q", got)
	}
	if got := text(`#who-name`); got != "Alex" {
		t.Errorf("in front of Nadine after a reload: %q", got)
	}
	n, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](`document.querySelectorAll('#turns article.turn').length`))
	if err != nil || n != 3 {
		t.Errorf("%d turns after a reload (%v), want 3", n, err)
	}

	// The operator ends the interaction: the monitor marks it, and the
	// next person is a stranger.
	do("end the interaction",
		chromedp.Click(css(`#end-session`)),
		chromedp.WaitVisible(css(`#turns .ended`)),
	)
	if got := text(`#turns .ended`); !strings.Contains(got, "Alex") || !strings.Contains(got, "api") {
		t.Errorf("end of interaction shown as %q", got)
	}

	do("scroll to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	p.screenshot("monitor.png")
	p.checkConsole()
}

// TestBrowserToken: bound with a token, the page asks for it once, keeps it
// in the tab, and then works, live updates included.
func TestBrowserToken(t *testing.T) {
	chromium(t)
	const token = "exhibition-token-0123456789"
	f := newFixture(t, fixtureOptions{token: token})
	p := openBrowser(t)
	p.do("open the monitor and give the token",
		chromedp.Navigate(f.url+"/"),
		chromedp.WaitVisible(css(`#token-dialog[open] #token-input`)),
		chromedp.SendKeys(css(`#token-input`), token),
		chromedp.Click(css(`#token-form button[type="submit"]`)),
		chromedp.WaitNotVisible(css(`#token-dialog`)),
		chromedp.WaitReady(css(`body[data-live="on"]`)),
		chromedp.SendKeys(css(`#utterance`), "What time is it?"),
		chromedp.Click(css(`#send`)),
		chromedp.WaitVisible(css(`#turns article.turn[data-state="done"] .msg.nadine .text`)),
	)
	if got := p.text(`#turns article.turn .msg.nadine .text`); !strings.HasPrefix(got, "It is") {
		t.Errorf("reply = %q", got)
	}
	stored, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`sessionStorage.getItem('nadine.token')`))
	if err != nil || stored != token {
		t.Errorf("token kept in the tab = %q, %v", stored, err)
	}
	if got := p.text(`#system-info`); !strings.Contains(got, "token required") {
		t.Errorf("system info = %q", got)
	}
	// The page only ever sent the token in a header: it is in no URL the
	// server saw (the fixture also checks the logs).
	if strings.Contains(f.logs.String(), token) {
		t.Error("the token reached the server's logs")
	}
	// The browser logs the first, refused, requests.
	p.checkConsole("status of 401 (Unauthorized)")
}
