package redact_test

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/redact"
)

const secret = "my PIN is 4242"

// logLine logs one line with a Content, an error quoting a model's answer
// and an error string, through a handler built by mk.
func logLine(mk func(*bytes.Buffer) slog.Handler) string {
	var b bytes.Buffer
	inner := nadine.Errorf(nadine.EBADOUTPUT, "agents: answer is not the JSON asked for: %q", "Sure! "+secret)
	err := fmt.Errorf("graph: node %q: %w", "intent", inner)
	slog.New(mk(&b)).With("input", nadine.Content(secret)).Info("turn", "reply", nadine.Content("Noted, "+secret),
		"err", err, "error", "openai: it starts "+fmt.Sprintf("%q", secret), "user", nadine.PersonID("robin-1"),
		"stranger", nadine.PersonID(nadine.UnknownUser), "model_calls", 2)
	return b.String()
}

func TestContentIsHiddenByDefault(t *testing.T) {
	for name, mk := range map[string]func(*bytes.Buffer) slog.Handler{
		"text, no replacer": func(b *bytes.Buffer) slog.Handler { return slog.NewTextHandler(b, nil) },
		"json, no replacer": func(b *bytes.Buffer) slog.Handler { return slog.NewJSONHandler(b, nil) },
	} {
		line := logLine(mk)
		if !strings.Contains(line, "[14 chars]") || !strings.Contains(line, "[21 chars]") {
			t.Errorf("%s: Content is not shown as its length: %s", name, line)
		}
		if strings.Contains(line, "robin-1") || !strings.Contains(line, "[person]") || !strings.Contains(line, "unknown") {
			t.Errorf("%s: the user id is not hidden (the stranger named): %s", name, line)
		}
		if strings.Count(line, "4242") != 2 {
			// Errors are shown in full by a handler without the replacer;
			// only Content is hidden everywhere.
			t.Errorf("%s: %d occurrences of the secret, want the 2 in the errors: %s", name, strings.Count(line, "4242"), line)
		}
	}
}

func TestContentReplacer(t *testing.T) {
	for _, tt := range []struct {
		name  string
		show  bool
		json  bool
		count int
	}{
		{"text, hidden", false, false, 0},
		{"json, hidden", false, true, 0},
		{"text, shown", true, false, 4},
		{"json, shown", true, true, 4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			line := logLine(func(b *bytes.Buffer) slog.Handler {
				o := &slog.HandlerOptions{ReplaceAttr: redact.ContentReplacer(tt.show)}
				if tt.json {
					return slog.NewJSONHandler(b, o)
				}
				return slog.NewTextHandler(b, o)
			})
			if got := strings.Count(line, "4242"); got != tt.count {
				t.Errorf("%d occurrences of the secret, want %d: %s", got, tt.count, line)
			}
			for _, want := range []string{"model_calls", "agents: answer is not the JSON asked for", "intent", "unknown"} {
				if !strings.Contains(line, want) {
					t.Errorf("the line lost %q: %s", want, line)
				}
			}
			if strings.Contains(line, "robin-1") != tt.show || strings.Contains(line, "[person]") == tt.show {
				t.Errorf("the user id shown: %v, want %v: %s", strings.Contains(line, "robin-1"), tt.show, line)
			}
			if !tt.show && !strings.Contains(line, "[20 chars]") {
				t.Errorf("the quoted answer is not replaced by its length: %s", line)
			}
		})
	}
}

func TestQuoted(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`no quotes here`, `no quotes here`},
		{`unknown action "Google Serch": use one of Weather App`, `unknown action "[12 chars]": use one of Weather App`},
		{`it starts "{\"a\": \"b\\\"c\"}" then "X"`, `it starts "[13 chars]" then "[1 chars]"`},
		{`a "half-open quote`, `a "half-open quote`},
		{`graph: node "response_agent": invalid emotion "joy2" or "4242" or "Robin"`,
			`graph: node "response_agent": invalid emotion "joy2" or "[4 chars]" or "[5 chars]"`},
		{`unicode "été 🌞"`, `unicode "[5 chars]"`},
		{`two lines "a` + "\n" + `b"`, `two lines "a` + "\n" + `b"`},
	} {
		if got := redact.Quoted(tt.in); got != tt.want {
			t.Errorf("RedactText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := redact.Quoted(errors.New(`x "Y"`).Error()); got != `x "[1 chars]"` {
		t.Errorf("got %q", got)
	}
}
