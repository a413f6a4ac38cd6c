package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/config"
	"github.com/nadine-robot/nadine/mqtt"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/sqlite"
)

// runServe is the robot's main job: the MQTT bus (an embedded broker when
// none is configured) and the web monitor, until SIGINT or SIGTERM.
func runServe(ctx context.Context, args []string, e env) error {
	fs, path := flags("serve", e)
	if err := fs.Parse(args); err != nil {
		return err
	}
	// The pre-flight `nadine config` runs: nothing starts when it fails.
	cfg, err := e.preflight(*path)
	if err != nil {
		return err
	}
	log := newLogger(e.stderr, cfg.Log)
	s, err := startServer(ctx, cfg, e, log)
	if err != nil {
		return err
	}
	return s.run(ctx)
}

// The bus is the robot's body and its camera's trigger.
var (
	_ robot.Body     = (*mqtt.Bus)(nil)
	_ robot.Capturer = (*mqtt.Bus)(nil)
)

// server is a running `nadine serve`: per robot a bus connection, runtime
// and inbox, over one app (store, models, tools) and one web monitor.
type server struct {
	app     *app
	broker  *mqtt.Broker
	inboxes *sqlite.Inboxes
	robots  []*servedRobot
	web     *webServer
	tel     *telemetry
	e       env
}

// servedRobot is one robot of a server.
type servedRobot struct {
	name string
	bus  *mqtt.Bus
	rt   *robot.Runtime
}

// startServer connects everything; run then serves until ctx is done.
func startServer(ctx context.Context, cfg config.Config, e env, log *slog.Logger) (*server, error) {
	s := &server{e: e}
	url := cfg.MQTT.URL
	users, self, err := cfg.BrokerAccounts(e.getenv)
	if err != nil {
		return nil, err
	}
	if url == "" {
		b, err := mqtt.StartBroker(ctx, cfg.BrokerOptions(users, log))
		if err != nil {
			return nil, fmt.Errorf("mqtt.listen: %w", err)
		}
		s.broker, url = b, b.URL()
		log.Info("embedded MQTT broker started", "url", url, "users", len(cfg.MQTT.BrokerUsers))
	}
	// The inbox: a transcript is acknowledged to the broker once it is
	// there, and taken from there (one inbox per robot, by topic prefix).
	inboxes, err := sqlite.OpenInboxes(ctx, filepath.Join(cfg.DataDir, "inbox.db"), sqlite.InboxOptions{Logger: log})
	if err != nil {
		s.close()
		return nil, fmt.Errorf("data_dir: %w", err)
	}
	s.inboxes = inboxes
	tel, err := startTelemetry(ctx, cfg, e.getenv, log)
	if err != nil {
		s.close()
		return nil, err
	}
	s.tel = tel
	captures := cfg.Visual.CaptureDir
	if captures == "" {
		captures = filepath.Join(cfg.DataDir, "captures")
	}
	specs := cfg.RobotSpecs()
	for i, spec := range specs {
		bus, err := mqtt.Connect(ctx, cfg.BusOptions(spec, url, self, log.With("robot", spec.Name), inboxes.Inbox(spec.Name).Add))
		if err != nil {
			s.close()
			return nil, fmt.Errorf("mqtt: robot %s: %w", spec.Name, err)
		}
		s.robots = append(s.robots, &servedRobot{name: spec.Name, bus: bus})
		// Each robot's camera asks its own perception, on its own topics;
		// with several robots, each keeps its views in its own folder.
		dir := captures
		if len(specs) > 1 {
			dir = filepath.Join(captures, filepath.FromSlash(spec.Name))
		}
		specs[i].Camera = &robot.Camera{Bus: bus, Dir: dir}
	}
	a, err := newApp(ctx, cfg, e.getenv, log, withRobots(specs), withStoreErrors(tel.storeError))
	if err != nil {
		s.close()
		return nil, err
	}
	s.app = a
	for i, r := range s.robots {
		preempt, after, attempts := cfg.PreemptOptions()
		rt, err := robot.New(robot.Options{
			Manager: a.robots[i].manager, Body: r.bus, Names: a.store, WarmPerson: memoryWarmer(a.store),
			SpeakTimeout: time.Duration(cfg.Limits.SpeakTimeout), IdleTimeout: time.Duration(cfg.Session.IdleTimeout),
			Logger: log.With("robot", r.name), Inbox: inboxes.Inbox(r.name),
			MaxAge: time.Duration(cfg.Limits.TranscriptMaxAge), Queue: cfg.Limits.Queue, Backlog: cfg.Limits.Backlog,
			Preempt: preempt, PreemptAfter: after, PreemptAttempts: attempts, WarmWords: a.queries.Warm,
			Interruptions: cfg.Interruptions(),
			Observe:       tel.observer(r.name),
		})
		if err != nil {
			s.close()
			return nil, err
		}
		r.rt = rt
	}
	// The erase path (the API's, and each robot's spoken "forget me")
	// erases the transcript inboxes and every robot's recent turns, and
	// tells every robot's face recognition.
	a.holders = []nadine.UserEraser{inboxes}
	for _, r := range s.robots {
		a.holders = append(a.holders, r.rt)
	}
	if cfg.Telemetry.Metrics {
		engines := make([]string, len(s.robots))
		for i := range s.robots {
			engines[i] = a.robots[i].engine
		}
		tel.addMetrics(s.robots, engines, inboxes, a.pool)
	}
	if cfg.HTTP.Addr != "off" {
		w, err := startWeb(ctx, cfg, e, a, s.robots, tel, log)
		if err != nil {
			s.close()
			return nil, err
		}
		s.web = w
	}
	fmt.Fprint(e.stderr, a.banner())
	if len(s.robots) == 1 {
		fmt.Fprintf(e.stderr, "MQTT: %s (topics %s/...)\n", config.RedactURL(url), s.robots[0].bus.Prefix())
	} else {
		names := make([]string, len(s.robots))
		for i, r := range s.robots {
			names[i] = r.bus.Prefix()
		}
		fmt.Fprintf(e.stderr, "MQTT: %s (%d robots, topics %s/...)\n", config.RedactURL(url), len(names), strings.Join(names, "/..., "))
	}
	if s.web != nil {
		fmt.Fprintf(e.stderr, "Monitor: %s\n", s.web.URL())
	}
	return s, nil
}

// run serves until ctx is done; each robot finishes its turn and stores its
// history before web, buses and broker stop. One robot failing stops all.
func (s *server) run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(s.robots))
	var wg sync.WaitGroup
	for i, r := range s.robots {
		wg.Go(func() {
			if err := r.rt.Run(ctx, r.bus.Inbound()); err != nil {
				errs[i] = fmt.Errorf("robot %s: %w", r.name, err)
				cancel()
			}
		})
	}
	wg.Wait()
	s.close()
	return errors.Join(errs...)
}

func (s *server) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if s.web != nil {
		s.web.Close(ctx)
	}
	var wg sync.WaitGroup
	for _, r := range s.robots {
		wg.Go(func() { _ = r.bus.Close(ctx) })
	}
	wg.Wait()
	if s.broker != nil {
		_ = s.broker.Close()
	}
	if s.inboxes != nil {
		_ = s.inboxes.Close()
	}
	s.tel.close()
	if s.app != nil {
		_ = s.app.Close()
	}
}
