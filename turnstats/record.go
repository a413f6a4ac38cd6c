package turnstats

import (
	"time"

	"github.com/nadine-robot/nadine"
)

// Outcome is what a heard transcript or an operator turn came to.
type Outcome string

// The outcomes of a turn: the metric nadine_turns_total and the records
// count each transcript under one of them.
const (
	Answered    Outcome = "answered"    // the configured engine answered
	Fallback    Outcome = "fallback"    // a fallback engine or the apology answered
	Expired     Outcome = "expired"     // too old to answer when its turn came
	Dropped     Outcome = "dropped"     // pushed out of a full queue, or heard while Nadine spoke
	Interrupted Outcome = "interrupted" // its turn was cut after it spoke (a restart; a barge-in)
	Failed      Outcome = "failed"      // refused: the turn could not run
)

// Outcomes lists every outcome, in the order reports show them.
func Outcomes() []Outcome {
	return []Outcome{Answered, Fallback, Expired, Dropped, Interrupted, Failed}
}

// Valid reports whether o is one of Outcomes.
func (o Outcome) Valid() bool {
	for _, x := range Outcomes() {
		if o == x {
			return true
		}
	}
	return false
}

// Spoken reports whether the turn was answered (by any engine).
func (o Outcome) Spoken() bool { return o == Answered || o == Fallback }

// Turn is what is kept of one turn: no text, no user id.
type Turn struct {
	Time        time.Time       `json:"time"` // when it ended or was given up
	Robot       string          `json:"robot"`
	Engine      string          `json:"engine,omitempty"` // the engine that answered
	Outcome     Outcome         `json:"outcome"`
	Language    nadine.Language `json:"language,omitempty"` // the reply's
	FirstSpeech time.Duration   `json:"first_speech_ns,omitempty"`
	Duration    time.Duration   `json:"duration_ns,omitempty"`
	ModelCalls  int             `json:"model_calls,omitempty"`
	// ModelErrors counts the model calls that failed, those their caller
	// gave up (nadine.CallCanceled) aside.
	ModelErrors int  `json:"model_errors,omitempty"`
	Filler      bool `json:"filler,omitempty"` // a filler line was said
}

// Session is what is kept of one interaction: no user id.
type Session struct {
	End      time.Time     `json:"end"`
	Robot    string        `json:"robot"`
	Reason   string        `json:"reason"`
	Turns    int           `json:"turns"`
	Duration time.Duration `json:"duration_ns"`
}

// FromTrace makes the record of an answered turn from its finished trace.
func FromTrace(robot string, d nadine.TraceData, reply nadine.Reply, end time.Time) Turn {
	t := Turn{Time: end, Robot: robot, Engine: d.Engine, Outcome: Answered, Language: reply.Language,
		FirstSpeech: d.FirstSpeech, Duration: d.Duration, ModelCalls: len(d.ModelCalls)}
	if reply.Fallback {
		t.Outcome = Fallback
	}
	for _, c := range d.ModelCalls {
		if c.Error != "" && c.Code != nadine.CallCanceled {
			t.ModelErrors++
		}
	}
	return t
}
