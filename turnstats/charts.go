package turnstats

import (
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
)

// Chart is one chart of a Summary: a title, a line of figures and the
// drawing, an inline SVG that needs no script, style sheet or font file.
type Chart struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Caption string `json:"caption"`
	SVG     string `json:"svg"`
}

// Chart size, in SVG units (the drawing scales to its box).
const (
	chartW, chartH = 720, 240
	padL, padR     = 44, 12
	padT, padB     = 28, 34
)

// LanguageColors are the bar colours of each language (chosen apart for
// the usual colour blindnesses); OtherColor is any other language's.
var LanguageColors = map[nadine.Language]string{
	nadine.English: "#1f6fb4", nadine.French: "#e08214", nadine.German: "#2a9d6f", nadine.Chinese: "#b2457f",
}

// Colours of the other series.
const (
	OtherColor    = "#7f7f7f"
	FallbackColor = "#d9a400"
	ErrorColor    = "#c0392b"
	DropColor     = "#8e6cc0"
	FastColor     = "#2a9d6f" // first speech up to AlertFirstSpeech
	SlowColor     = "#c0392b" // above it
	VisitorColor  = "#5e4fa2"
)

// AlertFirstSpeech is the first-speech time the charts mark, and the
// documented alert on its 95th percentile (seconds).
const AlertFirstSpeech = 2.5

// Charts draws the summary's charts.
func Charts(s Summary) []Chart {
	langs := s.languages()
	var bars []series
	for _, l := range langs {
		bars = append(bars, seriesOf(string(l), languageColor(l), s.Bins, func(b Bin) int { return b.Languages[l] }))
	}
	var legend []string
	for _, l := range langs {
		legend = append(legend, fmt.Sprintf("%s %d", l, s.Languages[l]))
	}
	turns := Chart{ID: "turns", Title: "Turns per " + s.binName() + " by language",
		Caption: fmt.Sprintf("%d answered of %d heard (%s)", s.Outcomes[Answered]+s.Outcomes[Fallback], s.Turns, strings.Join(legend, ", ")),
		SVG:     stacked(s, bars)}

	first := Chart{ID: "first_speech", Title: "First speech after the transcript",
		Caption: fmt.Sprintf("p50 %s, p95 %s over the period (%d turns); last hour p50 %s, p95 %s (%d turns)",
			secs(s.FirstSpeech.P50), secs(s.FirstSpeech.P95), s.FirstSpeech.Count,
			secs(s.FirstSpeechLastHour.P50), secs(s.FirstSpeechLastHour.P95), s.FirstSpeechLastHour.Count),
		SVG: histogram(s.FirstSpeechBuckets, "s", func(b Bucket) string {
			if !b.Over && b.Upper <= AlertFirstSpeech {
				return FastColor
			}
			return SlowColor
		})}

	failures := Chart{ID: "failures", Title: "Fallbacks, model errors and unanswered turns per " + s.binName(),
		Caption: fmt.Sprintf("%d fallback replies, %d failed model calls of %d, %d turns unanswered (%d expired, %d dropped, %d interrupted, %d failed)",
			s.Outcomes[Fallback], s.ModelErrors, s.ModelCalls, s.Outcomes[Expired]+s.Outcomes[Dropped]+s.Outcomes[Interrupted]+s.Outcomes[Failed],
			s.Outcomes[Expired], s.Outcomes[Dropped], s.Outcomes[Interrupted], s.Outcomes[Failed]),
		SVG: grouped(s, []series{
			seriesOf("fallback", FallbackColor, s.Bins, func(b Bin) int { return b.Fallbacks }),
			seriesOf("model errors", ErrorColor, s.Bins, func(b Bin) int { return b.ModelErrors }),
			seriesOf("unanswered", DropColor, s.Bins, func(b Bin) int { return b.Unanswered }),
		})}

	visitors := Chart{ID: "visitors", Title: "Visitors per " + s.binName(),
		Caption: fmt.Sprintf("%d interactions; %s turns each at the median", s.Visitors, strconv.FormatFloat(s.InteractionTurns.P50, 'f', -1, 64)),
		SVG:     stacked(s, []series{seriesOf("visitors", VisitorColor, s.Bins, func(b Bin) int { return b.Visitors })})}

	lengths := Chart{ID: "interaction", Title: "Interaction lengths",
		Caption: fmt.Sprintf("median %s, p95 %s, longest %s", dur(s.Interaction.P50), dur(s.Interaction.P95), dur(s.Interaction.Max)),
		SVG:     histogram(s.InteractionBuckets, "", func(Bucket) string { return VisitorColor })}
	return []Chart{turns, first, failures, visitors, lengths}
}

