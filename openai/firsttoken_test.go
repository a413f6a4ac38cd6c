package openai_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
)

// TestCallTimesAndCodes: a streamed call records when its first piece
// reached the caller (after the server's latency, before the call ended),
// a plain call none; a failed call its error code, and a call its caller
// gave up the code "canceled" (what the metrics count them under).
func TestCallTimesAndCodes(t *testing.T) {
	srv := llmtest.New(t, llmtest.WithLatency(40*time.Millisecond), llmtest.WithDelay(10*time.Millisecond))
	srv.Default().Reply("one two three four five")
	c := newClient(t, srv, nil)

	ctx, tr := traced()
	if _, err := c.ChatStream(ctx, user("hi"), nil); err != nil {
		t.Fatal(err)
	}
	call := onlyCall(t, tr)
	if call.FirstToken < 40*time.Millisecond || call.FirstToken >= call.Latency || call.Code != "" {
		t.Errorf("streamed call: first token %s of %s, code %q", call.FirstToken, call.Latency, call.Code)
	}
	ctx, tr = traced()
	if _, err := c.Chat(ctx, user("hi")); err != nil {
		t.Fatal(err)
	}
	if call := onlyCall(t, tr); call.FirstToken != 0 {
		t.Errorf("plain call: first token %s, want none", call.FirstToken)
	}

	failing := llmtest.New(t)
	failing.Default().Fail(http.StatusServiceUnavailable)
	fc := newClient(t, failing, nil)
	ctx, tr = traced()
	if _, err := fc.Chat(ctx, user("hi")); err == nil {
		t.Fatal("no error from a 503")
	}
	if call := onlyCall(t, tr); call.Code != nadine.EUNAVAILABLE || call.Error == "" {
		t.Errorf("503: code %q, error %q", call.Code, call.Error)
	}

	ctx, tr = traced()
	ctx, cancel := context.WithCancel(ctx)
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	if _, err := c.ChatStream(ctx, user("hi"), nil); err == nil {
		t.Fatal("no error from a cancelled call")
	}
	if call := onlyCall(t, tr); call.Code != nadine.CallCanceled {
		t.Errorf("cancelled call: code %q, want %q", call.Code, nadine.CallCanceled)
	}
}
