package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/robot"
)

// Defaults for Options' zero values.
const (
	DefaultAddr         = "127.0.0.1:8080"
	DefaultMaxBodyBytes = 64 << 10
	DefaultHeartbeat    = 15 * time.Second
)

// Runtime is what the monitor needs of *robot.Runtime.
type Runtime interface {
	// Submit queues an operator's turn and returns its reply; emit receives
	// the turn's events as they happen.
	Submit(ctx context.Context, t nadine.Turn, emit nadine.EmitFunc) (nadine.Reply, error)
	// Session says who is in front of the robot, the language and the mood.
	Session() dialogue.SessionState
	// SetLanguage changes the session language.
	SetLanguage(ctx context.Context, l nadine.Language) error
	// EndInteraction queues the end of the current interaction, for the
	// reason given; it returns false when the runtime is shutting down.
	EndInteraction(reason string) bool
	// Recent returns the last finished turns and ends of interaction,
	// oldest first, for the monitor to show on page load.
	Recent() []robot.Update
	// Subscribe streams every update of the runtime until the returned
	// function is called or the runtime stops.
	Subscribe(buffer int) (<-chan robot.Update, func())
}

var _ Runtime = (*robot.Runtime)(nil)

// Store is what the monitor reads and erases; every nadine.Store has it.
type Store interface {
	Users(ctx context.Context) ([]nadine.UserRef, error)
	Profile(ctx context.Context, userID string) (nadine.Profile, error)
	nadine.ProfileUpdater
	Memories(ctx context.Context, userID string, types ...nadine.MemoryType) ([]nadine.Memory, error)
	DeleteMemories(ctx context.Context, userID string) error
	nadine.PersonStore
}

var _ Store = (nadine.Store)(nil)

// Forgetter is *nadine.Forgetter in `nadine serve`, the same one the CLI uses,
// so the monitor erases a person everywhere.
type Forgetter interface {
	Forget(ctx context.Context, who string) (nadine.UserRef, error)
}

var _ Forgetter = (*nadine.Forgetter)(nil)

// Check's error text is shown to authorized clients: keep secrets out of it.
type Check struct {
	Name  string
	Check func(ctx context.Context) error
}

// Info describes the running engine and models for /api/info. It must hold
// no secret: profiles show their model and host only.
type Info struct {
	Version  string      `json:"version"`
	Engine   string      `json:"engine"`            // react, graph or offline
	Offline  string      `json:"offline,omitempty"` // why the engine is offline, when it is
	Models   []ModelInfo `json:"models,omitempty"`
	Fallback []string    `json:"fallback,omitempty"` // profiles tried when the first fails
	Embedder string      `json:"embedder,omitempty"`
}

// ModelInfo is one model profile as the monitor shows it.
type ModelInfo struct {
	Profile string   `json:"profile"`
	Model   string   `json:"model"`
	Host    string   `json:"host"`
	Roles   []string `json:"roles,omitempty"`
	Ready   bool     `json:"ready"` // false when the profile has no key
}

// Robot is one robot the monitor shows: a `nadine serve` process may serve
// several (robots:), each with its own session, turns and events.
type Robot struct {
	// Name is the robot's name, its topic prefix ("lobby").
	Name    string
	Runtime Runtime
	// Engine is the engine answering its turns (react, graph or
	// offline); Offline says why it runs offline, when it does.
	Engine  string
	Offline string
}

// DefaultRobotName names the one robot of Options.Runtime.
const DefaultRobotName = "nadine"

// Options configures a Server. Store is required, and Runtime or Robots;
// the other zero values are sane defaults.
type Options struct {
	// Addr is the TCP address to listen on (DefaultAddr); port 0 picks a
	// free port. An address that is not loopback requires Token.
	Addr string
	// Token, when set, is required as "Authorization: Bearer <token>" on
	// every /api request except /api/health.
	Token string
	// AllowedHosts are Host names accepted while bound to loopback, for a
	// reverse proxy on the same machine.
	AllowedHosts []string
	// Runtime is the robot of a one-robot server (named
	// DefaultRobotName, its engine Info's); ignored when Robots is set.
	Runtime Runtime
	// Robots have unique names; the first is the one the robot-level URLs
	// without a name act on (/api/turns, /api/session, /api/events...).
	Robots []Robot
	Store  Store
	// Forgetter erases a person for DELETE /api/users/{id}; nil erases
	// from Store only.
	Forgetter Forgetter
	Info      Info
	// Checks are the readiness checks besides the store's.
	Checks []Check
	// Metrics, when set, serves GET /metrics (Prometheus) with the API's
	// access rules: the token when one is set, loopback host names.
	Metrics http.Handler
	// Stats, when set, serves the Today view's figures (GET /api/today).
	Stats StatsFunc
	// MaxBodyBytes caps a request body (DefaultMaxBodyBytes).
	MaxBodyBytes int64
	// Heartbeat is the period of keep-alive comments on event streams
	// (DefaultHeartbeat).
	Heartbeat time.Duration
	// MaxStreams caps the open event streams of GET /api/events
	// (DefaultMaxStreams); one more is refused with 503.
	MaxStreams int
	// MaxTokenFailures is per client address and minute; beyond, requests
	// get 429 and Retry-After.
	MaxTokenFailures int
	// NewID makes turn ids (default: "web-" and 16 random hex digits).
	NewID func() string
	// NewUserID makes the id of a new user named in a turn (default: the
	// name's slug, a dash and 6 random hex digits, "alex-3f9a1c").
	NewUserID func(name string) string
	Now       func() time.Time
	Logger    *slog.Logger
}

