package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/bargein"
	"github.com/nadine-robot/nadine/dialogue"
)

// runChat is a terminal REPL, or with --json one JSON object per input line.
func runChat(ctx context.Context, args []string, e env) error {
	fs, path := flags("chat", e)
	asJSON := fs.Bool("json", false, "read one utterance per line, write one JSON object per turn")
	user := fs.String("user", "", "name of the user talking")
	lang := fs.String("lang", "", "session language (en, fr, de, zh)")
	verbose := fs.Bool("v", false, "log to stderr at the configured level (default: warnings only)")
	speak := fs.Int("speak", 0, "say replies at this many words a minute (150 is a voice's pace); a line typed meanwhile interrupts Nadine")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := e.loadConfig(*path)
	if err != nil {
		return err
	}
	logCfg := cfg.Log
	if !*verbose && logCfg.Level != "error" {
		logCfg.Level = "warn"
	}
	a, err := newApp(ctx, cfg, e.getenv, newLogger(e.stderr, logCfg))
	if err != nil {
		return err
	}
	defer a.Close()
	if *lang != "" {
		l, err := nadine.ParseLanguage(*lang)
		if err != nil {
			return usageError{err.Error()}
		}
		_ = a.manager.SetLanguage(l)
	}
	if *user != "" {
		u, err := a.resolveUser(ctx, *user)
		if err != nil {
			return err
		}
		if _, err := a.manager.SetUser(ctx, u); err != nil {
			return err
		}
	}
	// Leaving the chat ends the interaction: a known person's conversation
	// is stored as memory, a stranger's is dropped.
	defer func() {
		if _, err := a.manager.EndInteraction(context.WithoutCancel(ctx), "chat"); err != nil {
			fmt.Fprintln(e.stderr, "nadine: conversation not stored:", err)
		}
	}()
	if *asJSON {
		return chatJSON(ctx, a, e.stdin, e.stdout)
	}
	if *speak < 0 {
		return usageError{"--speak: words a minute must not be negative"}
	}
	return chatREPL(ctx, a, e.stdin, e.stdout, *speak)
}

// chatTurn is one line of `nadine chat --json`: a reply, or a slash command's.
type chatTurn struct {
	Input   string                 `json:"input"`
	Reply   *nadine.Reply          `json:"reply,omitempty"`
	Command string                 `json:"command,omitempty"` // the slash command run ("user", "lang", "emotion", "bye", "trace")
	Output  string                 `json:"output,omitempty"`  // what the command printed
	Session *dialogue.SessionState `json:"session,omitempty"` // the session after the command
	Ending  *dialogue.Ending       `json:"ending,omitempty"`  // /bye: the interaction that ended
	Error   string                 `json:"error,omitempty"`
	Code    string                 `json:"code,omitempty"`
}

func chatJSON(ctx context.Context, a *app, in io.Reader, out io.Writer) error {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	var last *nadine.Reply
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		t := chatTurn{Input: line}
		quit := false
		if cmd := strings.TrimSpace(line); strings.HasPrefix(cmd, "/") {
			// The same slash commands as the interactive chat, so that
			// scripts can drive users, languages and leaves.
			var b strings.Builder
			res, q, err := a.command(ctx, cmd, last, &b)
			quit = q
			t.Command, t.Output, t.Ending = res.name, strings.TrimSpace(b.String()), res.ending
			s := a.manager.Session()
			t.Session = &s
			if err != nil {
				t.Error, t.Code = err.Error(), nadine.ErrorCode(err)
			}
		} else {
			r, err := a.manager.ProcessInput(ctx, nadine.Turn{Text: line})
			if err != nil {
				t.Error, t.Code = err.Error(), nadine.ErrorCode(err)
			} else {
				t.Reply = &r
				last = &r
			}
		}
		if err := enc.Encode(t); err != nil {
			return fmt.Errorf("chat: write: %w", err)
		}
		if quit {
			return nil
		}
		if ctx.Err() != nil {
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("chat: read: %w", err)
	}
	return nil
}

