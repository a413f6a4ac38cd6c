package leaktest

import (
	"strings"
	"testing"
	"time"
)

// TestNewFindsALeftGoroutine: a goroutine started after the snapshot is
// found, with its stack (who created it), until it ends; one running
// before is not.
func TestNewFindsALeftGoroutine(t *testing.T) {
	old := make(chan struct{})
	go func() { <-old }()
	defer close(old)
	before := Take()
	release := make(chan struct{})
	go parked(release)
	left := New(before)
	if len(left) != 1 || !strings.Contains(left[0], "created by github.com/nadine-robot/nadine/internal/leaktest.TestNewFindsALeftGoroutine") {
		t.Fatalf("New = %q, want the one parked goroutine", left)
	}
	close(release)
	Check(t, before, 5*time.Second)
}

func parked(release chan struct{}) { <-release }
