// Package examplestest holds what the examples' tests share.
package examplestest

import (
	"bytes"
	"os"
	"os/exec"
	"sync"
	"testing"
)

// SyncBuffer is a bytes.Buffer safe for a program's log and a test reading
// it at once.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// NeedProgram skips the test when a program is not installed, except in CI
// (CI set), where it must be: .ci/run installs it.
func NeedProgram(t testing.TB, name, debian string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is not installed; CI must install it (apt-get install %s)", name, debian)
	}
	t.Skipf("%s is not installed (Debian: apt-get install %s); skipping", name, debian)
	return ""
}
