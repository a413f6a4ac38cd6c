package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestChatJSONCommands: `chat --json` takes the interactive chat's slash
// commands, so that a script drives users, languages and leaves; each
// command answers one JSON line with the session after it.
func TestChatJSONCommands(t *testing.T) {
	script := strings.Join([]string{
		"/user Maria", "Hello", "/emotion Happy", "/lang fr", "Bonjour",
		"/bye", "Hello, do you remember me?", "/trace", "/dance", "/quit", "never read",
	}, "\n") + "\n"
	out, _, err := runNadine(t, nil, script, "chat", "--json")
	if err != nil {
		t.Fatal(err)
	}
	turns := decodeTurns(t, out)
	if len(turns) != 10 {
		t.Fatalf("%d JSON lines, want 10 (nothing after /quit):\n%s", len(turns), out)
	}
	byInput := map[string]chatTurn{}
	for _, c := range turns {
		byInput[c.Input] = c
	}
	if c := byInput["/user Maria"]; c.Command != "user" || c.Session == nil || c.Session.User.Name != "Maria" || c.Error != "" {
		t.Errorf("/user: %+v", c)
	}
	if c := byInput["Hello"]; c.Reply == nil || !strings.Contains(c.Reply.Text, "Maria") {
		t.Errorf("Maria's greeting: %+v", c.Reply)
	}
	if c := byInput["/emotion Happy"]; c.Session == nil || c.Session.UserEmotion != "happy" {
		t.Errorf("/emotion: %+v", c)
	}
	if c := byInput["/lang fr"]; c.Command != "lang" || c.Session == nil || c.Session.Language != nadine.French {
		t.Errorf("/lang: %+v", c)
	}
	c := byInput["/bye"]
	if c.Command != "bye" || c.Ending == nil || c.Ending.User.Name != "Maria" || c.Ending.Turns != 2 ||
		c.Session == nil || c.Session.User.ID != nadine.UnknownUser || c.Session.Language != nadine.English {
		t.Errorf("/bye: %+v, ending %+v, session %+v", c, c.Ending, c.Session)
	}
	if c := byInput["Hello, do you remember me?"]; c.Reply == nil || strings.Contains(c.Reply.Text, "Maria") {
		t.Errorf("the next visitor was taken for Maria: %+v", c.Reply)
	}
	if c := byInput["/trace"]; c.Command != "trace" || !strings.Contains(c.Output, "engine offline") {
		t.Errorf("/trace: %+v", c)
	}
	if c := byInput["/dance"]; c.Code != nadine.EINVALID || !strings.Contains(c.Error, "unknown command /dance") {
		t.Errorf("/dance: %+v", c)
	}
}

// TestStrangerLeavesNoTraceOnDisk: a secret said by a stranger is on no
// file of the data directory, during the chat and after it. The secret is
// a word no number, time or hash in the files can spell by chance: the
// mood's floats and the timestamps are digits, and "4242" once was one.
func TestStrangerLeavesNoTraceOnDisk(t *testing.T) {
	home := t.TempDir()
	out, _, err := runNadine(t, map[string]string{"HOME": home}, "My secret password is zanzibarquokka\nDo you remember my password?\n/bye\nIs zanzibarquokka a good password?\n", "chat", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(decodeTurns(t, out)); n != 4 {
		t.Fatalf("%d turns:\n%s", n, out)
	}
	err = filepath.WalkDir(filepath.Join(home, ".local", "share", "nadine"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := bytes.Count(bytes.ToLower(b), []byte("zanzibarquokka")); n > 0 {
			t.Errorf("%s holds the stranger's secret %d times", path, n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
