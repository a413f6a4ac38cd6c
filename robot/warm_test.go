package robot_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/robot"
)

// TestWarmOnRecognition: the person perception names is warmed as their
// message arrives, by id; a sighting without an id warms nobody.
func TestWarmOnRecognition(t *testing.T) {
	ctx := context.Background()
	st, m := offlineManager(t, nil)
	var (
		mu     sync.Mutex
		warmed []string
	)
	rt, err := robot.New(robot.Options{Manager: m, Names: st, SpeakTimeout: time.Minute, WarmPerson: func(id string) {
		mu.Lock()
		warmed = append(warmed, id)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	in := make(chan nadine.Inbound)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- rt.Run(runCtx, in) }()
	in <- nadine.Inbound{Kind: nadine.InboundUserDetected, User: nadine.UserRef{Name: "Alex"}}
	in <- nadine.Inbound{Kind: nadine.InboundUserDetected, User: nadine.UserRef{ID: "alex-1", Name: "Alex"}, Confidence: 0.9}
	in <- nadine.Inbound{Kind: nadine.InboundUserName, User: nadine.UserRef{ID: "sam-2", Name: "Sam"}}
	mqtttest.Eventually(t, "the session to adopt Sam", func() bool { return rt.Session().User.ID == "sam-2" })
	stop()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"alex-1", "sam-2"}; !slices.Equal(warmed, want) {
		t.Errorf("warmed %q, want %q", warmed, want)
	}
}
