package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nadine-robot/nadine/mqtt"
	"github.com/nadine-robot/nadine/robot"
)

// fleetResult is one fleet run: n robots (topic prefixes) on one process,
// each having its own conversation at the same time.
type fleetResult struct {
	Engine      string        `json:"engine"`
	Robots      int           `json:"robots"`
	Turns       int           `json:"turns"`   // answered
	Missing     int           `json:"missing"` // transcripts never answered
	Twice       int           `json:"twice"`   // transcripts answered more than once
	Elapsed     time.Duration `json:"elapsed_ns"`
	TurnsPerSec float64       `json:"turns_per_second"`
	FirstP50    time.Duration `json:"first_speak_p50_ns"`
	FirstP95    time.Duration `json:"first_speak_p95_ns"`
	TotalP95    time.Duration `json:"total_p95_ns"`
	RSS         int64         `json:"rss_bytes"`
}

// runFleet serves n robots from this process, as `nadine serve` wires one
// (embedded broker, store, models and tools shared; a dialogue manager,
// engine, bus connection and runtime per robot), and has each of them hold
// a conversation of turns turns at the same time.
func runFleet(ctx context.Context, s benchSetup, n, turns int, pause time.Duration) (fleetResult, error) {
	res := fleetResult{Engine: s.engine, Robots: n}
	if err := os.MkdirAll(s.dir, 0o750); err != nil {
		return res, err
	}
	addr, err := freeAddr()
	if err != nil {
		return res, err
	}
	raw, err := benchConfig(s, addr, "off")
	if err != nil {
		return res, err
	}
	path := filepath.Join(s.dir, "bench.yaml")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		return res, err
	}
	getenv := func(k string) string {
		switch k {
		case benchKeyEnv:
			return "bench"
		case "HOME":
			return s.dir
		}
		return ""
	}
	cfg, err := loadConfig(path, getenv)
	if err != nil {
		return res, err
	}
	log := slog.New(slog.DiscardHandler)
	broker, err := mqtt.StartBroker(ctx, mqtt.BrokerOptions{Addr: addr, Logger: log})
	if err != nil {
		return res, err
	}
	defer broker.Close()
	a, err := newApp(ctx, cfg, getenv, log)
	if err != nil {
		return res, err
	}
	defer a.Close()

	runCtx, stop := context.WithCancel(ctx)
	var running sync.WaitGroup
	var buses []*mqtt.Bus
	defer func() {
		stop()
		running.Wait()
		for _, b := range buses {
			cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_ = b.Close(cctx)
			cancel()
		}
	}()
	for i := range n {
		m := a.manager
		if i > 0 {
			if m, err = a.newManager(fleetPrefix(i)); err != nil {
				return res, err
			}
		}
		bus, err := mqtt.Connect(ctx, mqtt.Options{URL: broker.URL(), ClientID: fmt.Sprintf("nadine-%d", i), Prefix: fleetPrefix(i), Logger: log})
		if err != nil {
			return res, fmt.Errorf("robot %d: %w", i, err)
		}
		buses = append(buses, bus)
		rt, err := robot.New(robot.Options{Manager: m, Body: bus, Names: a.store, Logger: log})
		if err != nil {
			return res, err
		}
		running.Go(func() { _ = rt.Run(runCtx, bus.Inbound()) })
	}
	peer, err := dialPeer(ctx, hostPort(broker.URL()))
	if err != nil {
		return res, err
	}
	defer peer.close()

	var (
		mu            sync.Mutex
		first, totals []time.Duration
		errs          []error
		wg            sync.WaitGroup
	)
	start := time.Now()
	for i := range n {
		wg.Go(func() {
			prefix := fleetPrefix(i)
			if err := peer.publish(ctx, prefix+"/graph/user_detected", map[string]any{
				"user_name": fmt.Sprintf("Visitor %d", i), "user_id": fmt.Sprintf("visitor-%d", i), "confidence": 0.9}); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
				return
			}
			for t := range turns {
				text, _ := benchTurn(t)
				w, err := peer.say(ctx, prefix, fmt.Sprintf("%s-%d", prefix, t), text)
				if err == nil {
					err = peer.wait(ctx, w, 5*time.Minute)
				}
				mu.Lock()
				if err != nil {
					res.Missing++
					mu.Unlock()
					continue
				}
				got := peer.result(w)
				res.Turns++
				if !got.first.IsZero() {
					first = append(first, got.first.Sub(got.sent))
				}
				totals = append(totals, got.finalAt.Sub(got.sent))
				mu.Unlock()
				if t < turns-1 {
					time.Sleep(pause)
				}
			}
		})
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	if len(errs) > 0 {
		return res, errs[0]
	}
	// Turns per second counts the time robots were answering, not the
	// pauses in which their users "listened".
	busy := res.Elapsed - time.Duration(max(turns-1, 0))*pause
	if busy > 0 {
		res.TurnsPerSec = float64(res.Turns) / busy.Seconds()
	}
	res.FirstP50, res.FirstP95 = percentile(first, 50), percentile(first, 95)
	res.TotalP95 = percentile(totals, 95)
	res.Twice, _ = peer.duplicates()
	res.RSS, _ = procRSS(os.Getpid())
	return res, nil
}

// fleetPrefix is the topic prefix of the i-th simulated robot.
func fleetPrefix(i int) string { return fmt.Sprintf("robot%04d", i) }
