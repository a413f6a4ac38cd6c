package turnstats_test

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/turnstats"
)

// TestSummarize builds a day of turns by crossing independent axes
// (outcome × language × hour × robot × first speech) and checks the
// summary against counts made here by brute force: totals per outcome and
// language, per-hour bars, the percentiles (nearest rank) of the day and
// of the last hour, and that records outside the day or of another robot
// are left out.
func TestSummarize(t *testing.T) {
	loc := time.FixedZone("CET", 3600)
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, loc)
	now := day.Add(16*time.Hour + 30*time.Minute)
	langs := []nadine.Language{nadine.English, nadine.French, nadine.German, nadine.Chinese}
	firsts := []time.Duration{200 * time.Millisecond, 700 * time.Millisecond, 1200 * time.Millisecond, 3 * time.Second}
	var turns []turnstats.Turn
	for i, o := range turnstats.Outcomes() {
		for j, l := range langs {
			for h := 8; h < 17; h += 2 {
				for k, f := range firsts {
					for _, robot := range []string{"lobby", "hall"} {
						turns = append(turns, turnstats.Turn{Time: day.Add(time.Duration(h)*time.Hour + time.Duration(i*7+j*3+k)*time.Minute),
							Robot: robot, Engine: "graph", Outcome: o, Language: l, FirstSpeech: f, Duration: f + time.Second,
							ModelCalls: 3, ModelErrors: k % 2, Filler: k == 3})
					}
				}
			}
		}
	}
	// Outside the day.
	turns = append(turns, turnstats.Turn{Time: day.Add(-time.Minute), Robot: "lobby", Outcome: turnstats.Answered, Language: "en"},
		turnstats.Turn{Time: day.Add(24 * time.Hour), Robot: "lobby", Outcome: turnstats.Answered, Language: "en"})
	sessions := []turnstats.Session{
		{End: day.Add(9 * time.Hour), Robot: "lobby", Reason: "left", Turns: 4, Duration: 90 * time.Second},
		{End: day.Add(15 * time.Hour), Robot: "lobby", Reason: "idle", Turns: 2, Duration: 10 * time.Minute},
		{End: day.Add(15 * time.Hour), Robot: "hall", Reason: "left", Turns: 9, Duration: time.Minute},
	}
	s := turnstats.Summarize(turns, sessions, day, day.Add(24*time.Hour), now, "lobby")

	var want struct {
		turns, spoken, fallbacks, errors, fillers int
		outcomes                                  map[turnstats.Outcome]int
		langs                                     map[nadine.Language]int
		first, last                               []float64
		bins                                      [24]int
	}
	want.outcomes, want.langs = map[turnstats.Outcome]int{}, map[nadine.Language]int{}
	for _, tr := range turns {
		if tr.Robot != "lobby" || tr.Time.Before(day) || !tr.Time.Before(day.Add(24*time.Hour)) {
			continue
		}
		want.turns++
		want.outcomes[tr.Outcome]++
		want.errors += tr.ModelErrors
		if tr.Filler {
			want.fillers++
		}
		if tr.Outcome.Spoken() {
			want.spoken++
			want.langs[tr.Language]++
			want.bins[tr.Time.Hour()]++
			want.first = append(want.first, tr.FirstSpeech.Seconds())
			if !tr.Time.Before(now.Add(-time.Hour)) {
				want.last = append(want.last, tr.FirstSpeech.Seconds())
			}
		}
	}
	if s.Turns != want.turns || s.ModelErrors != want.errors || s.Fillers != want.fillers {
		t.Errorf("turns %d, model errors %d, fillers %d; want %d, %d, %d", s.Turns, s.ModelErrors, s.Fillers, want.turns, want.errors, want.fillers)
	}
	for _, o := range turnstats.Outcomes() {
		if s.Outcomes[o] != want.outcomes[o] {
			t.Errorf("outcome %s: %d, want %d", o, s.Outcomes[o], want.outcomes[o])
		}
	}
	for _, l := range langs {
		if s.Languages[l] != want.langs[l] {
			t.Errorf("language %s: %d, want %d", l, s.Languages[l], want.langs[l])
		}
	}
	if len(s.Bins) != 24 || s.Bin != time.Hour {
		t.Fatalf("%d bins of %s, want 24 hours", len(s.Bins), s.Bin)
	}
	for i, b := range s.Bins {
		n := 0
		for _, c := range b.Languages {
			n += c
		}
		if n != want.bins[i] || b.Start.Hour() != i {
			t.Errorf("bin %d (%s): %d turns, want %d", i, b.Start.Format("15:04"), n, want.bins[i])
		}
	}
	rank := func(v []float64, p float64) float64 {
		v = slices.Clone(v)
		slices.Sort(v)
		return v[int(math.Ceil(p*float64(len(v))))-1]
	}
	if s.FirstSpeech.Count != len(want.first) || s.FirstSpeech.P50 != rank(want.first, 0.5) || s.FirstSpeech.P95 != rank(want.first, 0.95) {
		t.Errorf("first speech %+v, want %d values, p50 %v, p95 %v", s.FirstSpeech, len(want.first), rank(want.first, 0.5), rank(want.first, 0.95))
	}
	if s.FirstSpeechLastHour.Count != len(want.last) || s.FirstSpeechLastHour.P95 != rank(want.last, 0.95) {
		t.Errorf("last hour %+v, want %d values, p95 %v", s.FirstSpeechLastHour, len(want.last), rank(want.last, 0.95))
	}
	total := 0
	for _, b := range s.FirstSpeechBuckets {
		total += b.Count
	}
	if total != len(want.first) {
		t.Errorf("first-speech buckets hold %d values, want %d", total, len(want.first))
	}
	if s.Visitors != 2 || s.Interaction.Max != 600 || s.EndReasons["idle"] != 1 {
		t.Errorf("visitors %d, longest %v, reasons %v", s.Visitors, s.Interaction.Max, s.EndReasons)
	}

	// A week is drawn by day, every record of both robots counted (the two
	// outside the day too).
	week := turnstats.Summarize(turns, sessions, day.AddDate(0, 0, -3), day.AddDate(0, 0, 4), now, "")
	if len(week.Bins) != 7 || week.Bin != 24*time.Hour || week.Turns != len(turns) {
		t.Errorf("week: %d bins of %s, %d turns (want 7 days, %d)", len(week.Bins), week.Bin, week.Turns, len(turns))
	}
}

