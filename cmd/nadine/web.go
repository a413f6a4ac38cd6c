package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sort"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/config"
	"github.com/nadine-robot/nadine/web"
)

// webServer is the web monitor and JSON API of `nadine serve`.
type webServer struct {
	srv *web.Server
	log *slog.Logger
}

// startWeb serves the monitor; without a token it binds to loopback only.
func startWeb(ctx context.Context, cfg config.Config, e env, a *app, served []*servedRobot, tel *telemetry, log *slog.Logger) (*webServer, error) {
	robots := make([]web.Robot, len(served))
	for i, r := range served {
		robots[i] = web.Robot{Name: r.name, Runtime: r.rt, Engine: a.robots[i].engine, Offline: a.robots[i].offline}
	}
	srv, err := web.Start(ctx, web.Options{
		Addr:      cfg.HTTP.Addr,
		Token:     e.getenv(cfg.HTTP.TokenEnv),
		Robots:    robots,
		Store:     a.store,
		Forgetter: a.forgetter(), // with every robot's session and runtime, and the inboxes (startServer)
		Info:      a.webInfo(),
		// Limits at the edge.
		MaxStreams: cfg.HTTP.MaxStreams, MaxTokenFailures: cfg.HTTP.MaxTokenFailures,
		Checks: []web.Check{{Name: "mqtt", Check: func(context.Context) error {
			var off []string
			for _, r := range served {
				if !r.bus.Connected() {
					off = append(off, r.name)
				}
			}
			switch {
			case len(off) == 0:
				return nil
			case len(served) == 1:
				return nadine.Errorf(nadine.EUNAVAILABLE, "not connected to the MQTT broker")
			}
			return nadine.Errorf(nadine.EUNAVAILABLE, "robots not connected to the MQTT broker: %s", strings.Join(off, ", "))
		}}},
		Logger:  log,
		Metrics: tel.metricsHandler(),
		Stats:   tel.statsFunc(),
	})
	if err != nil {
		if nadine.ErrorCode(err) == nadine.EINVALID && cfg.HTTP.TokenEnv != "" {
			return nil, fmt.Errorf("config: http.addr: %w (the token is read from $%s; set http.addr: off to disable the monitor)", err, cfg.HTTP.TokenEnv)
		}
		return nil, fmt.Errorf("config: http.addr: %w", err)
	}
	return &webServer{srv: srv, log: log}, nil
}

// URL is the monitor's address.
func (w *webServer) URL() string { return w.srv.URL() }

// Close lets requests in flight finish until ctx is done.
func (w *webServer) Close(ctx context.Context) {
	if err := w.srv.Close(ctx); err != nil && !errors.Is(err, context.Canceled) {
		w.log.Warn("web monitor: shutdown", "err", err)
	}
}

// webInfo describes the engine and models: names and hosts only, never keys.
func (a *app) webInfo() web.Info {
	info := web.Info{Version: currentVersion().Short(), Engine: a.engine, Offline: a.offline, Fallback: a.cfg.Models.Fallback}
	if a.embedder != nil {
		info.Embedder = a.embedder.Name()
	}
	if a.engine == "offline" {
		return info
	}
	byProfile := map[string][]string{}
	for role, p := range a.cfg.Models.Roles {
		byProfile[p] = append(byProfile[p], role)
	}
	names := make([]string, 0, len(byProfile))
	for p := range byProfile {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		pc := a.cfg.Models.Profiles[p]
		roles := byProfile[p]
		sort.Strings(roles)
		host := ""
		if u, err := url.Parse(pc.BaseURL); err == nil {
			host = u.Host // without user info
		}
		_, ready := a.clients[p]
		info.Models = append(info.Models, web.ModelInfo{Profile: p, Model: pc.Model, Host: host, Roles: roles, Ready: ready})
	}
	return info
}
