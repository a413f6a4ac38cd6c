package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/config"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/embedcache"
	"github.com/nadine-robot/nadine/failover"
	"github.com/nadine-robot/nadine/knowledge"
	"github.com/nadine-robot/nadine/langid"
	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/offline"
	"github.com/nadine-robot/nadine/openai"
	"github.com/nadine-robot/nadine/react"
	"github.com/nadine-robot/nadine/tools"
	"github.com/nadine-robot/nadine/translate"
	"github.com/nadine-robot/nadine/visual"
)

// app is the program wired from the configuration, shared by every command.
type app struct {
	cfg    config.Config
	getenv func(string) string
	log    *slog.Logger

	store   nadine.Store
	storeIs string // which store, for the banner
	// transport carries every HTTP request of the app's clients: its idle
	// connections and the goroutines reading them are the app's, closed at Close.
	transport *http.Transport
	embedder  nadine.Embedder
	queries   *embedcache.Cache // the engines' embedder: embedder behind a cache of recent queries
	lexical   *lexical.Embedder // the offline engine's embedder: no network (see offline_knowledge.go)
	tools     []nadine.Tool
	filler    *tools.Filler // lines said while a turn waits on a tool; nil when off
	visual    *visual.Retriever
	closers   []func() error
	warmups   []func(context.Context) error
	history   *dialogue.History
	detector  nadine.LanguageDetector
	// holders are the other holders of personal data serve adds (inboxes,
	// runtimes), for forgetter; set before any turn or request runs.
	holders []nadine.UserEraser
	// storeErrors, when set, is told of the store's failed operations.
	storeErrors func(op string, err error)

	// specs are the robots to build; by default the configuration's first.
	specs  []config.RobotSpec
	robots []*appRobot // the robots built, in order
	// manager, engine and offline are the first robot's, the one of chat and eval.
	manager *dialogue.Manager
	engine  string // the engine answering: react, graph or offline
	offline string // why the app runs offline, when it does

	clients  map[string]*openai.Client   // by profile name
	pool     *failover.Pool              // breakers of the profiles; every model call goes through it
	models   map[string]nadine.ChatModel // by role and chain of profiles (see roleModel)
	offlines map[string]*offline.Engine  // the last engine of every manager, one per place
}

// appRobot is one robot's settings, engines and dialogue manager (its
// session); the store, models, tools, history and detector are shared.
type appRobot struct {
	spec    config.RobotSpec
	engines []nadine.Engine // tried in order; the offline engine last
	manager *dialogue.Manager
	engine  string // the engine answering: react, graph or offline
	offline string // why the robot runs offline, when it does
}

// openTool opens the app for a maintenance command, logging warnings only.
func openTool(ctx context.Context, cfgPath string, e env) (*app, error) {
	cfg, err := e.loadConfig(cfgPath)
	if err != nil {
		return nil, err
	}
	return newApp(ctx, cfg, e.getenv, newLogger(e.stderr, config.LogConfig{Level: "warn"}))
}

// appOption adds what only some commands have.
type appOption func(*app)

// withRobots builds these robots, not the first (serve: all, with cameras).
func withRobots(specs []config.RobotSpec) appOption { return func(a *app) { a.specs = specs } }

// withStoreErrors tells fn of the store's failed operations (serve's metrics).
func withStoreErrors(fn func(op string, err error)) appOption {
	return func(a *app) { a.storeErrors = fn }
}

// newApp opens the store and builds the engines named by cfg.
func newApp(ctx context.Context, cfg config.Config, getenv func(string) string, log *slog.Logger, opts ...appOption) (*app, error) {
	a := &app{cfg: cfg, getenv: getenv, log: log, clients: map[string]*openai.Client{},
		models: map[string]nadine.ChatModel{}, offlines: map[string]*offline.Engine{},
		transport: http.DefaultTransport.(*http.Transport).Clone()}
	for _, w := range cfg.Warnings() {
		log.Warn(w)
	}
	for _, o := range opts {
		o(a)
	}
	useModelCache(log)
	if err := os.MkdirAll(cfg.DataDir, 0o750); err != nil {
		return nil, fmt.Errorf("data_dir: %w", err)
	}
	st, kind, err := openStore(ctx, cfg, log, a.storeErrors)
	if err != nil {
		return nil, err
	}
	a.store, a.storeIs = st, kind
	if err := a.build(ctx); err != nil {
		st.Close()
		return nil, err
	}
	return a, nil
}

