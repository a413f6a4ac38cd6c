package web

import (
	"context"
	"embed"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/robot"
)

//go:embed assets
var assets embed.FS

// checkTimeout bounds one readiness check.
const checkTimeout = 2 * time.Second

func (s *Server) routes() {
	static, _ := fs.Sub(assets, "assets")
	files := http.StripPrefix("/assets/", http.FileServerFS(static))
	s.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFileFS(w, r, static, "index.html")
	})
	s.mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, static, "favicon.svg")
	})
	s.mux.Handle("GET /assets/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	}))

	s.mux.HandleFunc("GET /api/health", s.handleHealth)
	s.mux.HandleFunc("GET /api/ready", s.handleReady)
	s.mux.HandleFunc("GET /api/info", s.handleInfo)
	s.mux.HandleFunc("GET /api/robots", s.handleRobots)
	s.mux.HandleFunc("GET /api/today", s.handleToday)
	if s.opts.Metrics != nil {
		s.mux.Handle("GET /metrics", s.opts.Metrics)
	}
	// A robot's own URLs: /api/X acts on the default robot (the first),
	// /api/robots/{robot}/X on the one named.
	for _, route := range []struct {
		method, path string
		handle       func(http.ResponseWriter, *http.Request, Robot)
	}{
		{"POST", "/turns", s.handleTurn},
		{"GET", "/turns", s.handleRecent},
		{"GET", "/session", s.handleSession},
		{"POST", "/session/end", s.handleSessionEnd},
		{"GET", "/language", s.handleGetLanguage},
		{"PUT", "/language", s.handleSetLanguage},
		{"GET", "/events", s.handleEvents},
		{"GET", "", s.handleRobot},
	} {
		handle := route.handle
		byName := func(w http.ResponseWriter, r *http.Request) {
			if rb, ok := s.robotNamed(w, r.PathValue("robot")); ok {
				handle(w, r, rb)
			}
		}
		s.mux.HandleFunc(route.method+" /api/robots/{robot}"+route.path, byName)
		if route.path != "" {
			s.mux.HandleFunc(route.method+" /api"+route.path, func(w http.ResponseWriter, r *http.Request) { handle(w, r, s.robots[0]) })
		}
	}
	s.mux.HandleFunc("GET /api/users", s.handleUsers)
	s.mux.HandleFunc("GET /api/users/{id}", s.handleUser)
	s.mux.HandleFunc("DELETE /api/users/{id}/memories", s.handleDeleteMemories)
	s.mux.HandleFunc("DELETE /api/users/{id}", s.handleForget)
}

// handleHealth needs no token, so it tells nothing but that the process serves.
func (s *Server) handleHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, map[string]string{"status": "ok"})
}

// ReadyResponse is the body of GET /api/ready.
type ReadyResponse struct {
	Ready  bool              `json:"ready"`
	Checks map[string]string `json:"checks"` // name → "ok" or what is wrong
}

func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	out := ReadyResponse{Ready: true, Checks: map[string]string{}}
	run := func(name string, check func(context.Context) error) {
		ctx, cancel := context.WithTimeout(r.Context(), checkTimeout)
		defer cancel()
		if err := check(ctx); err != nil {
			out.Ready = false
			out.Checks[name] = err.Error()
			return
		}
		out.Checks[name] = "ok"
	}
	run("store", func(ctx context.Context) error {
		if _, err := s.opts.Store.Users(ctx); err != nil {
			s.log.Warn("web: readiness: store unreachable", "err", err)
			return nadine.Errorf(nadine.EUNAVAILABLE, "store unreachable")
		}
		return nil
	})
	for _, c := range s.opts.Checks {
		if c.Check != nil {
			run(c.Name, c.Check)
		}
	}
	status := http.StatusOK
	if !out.Ready {
		status = http.StatusServiceUnavailable
	}
	writeJSONBody(w, status, out)
}

// InfoResponse is the body of GET /api/info.
type InfoResponse struct {
	Info
	Languages     []LanguageInfo `json:"languages"`
	TokenRequired bool           `json:"token_required"`
}

// LanguageInfo describes one supported language.
type LanguageInfo struct {
	Code   nadine.Language `json:"code"`
	Name   string          `json:"name"`
	Locale string          `json:"locale"`
}

