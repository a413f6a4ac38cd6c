package agents_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
)

// ctxHookModel runs before, with the call's context, ahead of each call.
type ctxHookModel struct {
	nadine.ChatModel
	before func(ctx context.Context, req nadine.ChatRequest)
}

func (m ctxHookModel) Chat(ctx context.Context, req nadine.ChatRequest) (nadine.ChatResponse, error) {
	m.before(ctx, req)
	return m.ChatModel.Chat(ctx, req)
}

func (m ctxHookModel) ChatStream(ctx context.Context, req nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error) {
	m.before(ctx, req)
	return m.ChatModel.ChatStream(ctx, req, onDelta)
}

// TestCloseOwnsTheBackgroundWork: the engine's goroutines after a turn are
// its own. Close cancels the context summary it was computing for a next
// turn that will not come, and waits for the episode it is saving, which
// is stored.
func TestCloseOwnsTheBackgroundWork(t *testing.T) {
	summaryCut := make(chan struct{})
	episodeStarted, releaseEpisode := make(chan struct{}), make(chan struct{})
	h := newHarness(t)
	models := h.opts.Models
	h.opts.Models = func(role string) nadine.ChatModel {
		switch role {
		case agents.RoleContextSummary:
			return ctxHookModel{models(role), func(ctx context.Context, _ nadine.ChatRequest) {
				<-ctx.Done() // a summary that never ends by itself
				close(summaryCut)
			}}
		case agents.RoleMemoryUpdate:
			return ctxHookModel{models(role), func(ctx context.Context, req nadine.ChatRequest) {
				if strings.Contains(req.Messages[0].Content, "episodic memory") {
					close(episodeStarted)
					<-releaseEpisode
				}
			}}
		}
		return models(role)
	}
	h.saveProfile(nadine.Profile{UserID: "alex-1", UserName: "Alex"})
	intentFor(h, "Bye", "end_conversation")
	h.async = true
	h.start().as("alex-1", "Alex")
	h.turn("I went skiing in Verbier.")     // its summary for the next turn hangs
	h.turn("Bye Nadine, see you tomorrow!") // its episode is being saved
	wait(t, episodeStarted, "the episode save to start")

	closed := make(chan struct{})
	go func() {
		h.eng.Close()
		close(closed)
	}()
	wait(t, summaryCut, "Close to cancel the context summary")
	select {
	case <-closed:
		t.Fatal("Close returned while an episode was being saved")
	case <-time.After(50 * time.Millisecond):
	}
	close(releaseEpisode)
	wait(t, closed, "Close to return once the episode is saved")
	eps, err := h.store.Memories(context.Background(), "alex-1", nadine.MemoryEpisode)
	if err != nil || len(eps) != 1 {
		t.Fatalf("episodes after Close: %+v, %v; want the one being saved", eps, err)
	}
	if _, _, err := h.try("Hello again"); nadine.ErrorCode(err) != nadine.EUNAVAILABLE {
		t.Errorf("a turn after Close: %v, want EUNAVAILABLE", err)
	}
}

// wait waits for ch, failing the test if it takes far longer than it can.
func wait(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatalf("still waiting for %s after 30 s", what)
	}
}
