package main

import (
	"strings"
	"testing"
)

// TestChatSpokenForget: `nadine chat` with no model (the offline engine)
// wires the erase path too: a named visitor says "forget me" and "oui";
// then `nadine memory users` lists nobody.
func TestChatSpokenForget(t *testing.T) {
	data := t.TempDir()
	vars := map[string]string{"HOME": t.TempDir(), "NADINE_DATA_DIR": data}
	script := strings.Join([]string{"/user Maria", "I love rowing.", "Oubliez-moi, s'il vous plaît.", "Oui, allez-y.", "/quit"}, "\n") + "\n"
	out, errOut, err := runNadine(t, vars, script, "chat", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	byInput := map[string]chatTurn{}
	for _, c := range decodeTurns(t, out) {
		byInput[c.Input] = c
	}
	if c := byInput["Oubliez-moi, s'il vous plaît."]; c.Reply == nil || !strings.HasPrefix(c.Reply.Text, "Maria, voulez-vous que j'oublie") {
		t.Fatalf("asked %+v", c.Reply)
	}
	if c := byInput["Oui, allez-y."]; c.Reply == nil || !strings.HasPrefix(c.Reply.Text, "J'ai oublié tout") || c.Reply.UserID != "unknown" {
		t.Fatalf("after oui: %+v", c.Reply)
	}
	users, _, err := runNadine(t, vars, "", "memory", "users")
	if err != nil || strings.Contains(users, "Maria") {
		t.Errorf("memory users after the spoken forget: %v\n%s", err, users)
	}
}
