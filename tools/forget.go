package tools

import (
	"context"
	"log/slog"

	"github.com/nadine-robot/nadine"
)

// NameForget is the forget tool's name as the model sees it.
const NameForget = "Forget me"

// Forget only emits nadine.EventForgetRequest: the dialogue manager asks for
// confirmation and erases, so a misread tool call erases nothing.
type Forget struct {
	logger *slog.Logger
}

var _ nadine.Tool = (*Forget)(nil)

// NewForget returns the forget tool.
func NewForget(logger *slog.Logger) *Forget {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Forget{logger: logger}
}

// Name returns "Forget me".
func (f *Forget) Name() string { return NameForget }

// Description says when to use the tool.
func (f *Forget) Description() string {
	return "Use it when the human asks you to forget them: to erase or delete everything you know or keep about them " +
		"(their name, memories, conversations). Input: nothing. You then ask them to confirm before anything is erased."
}

// Call emits the request and tells the agent that the confirmation
// question is the reply: what the agent answers after it is not spoken.
func (f *Forget) Call(ctx context.Context, in nadine.ToolInput) (string, error) {
	emit(in, nadine.Event{Kind: nadine.EventForgetRequest})
	f.logger.DebugContext(ctx, "forget requested")
	return "Nothing is erased yet: Nadine now asks the human to confirm, and that question is your reply. " +
		"Give the Final Answer \"OK.\" and nothing else.", nil
}