func (a *app) build(ctx context.Context) error {
	cfg := a.cfg
	for name, p := range cfg.Models.Profiles {
		if !p.Usable(a.getenv) {
			continue
		}
		c, err := openai.New(a.clientConfig(name, p))
		if err != nil {
			return fmt.Errorf("models.profiles.%s: %w", name, err)
		}
		a.clients[name] = c
	}
	emb, err := a.newEmbedder()
	if err != nil {
		return err
	}
	if err := a.guardModels(emb); err != nil {
		return err
	}
	a.lexical = offlineEmbedder(emb)
	a.ensureKnowledge(ctx)
	a.ensureOfflineKnowledge(ctx)
	a.checkMemorySpace(ctx)
	a.tools = a.newTools()
	a.history = dialogue.NewHistory(a.store, a.embedder, dialogue.HistoryOptions{
		Window: cfg.Memory.Window, Stride: cfg.Memory.Stride, Logger: a.log})

	det, err := langid.New()
	if err != nil {
		return err
	}
	a.detector = det
	specs := a.specs
	if len(specs) == 0 {
		specs = cfg.RobotSpecs()[:1]
	}
	for _, spec := range specs {
		r, err := a.newRobot(spec)
		if err != nil {
			return fmt.Errorf("robot %s: %w", spec.Name, err)
		}
		if err := r.manager.Recover(ctx); err != nil {
			a.log.Warn("history recovery incomplete", "robot", spec.Name, "err", err)
		}
		a.robots = append(a.robots, r)
	}
	a.manager, a.engine, a.offline = a.robots[0].manager, a.robots[0].engine, a.robots[0].offline
	if len(a.warmups) > 0 {
		// Local servers load models lazily: wake them while nobody talks.
		// The warm-ups are the app's: they end with the program's context
		// (a SIGTERM) or at Close, which waits for them.
		wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		var wg sync.WaitGroup
		for _, w := range a.warmups {
			wg.Go(func() {
				if err := w(wctx); err != nil {
					a.log.Warn("model warm-up failed", "err", err)
				}
			})
		}
		a.closers = append(a.closers, func() error { cancel(); wg.Wait(); return nil })
	}
	return nil
}

// guardModels puts every model call behind the failover pool: a breaker per
// profile, each chat role over its chain (its profile, then models.fallback).
func (a *app) guardModels(emb nadine.Embedder) error {
	cfg := a.cfg
	a.pool = failover.New(failover.Options{Breaker: cfg.Breaker(), Logger: a.log})
	a.closers = append(a.closers, a.pool.Close)
	chat := map[string]bool{}
	for _, r := range config.RoleNames() {
		if r != "embeddings" {
			chat[cfg.Models.Roles[r]] = true
		}
	}
	for _, f := range cfg.Models.Fallback {
		chat[f] = true
	}
	for _, spec := range append(cfg.RobotSpecs(), a.specs...) {
		// Robots may put their roles on other profiles.
		for r, p := range spec.Roles {
			if r != "embeddings" {
				chat[p] = true
			}
		}
		for _, f := range spec.Fallback {
			chat[f] = true
		}
	}
	embProfile := ""
	if _, ok := emb.(*openai.Embedder); ok {
		embProfile = cfg.Models.Roles["embeddings"]
	}
	names := make([]string, 0, len(a.clients))
	for n := range a.clients {
		names = append(names, n)
	}
	sort.Strings(names)
	var warm []*openai.Client
	for _, name := range names {
		pc := cfg.Models.Profiles[name]
		pr := failover.Profile{Name: name, Retries: pc.Retries(), Server: pc.Server()}
		if chat[name] {
			pr.Chat = a.clients[name]
			warm = append(warm, a.clients[name])
		}
		if name == embProfile {
			pr.Embedder = emb
		}
		if pr.Chat == nil && pr.Embedder == nil {
			continue
		}
		if err := a.pool.Add(pr); err != nil {
			return err
		}
	}
	if cfg.Models.WarmUp && len(warm) > 0 {
		a.warmups = append(a.warmups, func(ctx context.Context) error { return warmUp(ctx, warm) })
	}
	a.embedder = emb
	if embProfile != "" {
		if g := a.pool.Embedder("embeddings", cfg.RoleTimeouts("embeddings"), embProfile); g != nil {
			a.embedder = g
		}
	}
	// The engines' queries go through a short-lived cache, which interim
	// transcripts warm (robot.Options.WarmWords).
	a.queries = embedcache.New(a.embedder, embedcache.Options{})
	a.closers = append(a.closers, a.queries.Close)
	return nil
}

