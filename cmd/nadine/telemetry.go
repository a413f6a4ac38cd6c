package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/config"
	"github.com/nadine-robot/nadine/failover"
	"github.com/nadine-robot/nadine/metrics"
	"github.com/nadine-robot/nadine/otelexport"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/sqlite"
	"github.com/nadine-robot/nadine/turnstats"
	"github.com/nadine-robot/nadine/web"
)

// telemetry derives metrics, turn records and traces from what the runtimes
// report as turns end (robot.Options.Observe); the engines know nothing of it.
type telemetry struct {
	log     *slog.Logger
	now     func() time.Time
	content bool // log.content: traces may carry conversation text

	metrics *metrics.Metrics     // nil: telemetry.metrics off
	stats   *sqlite.Stats        // nil: telemetry.stats off
	otel    *otelexport.Exporter // nil: no OTLP endpoint

	mu      sync.Mutex
	fillers map[string]bool // turn ids (robot\x00id) that said a filler line

	// queue feeds the one goroutine that counts, records and exports: the
	// runtime's worker never waits (a full queue loses, counted in lost).
	queue chan observed
	done  chan struct{}
	lost  atomic.Uint64
	stop  sync.Once
}

// observed is one update of a robot, as the runtime reported it.
type observed struct {
	robot string
	u     robot.Update
	at    time.Time
}

// telemetryQueue bounds the updates waiting to be handled.
const telemetryQueue = 1024

// startTelemetry opens the stats file and the OTLP exporter; the metrics
// come with addMetrics, once the robots run.
func startTelemetry(ctx context.Context, cfg config.Config, getenv func(string) string, log *slog.Logger) (*telemetry, error) {
	t := &telemetry{log: log, now: time.Now, content: cfg.Log.Content, fillers: map[string]bool{},
		queue: make(chan observed, telemetryQueue), done: make(chan struct{})}
	go t.loop()
	if cfg.Telemetry.Stats {
		days := cfg.Telemetry.StatsDays
		if days <= 0 {
			days = 400
		}
		st, err := sqlite.OpenStats(ctx, filepath.Join(cfg.DataDir, "stats.db"),
			sqlite.StatsOptions{Retain: time.Duration(days) * 24 * time.Hour, Logger: log})
		if err != nil {
			return nil, fmt.Errorf("data_dir: %w", err)
		}
		t.stats = st
	}
	opts, on, err := otelexport.FromEnv(getenv, cfg.Telemetry.OTLPEndpoint)
	if err != nil {
		t.close()
		return nil, fmt.Errorf("config: telemetry: %w", err)
	}
	if on {
		opts.Content, opts.Logger = cfg.Log.Content, log
		opts.Resource = append(opts.Resource, attribute.String("service.version", currentVersion().Short()))
		exp, err := otelexport.New(opts)
		if err != nil {
			t.close()
			return nil, fmt.Errorf("config: telemetry.otlp_endpoint: %w", err)
		}
		t.otel = exp
		log.Info("OpenTelemetry traces exported", "endpoint", config.RedactURL(opts.Endpoint), "content", cfg.Log.Content)
	}
	return t, nil
}

// addMetrics registers the metrics of the served robots.
func (t *telemetry) addMetrics(robots []*servedRobot, engines []string, inboxes *sqlite.Inboxes, pool *failover.Pool) {
	var rs []metrics.Robot
	for i, r := range robots {
		name := r.name
		rs = append(rs, metrics.Robot{Name: name, Engine: engines[i], Waiting: r.rt.Waiting, Connected: r.bus.Connected,
			Reconnects: r.bus.Reconnects,
			Inbox:      func(ctx context.Context) (map[nadine.InboxState]int, error) { return inboxes.Counts(ctx, name) }})
	}
	opts := metrics.Options{Robots: rs, Logger: t.log, Lost: func() map[string]uint64 {
		out := map[string]uint64{"queue": t.lost.Load()}
		if t.stats != nil {
			out["stats"] = t.stats.Lost()
		}
		if t.otel != nil {
			out["otlp"] = t.otel.Failed()
		}
		return out
	}}
	if pool != nil {
		opts.Breakers = func() map[string]bool {
			out := map[string]bool{}
			for p, s := range pool.Status() {
				out[p] = s.State != failover.Closed
			}
			return out
		}
	}
	t.metrics = metrics.New(opts)
}

// storeError counts a failed operation of the memory store.
func (t *telemetry) storeError(op string, err error) {
	if t != nil && t.metrics != nil {
		t.metrics.StoreError("memory")
	}
}

