package robot_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/mqtt"
	"github.com/nadine-robot/nadine/offline"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/sqlite"
)

// offlineManager opens a store in a temporary directory and a dialogue
// manager over it that answers with the offline engine, its history and
// profiles in the store; edit, when set, adjusts the manager's options
// (given the store).
func offlineManager(t *testing.T, edit func(*dialogue.ManagerOptions, *sqlite.Store)) (*sqlite.Store, *dialogue.Manager) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "n.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	opts := dialogue.ManagerOptions{
		Engines: []nadine.Engine{offline.New(offline.Options{Store: st})},
		History: dialogue.NewHistory(st, lexical.New(0), dialogue.HistoryOptions{}), Profiles: st,
	}
	if edit != nil {
		edit(&opts, st)
	}
	m, err := dialogue.NewManager(opts)
	if err != nil {
		t.Fatal(err)
	}
	return st, m
}

// runOnBus runs rt on bus until the test ends, then stops it and closes
// the bus.
func runOnBus(t *testing.T, rt *robot.Runtime, bus *mqtt.Bus) {
	t.Helper()
	runCtx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- rt.Run(runCtx, bus.Inbound()) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
		cctx, cancel := context.WithTimeout(context.Background(), mqtttest.Failsafe)
		defer cancel()
		_ = bus.Close(cctx)
	})
}
