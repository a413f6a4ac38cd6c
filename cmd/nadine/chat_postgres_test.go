package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	neturl "net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nadine-robot/nadine/internal/tcpproxy"
)

// TestChatOnPostgres has a conversation with the store on PostgreSQL
// (store.url from the environment), then finds the person and the memory
// with the memory command: a second process on the same database.
func TestChatOnPostgres(t *testing.T) {
	url := testPostgresURL(t)
	schema := fmt.Sprintf("nadine_cmd_test_%d", os.Getpid())
	dropSchemaAtEnd(t, url, schema)
	vars := map[string]string{"HOME": t.TempDir(), "NADINE_STORE_URL": url, "NADINE_STORE_SCHEMA": schema}
	must := func(stdin string, args ...string) string {
		t.Helper()
		out, errOut, err := runNadine(t, vars, stdin, args...)
		if err != nil {
			t.Fatalf("nadine %v: %v\n%s", args, err, errOut)
		}
		return out
	}
	must("Hello, my name is Morgan\nI love sailing\n/bye\n/quit\n", "chat")
	// Another data directory: only the database is shared.
	vars["HOME"] = t.TempDir()
	if out := must("", "memory", "users"); !strings.Contains(out, "Morgan") {
		t.Fatalf("memory users on the shared database:\n%s", out)
	}
	if out := must("", "memory", "show", "morgan"); !strings.Contains(out, "Morgan: I love sailing") {
		t.Errorf("memory show on the shared database:\n%s", out)
	}
}

// TestChatWhenPostgresGoesAway talks to Nadine while the database goes away
// and comes back: every turn still gets a spoken reply, and what is said
// once the database is back is stored.
func TestChatWhenPostgresGoesAway(t *testing.T) {
	base := testPostgresURL(t)
	u, err := neturl.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	p := tcpproxy.New(t, u.Host)
	u.Host = p.Addr()
	schema := fmt.Sprintf("nadine_cmd_away_%d", os.Getpid())
	dropSchemaAtEnd(t, base, schema)

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	vars := map[string]string{"HOME": t.TempDir(), "NADINE_STORE_URL": u.String(), "NADINE_STORE_SCHEMA": schema}
	done := make(chan error, 1)
	go func() {
		done <- run(context.Background(), []string{"chat", "--json"}, env{stdin: inR, stdout: outW, stderr: io.Discard, getenv: envMap(vars)})
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	lines.Buffer(make([]byte, 64*1024), 16<<20)
	say := func(text string) chatTurn {
		t.Helper()
		if _, err := io.WriteString(inW, text+"\n"); err != nil {
			t.Fatal(err)
		}
		if !lines.Scan() {
			t.Fatalf("no answer to %q: %v", text, lines.Err())
		}
		var c chatTurn
		if err := json.Unmarshal(lines.Bytes(), &c); err != nil {
			t.Fatalf("answer to %q: %v", text, err)
		}
		if c.Error != "" || c.Reply == nil || strings.TrimSpace(c.Reply.Text) == "" {
			t.Fatalf("answer to %q = %+v, want a spoken reply", text, c)
		}
		return c
	}
	say("Hello, my name is Robin")
	p.Cut()
	say("What time is it?")
	say("Tell me a joke")
	p.Restore()
	stored := 0
	for i := 0; i < 5 && stored == 0; i++ { // the pool may first hand out a connection it has not yet found dead
		say("I love sailing")
		stored = countMessages(t, base, schema, "I love sailing")
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if stored == 0 {
		t.Error("after the database came back, nothing said was stored")
	}
}

// countMessages counts the stored messages of schema whose content is text.
func countMessages(t *testing.T, url, schema, text string) int {
	t.Helper()
	c, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(t.Context())
	var n int
	if err := c.QueryRow(t.Context(), `SELECT count(*) FROM `+schema+`.messages WHERE content = $1`, text).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// testPostgresURL returns the stock PostgreSQL server .ci/run starts, skips
// the test without one, and fails it instead under CI.
func testPostgresURL(t *testing.T) string {
	t.Helper()
	url := os.Getenv("NADINE_TEST_POSTGRES_URL")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("NADINE_TEST_POSTGRES_URL is not set: CI must run the PostgreSQL tests")
		}
		t.Skip("NADINE_TEST_POSTGRES_URL is not set: no PostgreSQL server to test against (see .ci/run)")
	}
	return url
}

// dropSchemaAtEnd drops a schema of the server at url when the test ends.
func dropSchemaAtEnd(t *testing.T, url, schema string) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
}
