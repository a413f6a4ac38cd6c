package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/nadine-robot/nadine/mqtt"
	"github.com/nadine-robot/nadine/robot"
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

// server is a running `nadine serve`.
type server struct {
	app    *app
	broker *mqtt.Broker
	bus    *mqtt.Bus
	rt     *robot.Runtime
	web    *webServer
	e      env
}

// startServer connects everything; run then serves until ctx is done.
func startServer(ctx context.Context, cfg Config, e env, log *slog.Logger) (*server, error) {
	s := &server{e: e}
	url := cfg.MQTT.URL
	if url == "" {
		b, err := mqtt.StartBroker(ctx, mqtt.BrokerOptions{Addr: cfg.MQTT.Listen, Logger: log})
		if err != nil {
			return nil, fmt.Errorf("mqtt.listen: %w", err)
		}
		s.broker, url = b, b.URL()
		log.Info("embedded MQTT broker started", "url", url)
	}
	bus, err := mqtt.Connect(ctx, mqtt.Options{
		URL: url, ClientID: cfg.MQTT.ClientID, Username: cfg.MQTT.Username, Password: e.getenv(cfg.MQTT.PasswordEnv),
		TLS:    mqtt.TLSOptions{CAFile: cfg.MQTT.CAFile, CertFile: cfg.MQTT.CertFile, KeyFile: cfg.MQTT.KeyFile, InsecureSkipVerify: cfg.MQTT.Insecure},
		Prefix: cfg.MQTT.Prefix, Logger: log,
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
		SpeakTimeout: time.Duration(cfg.Limits.SpeakTimeout), Logger: log,
	})
	if err != nil {
		s.close()
		return nil, err
	}
	s.rt = rt
	if cfg.HTTP.Addr != "off" {
		w, err := startWeb(ctx, cfg, e, a, rt, bus, log)
		if err != nil {
			s.close()
			return nil, err
		}
		s.web = w
	}
	fmt.Fprint(e.stderr, a.banner())
	fmt.Fprintf(e.stderr, "MQTT: %s (topics %s/...)\n", url, bus.Prefix())
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
	if s.app != nil {
		_ = s.app.Close()
	}
}
