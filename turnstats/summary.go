package turnstats

import (
	"math"
	"slices"
	"sort"
	"time"

	"github.com/nadine-robot/nadine"
)

// Summary is what a period of turns comes to: the figures of the Today
// view and of `nadine report`.
type Summary struct {
	From  time.Time `json:"from"`
	To    time.Time `json:"to"`
	Robot string    `json:"robot,omitempty"` // the robot summarized; all when empty
	// Bin is the width of one bar of the charts: an hour for a period of
	// up to two days, else a day.
	Bin time.Duration `json:"bin_ns"`
	// Turns counts every heard transcript and operator turn, by outcome in
	// Outcomes; Languages the answered ones by reply language.
	Turns     int                     `json:"turns"`
	Outcomes  map[Outcome]int         `json:"outcomes"`
	Languages map[nadine.Language]int `json:"languages"`
	Engines   map[string]int          `json:"engines"`
	// FirstSpeech is the time from the transcript to the first sentence
	// of the answered turns, over the period and over its last hour (the
	// hour before now, for a period that has not ended).
	FirstSpeech         Spread   `json:"first_speech"`
	FirstSpeechLastHour Spread   `json:"first_speech_last_hour"`
	FirstSpeechBuckets  []Bucket `json:"first_speech_buckets"`
	TurnDuration        Spread   `json:"turn_duration"`
	ModelCalls          int      `json:"model_calls"`
	ModelErrors         int      `json:"model_errors"`
	Fillers             int      `json:"fillers"` // turns that said a filler line
	// Visitors counts the interactions that ended in the period;
	// Interaction spreads their lengths, InteractionTurns their turns.
	Visitors           int            `json:"visitors"`
	Interaction        Spread         `json:"interaction"`
	InteractionTurns   Spread         `json:"interaction_turns"`
	InteractionBuckets []Bucket       `json:"interaction_buckets"`
	EndReasons         map[string]int `json:"end_reasons"`
	Bins               []Bin          `json:"bins"`
}

// Spread is a distribution: count, median, p95 (nearest rank) and maximum;
// times in seconds.
type Spread struct {
	Count int     `json:"count"`
	P50   float64 `json:"p50"`
	P95   float64 `json:"p95"`
	Max   float64 `json:"max"`
}

// Bucket counts the values up to Upper (above the previous bucket's), the
// last one (Upper +Inf, written 0 with Over set) those above all.
type Bucket struct {
	Upper float64 `json:"upper"`
	Over  bool    `json:"over,omitempty"`
	Count int     `json:"count"`
}

// Bin is one bar of the charts: the turns and interactions of one hour or
// one day.
type Bin struct {
	Start     time.Time               `json:"start"`
	Languages map[nadine.Language]int `json:"languages"` // answered turns
	Fallbacks int                     `json:"fallbacks"`
	// Unanswered counts expired, dropped, interrupted and failed turns.
	Unanswered     int     `json:"unanswered"`
	ModelErrors    int     `json:"model_errors"`
	Visitors       int     `json:"visitors"`
	FirstSpeechP95 float64 `json:"first_speech_p95"` // seconds; 0 when no turn was answered
}

// FirstSpeechBounds are the metric's histogram buckets in seconds: about a
// second is forgiven in speech, 2.5 s is an alert.
var FirstSpeechBounds = []float64{0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 2.5, 3, 4, 5, 7.5, 10}

// InteractionBounds are the upper bounds, in seconds, of the interaction
// length buckets.
var InteractionBounds = []float64{30, 60, 120, 300, 600, 1200, 1800}

