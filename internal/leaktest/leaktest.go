// Package leaktest finds goroutines a test left behind: those running after
// the code under test was shut down that were not running before it
// started.
package leaktest

import (
	"bytes"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Snapshot is the goroutines running at one moment: stack by goroutine id.
type Snapshot map[int]string

// Take returns the goroutines running now.
func Take() Snapshot {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	s := Snapshot{}
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		head, _, _ := strings.Cut(string(g), "\n")
		f := strings.Fields(head) // goroutine 12 [chan receive]:
		if len(f) < 2 || f[0] != "goroutine" {
			continue
		}
		if id, err := strconv.Atoi(f[1]); err == nil {
			s[id] = string(g)
		}
	}
	return s
}

// ignored are goroutines of the runtime and the standard library that live
// as long as the process once started, whoever started them.
var ignored = []string{
	"os/signal.signal_recv", // signal.Notify's loop
	"runtime.ensureSigM",
}

// New returns the stacks of the goroutines running now that were not in
// before (the caller's own goroutine was in it), less the process-wide
// ones.
func New(before Snapshot) []string {
	var out []string
	for id, g := range Take() {
		if _, ok := before[id]; ok {
			continue
		}
		skip := false
		for _, ig := range ignored {
			skip = skip || strings.Contains(g, ig)
		}
		if !skip {
			out = append(out, g)
		}
	}
	return out
}

// Check fails t if goroutines that were not running at before are still
// running. A goroutine that ends on its own shortly after a shutdown (the
// scheduler has not run it yet) is given up to wait to end.
func Check(t testing.TB, before Snapshot, wait time.Duration) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		left := New(before)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%d goroutines left behind:\n\n%s", len(left), strings.Join(left, "\n\n"))
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