// languages are the languages answered in, most turns first.
func (s Summary) languages() []nadine.Language {
	var out []nadine.Language
	for l := range s.Languages {
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b nadine.Language) int {
		if d := s.Languages[b] - s.Languages[a]; d != 0 {
			return d
		}
		return strings.Compare(string(a), string(b))
	})
	return out
}

func (s Summary) binName() string {
	if s.Bin >= 24*time.Hour {
		return "day"
	}
	return "hour"
}

func languageColor(l nadine.Language) string {
	if c, ok := LanguageColors[l]; ok {
		return c
	}
	return OtherColor
}

// series is one coloured series of values, one per bin.
type series struct {
	name   string
	color  string
	values []int
}

func seriesOf(name, color string, bins []Bin, f func(Bin) int) series {
	v := make([]int, len(bins))
	for i, b := range bins {
		v[i] = f(b)
	}
	return series{name: name, color: color, values: v}
}

// stacked draws one bar per bin, its series stacked.
func stacked(s Summary, ss []series) string {
	top := 0
	for i := range s.Bins {
		sum := 0
		for _, x := range ss {
			sum += x.values[i]
		}
		top = max(top, sum)
	}
	c := newCanvas(niceCeil(top))
	n := len(s.Bins)
	slot := c.plotW() / float64(n)
	for i := range s.Bins {
		base := 0
		for _, x := range ss {
			v := x.values[i]
			if v > 0 {
				c.bar(padL+float64(i)*slot+slot*0.12, slot*0.76, base, v, x.color,
					fmt.Sprintf("%s %s: %d", s.binLabel(i), x.name, v))
			}
			base += v
		}
	}
	c.timeAxis(s)
	c.legend(ss)
	return c.String()
}

// grouped draws the series side by side in each bin.
func grouped(s Summary, ss []series) string {
	top := 0
	for _, x := range ss {
		for _, v := range x.values {
			top = max(top, v)
		}
	}
	c := newCanvas(niceCeil(top))
	n := len(s.Bins)
	slot := c.plotW() / float64(n)
	w := slot * 0.8 / float64(len(ss))
	for i := range s.Bins {
		for j, x := range ss {
			if v := x.values[i]; v > 0 {
				c.bar(padL+float64(i)*slot+slot*0.1+float64(j)*w, w, 0, v, x.color, fmt.Sprintf("%s %s: %d", s.binLabel(i), x.name, v))
			}
		}
	}
	c.timeAxis(s)
	c.legend(ss)
	return c.String()
}

// histogram draws one bar per bucket, labelled with its upper bound.
func histogram(bs []Bucket, unit string, color func(Bucket) string) string {
	top := 0
	for _, b := range bs {
		top = max(top, b.Count)
	}
	c := newCanvas(niceCeil(top))
	slot := c.plotW() / float64(len(bs))
	for i, b := range bs {
		label := "≤" + bound(b.Upper, unit)
		if b.Over {
			label = ">" + bound(bs[i-1].Upper, unit)
		}
		if b.Count > 0 {
			c.bar(padL+float64(i)*slot+slot*0.1, slot*0.8, 0, b.Count, color(b), fmt.Sprintf("%s: %d", label, b.Count))
		}
		c.text(padL+float64(i)*slot+slot/2, chartH-padB+16, "middle", label)
	}
	return c.String()
}

