package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/metrics"
	"github.com/nadine-robot/nadine/robot"
)

// BenchmarkTurnTelemetry measures a whole zero-latency graph turn (real
// HTTP to the scripted model server, the dialogue manager, the robot
// runtime) with the telemetry off and on: on, every finished turn is
// counted in the Prometheus metrics, recorded in the stats file and
// exported as an OpenTelemetry trace to an OTLP receiver, and /metrics is
// scraped every second. The figures are in docs/observability.md:
//
//	go test -run '^$' -bench TurnTelemetry -count 6 ./cmd/nadine/
func BenchmarkTurnTelemetry(b *testing.B) {
	b.Run("off", func(b *testing.B) { benchTelemetry(b, false, false, false) })
	b.Run("prom", func(b *testing.B) { benchTelemetry(b, true, false, false) })   // Prometheus metrics only
	b.Run("metrics", func(b *testing.B) { benchTelemetry(b, true, true, false) }) // and the turn records
	b.Run("on", func(b *testing.B) { benchTelemetry(b, true, true, true) })       // and OTLP traces
}

func benchTelemetry(b *testing.B, on, stats, otlp bool) {
	srv := llmtestZero(b)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer receiver.Close()
	cfgPath := exhibitionConfig(b, "graph", srv.URL())
	vars := map[string]string{"HOME": b.TempDir(), "NADINE_SESSION_IDLE_TIMEOUT": "0"}
	e := env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: envMap(vars)}
	cfg, err := e.loadConfig(cfgPath)
	if err != nil {
		b.Fatal(err)
	}
	cfg.Telemetry.Stats = stats
	log := slog.New(slog.DiscardHandler)
	ctx := context.Background()
	var tel *telemetry
	opts := []appOption{}
	if otlp {
		vars["OTEL_EXPORTER_OTLP_ENDPOINT"] = receiver.URL
	}
	if on {
		tel, err = startTelemetry(ctx, cfg, e.getenv, log)
		if err != nil {
			b.Fatal(err)
		}
		defer tel.close()
		opts = append(opts, withStoreErrors(tel.storeError))
	}
	a, err := newApp(ctx, cfg, e.getenv, log, opts...)
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	ropts := robot.Options{Manager: a.manager, Logger: log}
	if on {
		ropts.Observe = tel.observer("nadine")
	}
	rt, err := robot.New(ropts)
	if err != nil {
		b.Fatal(err)
	}
	if on {
		tel.metrics = metrics.New(metrics.Options{Robots: []metrics.Robot{{Name: "nadine", Engine: "graph", Waiting: rt.Waiting}}, Logger: log})
		scrape := httptest.NewServer(tel.metrics.Handler())
		defer scrape.Close()
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
					if resp, err := http.Get(scrape.URL); err == nil {
						_, _ = io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
					}
				}
			}
		}()
		defer func() { close(stop); <-done }()
	}
	runCtx, cancel := context.WithCancel(ctx)
	runDone := make(chan error, 1)
	go func() { runDone <- rt.Run(runCtx, nil) }()
	defer func() { cancel(); <-runDone }()
	turn := func() {
		if _, err := rt.Submit(ctx, nadine.Turn{Text: "Tell me about sailing on the lake"}, nil); err != nil {
			b.Fatal(err)
		}
	}
	for range 5 { // warm the connections and the caches
		turn()
	}
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		turn()
	}
	if on {
		// What the turns left to the telemetry's goroutine and exporter
		// counts too.
		for len(tel.queue) > 0 {
			time.Sleep(time.Millisecond)
		}
		if tel.otel != nil {
			fctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			_ = tel.otel.Flush(fctx)
			cancel()
		}
	}
	b.StopTimer()
	// CPU time of the process (the scripted model server included) per
	// turn: unlike wall time, it hardly depends on what else the machine
	// runs.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	if otlp {
		if n := tel.otel.Failed(); n > 0 {
			b.Errorf("%d spans not exported", n)
		}
	}
}

// BenchmarkTelemetryObserve measures the telemetry's handling of a real
// finished graph turn (metrics, the record queued for the stats file, the
// turn's spans made and queued for export), done by its own goroutine, off
// the runtime's worker ("handle"), and what the worker itself pays
// ("queue": the observer, which queues the update).
func BenchmarkTelemetryObserve(b *testing.B) {
	srv := llmtestZero(b)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
	}))
	defer receiver.Close()
	vars := map[string]string{"HOME": b.TempDir(), "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.URL}
	e := env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: envMap(vars)}
	cfg, err := e.loadConfig(exhibitionConfig(b, "graph", srv.URL()))
	if err != nil {
		b.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	ctx := context.Background()
	a, err := newApp(ctx, cfg, e.getenv, log)
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	reply, err := a.manager.Stream(nadine.WithTrace(ctx, nadine.NewTrace("bench", "Tell me about sailing", time.Now())),
		nadine.Turn{ID: "bench", Text: "Tell me about sailing on the lake"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	tel, err := startTelemetry(ctx, cfg, e.getenv, log)
	if err != nil {
		b.Fatal(err)
	}
	defer tel.close()
	tel.metrics = metrics.New(metrics.Options{Robots: []metrics.Robot{{Name: "nadine", Engine: "graph"}}, Logger: log})
	u := robot.Update{Kind: robot.UpdateTurn, TurnID: "bench", Reply: &reply}
	b.Run("handle", func(b *testing.B) {
		b.ReportMetric(float64(len(reply.Trace.Snapshot().Steps)+len(reply.Trace.Snapshot().ModelCalls)+1), "spans/turn")
		for b.Loop() {
			tel.observe("nadine", u, time.Now())
		}
	})
	b.Run("queue", func(b *testing.B) {
		observe := tel.observer("nadine")
		for b.Loop() {
			observe(u)
		}
	})
}

// cpuTime is the CPU time the process used so far (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