func languageInfo(l nadine.Language) LanguageInfo {
	return LanguageInfo{Code: l, Name: l.Name(), Locale: l.Locale()}
}

func languages() []LanguageInfo {
	var out []LanguageInfo
	for _, l := range nadine.Languages() {
		out = append(out, languageInfo(l))
	}
	return out
}

func (s *Server) handleInfo(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, InfoResponse{Info: s.opts.Info, Languages: languages(), TokenRequired: s.opts.Token != ""})
}

// TurnRequest is the body of POST /api/turns.
type TurnRequest struct {
	Text string `json:"text"`
	// UserName names the speaker: a known user (matched case-insensitively)
	// or a new one, created.
	UserName string `json:"user_name,omitempty"`
	// UserID names the speaker by id; it wins over UserName.
	UserID string `json:"user_id,omitempty"`
	// UserEmotion is the speaker's facial emotion ("happy", "neutral").
	UserEmotion string `json:"user_emotion,omitempty"`
	// Language sets the session language for this turn and after: a code,
	// a locale or a name ("fr", "fr-CH", "French").
	Language string `json:"language,omitempty"`
	// TurnID names the turn in its trace and its live updates (letters,
	// digits, "-" and "_", at most 64); the server makes one when empty.
	TurnID string `json:"turn_id,omitempty"`
}

// TurnResponse is the answer to POST /api/turns, and the last event of its
// stream. It has the fields of a robot.Update of kind "turn".
type TurnResponse struct {
	TurnID string       `json:"turn_id"`
	Input  string       `json:"input"`
	Reply  nadine.Reply `json:"reply"`
}

func (s *Server) handleTurn(w http.ResponseWriter, r *http.Request, rb Robot) {
	var req TurnRequest
	if err := s.decodeJSON(w, r, &req, false); err != nil {
		s.writeError(w, err)
		return
	}
	turn, err := s.turn(r.Context(), req)
	if err != nil {
		s.writeError(w, err)
		return
	}
	if wantsStream(r) {
		s.streamTurn(w, r, rb.Runtime, turn)
		return
	}
	reply, err := rb.Runtime.Submit(r.Context(), turn, nil)
	if err != nil {
		s.writeError(w, err)
		return
	}
	writeJSON(w, TurnResponse{TurnID: turn.ID, Input: turn.Text, Reply: reply})
}

// turn validates a turn request and resolves its user.
func (s *Server) turn(ctx context.Context, req TurnRequest) (nadine.Turn, error) {
	if strings.TrimSpace(req.Text) == "" {
		return nadine.Turn{}, invalid("text is empty: say something")
	}
	if _, _, err := dialogue.Normalize(req.Text, 0); err != nil {
		return nadine.Turn{}, err
	}
	t := nadine.Turn{ID: s.opts.NewID(), Text: req.Text, Time: s.opts.Now()}
	if req.TurnID != "" {
		if !validTurnID(req.TurnID) {
			return nadine.Turn{}, invalid("turn_id %s: use 1 to 64 letters, digits, \"-\" or \"_\"", quote(req.TurnID))
		}
		t.ID = req.TurnID
	}
	if req.Language != "" {
		l, err := nadine.ParseLanguage(req.Language)
		if err != nil {
			return nadine.Turn{}, invalid("language: %v", err)
		}
		t.Language = l
	}
	emo, err := checkEmotion(req.UserEmotion)
	if err != nil {
		return nadine.Turn{}, err
	}
	t.UserEmotion = emo
	u, ok, err := s.resolveUser(ctx, req.UserID, req.UserName)
	if err != nil {
		return nadine.Turn{}, err
	}
	if ok {
		t.UserID, t.UserName = u.ID, u.Name
	}
	return t, nil
}

