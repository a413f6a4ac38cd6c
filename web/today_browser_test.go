package web_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/turnstats"
	"github.com/nadine-robot/nadine/web"
)

// dayOfTurns is a day of records with known figures: 12 English turns
// answered in 0.3 s at 10h, 6 French ones in 0.9 s at 11h, 3 English ones
// in 4 s at 14h (one a fallback), 2 expired at 14h, and 3 visitors.
func dayOfTurns(day time.Time) ([]turnstats.Turn, []turnstats.Session) {
	at := func(h, m int) time.Time { return day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute) }
	var turns []turnstats.Turn
	add := func(n, hour int, lang nadine.Language, first time.Duration, o turnstats.Outcome) {
		for i := range n {
			turns = append(turns, turnstats.Turn{Time: at(hour, i), Robot: "nadine", Engine: "graph", Outcome: o,
				Language: lang, FirstSpeech: first, Duration: first + time.Second, ModelCalls: 2})
		}
	}
	add(12, 10, nadine.English, 300*time.Millisecond, turnstats.Answered)
	add(6, 11, nadine.French, 900*time.Millisecond, turnstats.Answered)
	add(2, 14, nadine.English, 4*time.Second, turnstats.Answered)
	add(1, 14, nadine.English, 4*time.Second, turnstats.Fallback)
	turns = append(turns, turnstats.Turn{Time: at(14, 30), Robot: "nadine", Outcome: turnstats.Expired},
		turnstats.Turn{Time: at(14, 31), Robot: "nadine", Outcome: turnstats.Expired})
	sessions := []turnstats.Session{
		{End: at(10, 20), Robot: "nadine", Reason: "left", Turns: 12, Duration: 4 * time.Minute},
		{End: at(11, 10), Robot: "nadine", Reason: "idle", Turns: 6, Duration: 2 * time.Minute},
		{End: at(14, 40), Robot: "nadine", Reason: "left", Turns: 3, Duration: 45 * time.Second},
	}
	return turns, sessions
}

// TestBrowserToday opens the monitor's Today view (#today) in Chromium on
// a day of known records and checks the rendered charts on a screenshot:
// the first-speech histogram has two green bars (under 2.5 s) whose
// heights are as 12 to 6, and one red bar (over 2.5 s) a quarter of the
// tallest; the turns chart shows English and French in their colours; the
// figures say 23 turns and 3 visitors.
func TestBrowserToday(t *testing.T) {
	chromium(t)
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	now := day.Add(15 * time.Hour)
	turns, sessions := dayOfTurns(day)
	f := newFixture(t, fixtureOptions{now: func() time.Time { return now },
		stats: func(_ context.Context, from, to, now time.Time, robot string) (turnstats.Summary, error) {
			return turnstats.Summarize(turns, sessions, from, to, now, robot), nil
		},
		info: web.Info{Version: "test", Engine: "graph"}})
	p := openBrowser(t)
	p.do("open the Today view",
		chromedp.Navigate(f.url+"/#today"),
		chromedp.WaitVisible(css(`#today`)),
		chromedp.WaitReady(css(`body[data-today="ready"]`)),
		chromedp.WaitVisible(css(`#chart-first_speech svg`)),
	)
	if got := strings.Join(strings.Fields(p.text(`#today-figures`)), " "); !strings.Contains(got, "Turns heard 23") {
		t.Errorf("figures: %q", got)
	}
	if got := strings.Join(strings.Fields(p.text(`#today-figures`)), " "); !strings.Contains(got, "Visitors (interactions) 3") {
		t.Errorf("figures: %q", got)
	}
	if got := p.text(`#today-period`); !strings.Contains(strings.ToLower(got), "tuesday 1 december 2026") {
		t.Errorf("period: %q", got)
	}
	p.screenshot("today.png")

	hist := p.element(`#chart-first_speech svg`)
	green := bars(hist, turnstats.FastColor)
	red := bars(hist, turnstats.SlowColor)
	if len(green) != 2 || len(red) != 1 {
		t.Fatalf("first-speech histogram: %d green and %d red bars on the screenshot, want 2 and 1", len(green), len(red))
	}
	sort.Sort(sort.Reverse(sort.IntSlice(green)))
	if r := float64(green[1]) / float64(green[0]); math.Abs(r-0.5) > 0.06 {
		t.Errorf("green bars %v px: ratio %.2f, want 6/12", green, r)
	}
	if r := float64(red[0]) / float64(green[0]); math.Abs(r-0.25) > 0.06 {
		t.Errorf("red bar %d px against %d: ratio %.2f, want 3/12", red[0], green[0], r)
	}
	turnsChart := p.element(`#chart-turns svg`)
	for _, l := range []nadine.Language{nadine.English, nadine.French} {
		if len(bars(turnsChart, turnstats.LanguageColors[l])) == 0 {
			t.Errorf("turns chart: no %s bar on the screenshot", l)
		}
	}
	if len(bars(turnsChart, turnstats.LanguageColors[nadine.German])) != 0 {
		t.Errorf("turns chart: a German bar, with no German turn")
	}
	p.checkConsole()
}

// element returns a screenshot of the first element sel matches.
func (p *page) element(sel string) image.Image {
	p.t.Helper()
	b, err := chromedp.Run(p.ctx, chromedp.Screenshot(css(sel)))
	if err != nil {
		p.t.Fatalf("screenshot of %s: %v", sel, err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		p.t.Fatalf("screenshot of %s: %v", sel, err)
	}
	return img
}

// bars finds the bars of one colour on a screenshot: runs of adjacent
// columns holding that colour, at least 4 pixels wide (a bar, not a
// legend's square or a glyph), and returns each one's height in pixels.
func bars(img image.Image, hex string) []int {
	want := rgb(hex)
	b := img.Bounds()
	heights := make([]int, b.Dx())
	for x := b.Min.X; x < b.Max.X; x++ {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(int(r>>8), want[0]) && near(int(g>>8), want[1]) && near(int(bl>>8), want[2]) {
				heights[x-b.Min.X]++
			}
		}
	}
	var out []int
	for x := 0; x < len(heights); {
		if heights[x] == 0 {
			x++
			continue
		}
		start, tallest := x, 0
		for ; x < len(heights) && heights[x] > 0; x++ {
			tallest = max(tallest, heights[x])
		}
		if x-start >= 4 {
			out = append(out, tallest)
		}
	}
	return out
}

func near(a, b int) bool { return a-b <= 3 && b-a <= 3 }

func rgb(hex string) [3]int {
	var c [3]int
	for i := range 3 {
		var v int
		for _, ch := range hex[1+2*i : 3+2*i] {
			v *= 16
			switch {
			case ch >= '0' && ch <= '9':
				v += int(ch - '0')
			default:
				v += int(ch-'a') + 10
			}
		}
		c[i] = v
	}
	return c
}
