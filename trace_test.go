package nadine_test

import (
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
)

// TestCriticalPath: the longest chain of calls each started after the
// previous ended; calls side by side count once; a call that started
// before the turn's end counts even when it is recorded after Finish (a
// streamed answer whose last fields come after the reply); one that
// started after the end does not.
func TestCriticalPath(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	call := func(start, latency int) nadine.ModelCall {
		return nadine.ModelCall{Role: "r", Start: t0.Add(ms(start)), Latency: ms(latency)}
	}
	tr := nadine.NewTrace("t", "hi", t0)
	tr.AddModelCall(call(0, 300))   // intent
	tr.AddModelCall(call(0, 350))   // orchestrator, beside it
	tr.AddModelCall(call(360, 100)) // a search router after the plan
	tr.Finish(t0.Add(ms(700)))
	if got := tr.Snapshot().CriticalPath; got != 2 {
		t.Errorf("critical path %d, want 2", got)
	}
	tr.AddModelCall(call(470, 900)) // the response, ending after the reply
	tr.AddModelCall(call(800, 100)) // started after the end: background
	if got := tr.Snapshot().CriticalPath; got != 3 {
		t.Errorf("critical path with the late call %d, want 3", got)
	}
}
