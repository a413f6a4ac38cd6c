// Package metrics exposes Nadine's metrics in the Prometheus text format:
// turns and model calls counted from each finished turn's record and trace,
// and gauges read at scrape time from the runtime.
// No conversation text and no user id is ever a label: label values come from
// the configuration or closed sets. See docs/architecture.md#metrics.
package metrics

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/turnstats"
)

// SpeechBuckets are the histogram buckets of turn times, in seconds:
// suited to speech, from 0.1 to 10 s (turnstats.FirstSpeechBounds).
var SpeechBuckets = turnstats.FirstSpeechBounds

// ModelBuckets are the buckets of model call times, in seconds.
var ModelBuckets = []float64{0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 30}

// InteractionBuckets are the buckets of interaction lengths, in seconds.
var InteractionBuckets = turnstats.InteractionBounds

// Robot is what the gauges of one robot read at scrape time; nil
// functions are left out.
type Robot struct {
	Name string
	// Engine is the robot's configured engine, the label of the turns no
	// engine answered (expired, dropped, failed).
	Engine string
	// Waiting is the turn queue's depth (robot.Runtime.Waiting).
	Waiting func() int
	// Inbox counts the inbox's transcripts by state (sqlite.Inboxes.Counts).
	Inbox func(ctx context.Context) (map[nadine.InboxState]int, error)
	// Connected and Reconnects are the MQTT connection's state.
	Connected  func() bool
	Reconnects func() uint64
}

// Options configures Metrics.
type Options struct {
	Robots []Robot
	// Breakers reports, by profile, whether its circuit is open
	// (failover.Pool.Status).
	Breakers func() map[string]bool
	// Languages are the label values of nadine_languages_total; any other
	// language counts as "other" (nadine.Languages()).
	Languages []nadine.Language
	// Lost reports, by sink ("stats", "otlp"), how many turn records or
	// spans could not be kept or sent.
	Lost   func() map[string]uint64
	Logger *slog.Logger
}

// Metrics holds Nadine's collectors on a registry of its own (with the Go
// runtime's and the process's).
type Metrics struct {
	reg       *prometheus.Registry
	log       *slog.Logger
	engines   map[string]string // robot → configured engine
	languages map[nadine.Language]bool

	turns        *prometheus.CounterVec
	firstSpeech  *prometheus.HistogramVec
	turnDuration *prometheus.HistogramVec
	criticalPath *prometheus.HistogramVec
	calls        *prometheus.CounterVec
	callSeconds  *prometheus.HistogramVec
	firstToken   *prometheus.HistogramVec
	tokens       *prometheus.CounterVec
	fillers      *prometheus.CounterVec
	interrupts   *prometheus.CounterVec
	sessions     *prometheus.CounterVec
	interaction  *prometheus.HistogramVec
	languageCtr  *prometheus.CounterVec
	storeErrors  *prometheus.CounterVec
}