// canvas writes one chart's SVG, its y axis from 0 to top.
type canvas struct {
	b   strings.Builder
	top int
}

func newCanvas(top int) *canvas {
	c := &canvas{top: top}
	fmt.Fprintf(&c.b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="100%%" role="img" font-family="sans-serif" font-size="12" fill="#222">`, chartW, chartH)
	fmt.Fprintf(&c.b, `<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>`, chartW, chartH)
	for _, v := range []int{0, top / 2, top} {
		y := c.y(v)
		fmt.Fprintf(&c.b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#dddddd" stroke-width="1"/>`, padL, y, chartW-padR, y)
		c.text(padL-6, y+4, "end", strconv.Itoa(v))
	}
	return c
}

func (c *canvas) plotW() float64 { return float64(chartW - padL - padR) }
func (c *canvas) plotH() float64 { return float64(chartH - padT - padB) }

// y is the vertical position of value v.
func (c *canvas) y(v int) float64 {
	if c.top <= 0 {
		return float64(chartH - padB)
	}
	return float64(chartH-padB) - c.plotH()*float64(v)/float64(c.top)
}

// bar draws a bar from value base to base+v, with a tooltip.
func (c *canvas) bar(x, w float64, base, v int, color, title string) {
	y0, y1 := c.y(base), c.y(base+v)
	fmt.Fprintf(&c.b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s</title></rect>`,
		x, y1, w, y0-y1, color, html.EscapeString(title))
}

func (c *canvas) text(x, y float64, anchor, s string) {
	fmt.Fprintf(&c.b, `<text x="%.1f" y="%.1f" text-anchor="%s">%s</text>`, x, y, anchor, html.EscapeString(s))
}

// timeAxis labels the bins, as many as fit.
func (c *canvas) timeAxis(s Summary) {
	n := len(s.Bins)
	slot := c.plotW() / float64(n)
	every := int(math.Ceil(44 / slot))
	for i := 0; i < n; i += max(every, 1) {
		c.text(padL+float64(i)*slot+slot/2, chartH-padB+16, "middle", s.binLabel(i))
	}
}

// legend names the series, top right.
func (c *canvas) legend(ss []series) {
	x := float64(chartW - padR)
	for i := len(ss) - 1; i >= 0; i-- {
		w := float64(7*len([]rune(ss[i].name)) + 22)
		x -= w
		fmt.Fprintf(&c.b, `<rect x="%.1f" y="8" width="12" height="12" fill="%s"/>`, x, ss[i].color)
		c.text(x+16, 18, "start", ss[i].name)
	}
}

func (c *canvas) String() string { return c.b.String() + "</svg>" }

// binLabel names bin i: its hour ("14h") or its day ("Mon 2").
func (s Summary) binLabel(i int) string {
	t := s.Bins[i].Start
	if s.Bin >= 24*time.Hour {
		return t.Format("Mon 2")
	}
	return strconv.Itoa(t.Hour()) + "h"
}

// niceCeil rounds a maximum up to 1, 2 or 5 times a power of ten (and
// even, so that its half is a whole number).
func niceCeil(v int) int {
	if v <= 2 {
		return 2
	}
	p := 1
	for p*10 < v {
		p *= 10
	}
	for _, m := range []int{1, 2, 5, 10} {
		if m*p >= v && (m*p)%2 == 0 {
			return m * p
		}
	}
	return 10 * p
}

func bound(v float64, unit string) string {
	if unit == "" { // seconds as minutes
		if v >= 60 {
			return strconv.FormatFloat(v/60, 'f', -1, 64) + " min"
		}
		return strconv.FormatFloat(v, 'f', -1, 64) + " s"
	}
	return strconv.FormatFloat(v, 'f', -1, 64) + " " + unit
}

func secs(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + " s" }

func dur(v float64) string {
	return (time.Duration(v * float64(time.Second))).Round(time.Second).String()
}