// observer queues the update and returns at once, so no turn waits on
// telemetry; of a turn in flight, only fillers are looked at.
func (t *telemetry) observer(robotName string) func(robot.Update) {
	return func(u robot.Update) {
		if u.Kind == robot.UpdateEvent && (u.Event == nil || !u.Event.Filler) || u.Kind == robot.UpdateSession {
			return
		}
		select {
		case t.queue <- observed{robot: robotName, u: u, at: t.now()}:
		default:
			t.lost.Add(1)
		}
	}
}

// loop handles the queued updates until close.
func (t *telemetry) loop() {
	defer close(t.done)
	for o := range t.queue {
		t.observe(o.robot, o.u, o.at)
	}
}

func (t *telemetry) observe(robotName string, u robot.Update, now time.Time) {
	switch u.Kind {
	case robot.UpdateEvent:
		if e := u.Event; e != nil && e.Kind == nadine.EventSpeech && e.Filler {
			t.mu.Lock()
			t.fillers[robotName+"\x00"+u.TurnID] = true
			t.mu.Unlock()
			if t.metrics != nil {
				t.metrics.Filler(robotName)
			}
		}
		return
	case robot.UpdateTurn:
		if u.Reply == nil {
			return
		}
		d := u.Reply.Trace.Snapshot()
		rec := turnstats.FromTrace(robotName, d, *u.Reply, now)
		key := robotName + "\x00" + u.TurnID
		t.mu.Lock()
		rec.Filler = t.fillers[key]
		delete(t.fillers, key)
		t.mu.Unlock()
		t.record(rec, &d)
		if t.otel != nil {
			t.otel.Export(otelexport.Turn{Robot: robotName, Outcome: string(rec.Outcome), Language: u.Reply.Language, Reply: u.Reply.Text}, d)
		}
	case robot.UpdateInterrupted:
		if t.metrics != nil {
			t.metrics.Interruption(robotName, u.Reason)
		}
	case robot.UpdateExpired:
		t.record(turnstats.Turn{Time: now, Robot: robotName, Outcome: turnstats.Expired}, nil)
	case robot.UpdateDropped:
		o := turnstats.Dropped
		if u.Reason == robot.ReasonInterrupted {
			o = turnstats.Interrupted
		}
		t.record(turnstats.Turn{Time: now, Robot: robotName, Outcome: o}, nil)
	case robot.UpdateFailed:
		t.mu.Lock()
		delete(t.fillers, robotName+"\x00"+u.TurnID)
		t.mu.Unlock()
		t.record(turnstats.Turn{Time: now, Robot: robotName, Outcome: turnstats.Failed}, nil)
	case robot.UpdateEnded:
		if e := u.Ending; e != nil {
			s := turnstats.Session{End: now, Robot: robotName, Reason: e.Reason, Turns: e.Turns, Duration: e.Duration}
			if t.metrics != nil {
				t.metrics.Session(s)
			}
			if t.stats != nil {
				t.stats.RecordSession(s)
			}
		}
	}
}

// record counts a turn in the metrics and keeps its record.
func (t *telemetry) record(rec turnstats.Turn, d *nadine.TraceData) {
	if t.metrics != nil {
		t.metrics.Turn(rec, d)
	}
	if t.stats != nil {
		t.stats.RecordTurn(rec)
	}
}

// metricsHandler serves /metrics, or nil when the metrics are off.
func (t *telemetry) metricsHandler() http.Handler {
	if t == nil || t.metrics == nil {
		return nil
	}
	return t.metrics.Handler()
}

// statsFunc is the monitor's web.StatsFunc, or nil when turn records are off.
func (t *telemetry) statsFunc() web.StatsFunc {
	if t == nil || t.stats == nil {
		return nil
	}
	return t.stats.Summary
}

// close handles the updates that wait, then flushes the records and the
// spans. The robots' runtimes have stopped: nothing is queued any more.
func (t *telemetry) close() {
	if t == nil {
		return
	}
	t.stop.Do(func() { close(t.queue) })
	<-t.done
	if t.otel != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := t.otel.Close(ctx); err != nil {
			t.log.Warn("telemetry: spans not all exported at shutdown", "err", err)
		}
		cancel()
	}
	if t.stats != nil {
		if err := t.stats.Close(); err != nil {
			t.log.Warn("telemetry: turn records not all written", "err", err)
		}
	}
}
