package turnstats

import (
	"fmt"
	"html/template"
	"io"
	"strconv"
	"time"
)

// reportPage is the day report: one self-contained HTML file (inline style
// and SVG, no script, nothing fetched), for a team's end-of-day mail.
var reportPage = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body{font-family:sans-serif;color:#222;max-width:60rem;margin:1.5rem auto;padding:0 1rem;line-height:1.4}
h1{font-size:1.5rem;margin-bottom:.2rem}
.period{color:#555;margin-top:0}
table{border-collapse:collapse;margin:1rem 0}
td,th{border-bottom:1px solid #ddd;padding:.25rem .8rem;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
figure{margin:1.5rem 0}
figcaption{color:#444;font-size:.95rem}
h2{font-size:1.1rem;margin:1.5rem 0 .3rem}
</style></head><body>
<h1>{{.Title}}</h1>
<p class="period">{{.Period}}</p>
<table>
{{range .Figures}}<tr><th>{{.Name}}</th><td class="n">{{.Value}}</td></tr>
{{end}}</table>
{{range .Charts}}<figure id="{{.ID}}"><h2>{{.Title}}</h2>{{.SVG}}<figcaption>{{.Caption}}</figcaption></figure>
{{end}}<p class="period">Made by nadine report on {{.Made}}. No conversation text and no user id is kept in these figures.</p>
</body></html>
`))

// Figure is one line of a report's table.
type Figure struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Figures are the headline figures of a summary, in the order the report
// and the Today view list them.
func Figures(s Summary) []Figure {
	pct := func(n, of int) string {
		if of == 0 {
			return strconv.Itoa(n)
		}
		return fmt.Sprintf("%d (%.1f%%)", n, 100*float64(n)/float64(of))
	}
	f := []Figure{
		{"Turns heard", strconv.Itoa(s.Turns)},
	}
	for _, o := range Outcomes() {
		f = append(f, Figure{"  " + string(o), pct(s.Outcomes[o], s.Turns)})
	}
	f = append(f,
		Figure{"Visitors (interactions)", strconv.Itoa(s.Visitors)},
		Figure{"Interaction length, median", dur(s.Interaction.P50)},
		Figure{"First speech p50 / p95", secs(s.FirstSpeech.P50) + " / " + secs(s.FirstSpeech.P95)},
		Figure{"First speech p95, last hour", secs(s.FirstSpeechLastHour.P95)},
		Figure{"Model calls failed", pct(s.ModelErrors, s.ModelCalls)},
		Figure{"Turns with a filler line", pct(s.Fillers, s.Turns)},
	)
	for _, l := range s.languages() {
		f = append(f, Figure{"Answered in " + l.Name(), strconv.Itoa(s.Languages[l])})
	}
	return f
}

// WriteReport writes the summary as one HTML page.
func WriteReport(w io.Writer, s Summary, made time.Time) error {
	title := "Nadine's day"
	if s.To.Sub(s.From) > 24*time.Hour+time.Hour {
		title = "Nadine's days"
	}
	if s.Robot != "" {
		title += " — " + s.Robot
	}
	var charts []struct {
		ID, Title, Caption string
		SVG                template.HTML
	}
	for _, c := range Charts(s) {
		charts = append(charts, struct {
			ID, Title, Caption string
			SVG                template.HTML
		}{c.ID, c.Title, c.Caption, template.HTML(c.SVG)}) // drawn by Charts: numbers and escaped labels only
	}
	err := reportPage.Execute(w, map[string]any{
		"Title": title, "Period": Period(s), "Figures": Figures(s), "Charts": charts,
		"Made": made.Format("2 January 2006 15:04 MST"),
	})
	if err != nil {
		return fmt.Errorf("turnstats: report: %w", err)
	}
	return nil
}

// Period describes the summarized period ("Tuesday 1 December 2026, 00:00
// to 24:00 CET").
func Period(s Summary) string {
	last := s.To.Add(-time.Nanosecond)
	if s.From.YearDay() == last.YearDay() && s.From.Year() == last.Year() {
		return fmt.Sprintf("%s, %s to %s", s.From.Format("Monday 2 January 2006"), s.From.Format("15:04"), clock(s.To, s.From))
	}
	return fmt.Sprintf("%s to %s", s.From.Format("Monday 2 January 2006 15:04"), s.To.Format("Monday 2 January 2006 15:04 MST"))
}

// clock writes the end of a period within one day ("24:00 CET" for midnight).
func clock(to, from time.Time) string {
	if to.Hour() == 0 && to.Minute() == 0 && to.After(from) {
		return "24:00 " + to.Format("MST")
	}
	return to.Format("15:04 MST")
}