// warmUp bypasses the failover pool: a local server loading a model exceeds
// the attempt timeout, and that first wait must not open its breaker.
func warmUp(ctx context.Context, clients []*openai.Client) error {
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	for _, c := range clients {
		wg.Go(func() {
			_, err := c.Chat(ctx, nadine.ChatRequest{Role: "warmup", MaxTokens: 1,
				Messages: []nadine.ChatMessage{{Role: nadine.RoleUser, Content: "Hi"}}})
			if err != nil {
				mu.Lock()
				errs = append(errs, fmt.Errorf("warm up profile %s: %w", c.Profile(), err))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// newRobot builds one engine and dialogue manager per robot (a graph's
// background summary is its robot's); the robot's name keys its session.
func (a *app) newRobot(spec config.RobotSpec) (*appRobot, error) {
	r := &appRobot{spec: spec}
	if err := a.engines(r); err != nil {
		return nil, err
	}
	opts := dialogue.ManagerOptions{
		Engines: r.engines, History: a.history, Profiles: a.store, Checkpoints: a.store,
		Detector: a.detector, Translator: a.translator(),
		MaxInputChars: a.cfg.Limits.MaxInputChars, TurnTimeout: a.cfg.TurnTimeout(), FirstSpeech: a.cfg.FirstSpeech(),
		Speech:   dialogue.SpeechBudget{MaxSentences: a.cfg.Speech.MaxSentences, MaxWords: a.cfg.Speech.MaxWords},
		Language: spec.Language, KeepLanguage: a.cfg.KeepLanguage(),
		Follow: dialogue.LanguageFollow(a.cfg.Language.Follow), Robot: spec.Name,
		IdleTimeout: time.Duration(a.cfg.Session.IdleTimeout), Logger: a.log.With("robot", spec.Name),
		Forget: a.forgetID,
	}
	if a.filler.Enabled() {
		// The words of the filler lines; each turn's Output says one at
		// most, when the silence lasts or a tool asks for it.
		opts.Filler = a.filler.Line
	}
	m, err := dialogue.NewManager(opts)
	if err != nil {
		return nil, err
	}
	r.manager = m
	return r, nil
}

// ensureKnowledge builds a missing base from knowledge.dir, else the built-in.
func (a *app) ensureKnowledge(ctx context.Context) {
	spaces, err := a.store.KnowledgeEmbedders(ctx)
	if err != nil {
		a.log.Warn("knowledge base unavailable", "err", err)
		return
	}
	switch {
	case len(spaces) == 0 && a.cfg.Knowledge.Dir != "":
		r, err := a.ingester().Run(ctx, a.cfg.Knowledge.Dir)
		if err != nil {
			a.log.Warn("knowledge base built with errors", "dir", a.cfg.Knowledge.Dir, "err", err)
		}
		a.log.Info("knowledge base built", "dir", a.cfg.Knowledge.Dir, "chunks", r.Chunks)
	case len(spaces) == 0:
		in := a.ingester()
		in.Builtin = true
		if _, err := in.RunFS(ctx, knowledge.Default(), knowledge.DefaultRoot); err != nil {
			a.log.Warn("knowledge base not built", "err", err)
		} else {
			a.log.Info("knowledge base built from the default documents")
		}
	case spaces[a.embedder.Name()] == 0:
		a.log.Warn("the knowledge base was embedded by another embedder and cannot be searched; run: nadine kb rebuild",
			"embedder", a.embedder.Name(), "stored", spaces)
	}
}

// checkMemorySpace warns of memories from another embedder: never compared
// with new vectors, they are not recalled until `nadine memory reembed`.
func (a *app) checkMemorySpace(ctx context.Context) {
	spaces, err := a.store.MemoryEmbedders(ctx)
	if err != nil {
		a.log.Warn("memory store unavailable", "err", err)
		return
	}
	other := 0
	for name, n := range spaces {
		if name != a.embedder.Name() {
			other += n
		}
	}
	if other > 0 {
		a.log.Warn("some memories were embedded by another embedder and are not recalled; run: nadine memory reembed",
			"memories", other, "embedder", a.embedder.Name())
	}
}

// translator: the HTTP service, else the translator model, else none.
func (a *app) translator() nadine.Translator {
	if u := a.cfg.Tools.TranslateURL; u != "" {
		return &translate.HTTP{BaseURL: u, APIKey: a.getenv(a.cfg.Tools.TranslateKeyEnv), Logger: a.log,
			HTTPClient: a.httpClient(translate.DefaultHTTPTimeout)}
	}
	if m := a.model("translator"); m != nil {
		return &translate.Model{Model: m, Logger: a.log}
	}
	return nil
}

// clientConfig makes one attempt per call: the failover pool retries, within
// the turn's budget (max_retries).
func (a *app) clientConfig(name string, p config.ProfileConfig) openai.Config {
	c := p.ClientConfig(name, a.getenv)
	c.HTTPClient, c.Logger = a.httpClient(0), a.log
	return c
}

// httpClient shares the app's transport (timeout 0: the context's only);
// nil, the default, for an app made without newApp (a test's bare app).
func (a *app) httpClient(timeout time.Duration) *http.Client {
	if a.transport == nil {
		return nil
	}
	return &http.Client{Transport: a.transport, Timeout: timeout}
}

// newEmbedder: the embeddings role's model, else the built-in lexical one.
func (a *app) newEmbedder() (nadine.Embedder, error) {
	ec, model, err := a.cfg.EmbedderConfig(a.getenv)
	switch {
	case err != nil:
		return nil, err
	case !model:
		return lexical.New(0), nil
	}
	// One attempt per call: the failover pool retries (see guardModels).
	ec.HTTPClient, ec.Logger = a.httpClient(0), a.log
	return openai.NewEmbedder(ec)
}

// model is a role's chat model on the first robot's chain (for the shared
// roles: translator, songwriter); nil when none of its profiles can be called.
func (a *app) model(role string) nadine.ChatModel {
	return a.roleModel(role, a.cfg.Models.Roles[role], a.cfg.Models.Fallback)
}

// roleModel is built once per chain and shared by the robots that use it;
// nil when none of the chain's profiles can be called.
func (a *app) roleModel(role, profile string, fallback []string) nadine.ChatModel {
	if a.pool == nil {
		return nil // no model profile set up (a test's bare app)
	}
	chain := append([]string{profile}, fallback...)
	key := role + "\x00" + strings.Join(chain, "\x00")
	if m, ok := a.models[key]; ok {
		return m
	}
	m := a.pool.Chat(role, a.cfg.RoleTimeouts(role), chain...)
	a.models[key] = m
	return m
}

// offlineEngine returns the offline engine of robots standing at the
// persona's place: immutable once built, it is shared by their managers.
func (a *app) offlineEngine(spec config.RobotSpec) *offline.Engine {
	key := spec.Place + "\x00" + fmt.Sprint(spec.PlaceTranslations)
	if e, ok := a.offlines[key]; ok {
		return e
	}
	a.warnUntranslatedPlace(spec)
	e := offline.New(offline.Options{Store: a.store, Persona: spec.Persona,
		Knowledge: a.store, Embedder: a.lexical, Detector: a.detector, Songs: a.songs, Logger: a.log})
	a.offlines[key] = e
	return e
}

// warnUntranslatedPlace names the languages that will hear place as written.
func (a *app) warnUntranslatedPlace(spec config.RobotSpec) {
	if strings.TrimSpace(spec.Place) == "" {
		return
	}
	var missing []string
	for _, l := range nadine.Languages() {
		if l != nadine.English && spec.PlaceTranslations[l] == "" {
			missing = append(missing, string(l))
		}
	}
	if len(missing) > 0 {
		a.log.Warn("place has no translation in some languages; the offline engine says it as written there (set place_translations)",
			"robot", spec.Name, "languages", strings.Join(missing, ","))
	}
}

// engines: the robot's engine, then the offline one. Fallback profiles are
// not engines: each model call asks them, so the engine keeps its one state.
func (a *app) engines(r *appRobot) error {
	spec := r.spec
	off := a.offlineEngine(spec)
	r.engine = spec.Engine
	if spec.Engine == "offline" {
		r.engines, r.offline = []nadine.Engine{off}, "engine: offline in the configuration"
		return nil
	}
	role := "react_agent"
	if spec.Engine == "graph" {
		role = "response"
	}
	models := func(role string) nadine.ChatModel { return a.roleModel(role, spec.Roles[role], spec.Fallback) }
	if models(role) == nil {
		p := a.cfg.Models.Profiles[spec.Roles[role]]
		r.engine, r.engines = "offline", []nadine.Engine{off}
		r.offline = fmt.Sprintf("no language model reachable: profile %q has no API key (set %s, or point models.profiles at a local server such as Ollama)",
			spec.Roles[role], p.APIKeyEnv)
		return nil
	}
	primary, err := a.modelEngine(spec, models)
	if err != nil {
		return err
	}
	r.engines = []nadine.Engine{primary, off}
	return nil
}

// modelEngine builds the robot's model-backed engine over role → model.
func (a *app) modelEngine(spec config.RobotSpec, model func(role string) nadine.ChatModel) (nadine.Engine, error) {
	switch spec.Engine {
	case "react":
		contextualizer := model("contextualizer")
		if !*a.cfg.Features.Contextualize {
			contextualizer = nil
		}
		eng, err := react.New(react.Options{
			Agent: model("react_agent"), Contextualizer: contextualizer, Tools: a.tools,
			Memories: a.store, Knowledge: a.store, Embedder: a.queries,
			MemoryK: a.cfg.Memory.TopK, KnowledgeK: a.cfg.Knowledge.TopK,
			MaxSteps: a.cfg.Limits.MaxSteps, MaxToolCalls: a.cfg.Limits.MaxToolCalls, ParseRetries: a.cfg.Limits.ParseRetries,
			Speculate: *a.cfg.Features.Speculate, SkipStandalone: *a.cfg.Features.SkipStandalone,
			Place: spec.Place, Logger: a.log,
		})
		if err != nil {
			return nil, err
		}
		a.closers = append(a.closers, eng.Close) // its reply streams that outlived their turn
		return eng, nil
	case "graph":
		eng, err := agents.New(agents.Options{
			Models: model, Store: a.store, Embedder: a.queries, Tools: a.tools, Camera: spec.Camera,
			Visual: a.visualRetriever(), MemoryAgents: *a.cfg.Features.MemoryAgents, VisionAgent: *a.cfg.Features.VisionAgent && spec.Camera != nil,
			NameHigh: a.cfg.Memory.NameHigh, NameLow: a.cfg.Memory.NameLow, ConversationLimit: a.cfg.Memory.ConversationLimit,
			NewUserID: nadine.NewUserID, Logger: a.log.With("robot", spec.Name), SeedWiring: a.cfg.Features.SeedWiring,
			SearchSummary: a.cfg.Features.SearchSummary, Speculate: *a.cfg.Features.Speculate,
		})
		if err != nil {
			return nil, err
		}
		a.closers = append(a.closers, eng.Close)
		return eng, nil
	}
	return nil, fmt.Errorf("config: engine: %q is not available", spec.Engine)
}

// visualRetriever recalls the scenes perception stored, indexed at start.
func (a *app) visualRetriever() *visual.Retriever {
	if a.visual != nil {
		return a.visual
	}
	dir := a.scenesDir()
	if _, err := os.Stat(dir); err == nil {
		n, err := visual.IndexAll(context.Background(), a.store, a.embedder, dir)
		if err != nil {
			a.log.Warn("visual memory: some scenes not indexed", "dir", dir, "err", err)
		}
		a.log.Info("visual memory indexed", "dir", dir, "scenes", n)
	}
	r := &visual.Retriever{Store: a.store, Description: a.embedder,
		Alpha: a.cfg.Visual.RetrievalAlpha, Threshold: a.cfg.Visual.SimilarityThreshold}
	if p, ok := a.cfg.Models.Profiles[a.cfg.Visual.ClipProfile]; ok && a.cfg.Visual.ClipModel != "" && p.Usable(a.getenv) {
		clip, err := openai.NewEmbedder(openai.EmbedderConfig{Profile: a.cfg.Visual.ClipProfile, BaseURL: p.BaseURL,
			APIKey: p.Key(a.getenv), Model: a.cfg.Visual.ClipModel, Timeout: time.Duration(p.Timeout), HTTPClient: a.httpClient(0), Logger: a.log})
		if err != nil {
			a.log.Warn("visual memory: CLIP text encoder not configured", "err", err)
		} else {
			r.TextToImage = clip
		}
	}
	a.visual = r
	return r
}

// scenesDir is perception's scene store: visual.scenes_dir, else DATA/scenes.
func (a *app) scenesDir() string {
	if d := a.cfg.Visual.ScenesDir; d != "" {
		return d
	}
	return filepath.Join(a.cfg.DataDir, "scenes")
}

// forgetter is the one erase path of the CLI, the API and the monitor, so
// that no holder of a person's data is forgotten by one of them.
func (a *app) forgetter() *nadine.Forgetter {
	return a.erasePath(func(m *dialogue.Manager) nadine.UserEraser { return m })
}

// forgetID erases a person who asked aloud; ErasePresent waits for a robot's
// turn in flight only when the person is in front of it.
func (a *app) forgetID(ctx context.Context, userID string) error {
	return a.erasePath(func(m *dialogue.Manager) nadine.UserEraser { return nadine.UserEraserFunc(m.ErasePresent) }).ForgetID(ctx, userID)
}

// erasePath is the erase path, with each robot's session erased by the
// eraser session gives for its manager.
func (a *app) erasePath(session func(*dialogue.Manager) nadine.UserEraser) *nadine.Forgetter {
	erasers := []nadine.UserEraser{visual.SceneFolders{Root: a.scenesDir()}}
	if a.queries != nil {
		erasers = append(erasers, a.queries) // the words of recent turns
	}
	for _, r := range a.robots {
		erasers = append(erasers, session(r.manager))
	}
	return &nadine.Forgetter{Store: a.store, Also: append(erasers, a.holders...)}
}

// newTools registers search, news and weather only with their keys; a slow
// tool asks for a filler line, and the turn's Output says one at most.
func (a *app) newTools() []nadine.Tool {
	t := a.cfg.Tools
	songs := t.SongsDir
	if songs == "" {
		songs = filepath.Join(a.cfg.DataDir, "songs")
		// The default library starts empty: drop songs in <data>/songs/<lang>/.
		if err := os.MkdirAll(songs, 0o750); err != nil {
			a.log.Warn("song library folder not created", "dir", songs, "err", err)
		}
	}
	a.filler = a.newFiller()
	ts := tools.New(tools.Config{
		Search:    tools.SearchConfig{APIKey: a.getenv(t.SerperKeyEnv), BaseURL: t.SerperURL, HTTPClient: a.httpClient(0)},
		Weather:   tools.WeatherConfig{APIKey: a.getenv(t.OpenWeatherKeyEnv), BaseURL: t.OpenWeatherURL, HTTPClient: a.httpClient(0)},
		Behaviour: tools.BehaviourConfig{Wait: time.Duration(a.cfg.Limits.BehaviourWait)},
		Songs:     tools.SongConfig{Dir: songs, Model: a.model("songwriter")},
	}, a.log)
	for i, tool := range ts {
		switch tool.Name() {
		case tools.NameSearch, tools.NameNews, tools.NameWeather:
			ts[i] = tools.WithFiller(tool)
		}
	}
	return ts
}

// newFiller returns nil when filler.enabled is false.
func (a *app) newFiller() *tools.Filler {
	if e := a.cfg.Filler.Enabled; e != nil && !*e {
		return nil
	}
	f, err := tools.NewFiller(tools.FillerConfig{Lines: a.cfg.FillerLines()})
	if err != nil {
		// validate checked the lines already.
		a.log.Warn("filler lines not usable; using the built-in lines", "err", err)
		f, _ = tools.NewFiller(tools.FillerConfig{})
	}
	return f
}

// songs lists the song library in one language (for the offline engine).
func (a *app) songs(l nadine.Language) []nadine.Song {
	var out []nadine.Song
	for _, t := range a.tools {
		if s, ok := tools.Unwrap(t).(*tools.Singer); ok {
			for _, song := range s.Songs() {
				if song.Language == l {
					out = append(out, song)
				}
			}
		}
	}
	return out
}

// banner says which engine and models are active, and plainly when offline.
func (a *app) banner() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Nadine %s — data in %s\n", currentVersion().Short(), a.cfg.DataDir)
	if a.cfg.Store.URL != "" {
		fmt.Fprintf(&b, "Memory: %s\n", a.storeIs)
	}
	if a.engine == "offline" {
		fmt.Fprintf(&b, "OFFLINE: answering with the rule-based engine (%s).\n", a.offline)
		fmt.Fprintf(&b, "Embeddings: %s\n", a.embedder.Name())
		return b.String()
	}
	fmt.Fprintf(&b, "Engine: %s\n", a.engine)
	roles := make([]string, 0, len(a.cfg.Models.Roles))
	for r := range a.cfg.Models.Roles {
		roles = append(roles, r)
	}
	sort.Strings(roles)
	byProfile := map[string][]string{}
	for _, r := range roles {
		byProfile[a.cfg.Models.Roles[r]] = append(byProfile[a.cfg.Models.Roles[r]], r)
	}
	profiles := make([]string, 0, len(byProfile))
	for p := range byProfile {
		profiles = append(profiles, p)
	}
	sort.Strings(profiles)
	for _, p := range profiles {
		pc := a.cfg.Models.Profiles[p]
		state := "ready"
		if _, ok := a.clients[p]; !ok {
			state = "NOT REACHABLE (no key)"
		}
		host := pc.BaseURL
		if u, err := url.Parse(pc.BaseURL); err == nil {
			host = u.Host
		}
		fmt.Fprintf(&b, "Models: %s = %s at %s, %s (%s)\n", p, pc.Model, host, state, strings.Join(byProfile[p], ", "))
	}
	if len(a.cfg.Models.Fallback) > 0 {
		fmt.Fprintf(&b, "Fallback: profiles %s, then the offline engine\n", strings.Join(a.cfg.Models.Fallback, ", "))
	} else {
		fmt.Fprintln(&b, "Fallback: offline engine")
	}
	fmt.Fprintf(&b, "Failover: %s\n", a.cfg.DescribeFailover())
	fmt.Fprintf(&b, "Embeddings: %s\n", a.embedder.Name())
	return b.String()
}

// resolveUser finds a user by name (any case) or id, or creates one.
func (a *app) resolveUser(ctx context.Context, name string) (nadine.UserRef, error) {
	name = strings.TrimSpace(name)
	users, err := a.store.Users(ctx)
	if err != nil {
		return nadine.UserRef{}, err
	}
	if u, ok := nadine.FindUser(users, name); ok {
		return u, nil
	}
	u := nadine.UserRef{ID: nadine.NewUserID(name), Name: name}
	if err := nadine.CreateProfile(ctx, a.store, u, time.Now()); err != nil {
		return nadine.UserRef{}, err
	}
	return u, nil
}

// managerCloseGrace bounds Close's wait for engines abandoned past a turn's
// budget; one that ignores its canceled context is left behind.
const managerCloseGrace = 5 * time.Second

// Close stops the managers first (no turn runs, abandoned calls are waited
// for), then engines, probes, warm-ups and tools, and the store last.
func (a *app) Close() error {
	var errs []error
	ctx, cancel := context.WithTimeout(context.Background(), managerCloseGrace)
	defer cancel()
	for _, r := range a.robots {
		if err := r.manager.Close(ctx); err != nil {
			errs = append(errs, fmt.Errorf("robot %s: %w", r.spec.Name, err))
		}
	}
	for _, c := range a.closers {
		errs = append(errs, c())
	}
	errs = append(errs, tools.CloseAll(a.tools))
	if a.transport != nil {
		a.transport.CloseIdleConnections() // nothing sends any more
	}
	return errors.Join(append(errs, a.store.Close())...)
}
