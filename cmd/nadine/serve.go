package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

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
	cfg, err := e.loadConfig(*path)
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

// server is a running `nadine serve`.
type server struct {
	app     *app
	broker  *mqtt.Broker
	inboxes *sqlite.Inboxes
	bus     *mqtt.Bus
	rt      *robot.Runtime
	web     *webServer
	e       env
}

// startServer connects everything; run then serves until ctx is done.
func startServer(ctx context.Context, cfg Config, e env, log *slog.Logger) (*server, error) {
	s := &server{e: e}
	url := cfg.MQTT.URL
	users, self, err := cfg.brokerUsers(e.getenv)
	if err != nil {
		return nil, err
	}
	if url == "" {
		b, err := mqtt.StartBroker(ctx, mqtt.BrokerOptions{Addr: cfg.MQTT.Listen, Logger: log, Users: users})
		if err != nil {
			return nil, fmt.Errorf("mqtt.listen: %w", err)
		}
		s.broker, url = b, b.URL()
		log.Info("embedded MQTT broker started", "url", url, "users", len(cfg.MQTT.BrokerUsers))
		if w := cfg.brokerOpenWarning(); w != "" {
			log.Warn(w)
		}
	}
	// The inbox: a transcript is acknowledged to the broker once it is
	// there, and taken from there (one inbox per robot, by topic prefix).
	inboxes, err := sqlite.OpenInboxes(ctx, filepath.Join(cfg.DataDir, "inbox.db"), sqlite.InboxOptions{Logger: log})
	if err != nil {
		s.close()
		return nil, fmt.Errorf("data_dir: %w", err)
	}
	s.inboxes = inboxes
	prefix := cfg.MQTT.Prefix
	if prefix == "" {
		prefix = mqtt.DefaultPrefix
	}
	inbox := inboxes.Inbox(prefix)
	bus, err := mqtt.Connect(ctx, mqtt.Options{
		URL: url, ClientID: cfg.MQTT.ClientID, Username: self.Username, Password: self.Password,
		TLS:    mqtt.TLSOptions{CAFile: cfg.MQTT.CAFile, CertFile: cfg.MQTT.CertFile, KeyFile: cfg.MQTT.KeyFile, InsecureSkipVerify: cfg.MQTT.Insecure},
		Prefix: cfg.MQTT.Prefix, Logger: log, Persist: inbox.Add,
	})
	if err != nil {
		s.close()
		return nil, fmt.Errorf("mqtt: %w", err)
	}
	s.bus = bus
	captures := cfg.Visual.CaptureDir
	if captures == "" {
		captures = filepath.Join(cfg.DataDir, "captures")
	}
	a, err := newApp(ctx, cfg, e.getenv, log, withCamera(&robot.Camera{Bus: bus, Dir: captures}))
	if err != nil {
		s.close()
		return nil, err
	}
	s.app = a
	rt, err := robot.New(robot.Options{
		Manager: a.manager, Body: bus, Names: a.store,
		SpeakTimeout: time.Duration(cfg.Limits.SpeakTimeout), IdleTimeout: time.Duration(cfg.Session.IdleTimeout), Logger: log,
		Inbox: inbox, MaxAge: time.Duration(cfg.Limits.TranscriptMaxAge), Queue: cfg.Limits.Queue,
	})
	if err != nil {
		s.close()
		return nil, err
	}
	s.rt = rt
	if cfg.HTTP.Addr != "off" {
		w, err := startWeb(ctx, cfg, e, a, rt, bus, inboxes, log)
		if err != nil {
			s.close()
			return nil, err
		}
		s.web = w
	}
	fmt.Fprint(e.stderr, a.banner())
	fmt.Fprintf(e.stderr, "MQTT: %s (topics %s/...)\n", redactURL(url), bus.Prefix())
	if s.web != nil {
		fmt.Fprintf(e.stderr, "Monitor: %s\n", s.web.URL())
	}
	return s, nil
}

// run serves until ctx is done, then shuts down in order: stop taking
// transcripts, finish the turn in flight, store pending history, close the
// web server, disconnect from the bus, stop the broker.
func (s *server) run(ctx context.Context) error {
	err := s.rt.Run(ctx, s.bus.Inbound())
	s.close()
	return err
}

func (s *server) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if s.web != nil {
		s.web.Close(ctx)
	}
	if s.bus != nil {
		_ = s.bus.Close(ctx)
	}
	if s.broker != nil {
		_ = s.broker.Close()
	}
	if s.inboxes != nil {
		_ = s.inboxes.Close()
	}
	if s.app != nil {
		_ = s.app.Close()
	}
}
