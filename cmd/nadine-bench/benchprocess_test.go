package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/syncbuf"
)

// within fails the test unless f returns within d: the waits on a child
// process must never block for ever.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %s", what, d)
	}
}

// TestServeProcessExitAtStart: a `nadine serve` that exits before it is
// healthy (here: its configuration file is missing) is reported with what
// it said, and every later wait on it returns. The bench's children used
// to hand their exit to whoever received it first, so the health check
// took it and the kill after it waited for ever.
func TestServeProcessExitAtStart(t *testing.T) {
	exe, err := nadineBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "serve", "--config", filepath.Join(t.TempDir(), "missing.yaml"))
	cmd.Env = []string{"HOME=" + t.TempDir()}
	p, err := startProcess(cmd, &syncbuf.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	within(t, 30*time.Second, "the health check", func() {
		err = waitHealthy(context.Background(), "http://127.0.0.1:1", p)
	})
	if err == nil || !strings.Contains(err.Error(), "nadine serve exited") {
		t.Fatalf("health check: %v; want the exit reported", err)
	}
	within(t, 10*time.Second, "kill after the exit", p.kill)
	within(t, 10*time.Second, "a second kill", p.kill)
	if err := p.exitErr(); err == nil {
		t.Errorf("exit error is nil; want the failed start's status")
	}
	if !strings.Contains(p.logs.String(), "missing.yaml") {
		t.Errorf("the logs lack what serve said:\n%s", p.logs.String())
	}
}

// TestHealthyOnlyOnItsOwnPort: a monitor answering on the port is not the
// child's until the child's banner names that port (a port found free may
// be taken by another child meanwhile, whose monitor would answer).
func TestHealthyOnlyOnItsOwnPort(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"status":"ok"}`)
	}))
	defer other.Close()
	for _, tc := range []struct {
		name, banner string
		healthy      bool
	}{
		{"another port in the banner", "Monitor: http://127.0.0.1:1", false},
		{"no banner yet", "starting", false},
		{"its own port", "Monitor: " + other.URL, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := startProcess(exec.Command(sh, "-c", `echo "$0"; exec sleep 60`, tc.banner), &syncbuf.Buffer{})
			if err != nil {
				t.Fatal(err)
			}
			defer p.kill()
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			err = waitHealthy(ctx, other.URL, p)
			if tc.healthy && err != nil {
				t.Fatalf("health check: %v; want healthy", err)
			}
			if !tc.healthy && !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("health check: %v; want it still waiting at the deadline", err)
			}
		})
	}
}

// TestServeProcessStopStuck: a child that ignores the stop signal is
// sent SIGQUIT (which makes a Go program write its goroutines) after the
// grace period, and the error says so instead of the bench hanging.
func TestServeProcessStopStuck(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cmd := exec.Command(sh, "-c", `trap "" INT; echo ready; exec sleep 60`)
	logs := &syncbuf.Buffer{}
	p, err := startProcess(cmd, logs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.kill)
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(logs.String(), "ready"); {
		if time.Now().After(deadline) {
			t.Fatal("the child did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	within(t, 20*time.Second, "stop", func() { err = p.stop(syscall.SIGINT, 200*time.Millisecond) })
	if err == nil || !strings.Contains(err.Error(), "did not stop within 200ms of interrupt") {
		t.Fatalf("stop: %v; want it reported stuck", err)
	}
	if done, _ := p.exited(); !done {
		t.Error("the stuck child still runs after stop")
	}
}

// TestServeProcessStop: a child that stops on the signal is waited for,
// and its exit status is kept.
func TestServeProcessStop(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	p, err := startProcess(exec.Command(sh, "-c", `trap "exit 3" INT; echo ready; while :; do sleep 0.05; done`), &syncbuf.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.kill)
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(p.logs.String(), "ready"); {
		if time.Now().After(deadline) {
			t.Fatal("the child did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := p.stop(syscall.SIGINT, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	var ee *exec.ExitError
	if err := p.exitErr(); err == nil || !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("exit error %v; want status 3", err)
	}
}

// TestExternalTimeWithinTheTurn: calls count as the turn's wait where they
// overlap, once, and only within the turn.
func TestExternalTimeWithinTheTurn(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	for _, tt := range []struct {
		name  string
		calls [][2]int // start, latency in ms from t0
		want  time.Duration
	}{
		{"none", nil, 0},
		{"one inside", [][2]int{{10, 30}}, ms(30)},
		{"overlapping", [][2]int{{10, 30}, {20, 30}}, ms(40)},
		{"apart", [][2]int{{0, 10}, {50, 10}}, ms(20)},
		{"outliving the turn", [][2]int{{80, 60}}, ms(20)},
		{"after the turn", [][2]int{{120, 10}}, 0},
	} {
		d := nadine.TraceData{Start: t0, Duration: ms(100)}
		for _, c := range tt.calls {
			d.ModelCalls = append(d.ModelCalls, nadine.ModelCall{Start: t0.Add(ms(c[0])), Latency: ms(c[1])})
		}
		if got := externalTime(d); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