func validTurnID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// wantsStream reports whether the client asked for the reply as a stream:
// ?stream=1 (or true), or Accept: text/event-stream.
func wantsStream(r *http.Request) bool {
	switch strings.ToLower(r.URL.Query().Get("stream")) {
	case "1", "true", "yes":
		return true
	}
	return strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

// streamTurn sends "turn", one "event" per nadine.Event as it happens, then
// "reply" or "error", so the monitor shows a turn as it runs.
func (s *Server) streamTurn(w http.ResponseWriter, r *http.Request, rt Runtime, turn nadine.Turn) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	sse := startSSE(w)
	// The turn's id goes out before the turn is queued, so that a client
	// knows it before any live update of the turn.
	if sse.send("turn", map[string]string{"turn_id": turn.ID, "input": turn.Text}) != nil {
		return
	}
	q := newEventQueue()
	type result struct {
		reply nadine.Reply
		err   error
	}
	done := make(chan result, 1)
	// The handler's goroutine: Submit returns once ctx ends (the turn
	// itself goes on in the runtime), and the handler waits for it.
	go func() {
		reply, err := rt.Submit(ctx, turn, q.push)
		done <- result{reply, err}
	}()
	waited := false
	defer func() {
		if !waited {
			cancel()
			<-done
		}
	}()
	flush := func() bool {
		for _, e := range q.drain() {
			if sse.send("event", e) != nil {
				return false
			}
		}
		return true
	}
	for {
		select {
		case <-q.notify:
			if !flush() {
				return
			}
		case res := <-done:
			waited = true
			if !flush() {
				return
			}
			if res.err != nil {
				_, body := s.errorResponse(res.err)
				_ = sse.send("error", body)
				return
			}
			_ = sse.send("reply", TurnResponse{TurnID: turn.ID, Input: turn.Text, Reply: res.reply})
			return
		case <-ctx.Done():
			return
		}
	}
}

// RecentResponse holds the same updates the event stream sends, oldest first,
// so the monitor shows them on page load.
type RecentResponse struct {
	Updates []robot.Update `json:"updates"`
}

func (s *Server) handleRecent(w http.ResponseWriter, _ *http.Request, rb Robot) {
	u := rb.Runtime.Recent()
	if u == nil {
		u = []robot.Update{}
	}
	writeJSON(w, RecentResponse{Updates: u})
}

func (s *Server) handleSession(w http.ResponseWriter, _ *http.Request, rb Robot) {
	writeJSON(w, rb.Runtime.Session())
}

func (s *Server) handleSessionEnd(w http.ResponseWriter, r *http.Request, rb Robot) {
	var body struct{}
	if err := s.decodeJSON(w, r, &body, true); err != nil {
		s.writeError(w, err)
		return
	}
	if !rb.Runtime.EndInteraction("api") {
		s.writeError(w, nadine.Errorf(nadine.EUNAVAILABLE, "web: shutting down"))
		return
	}
	writeJSONBody(w, http.StatusAccepted, map[string]string{"status": "queued"})
}

// LanguageResponse is the body of GET and PUT /api/language.
type LanguageResponse struct {
	LanguageInfo
	Languages []LanguageInfo `json:"languages"`
}

func (s *Server) handleGetLanguage(w http.ResponseWriter, _ *http.Request, rb Robot) {
	writeJSON(w, LanguageResponse{LanguageInfo: languageInfo(rb.Runtime.Session().Language), Languages: languages()})
}

func (s *Server) handleSetLanguage(w http.ResponseWriter, r *http.Request, rb Robot) {
	var req struct {
		Language string `json:"language"`
	}
	if err := s.decodeJSON(w, r, &req, false); err != nil {
		s.writeError(w, err)
		return
	}
	if strings.TrimSpace(req.Language) == "" {
		s.writeError(w, invalid("language is empty: send {\"language\": \"fr\"}"))
		return
	}
	l, err := nadine.ParseLanguage(req.Language)
	if err != nil {
		s.writeError(w, invalid("language: %v", err))
		return
	}
	if err := rb.Runtime.SetLanguage(r.Context(), l); err != nil {
		s.writeError(w, err)
		return
	}
	s.log.Info("web: session language set", "robot", rb.Name, "language", l)
	writeJSON(w, LanguageResponse{LanguageInfo: languageInfo(l), Languages: languages()})
}

// handleUsers lists every person the store knows, those known only from
// their data (plain names used as ids) included.
func (s *Server) handleUsers(w http.ResponseWriter, r *http.Request) {
	users, err := nadine.People(r.Context(), s.opts.Store)
	if err != nil {
		s.writeError(w, err)
		return
	}
	if users == nil {
		users = []nadine.UserRef{}
	}
	writeJSON(w, users)
}