// Summarize sums up the records of [from, to) for one robot, or all with "";
// now ends a period still running.
func Summarize(turns []Turn, sessions []Session, from, to, now time.Time, robot string) Summary {
	s := Summary{From: from, To: to, Robot: robot, Bin: time.Hour,
		Outcomes: map[Outcome]int{}, Languages: map[nadine.Language]int{}, Engines: map[string]int{}, EndReasons: map[string]int{}}
	if to.Sub(from) > 48*time.Hour {
		s.Bin = 24 * time.Hour
	}
	for _, o := range Outcomes() {
		s.Outcomes[o] = 0
	}
	starts := binStarts(from, to, s.Bin)
	s.Bins = make([]Bin, len(starts))
	for i, b := range starts {
		s.Bins[i] = Bin{Start: b, Languages: map[nadine.Language]int{}}
	}
	binOf := func(t time.Time) int {
		i := sort.Search(len(starts), func(i int) bool { return starts[i].After(t) }) - 1
		return max(i, 0)
	}
	end := to
	if now.Before(to) {
		end = now
	}
	lastHour := end.Add(-time.Hour)
	var first, firstLast, durations []float64
	binFirst := make([][]float64, len(starts))
	for _, t := range turns {
		if t.Time.Before(from) || !t.Time.Before(to) || (robot != "" && t.Robot != robot) {
			continue
		}
		b := &s.Bins[binOf(t.Time)]
		s.Turns++
		o := t.Outcome
		if !o.Valid() {
			o = Failed
		}
		s.Outcomes[o]++
		s.ModelCalls += t.ModelCalls
		s.ModelErrors += t.ModelErrors
		b.ModelErrors += t.ModelErrors
		if t.Filler {
			s.Fillers++
		}
		if !o.Spoken() {
			b.Unanswered++
			continue
		}
		if o == Fallback {
			b.Fallbacks++
		}
		s.Engines[t.Engine]++
		s.Languages[t.Language]++
		b.Languages[t.Language]++
		if t.Duration > 0 {
			durations = append(durations, t.Duration.Seconds())
		}
		if t.FirstSpeech > 0 {
			v := t.FirstSpeech.Seconds()
			first = append(first, v)
			binFirst[binOf(t.Time)] = append(binFirst[binOf(t.Time)], v)
			if !t.Time.Before(lastHour) {
				firstLast = append(firstLast, v)
			}
		}
	}
	s.FirstSpeech, s.FirstSpeechLastHour, s.TurnDuration = spread(first), spread(firstLast), spread(durations)
	s.FirstSpeechBuckets = buckets(first, FirstSpeechBounds)
	for i, v := range binFirst {
		s.Bins[i].FirstSpeechP95 = spread(v).P95
	}
	var lengths, counts []float64
	for _, e := range sessions {
		if e.End.Before(from) || !e.End.Before(to) || (robot != "" && e.Robot != robot) {
			continue
		}
		s.Visitors++
		s.Bins[binOf(e.End)].Visitors++
		s.EndReasons[e.Reason]++
		lengths = append(lengths, e.Duration.Seconds())
		counts = append(counts, float64(e.Turns))
	}
	s.Interaction, s.InteractionTurns = spread(lengths), spread(counts)
	s.InteractionBuckets = buckets(lengths, InteractionBounds)
	return s
}

// binStarts returns the starts of the bins covering [from, to): whole
// hours or days of from's location.
func binStarts(from, to time.Time, bin time.Duration) []time.Time {
	y, mo, d := from.Date()
	start := time.Date(y, mo, d, 0, 0, 0, 0, from.Location())
	if bin < 24*time.Hour {
		start = start.Add(time.Duration(from.Hour()) * time.Hour)
	}
	var out []time.Time
	for b := start; b.Before(to) && len(out) < 10000; {
		out = append(out, b)
		if bin >= 24*time.Hour {
			y, mo, d := b.Date()
			b = time.Date(y, mo, d+1, 0, 0, 0, 0, b.Location()) // a calendar day, whatever the clock change
		} else {
			b = b.Add(bin)
		}
	}
	if len(out) == 0 {
		out = append(out, start)
	}
	return out
}

// spread computes a Spread (nearest-rank percentiles).
func spread(vs []float64) Spread {
	if len(vs) == 0 {
		return Spread{}
	}
	v := slices.Clone(vs)
	slices.Sort(v)
	rank := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(v)))) - 1
		return v[min(max(i, 0), len(v)-1)]
	}
	return Spread{Count: len(v), P50: rank(0.5), P95: rank(0.95), Max: v[len(v)-1]}
}

// buckets counts values per bound, with a last bucket for those above.
func buckets(vs, bounds []float64) []Bucket {
	out := make([]Bucket, len(bounds)+1)
	for i, b := range bounds {
		out[i].Upper = b
	}
	out[len(bounds)].Over = true
	for _, v := range vs {
		i := sort.SearchFloat64s(bounds, v) // the first bound >= v
		out[i].Count++
	}
	return out
}