func chatREPL(ctx context.Context, a *app, in io.Reader, out io.Writer, wpm int) error {
	fmt.Fprint(out, a.banner())
	fmt.Fprintln(out, "Commands: /lang fr, /user NAME, /emotion happy, /trace, /bye, /quit")
	stop := make(chan struct{})
	defer close(stop)
	lines, readErr := readLines(in, stop)
	var sp *speaker
	if wpm > 0 {
		judge, err := bargein.New(0)
		if err != nil {
			return err
		}
		sp = &speaker{wpm: wpm, judge: judge, lines: lines, out: out, wait: time.After}
		fmt.Fprintf(out, "Nadine speaks at %d words a minute: type while she speaks to interrupt her.\n", wpm)
	}
	var last *nadine.Reply
	prompt := func() {
		s := a.manager.Session()
		who := s.User.Name
		if who == "" {
			who = "you"
		}
		fmt.Fprintf(out, "%s> ", who)
	}
	prompt()
	next := ""
	for {
		line := next
		next = ""
		if line == "" {
			l, ok := <-lines
			if !ok {
				break
			}
			line = strings.TrimSpace(l)
		}
		switch {
		case line == "":
		case strings.HasPrefix(line, "/"):
			_, quit, err := a.command(ctx, line, last, out)
			if err != nil {
				fmt.Fprintln(out, "!", err)
			}
			if quit {
				return nil
			}
		default:
			r, err := a.manager.Stream(ctx, nadine.Turn{Text: line}, nil)
			if err != nil {
				fmt.Fprintln(out, "!", err)
				break
			}
			last = &r
			if sp == nil {
				fmt.Fprintln(out, formatReply(r))
				break
			}
			var said []string
			var cut bool
			next, said, cut = sp.say(ctx, r)
			if cut {
				// The rest was not said: the history keeps what was.
				a.manager.Amend(r.Trace.TurnID(), strings.Join(said, " "), true)
			}
			next = strings.TrimSpace(next)
		}
		if ctx.Err() != nil {
			return nil
		}
		if next == "" {
			prompt()
		}
	}
	fmt.Fprintln(out)
	return readErr()
}

// readLines sends in's lines, closing the channel at its end, then gives the
// read error. Its goroutine ends at in's end, or at stop once its read returns.
func readLines(in io.Reader, stop <-chan struct{}) (<-chan string, func() error) {
	lines := make(chan string)
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(lines)
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64*1024), 16<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-stop:
				return
			}
		}
		err = sc.Err()
	}()
	return lines, func() error { <-done; return err }
}

// formatReply renders "Nadine [joy 6, wave]: Hello Alex!".
func formatReply(r nadine.Reply) string {
	tags := []string{fmt.Sprintf("%s %d", r.Emotion, r.EmotionIntensity)}
	for _, g := range r.Gestures {
		tags = append(tags, string(g))
	}
	if r.Language != nadine.English {
		tags = append(tags, string(r.Language))
	}
	if r.Fallback {
		tags = append(tags, "fallback")
	}
	return fmt.Sprintf("Nadine [%s]: %s", strings.Join(tags, ", "), r.Text)
}

// commandResult is what a slash command did.
type commandResult struct {
	name   string           // the command, normalized ("lang" for /language)
	ending *dialogue.Ending // /bye, or /user naming another person: the interaction that ended
}