// UserResponse is the body of GET /api/users/{id}.
type UserResponse struct {
	User     nadine.UserRef  `json:"user"`
	Profile  *nadine.Profile `json:"profile"` // null when none was stored
	Memories []nadine.Memory `json:"memories"`
}

// pathUser resolves {id} as the CLI does (nadine.ResolvePerson); on false it has
// written the error.
func (s *Server) pathUser(w http.ResponseWriter, r *http.Request) (nadine.UserRef, bool) {
	id := r.PathValue("id")
	if err := checkID(id); err != nil {
		s.writeError(w, err)
		return nadine.UserRef{}, false
	}
	u, err := nadine.ResolvePerson(r.Context(), s.opts.Store, id)
	if err != nil {
		s.writeError(w, err)
		return nadine.UserRef{}, false
	}
	return u, true
}

func (s *Server) handleUser(w http.ResponseWriter, r *http.Request) {
	u, ok := s.pathUser(w, r)
	if !ok {
		return
	}
	out := UserResponse{User: u, Memories: []nadine.Memory{}}
	p, err := s.opts.Store.Profile(r.Context(), u.ID)
	switch {
	case err == nil:
		out.Profile = &p
		if p.UserName != "" {
			out.User.Name = p.UserName
		}
	case nadine.ErrorCode(err) != nadine.ENOTFOUND:
		s.writeError(w, err)
		return
	}
	mems, err := s.opts.Store.Memories(r.Context(), u.ID)
	if err != nil {
		s.writeError(w, err)
		return
	}
	if mems != nil {
		out.Memories = mems
	}
	writeJSON(w, out)
}

// DeleteResponse says what a DELETE erased.
type DeleteResponse struct {
	UserID  string `json:"user_id"`
	Deleted string `json:"deleted"` // "memories" or "user"
}

func (s *Server) handleDeleteMemories(w http.ResponseWriter, r *http.Request) {
	u, ok := s.pathUser(w, r)
	if !ok {
		return
	}
	if err := s.opts.Store.DeleteMemories(r.Context(), u.ID); err != nil {
		s.writeError(w, err)
		return
	}
	s.log.Info("web: memories deleted", "user", nadine.PersonID(u.ID))
	writeJSON(w, DeleteResponse{UserID: u.ID, Deleted: "memories"})
}

// handleForget goes through the Forgetter, the erase path the CLI uses too.
func (s *Server) handleForget(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := checkID(id); err != nil {
		s.writeError(w, err)
		return
	}
	u, err := s.opts.Forgetter.Forget(r.Context(), id)
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.log.Info("web: user forgotten") // who is not logged: erased means unrecoverable
	writeJSON(w, DeleteResponse{UserID: u.ID, Deleted: "user"})
}

// handleEvents sends the current session first; comments keep the connection
// alive. Beyond MaxStreams open streams, one more gets 503.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request, rb Robot) {
	if !s.streams.take() {
		retryAfter(w, 5*time.Second)
		s.log.Warn("web: event stream refused: too many open", "max", s.opts.MaxStreams, "remote", r.RemoteAddr)
		s.writeError(w, nadine.Errorf(nadine.EUNAVAILABLE, "too many event streams are open (at most %d): close one, or try again later", s.opts.MaxStreams))
		return
	}
	defer s.streams.release()
	updates, unsubscribe := rb.Runtime.Subscribe(256)
	defer unsubscribe()
	sse := startSSE(w)
	session := rb.Runtime.Session()
	if sse.send(string(robot.UpdateSession), robot.Update{Kind: robot.UpdateSession, Session: &session}) != nil {
		return
	}
	tick := time.NewTicker(s.opts.Heartbeat)
	defer tick.Stop()
	for {
		select {
		case u, ok := <-updates:
			if !ok {
				return
			}
			if sse.send(string(u.Kind), u) != nil {
				return
			}
		case <-tick.C:
			if sse.comment("keep-alive") != nil {
				return
			}
		case <-r.Context().Done():
			return
		case <-s.quit.Done():
			return
		}
	}
}
