package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/internal/syncbuf"

	"github.com/nadine-robot/nadine/internal/mqtttest"
)

// TestChatSpeakInterrupted: with --speak, a line typed while Nadine says
// her reply stops her (the rest of it is not printed) and is answered
// next; a backchannel typed meanwhile does not stop her.
func TestChatSpeakInterrupted(t *testing.T) {
	in, w := io.Pipe()
	var out syncbuf.Buffer
	vars := map[string]string{"HOME": t.TempDir()}
	e := env{stdin: in, stdout: &out, stderr: io.Discard, getenv: envMap(vars), environ: environList(vars)}
	done := make(chan error, 1)
	go func() { done <- run(context.Background(), []string{"chat", "--speak", "30"}, e) }()
	write := func(s string) {
		if _, err := io.WriteString(w, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	write("Tell me about MIRALab")
	mqtttest.Eventually(t, "Nadine to start speaking", func() bool { return strings.Contains(out.String(), "Nadine [") })
	write("ok")
	write("wait, what time is it?")
	mqtttest.Eventually(t, "the interruption to be answered", func() bool { return strings.Contains(out.String(), "It is") })
	write("/quit")
	w.Close()
	if err := <-done; err != nil {
		t.Fatalf("chat: %v\n%s", err, out.String())
	}
	got := out.String()
	first := got[strings.Index(got, "Nadine ["):]
	first = first[:strings.Index(first, "\n")]
	if !strings.HasSuffix(first, "— (interrupted)") || strings.Count(first, ". ") > 1 {
		t.Errorf("the first reply was not cut after its first sentence:\n%s", got)
	}
	if n := strings.Count(got, "Nadine ["); n != 2 {
		t.Errorf("%d replies, want 2 (the backchannel is no turn):\n%s", n, got)
	}
}