// command runs a slash command, writing what it did to out; true: quit.
func (a *app) command(ctx context.Context, line string, last *nadine.Reply, out io.Writer) (commandResult, bool, error) {
	name, arg, _ := strings.Cut(strings.TrimPrefix(line, "/"), " ")
	arg = strings.TrimSpace(arg)
	res := commandResult{name: name}
	ended := func(e dialogue.Ending) {
		if e.Ended() {
			res.ending = &e
			fmt.Fprintf(out, "interaction with %s ended (%d turns)\n", displayName(e.User), e.Turns)
		}
	}
	switch name {
	case "quit", "exit", "q":
		res.name = "quit"
		return res, true, nil
	case "lang", "language":
		res.name = "lang"
		l, err := nadine.ParseLanguage(arg)
		if err != nil {
			return res, false, err
		}
		if err := a.manager.SetLanguage(l); err != nil {
			return res, false, err
		}
		fmt.Fprintf(out, "language: %s (%s)\n", l.Name(), l.Locale())
	case "user":
		if arg == "" {
			return res, false, nadine.Errorf(nadine.EINVALID, "usage: /user NAME")
		}
		u, err := a.resolveUser(ctx, arg)
		if err != nil {
			return res, false, err
		}
		e, err := a.manager.SetUser(ctx, u)
		ended(e)
		if err != nil {
			return res, false, err
		}
		fmt.Fprintf(out, "user: %s (%s)\n", u.Name, u.ID)
	case "emotion":
		a.manager.SetUserEmotion(arg)
		fmt.Fprintf(out, "user emotion: %s\n", a.manager.Session().UserEmotion)
	case "trace":
		if last == nil || last.Trace == nil {
			return res, false, nadine.Errorf(nadine.ENOTFOUND, "no turn yet")
		}
		fmt.Fprint(out, formatTrace(last.Trace))
	case "bye":
		e, err := a.manager.EndInteraction(ctx, "chat")
		ended(e)
		if err != nil {
			return res, false, err
		}
		if !e.Ended() {
			fmt.Fprintln(out, "no interaction to end")
		}
	default:
		return res, false, nadine.Errorf(nadine.EINVALID, "unknown command /%s (try /lang, /user, /emotion, /trace, /bye, /quit)", name)
	}
	return res, false, nil
}

// displayName names a user for the terminal.
func displayName(u nadine.UserRef) string {
	switch {
	case u.Name != "":
		return u.Name
	case u.ID != "" && u.ID != nadine.UnknownUser:
		return u.ID
	}
	return "a stranger"
}

// formatTrace renders a trace as an indented timeline.
func formatTrace(t *nadine.Trace) string {
	d := t.Snapshot()
	var b strings.Builder
	fmt.Fprintf(&b, "turn %s: engine %s, %v, %d model calls (critical path %d)\n", d.ID, d.Engine,
		d.Duration.Round(1e6), len(d.ModelCalls), d.CriticalPath)
	for _, s := range d.Steps {
		fmt.Fprintf(&b, "  step  %-28s +%-8v %v %s\n", s.Name, s.Start.Sub(d.Start).Round(1e6), s.Duration.Round(1e5), s.Error)
	}
	for _, c := range d.ModelCalls {
		fmt.Fprintf(&b, "  model %-28s +%-8v %v %s/%s tokens %d+%d %s\n", c.Role, c.Start.Sub(d.Start).Round(1e6),
			c.Latency.Round(1e5), c.Profile, c.Model, c.PromptTokens, c.CompletionTokens, c.Error)
	}
	for _, c := range d.ToolCalls {
		fmt.Fprintf(&b, "  tool  %-28s %v %q → %.80q %s\n", c.Tool, c.Duration.Round(1e5), c.Input, c.Output, c.Error)
	}
	for _, r := range d.Retrievals {
		fmt.Fprintf(&b, "  find  %-28s %d results %s\n", r.Kind, len(r.Results), r.Note)
	}
	for _, f := range d.Failures {
		fmt.Fprintf(&b, "  FAIL  %-28s %s: %s\n", f.Stage, f.Code, f.Error)
	}
	for _, n := range d.Notes {
		fmt.Fprintf(&b, "  note  %s\n", n)
	}
	if d.InputEnglish != "" || d.ReplyEnglish != "" {
		fmt.Fprintf(&b, "  en    input: %s\n  en    reply: %s\n", d.InputEnglish, d.ReplyEnglish)
	}
	return b.String()
}
