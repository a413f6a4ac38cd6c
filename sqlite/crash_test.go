//go:build unix

package sqlite_test

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/sqlite"
)

// crashEnv names the database the crash child writes to.
const crashEnv = "NADINE_SQLITE_CRASH_CHILD_DB"

// TestCrashChild is the child process of TestCrashKeepsAcknowledgedMessages:
// it appends messages one by one, stores the window chunks due (one per 20
// messages) in order, and prints "ack <position>" after each AppendMessage returned. It runs
// until it is killed (or for 30 seconds at most).
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("only runs as the child of TestCrashKeepsAcknowledgedMessages")
	}
	ctx := context.Background()
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		os.Exit(2)
	}
	c, err := s.Conversation(ctx, "crash", "c1")
	if err != nil && nadine.ErrorCode(err) != nadine.ENOTFOUND {
		fmt.Fprintln(os.Stderr, "conversation:", err)
		os.Exit(2)
	}
	next := c.Count
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		// The chunks due are stored in order from ChunksStored, as the
		// dialogue's history does: a kill between a message and its chunk
		// leaves the chunk for the next run.
		for k := c.ChunksStored; k < c.Count/20; k++ {
			err := s.StoreChunk(ctx, "crash", "c1", k, nadine.Memory{Type: nadine.MemoryConversation,
				Text: fmt.Sprintf("chunk %d", k), Embedder: "e1", Embedding: make([]float32, 64)})
			if err != nil {
				fmt.Fprintln(os.Stderr, "store chunk:", err)
				os.Exit(2)
			}
		}
		c, err = s.AppendMessage(ctx, "crash", "c1", nadine.Message{Role: nadine.RoleUser, Content: fmt.Sprintf("message %d", next), Time: int64(next) + 1})
		if err != nil {
			fmt.Fprintln(os.Stderr, "append:", err)
			os.Exit(2)
		}
		if c.Count != next+1 {
			fmt.Fprintf(os.Stderr, "append: count %d, want %d\n", c.Count, next+1)
			os.Exit(2)
		}
		if _, err := os.Stdout.WriteString("ack " + strconv.Itoa(next) + "\n"); err != nil {
			os.Exit(2)
		}
		next++
	}
	s.Close()
	os.Exit(0)
}

// TestCrashKeepsAcknowledgedMessages kills a writing child process with
// SIGKILL in the middle of its stream, several times, and checks that every
// acknowledged message survived and that the database opens cleanly.
func TestCrashKeepsAcknowledgedMessages(t *testing.T) {
	t.Parallel() // its own stores in its own directories
	if os.Getenv(crashEnv) != "" {
		t.Skip("in the child")
	}
	path := filepath.Join(t.TempDir(), "nadine.db")
	maxAck := -1
	for round, acks := range []int{150, 220, 300} {
		got := runCrashChild(t, path, acks)
		if got <= maxAck {
			t.Fatalf("round %d: last ack %d, want beyond %d", round, got, maxAck)
		}
		maxAck = got

		ctx := t.Context()
		s, err := sqlite.Open(ctx, path, sqlite.Options{})
		if err != nil {
			t.Fatalf("round %d: reopen after SIGKILL: %v", round, err)
		}
		c, err := s.Conversation(ctx, "crash", "c1")
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if c.Count < maxAck+1 {
			t.Errorf("round %d: conversation has %d messages, but %d were acknowledged", round, c.Count, maxAck+1)
		}
		msgs, err := s.RecentMessages(ctx, "crash", "c1", 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(msgs) != c.Count {
			t.Errorf("round %d: %d messages stored, conversation count %d", round, len(msgs), c.Count)
		}
		for i, m := range msgs {
			if want := fmt.Sprintf("message %d", i); m.Content != want || m.Time != int64(i)+1 {
				t.Fatalf("round %d: message %d = %+v, want %q", round, i, m, want)
			}
		}
		ms, err := s.Memories(ctx, "crash")
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != c.ChunksStored || c.ChunksStored < c.Count/20-1 {
			t.Errorf("round %d: %d chunk memories, ChunksStored %d, %d messages", round, len(ms), c.ChunksStored, c.Count)
		}
		// The vector index committed with the chunks: it holds exactly them.
		sqlite.CheckIndex(t, s)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		integrityCheck(t, path)
		t.Logf("round %d: killed after %d acks, %d messages stored, %d chunks", round, maxAck+1, c.Count, c.ChunksStored)
	}
}

// runCrashChild starts the child on path, kills it with SIGKILL after n
// acks, and returns the last position it acknowledged.
func runCrashChild(t *testing.T, path string, n int) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1", "-test.timeout=2m")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	last, seen, killed := -1, 0, false
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		pos, ok := strings.CutPrefix(sc.Text(), "ack ")
		if !ok {
			continue
		}
		p, err := strconv.Atoi(pos)
		if err != nil {
			t.Fatalf("child printed %q", sc.Text())
		}
		last = p
		seen++
		if seen == n && !killed {
			// Keep reading after the kill: acks already written count too.
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			killed = true
		}
	}
	err = cmd.Wait()
	if !killed {
		t.Fatalf("child exited after %d acks before it was killed: %v\n%s", seen, err, stderr.String())
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child ended with %v, want killed by SIGKILL\n%s", err, stderr.String())
	}
	return last
}

func integrityCheck(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var got string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&got); err != nil || got != "ok" {
		t.Errorf("integrity_check = %q, %v; want ok", got, err)
	}
}