// New registers the collectors.
func New(opts Options) *Metrics {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if len(opts.Languages) == 0 {
		opts.Languages = nadine.Languages()
	}
	m := &Metrics{reg: prometheus.NewRegistry(), log: opts.Logger, engines: map[string]string{}, languages: map[nadine.Language]bool{}}
	for _, r := range opts.Robots {
		m.engines[r.Name] = r.Engine
	}
	for _, l := range opts.Languages {
		m.languages[l] = true
	}
	robot := []string{"robot"}
	m.turns = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "nadine_turns_total",
		Help: "Heard transcripts and operator turns, by the engine that answered (the robot's engine when none did) and outcome (answered, fallback, expired, dropped, interrupted, failed)."},
		[]string{"robot", "engine", "outcome"})
	m.firstSpeech = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "nadine_turn_first_speech_seconds",
		Help: "Time from the transcript to the turn's first spoken sentence (answered turns).", Buckets: SpeechBuckets}, []string{"robot", "engine"})
	m.turnDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "nadine_turn_duration_seconds",
		Help: "Time from the transcript to the end of the reply (answered turns).", Buckets: SpeechBuckets}, []string{"robot", "engine"})
	m.criticalPath = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "nadine_turn_critical_path_calls",
		Help: "Model calls an answered turn waited on in sequence.", Buckets: []float64{0, 1, 2, 3, 4, 6, 8}}, []string{"robot", "engine"})
	m.calls = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "nadine_model_calls_total",
		Help: "Model calls, by role, profile and outcome (ok, canceled, or the error code: unavailable, rate_limited, bad_output, ...)."},
		[]string{"role", "profile", "outcome"})
	m.callSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "nadine_model_call_seconds",
		Help: "Duration of whole model calls, retries included.", Buckets: ModelBuckets}, []string{"role", "profile"})
	m.firstToken = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "nadine_model_first_token_seconds",
		Help: "Time to the first token of streamed model calls.", Buckets: ModelBuckets}, []string{"role", "profile"})
	m.tokens = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "nadine_model_tokens_total",
		Help: "Tokens of model calls, by type: input (prompt) or output (completion)."}, []string{"role", "profile", "type"})
	m.fillers = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "nadine_filler_total",
		Help: "Filler lines said while a turn waited."}, robot)
	m.interrupts = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "nadine_interruptions_total",
		Help: "Times a person talked over Nadine, by what stopped her (interrupted: words; speech: voice alone) or resumed (a false interruption)."},
		[]string{"robot", "reason"})
	m.sessions = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "nadine_sessions_total",
		Help: "Interactions ended, by reason (left, idle, api, another_person, forgotten, ...)."}, []string{"robot", "reason"})
	m.interaction = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "nadine_session_duration_seconds",
		Help: "Length of the interactions that ended.", Buckets: InteractionBuckets}, robot)
	m.languageCtr = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "nadine_languages_total",
		Help: "Answered turns by reply language."}, []string{"robot", "language"})
	m.storeErrors = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "nadine_store_errors_total",
		Help: "Failed operations of the memory store, the inbox and the stats file, by store."}, []string{"store"})
	m.reg.MustRegister(m.turns, m.firstSpeech, m.turnDuration, m.criticalPath, m.calls, m.callSeconds, m.firstToken, m.tokens,
		m.fillers, m.interrupts, m.sessions, m.interaction, m.languageCtr, m.storeErrors,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		&runtimeCollector{robots: opts.Robots, breakers: opts.Breakers, lost: opts.Lost, log: opts.Logger})
	// Every outcome of every robot exists from the start at 0, so that
	// rate() and alerts see the first one.
	for _, r := range opts.Robots {
		for _, o := range turnstats.Outcomes() {
			m.turns.WithLabelValues(r.Name, r.Engine, string(o))
		}
		m.fillers.WithLabelValues(r.Name)
		for _, reason := range InterruptReasons() {
			m.interrupts.WithLabelValues(r.Name, reason)
		}
	}
	for _, s := range []string{"memory"} {
		m.storeErrors.WithLabelValues(s)
	}
	return m
}

// Handler serves the registry in the text exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorLog: slog.NewLogLogger(m.log.Handler(), slog.LevelWarn)})
}

// Registry is the registry the metrics are on (for tests and embedding).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Turn counts model calls only for an answered turn.
func (m *Metrics) Turn(t turnstats.Turn, trace *nadine.TraceData) {
	engine := t.Engine
	if engine == "" {
		engine = m.engines[t.Robot]
	}
	o := t.Outcome
	if !o.Valid() {
		o = turnstats.Failed
	}
	m.turns.WithLabelValues(t.Robot, engine, string(o)).Inc()
	if !o.Spoken() {
		return
	}
	if t.FirstSpeech > 0 {
		m.firstSpeech.WithLabelValues(t.Robot, engine).Observe(t.FirstSpeech.Seconds())
	}
	if t.Duration > 0 {
		m.turnDuration.WithLabelValues(t.Robot, engine).Observe(t.Duration.Seconds())
	}
	lang := string(t.Language)
	if !m.languages[t.Language] {
		lang = "other"
	}
	m.languageCtr.WithLabelValues(t.Robot, lang).Inc()
	if trace == nil {
		return
	}
	m.criticalPath.WithLabelValues(t.Robot, engine).Observe(float64(trace.CriticalPath))
	for _, c := range trace.ModelCalls {
		m.ModelCall(c)
	}
}

// ModelCall counts one model call.
func (m *Metrics) ModelCall(c nadine.ModelCall) {
	role, profile := name(c.Role), name(c.Profile)
	outcome := "ok"
	if c.Error != "" {
		outcome = label(c.Code)
		if outcome == "" {
			outcome = nadine.EINTERNAL
		}
	}
	m.calls.WithLabelValues(role, profile, outcome).Inc()
	m.callSeconds.WithLabelValues(role, profile).Observe(c.Latency.Seconds())
	if c.FirstToken > 0 {
		m.firstToken.WithLabelValues(role, profile).Observe(c.FirstToken.Seconds())
	}
	if c.PromptTokens > 0 {
		m.tokens.WithLabelValues(role, profile, "input").Add(float64(c.PromptTokens))
	}
	if c.CompletionTokens > 0 {
		m.tokens.WithLabelValues(role, profile, "output").Add(float64(c.CompletionTokens))
	}
}

// InterruptReasons are the reason label values of
// nadine_interruptions_total (robot.UpdateInterrupted's reasons).
func InterruptReasons() []string { return []string{"interrupted", "speech", "resumed"} }