// Server is an http.Handler; Start also listens and serves.
type Server struct {
	opts     Options
	log      *slog.Logger
	mux      *http.ServeMux
	cop      *http.CrossOriginProtection
	loopback bool // bound to a loopback address: check the Host header
	hosts    map[string]bool

	quit   context.Context // done when the server closes: event streams end
	cancel context.CancelFunc

	userMu sync.Mutex // serializes creating users by name

	streams  *streamSlots
	failures *failureLimiter

	robots []Robot          // the first is the default
	byName map[string]Robot // by name

	srv       *http.Server
	url       string
	serveDone chan struct{}
	closeOnce sync.Once
	closeErr  error
}

var _ http.Handler = (*Server)(nil)

// New refuses (EINVALID) a non-loopback Addr without a token; the server it
// returns is not listening (an http.Handler for tests).
func New(opts Options) (*Server, error) {
	return newServer(context.Background(), opts)
}

func newServer(ctx context.Context, opts Options) (*Server, error) {
	if len(opts.Robots) == 0 && opts.Runtime != nil {
		opts.Robots = []Robot{{Name: DefaultRobotName, Runtime: opts.Runtime, Engine: opts.Info.Engine, Offline: opts.Info.Offline}}
	}
	if len(opts.Robots) == 0 {
		return nil, nadine.Errorf(nadine.EINVALID, "web: no runtime")
	}
	byName := make(map[string]Robot, len(opts.Robots))
	for _, r := range opts.Robots {
		switch _, dup := byName[r.Name]; {
		case r.Runtime == nil:
			return nil, nadine.Errorf(nadine.EINVALID, "web: robot %q has no runtime", r.Name)
		case r.Name == "":
			return nil, nadine.Errorf(nadine.EINVALID, "web: a robot has no name")
		case dup:
			return nil, nadine.Errorf(nadine.EINVALID, "web: two robots are named %q", r.Name)
		}
		byName[r.Name] = r
	}
	opts.Runtime = opts.Robots[0].Runtime
	if opts.Store == nil {
		return nil, nadine.Errorf(nadine.EINVALID, "web: no store")
	}
	if opts.Forgetter == nil {
		opts.Forgetter = &nadine.Forgetter{Store: opts.Store}
	}
	if opts.Addr == "" {
		opts.Addr = DefaultAddr
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = DefaultHeartbeat
	}
	if opts.MaxStreams <= 0 {
		opts.MaxStreams = DefaultMaxStreams
	}
	if opts.MaxTokenFailures <= 0 {
		opts.MaxTokenFailures = DefaultMaxTokenFailures
	}
	if opts.NewID == nil {
		opts.NewID = func() string { return "web-" + randomHex(8) }
	}
	if opts.NewUserID == nil {
		opts.NewUserID = nadine.NewUserID
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if err := CheckAddr(opts.Addr, opts.Token); err != nil {
		return nil, err
	}
	host, _, _ := net.SplitHostPort(opts.Addr)
	loopback := isLoopbackHost(host)
	s := &Server{
		opts:     opts,
		log:      opts.Logger,
		mux:      http.NewServeMux(),
		cop:      http.NewCrossOriginProtection(),
		loopback: loopback,
		hosts:    map[string]bool{},
		robots:   opts.Robots,
		byName:   byName,
		streams:  &streamSlots{max: opts.MaxStreams},
		failures: newFailureLimiter(opts.MaxTokenFailures, opts.Now),
	}
	for _, h := range opts.AllowedHosts {
		s.hosts[strings.ToLower(strings.TrimSpace(h))] = true
	}
	s.quit, s.cancel = context.WithCancel(ctx)
	s.routes()
	return s, nil
}

// CheckAddr lets the caller check the address and token before anything
// listens: a non-loopback host needs a token.
func CheckAddr(addr, token string) error {
	host, port, err := net.SplitHostPort(addr)
	if err == nil {
		_, err = net.LookupPort("tcp", port)
	}
	if err != nil {
		return nadine.Errorf(nadine.EINVALID, "web: address %q: %w", addr, err)
	}
	if !isLoopbackHost(host) && token == "" {
		return nadine.Errorf(nadine.EINVALID,
			"web: address %q is not a loopback address and no token is set: set a token, or bind to 127.0.0.1", addr)
	}
	return nil
}

// Start serves until Close; ctx's end ends the event streams, but Close still
// shuts the listener down.
func Start(ctx context.Context, opts Options) (*Server, error) {
	s, err := newServer(ctx, opts)
	if err != nil {
		return nil, err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", s.opts.Addr)
	if err != nil {
		s.cancel()
		return nil, nadine.Errorf(nadine.EUNAVAILABLE, "web: listen on %s: %w", s.opts.Addr, err)
	}
	s.url = "http://" + displayAddr(ln.Addr())
	s.srv = &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	s.serveDone = make(chan struct{})
	go func() {
		defer close(s.serveDone)
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("web: serve", "err", err)
		}
	}()
	if s.opts.Token == "" {
		s.log.Info("web monitor listening", "url", s.url, "token", false)
	} else {
		s.log.Info("web monitor listening", "url", s.url, "token", true)
	}
	return s, nil
}

// URL is empty when the server was made with New.
func (s *Server) URL() string { return s.url }

// Close lets requests in flight (a turn being answered) finish until ctx is
// done; the event streams end first.
func (s *Server) Close(ctx context.Context) error {
	s.closeOnce.Do(func() {
		s.cancel()
		if s.srv == nil {
			return
		}
		if err := s.srv.Shutdown(ctx); err != nil {
			_ = s.srv.Close()
			s.closeErr = fmt.Errorf("web: shutdown: %w", err)
		}
		<-s.serveDone
	})
	return s.closeErr
}

// displayAddr shows an unspecified address (0.0.0.0, ::) as 127.0.0.1.
func displayAddr(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}
