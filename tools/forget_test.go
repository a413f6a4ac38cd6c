package tools_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/tools"
)

// TestForgetEmitsTheRequest: the tool erases nothing; it emits the
// request for the dialogue manager and tells the agent to say nothing
// more.
func TestForgetEmitsTheRequest(t *testing.T) {
	var got []nadine.Event
	out, err := tools.NewForget(nil).Call(context.Background(), nadine.ToolInput{UserID: "anna-1", Language: nadine.French,
		Emit: func(e nadine.Event) { got = append(got, e) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Kind != nadine.EventForgetRequest {
		t.Errorf("events %+v, want one forget request", got)
	}
	if !strings.Contains(out, "Nothing is erased yet") || !strings.Contains(out, `Final Answer "OK."`) {
		t.Errorf("observation %q", out)
	}
	if _, err := tools.NewForget(nil).Call(context.Background(), nadine.ToolInput{}); err != nil {
		t.Errorf("without an emit function: %v", err)
	}
}