// Interruption counts a person talking over Nadine, or her resuming.
func (m *Metrics) Interruption(robot, reason string) {
	if !slices.Contains(InterruptReasons(), reason) {
		reason = "other"
	}
	m.interrupts.WithLabelValues(robot, reason).Inc()
}

// Filler counts a filler line said.
func (m *Metrics) Filler(robot string) { m.fillers.WithLabelValues(robot).Inc() }

// Session counts an interaction that ended.
func (m *Metrics) Session(s turnstats.Session) {
	m.sessions.WithLabelValues(s.Robot, label(s.Reason)).Inc()
	m.interaction.WithLabelValues(s.Robot).Observe(s.Duration.Seconds())
}

// StoreError counts a failed store operation ("memory", "inbox", "stats").
func (m *Metrics) StoreError(store string) { m.storeErrors.WithLabelValues(label(store)).Inc() }

// label turns anything outside our identifiers' vocabulary into "other", so no
// free text (a person's words in an error, a name) becomes a label.
func label(s string) string {
	return identifier(strings.ReplaceAll(strings.TrimSpace(s), " ", "_"), false)
}

// name keeps a configured name (a role, a profile) as it is written, when
// it is one: letters, digits, "_", "-" and ".", at most 64.
func name(s string) string { return identifier(s, true) }

func identifier(s string, upper bool) string {
	if s == "" {
		return ""
	}
	if len(s) > 64 || (!upper && len(s) > 40) {
		return "other"
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.' || upper && r >= 'A' && r <= 'Z') {
			return "other"
		}
	}
	return s
}

// runtimeCollector reads the gauges at scrape time.
type runtimeCollector struct {
	robots   []Robot
	breakers func() map[string]bool
	lost     func() map[string]uint64
	log      *slog.Logger
}

var (
	queueDesc      = prometheus.NewDesc("nadine_queue_depth", "Heard transcripts waiting for their turn.", []string{"robot"}, nil)
	inboxDesc      = prometheus.NewDesc("nadine_inbox_transcripts", "Transcripts the inbox holds, by state (finished ones are kept, without text, for a day).", []string{"robot", "state"}, nil)
	connectedDesc  = prometheus.NewDesc("nadine_mqtt_connected", "1 while the robot's bus is connected and subscribed to the broker.", []string{"robot"}, nil)
	reconnectsDesc = prometheus.NewDesc("nadine_mqtt_reconnects_total", "Times the robot's bus connected again after losing the broker.", []string{"robot"}, nil)
	lostDesc       = prometheus.NewDesc("nadine_telemetry_lost_total", "Turn records (stats) and trace spans (otlp) that could not be kept or sent.", []string{"sink"}, nil)
	breakerDesc    = prometheus.NewDesc("nadine_breaker_open", "1 while a model profile's circuit breaker is open (or probing): its calls fail at once.", []string{"profile"}, nil)
)

func (c *runtimeCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{queueDesc, inboxDesc, connectedDesc, reconnectsDesc, breakerDesc, lostDesc} {
		ch <- d
	}
}

// inboxStates are reported even when none is held, at 0.
var inboxStates = []nadine.InboxState{nadine.InboxPending, nadine.InboxTaken, nadine.InboxSpoken, nadine.InboxAnswered,
	nadine.InboxExpired, nadine.InboxDropped, nadine.InboxInterrupted}

func (c *runtimeCollector) Collect(ch chan<- prometheus.Metric) {
	for _, r := range c.robots {
		if r.Waiting != nil {
			ch <- prometheus.MustNewConstMetric(queueDesc, prometheus.GaugeValue, float64(r.Waiting()), r.Name)
		}
		if r.Connected != nil {
			v := 0.0
			if r.Connected() {
				v = 1
			}
			ch <- prometheus.MustNewConstMetric(connectedDesc, prometheus.GaugeValue, v, r.Name)
		}
		if r.Reconnects != nil {
			ch <- prometheus.MustNewConstMetric(reconnectsDesc, prometheus.CounterValue, float64(r.Reconnects()), r.Name)
		}
		if r.Inbox != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			counts, err := r.Inbox(ctx)
			cancel()
			if err != nil {
				c.log.Warn("metrics: inbox not counted", "robot", r.Name, "err", err)
				continue
			}
			for _, s := range inboxStates {
				ch <- prometheus.MustNewConstMetric(inboxDesc, prometheus.GaugeValue, float64(counts[s]), r.Name, string(s))
			}
		}
	}
	if c.lost != nil {
		for sink, n := range c.lost() {
			ch <- prometheus.MustNewConstMetric(lostDesc, prometheus.CounterValue, float64(n), label(sink))
		}
	}
	if c.breakers != nil {
		for p, open := range c.breakers() {
			v := 0.0
			if open {
				v = 1
			}
			ch <- prometheus.MustNewConstMetric(breakerDesc, prometheus.GaugeValue, v, name(p))
		}
	}
}