// TestReport writes the HTML report of a summary: one page with its
// figures and five inline charts, nothing to fetch, no script.
func TestReport(t *testing.T) {
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	s := turnstats.Summarize([]turnstats.Turn{
		{Time: day.Add(10 * time.Hour), Robot: "r", Outcome: turnstats.Answered, Language: "fr", FirstSpeech: time.Second},
		{Time: day.Add(11 * time.Hour), Robot: "r", Outcome: turnstats.Expired},
	}, nil, day, day.Add(24*time.Hour), day.Add(24*time.Hour), "")
	var b bytes.Buffer
	if err := turnstats.WriteReport(&b, s, day.Add(25*time.Hour)); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"Tuesday 1 December 2026, 00:00 to 24:00 UTC", "Turns heard", "Answered in French", "expired"} {
		if !strings.Contains(page, want) {
			t.Errorf("the report has no %q", want)
		}
	}
	if n := strings.Count(page, "<svg"); n != 5 {
		t.Errorf("%d charts, want 5", n)
	}
	for _, bad := range []string{"<script", " src=", " href=", "url("} {
		if strings.Contains(page, bad) {
			t.Errorf("the report is not self-contained: %q", bad)
		}
	}
	for _, c := range turnstats.Charts(s) {
		if strings.Count(c.SVG, "<svg") != 1 || !strings.HasSuffix(c.SVG, "</svg>") {
			t.Errorf("chart %s is not one SVG", c.ID)
		}
	}
}
