package robot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/bargein"
	"github.com/nadine-robot/nadine/dialogue"
)

// Body is what the runtime makes the robot do. *mqtt.Bus implements it
// (cmd/nadine checks).
type Body interface {
	Speak(ctx context.Context, s nadine.Speech) error
	Animate(ctx context.Context, g nadine.Gesture) error
	PublishAffect(ctx context.Context, a nadine.AffectState) error
	PublishUserInfo(ctx context.Context, u nadine.UserRef) error
	// ForgetFace tells face recognition that a person was erased.
	ForgetFace(ctx context.Context, userID string) error
	PlaySong(ctx context.Context, s nadine.Song) error
	PublishLanguage(ctx context.Context, l nadine.Language) error
	// StopSpeaking tells text-to-speech to stop the turn's speech now and
	// drop what it queued (the person interrupted Nadine).
	StopSpeaking(ctx context.Context, turnID, reason string) error
}

// Options configures a Runtime. Manager is required.
type Options struct {
	Manager *dialogue.Manager
	// Body receives the turn's output; nil publishes nothing (chat mode).
	Body Body
	// Names records the id → name map when face recognition stores a face.
	Names nadine.ProfileStore
	// WarmPerson, when set, is called as perception names a person, so their
	// memory vectors load before their first turn. It must return at once.
	WarmPerson func(userID string)
	// SpeakTimeout resumes listening when end_speak never comes (30 s).
	SpeakTimeout time.Duration
	// ShutdownGrace bounds how long the turn in flight may take to finish
	// once Run's context is done (30 s).
	ShutdownGrace time.Duration
	// IdleTimeout ends the interaction when no transcript and no sighting
	// of the person came for this long (session.idle_timeout); 0 never.
	IdleTimeout time.Duration
	// Recent is how many finished turns the runtime keeps for the monitor
	// to show on page load (50).
	Recent int
	// Inbox, when set, keeps acknowledged transcripts and their progress, so
	// none is lost or answered twice across restarts.
	Inbox nadine.Inbox
	// MaxAge expires a heard transcript older than this, from the time it
	// carries, else its arrival (10 s).
	MaxAge time.Duration
	// Queue bounds waiting heard transcripts, dropping the oldest (32);
	// operator turns are not counted and never dropped.
	Queue int
	// Backlog is how many heard transcripts may wait before a new final one
	// supersedes them, so the newest is answered next (3).
	Backlog int
	// Preempt starts early turns on interim transcripts that are stable or
	// held for PreemptAfter, at most PreemptAttempts per utterance.
	Preempt         bool
	PreemptAfter    time.Duration
	PreemptAttempts int
	// WarmWords, when set, gets interim words that held, so the query
	// embedding is computed while the person finishes. It must return at once.
	WarmWords func(text string)
	// Interruptions says whether and how a person talking over Nadine
	// stops her (interrupt.go); the zero value is off.
	Interruptions Interruptions
	// Observe, when set, receives every update synchronously, none lost, for
	// metrics and traces. It must return at once.
	Observe func(Update)
	Now     func() time.Time
	Logger  *slog.Logger
}

// Runtime runs turns from the bus and from operators, one at a time.
type Runtime struct {
	opts Options
	log  *slog.Logger
	m    *dialogue.Manager

	mu       sync.Mutex
	queue    []job
	wake     chan struct{}
	speaking time.Time // listening is suspended until then
	subs     map[int]chan Update
	nextSub  int
	closed   bool
	active   time.Time                     // the last transcript or sighting of the person
	busy     bool                          // a job is running
	recent   []Update                      // the last finished turns and ends of interaction, oldest first
	resumed  int64                         // the last inbox seq taken at start
	marks    map[nadine.InboxState][]int64 // inbox state changes to write
	pre      preemption                    // the early turn on an interim transcript
	// startMu makes the starts of early turns (interim transcripts on the
	// bus loop, their timers, the worker's resumeEarly) one at a time: a
	// start records its early turn before the next one looks for it.
	startMu sync.Mutex
	// timers counts the interim timers' functions not yet done (see
	// interim): added under mu while not closed, waited by Run.
	timers sync.WaitGroup

	// Fresh first (fresh.go).
	expiry    *time.Timer // set for the first heard transcript to expire
	expiryAt  time.Time
	expiryGen uint64
	overload  bool      // see overloaded
	lastHeard time.Time // when the last final transcript came
	flight    *flight   // the heard turn in flight

	// Interruptions (interrupt.go).
	judge   *bargein.Judge // nil when off
	talk    *talk          // what Nadine says, or said last
	reports bool           // text-to-speech reported a line said in this run
}

// job is one entry of the turn queue: a turn or a user leaving.
type job struct {
	turn   *nadine.Turn
	left   string          // the end of interaction's reason, when the job is one
	user   *nadine.UserRef // perception's sighting of a person
	emit   nadine.EmitFunc
	result chan result
	// heard is set for a transcript from the bus (or the inbox): it may
	// expire or be dropped from a full queue.
	heard *nadine.Transcript
	// flight is a heard job's, once the worker took it.
	flight *flight
}

type result struct {
	reply nadine.Reply
	err   error
}

// Defaults of Options.MaxAge and Options.Queue.
const (
	DefaultMaxAge = 10 * time.Second
	DefaultQueue  = 32
)

// New returns a runtime.
func New(opts Options) (*Runtime, error) {
	if opts.Manager == nil {
		return nil, nadine.Errorf(nadine.EINVALID, "robot: no dialogue manager")
	}
	if opts.SpeakTimeout <= 0 {
		opts.SpeakTimeout = 30 * time.Second
	}
	if opts.ShutdownGrace <= 0 {
		opts.ShutdownGrace = 30 * time.Second
	}
	if opts.Recent <= 0 {
		opts.Recent = 50
	}
	if opts.MaxAge <= 0 {
		opts.MaxAge = DefaultMaxAge
	}
	if opts.Queue <= 0 {
		opts.Queue = DefaultQueue
	}
	if opts.Backlog <= 0 {
		opts.Backlog = DefaultBacklog
	}
	if opts.PreemptAfter <= 0 {
		opts.PreemptAfter = DefaultPreemptAfter
	}
	if opts.PreemptAttempts <= 0 {
		opts.PreemptAttempts = DefaultPreemptAttempts
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Interruptions.Mode == "" {
		opts.Interruptions.Mode = InterruptOff
	}
	if !opts.Interruptions.Mode.Valid() {
		return nil, nadine.Errorf(nadine.EINVALID, "robot: interruption mode %q: want off, words or speech", opts.Interruptions.Mode)
	}
	if opts.Interruptions.MinDuration <= 0 {
		opts.Interruptions.MinDuration = DefaultInterruptMinDuration
	}
	if opts.Interruptions.FalseTimeout <= 0 {
		opts.Interruptions.FalseTimeout = DefaultFalseInterruptionTimeout
	}
	judge, err := newJudge(opts.Interruptions)
	if err != nil {
		return nil, err
	}
	return &Runtime{opts: opts, log: opts.Logger, m: opts.Manager, wake: make(chan struct{}, 1), subs: map[int]chan Update{},
		marks: map[nadine.InboxState][]int64{}, judge: judge}, nil
}

// Run handles inbound messages until ctx is done or in closes; the turn in
// flight may finish within ShutdownGrace. A nil in runs operator turns only.
func (r *Runtime) Run(ctx context.Context, in <-chan nadine.Inbound) error {
	workCtx, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelWork()
	// A stop that comes while the inbox is read (a SIGTERM right after the
	// start) does not fail the start: the pending transcripts stay in the
	// inbox either way.
	resumeCtx, cancelResume := context.WithTimeout(context.WithoutCancel(ctx), r.opts.ShutdownGrace)
	err := r.resume(resumeCtx)
	cancelResume()
	if err != nil {
		return err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.work(workCtx, ctx.Done())
	}()
	idleDone := make(chan struct{})
	idleCtx, stopIdle := context.WithCancel(ctx)
	go func() {
		defer close(idleDone)
		r.watchIdle(idleCtx)
	}()
	if r.opts.Body != nil {
		// Speech-to-text listens for the session language from the start
		// (the message is retained).
		if err := r.opts.Body.PublishLanguage(ctx, r.m.Language()); err != nil {
			r.log.Warn("language not published to speech-to-text", "err", err)
		}
	}
	r.loop(ctx, in)
	stopIdle()
	<-idleDone

	// Shutdown: refuse new work (no early turn starts once closed), stop
	// the early turn and its timer, finish the turn in flight.
	r.mu.Lock()
	r.closed = true
	dropped := r.queue
	r.queue = nil
	r.stopTimerOf(&r.expiry)
	r.mu.Unlock()
	r.stopEarly("shutting down")
	r.timers.Wait()
	kept := 0
	for _, j := range dropped {
		if j.result != nil {
			j.result <- result{err: nadine.Errorf(nadine.EUNAVAILABLE, "robot: shutting down")}
		}
		if j.heard != nil && j.heard.Seq != 0 {
			kept++
		}
	}
	if kept > 0 {
		r.log.Info("shutdown: heard transcripts left in the inbox for the next start", "count", kept)
	}
	if n := len(dropped) - kept; n > 0 {
		r.log.Warn("shutdown: queued turns not answered", "count", n)
	}
	r.flushMarks(context.WithoutCancel(ctx))
	r.signal()
	select {
	case <-done:
	case <-time.After(r.opts.ShutdownGrace):
		r.log.Warn("shutdown: turn in flight canceled after grace period", "grace", r.opts.ShutdownGrace)
		cancelWork()
		<-done
	}
	storeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.opts.ShutdownGrace)
	defer cancel()
	if err := r.m.Recover(storeCtx); err != nil {
		return fmt.Errorf("robot: store pending history: %w", err)
	}
	r.closeSubscribers()
	return nil
}

// resume takes the inbox from before this start: a silent started turn is
// taken again, one that had spoken is never answered twice.
func (r *Runtime) resume(ctx context.Context) error {
	if r.opts.Inbox == nil {
		return nil
	}
	entries, err := r.opts.Inbox.Pending(ctx)
	if err != nil {
		return fmt.Errorf("robot: inbox: %w", err)
	}
	for _, e := range entries {
		r.mu.Lock()
		r.resumed = max(r.resumed, e.Seq)
		r.mu.Unlock()
		if e.State == nadine.InboxSpoken {
			r.log.Warn("transcript interrupted by a restart after its turn spoke; not answered again", "id", e.ID, "seq", e.Seq)
			r.mark(ctx, nadine.InboxInterrupted, e.Seq)
			r.broadcast(Update{Kind: UpdateDropped, TurnID: e.ID, Input: e.Text, Reason: ReasonInterrupted})
			continue
		}
		if bargein.Sounds(e.Text) {
			r.dropSounds(e.Transcript)
			continue
		}
		r.hear(e.Transcript)
	}
	if len(entries) > 0 {
		r.log.Info("inbox: transcripts from before the start", "count", len(entries))
	}
	r.flushMarks(ctx)
	return nil
}

// loop reads the bus in arrival order.
func (r *Runtime) loop(ctx context.Context, in <-chan nadine.Inbound) {
	for {
		select {
		case <-ctx.Done():
			return
		case msg, ok := <-in:
			if !ok {
				if in == nil {
					<-ctx.Done()
				}
				return
			}
			r.handle(ctx, msg)
			if len(in) == 0 {
				// A burst's drops are recorded in one write.
				r.flushMarks(ctx)
			}
		}
	}
}

// hear queues a transcript: too old, it expires; overloaded, it supersedes
// those before it; with Options.Queue waiting, the oldest is dropped.
func (r *Runtime) hear(t nadine.Transcript) {
	turn := nadine.Turn{ID: t.ID, Text: t.Text, Language: t.Language, Time: heardAt(t)}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return // it stays in the inbox
	}
	now := r.opts.Now()
	if r.expired(t, now) {
		r.mu.Unlock()
		r.report([]skipped{{h: &t, state: nadine.InboxExpired, kind: UpdateExpired, why: ReasonExpired}})
		return
	}
	waiting := 0
	oldest := -1
	for i, j := range r.queue {
		if j.heard != nil {
			waiting++
			if oldest < 0 {
				oldest = i
			}
		}
	}
	var skips []skipped
	switch {
	case r.overloaded(waiting):
		skips = r.supersede()
	case waiting >= r.opts.Queue && oldest >= 0:
		h := r.queue[oldest].heard
		r.queue = append(r.queue[:oldest], r.queue[oldest+1:]...)
		skips = []skipped{{h: h, state: nadine.InboxDropped, kind: UpdateDropped, why: ReasonQueueFull}}
		r.log.Warn("transcript dropped: the turn queue is full; the oldest goes", "id", h.ID, "seq", h.Seq, "queue", r.opts.Queue,
			"age", now.Sub(heardAt(*h)).Round(time.Millisecond))
	}
	r.queue = append(r.queue, job{turn: &turn, heard: &t})
	r.lastHeard = now
	r.scheduleExpiry()
	r.mu.Unlock()
	r.signal()
	r.report(skips)
}

// dropSounds drops a final transcript that holds no words, only sounds
// speech-to-text annotated.
func (r *Runtime) dropSounds(t nadine.Transcript) {
	r.log.Debug("transcript dropped: sounds, no words", "id", t.ID, "seq", t.Seq)
	r.report([]skipped{{h: &t, state: nadine.InboxDropped, kind: UpdateDropped, why: ReasonNoise}})
}

// heardAt is when a transcript was spoken: the time it carries, else its
// arrival.
func heardAt(t nadine.Transcript) time.Time {
	if !t.Spoken.IsZero() {
		return t.Spoken
	}
	return t.Received
}

// queueMark records a state change of inbox transcripts, written by the
// next flushMarks (drops come in bursts).
func (r *Runtime) queueMark(state nadine.InboxState, seq int64) {
	if r.opts.Inbox == nil || seq == 0 {
		return
	}
	r.mu.Lock()
	r.marks[state] = append(r.marks[state], seq)
	r.mu.Unlock()
}

// flushMarks writes the queued state changes.
func (r *Runtime) flushMarks(ctx context.Context) {
	r.mu.Lock()
	marks := r.marks
	r.marks = map[nadine.InboxState][]int64{}
	r.mu.Unlock()
	for state, seqs := range marks {
		r.mark(ctx, state, seqs...)
	}
}

// mark writes a state change of inbox transcripts now.
func (r *Runtime) mark(ctx context.Context, state nadine.InboxState, seqs ...int64) {
	if r.opts.Inbox == nil || len(seqs) == 0 || seqs[0] == 0 {
		return
	}
	if err := r.opts.Inbox.Mark(ctx, state, seqs...); err != nil {
		r.log.Error("inbox: state not recorded", "state", state, "count", len(seqs), "err", err)
	}
}

// handle applies one inbound message.
func (r *Runtime) handle(ctx context.Context, msg nadine.Inbound) {
	switch msg.Kind {
	case nadine.InboundTranscript:
		now := r.opts.Now()
		r.mu.Lock()
		speaking := now.Before(r.speaking)
		r.mu.Unlock()
		tr := msg.Transcript
		r.mu.Lock()
		resumed := tr.Seq != 0 && tr.Seq <= r.resumed
		r.mu.Unlock()
		if resumed {
			return // already taken from the inbox at start
		}
		if bargein.Sounds(tr.Text) {
			// No words ("[BLANK_AUDIO]", "(music)"): never an interruption,
			// never a turn.
			if tr.Final {
				r.dropSounds(tr)
			}
			return
		}
		if r.judge != nil {
			// What is heard while she speaks is judged: a real
			// interruption stops her and is heard as any transcript.
			if !r.heardWhileSpeaking(ctx, tr) {
				return
			}
		} else if speaking && !tr.Final {
			return // Nadine hears herself
		} else if speaking {
			r.log.Info("transcript dropped: listening is suspended while Nadine speaks", "id", tr.ID, "chars", len(tr.Text))
			r.queueMark(nadine.InboxDropped, tr.Seq)
			r.broadcast(Update{Kind: UpdateDropped, TurnID: tr.ID, Input: tr.Text, Reason: ReasonSpeaking})
			return
		}
		if tr.Received.IsZero() {
			tr.Received = msg.Received
		}
		r.touch()
		if !tr.Final {
			r.interim(ctx, tr)
			return
		}
		r.hear(tr)
	case nadine.InboundUserLeft:
		// Whichever id perception gives (its own, ours, none), the person
		// in front of the robot is gone: the next one starts fresh.
		r.enqueue(job{left: "left"})
	case nadine.InboundUserName, nadine.InboundUserDetected:
		u := msg.User
		if r.opts.WarmPerson != nil && u.ID != "" {
			r.opts.WarmPerson(u.ID)
		}
		r.touch()
		r.enqueue(job{user: &u})
		r.log.Debug("user in front of the robot", "user", nadine.PersonID(msg.User.ID), "confidence", msg.Confidence)
	case nadine.InboundFaceStored:
		if r.m.Erased(msg.User.ID) {
			r.log.Debug("face_stored of a person erased meanwhile: ignored")
			return
		}
		if r.opts.Names != nil && msg.User.ID != "" && msg.User.Name != "" {
			if err := r.opts.Names.SetUserName(ctx, msg.User.ID, msg.User.Name); err != nil {
				r.log.Warn("face_stored: name not recorded", "user", nadine.PersonID(msg.User.ID), "err", err)
			}
		}
	case nadine.InboundUserEmotion:
		r.m.SetUserEmotion(msg.Emotion)
		r.broadcastSession()
	case nadine.InboundLanguage:
		if err := r.SetLanguage(ctx, msg.Language); err != nil {
			r.log.Warn("language not set", "language", msg.Language, "err", err)
		}
	case nadine.InboundStartSpeak:
		r.mu.Lock()
		r.speaking = r.opts.Now().Add(r.opts.SpeakTimeout)
		r.mu.Unlock()
	case nadine.InboundSpoken:
		r.spokenReport(msg.Spoken)
	case nadine.InboundSpeechStarted:
		r.voiceStarted(ctx)
	case nadine.InboundEndSpeak:
		r.mu.Lock()
		r.speaking = time.Time{}
		r.mu.Unlock()
	default:
		r.log.Debug("inbound message ignored", "kind", msg.Kind)
	}
}

// ended tells speech-to-text and the monitor that an interaction ended
// (nothing when none did).
func (r *Runtime) ended(ctx context.Context, end dialogue.Ending) {
	if end.Ended() {
		if end.LanguageChanged && r.opts.Body != nil {
			if err := r.opts.Body.PublishLanguage(ctx, end.Language); err != nil {
				r.log.Warn("language not published to speech-to-text", "err", err)
			}
		}
		r.keep(Update{Kind: UpdateEnded, Ending: &end})
	}
	r.broadcastSession()
}

// Waiting returns how many heard transcripts wait for their turn (the turn
// queue's depth, operator turns and other jobs aside).
func (r *Runtime) Waiting() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, j := range r.queue {
		if j.heard != nil {
			n++
		}
	}
	return n
}

// Listening reports whether heard transcripts are taken: false between
// start_speak and end_speak (or SpeakTimeout), while Nadine hears herself.
func (r *Runtime) Listening() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return !r.opts.Now().Before(r.speaking)
}

// SetLanguage changes the session language (HTTP API, UI, bus) and tells
// speech-to-text.
func (r *Runtime) SetLanguage(ctx context.Context, l nadine.Language) error {
	if err := r.m.SetLanguage(l); err != nil {
		return err
	}
	if r.opts.Body != nil {
		if err := r.opts.Body.PublishLanguage(ctx, l); err != nil {
			r.log.Warn("language not published to speech-to-text", "err", err)
		}
	}
	r.broadcastSession()
	return nil
}

// Submit queues an operator's turn behind those already heard and waits for
// its reply; emit, if not nil, receives its events as they happen.
func (r *Runtime) Submit(ctx context.Context, t nadine.Turn, emit nadine.EmitFunc) (nadine.Reply, error) {
	if _, _, err := dialogue.Normalize(t.Text, 0); err != nil {
		return nadine.Reply{}, err
	}
	res := make(chan result, 1)
	if !r.enqueue(job{turn: &t, emit: emit, result: res}) {
		return nadine.Reply{}, nadine.Errorf(nadine.EUNAVAILABLE, "robot: shutting down")
	}
	select {
	case out := <-res:
		return out.reply, out.err
	case <-ctx.Done():
		return nadine.Reply{}, ctx.Err()
	}
}

// EndInteraction queues the end of the current interaction (an operator,
// the API); reason is logged ("api").
func (r *Runtime) EndInteraction(reason string) bool {
	if reason == "" {
		reason = "api"
	}
	return r.enqueue(job{left: reason})
}

// touch records a sign of the person's presence (a transcript, a
// sighting), which postpones the idle end of the interaction.
func (r *Runtime) touch() {
	r.mu.Lock()
	r.active = r.opts.Now()
	r.mu.Unlock()
}

// watchIdle ends the interaction once nobody spoke and perception saw
// nobody for IdleTimeout, while no turn runs or waits.
func (r *Runtime) watchIdle(ctx context.Context) {
	if r.opts.IdleTimeout <= 0 {
		return
	}
	tick := time.NewTicker(max(r.opts.IdleTimeout/8, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		r.mu.Lock()
		idle := !r.busy && len(r.queue) == 0 && !r.active.IsZero() && r.opts.Now().Sub(r.active) >= r.opts.IdleTimeout
		if idle {
			r.active = time.Time{}
		}
		r.mu.Unlock()
		if idle && r.m.Session().InInteraction() {
			r.enqueue(job{left: "idle"})
		}
	}
}

func (r *Runtime) enqueue(j job) bool {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return false
	}
	r.queue = append(r.queue, j)
	r.mu.Unlock()
	r.signal()
	return true
}

func (r *Runtime) signal() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// work runs queued jobs one at a time; once stopping closes, the turn in
// flight finishes and heard transcripts stay in the inbox.
func (r *Runtime) work(ctx context.Context, stopping <-chan struct{}) {
	for {
		r.mu.Lock()
		select {
		case <-stopping:
			r.mu.Unlock()
			return
		default:
		}
		if len(r.queue) == 0 {
			closed := r.closed
			r.mu.Unlock()
			if closed {
				return
			}
			select {
			case <-r.wake:
			case <-ctx.Done():
				return
			}
			continue
		}
		j := r.queue[0]
		if wait := r.settling(j); wait > 0 {
			r.mu.Unlock()
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-r.wake:
			case <-ctx.Done():
				t.Stop()
				return
			}
			t.Stop()
			continue
		}
		r.queue = r.queue[1:]
		r.busy = true
		if j.heard != nil {
			fctx, cancel := context.WithCancel(ctx)
			j.flight = &flight{ctx: fctx, cancel: cancel}
			r.flight = j.flight
		}
		r.scheduleExpiry()
		r.mu.Unlock()
		r.run(ctx, j)
		r.mu.Lock()
		if j.flight != nil {
			j.flight.cancel()
			if r.flight == j.flight {
				r.flight = nil
			}
		}
		r.busy = false
		if j.turn != nil {
			// The person's silence is counted from the end of the reply.
			r.active = r.opts.Now()
		}
		r.mu.Unlock()
		r.resumeEarly(ctx)
	}
}

// run executes one job. A heard transcript's turn adopts the early turn
// of its utterance when it is the same words; any other job cancels it.
func (r *Runtime) run(ctx context.Context, j job) {
	var (
		early     *dialogue.EarlyTurn
		discarded []nadine.Speculation
	)
	if j.heard != nil {
		early, discarded = r.takeEarly()
	} else {
		r.stopEarly("another job came first")
	}
	if j.left != "" {
		end, err := r.m.EndInteraction(ctx, j.left)
		if err != nil {
			r.log.Error("end of interaction: history not stored", "err", err)
		}
		r.ended(ctx, end)
		return
	}
	if j.user != nil {
		end, err := r.m.SetUser(ctx, *j.user)
		if err != nil {
			r.log.Error("end of interaction: history not stored", "err", err)
		}
		r.ended(ctx, end)
		return
	}
	t := *j.turn
	if t.ID == "" {
		t.ID = newTurnID()
	}
	var seq int64
	if h := j.heard; h != nil {
		seq = h.Seq
		if now := r.opts.Now(); r.expired(*h, now) {
			age := now.Sub(heardAt(*h))
			if early != nil {
				early.Cancel()
			}
			r.log.Warn("transcript expired: too old to answer", "id", h.ID, "seq", h.Seq,
				"age", age.Round(time.Millisecond), "max_age", r.opts.MaxAge)
			r.mark(ctx, nadine.InboxExpired, seq)
			r.broadcast(Update{Kind: UpdateExpired, TurnID: t.ID, Input: t.Text, Reason: ReasonExpired})
			return
		}
		if f := j.flight; f != nil {
			r.mu.Lock()
			superseded := f.superseded
			r.mu.Unlock()
			if superseded {
				if early != nil {
					early.Cancel()
				}
				r.abandoned(ctx, j)
				return
			}
		}
		r.mark(ctx, nadine.InboxTaken, seq)
	}
	var (
		reply   nadine.Reply
		err     error
		adopted bool
	)
	r.beginTalk(t.ID)
	defer r.turnReturned(t.ID)
	if early != nil {
		if reply, adopted = r.answerEarly(ctx, early, t, seq, j.emit); !adopted {
			if sp, ok := early.Discarded(); ok {
				discarded = append(discarded, sp)
			}
		}
	}
	if !adopted {
		trace := nadine.NewTrace(t.ID, t.Text, r.opts.Now())
		tctx := nadine.WithTrace(ctx, trace)
		out := newOutput(r, tctx, t.ID, j.emit)
		out.inbox = seq
		sctx, emit := tctx, out.emit
		if f := j.flight; f != nil {
			// Only the turn is cancelled when it is superseded: what it
			// publishes, if it spoke meanwhile, goes out.
			sctx, emit = nadine.WithTrace(f.ctx, trace), r.watchSpeech(f, out.emit)
		}
		reply, err = r.m.Stream(sctx, t, emit)
		if errors.Is(err, dialogue.ErrAbandoned) {
			if r.talkInterrupted(t.ID) {
				// The person talked over its filler: their words are
				// the next turn.
				r.mark(ctx, nadine.InboxAnswered, seq)
				r.broadcast(Update{Kind: UpdateDropped, TurnID: t.ID, Input: t.Text, Reason: ReasonTalkedOver})
				return
			}
			r.abandoned(ctx, j)
			return
		}
	}
	for _, sp := range discarded {
		reply.Trace.AddSpeculation(sp) // what the utterance's cancelled early turns cost
	}
	if seq != 0 {
		r.mark(ctx, nadine.InboxAnswered, seq)
	}
	if err == nil {
		r.keep(Update{Kind: UpdateTurn, TurnID: t.ID, Input: t.Text, Reply: &reply})
		r.broadcastSession()
		if j.heard != nil {
			r.mu.Lock()
			r.caughtUp()
			r.mu.Unlock()
		}
	} else {
		r.log.Warn("turn refused", "err", err)
		r.observe(Update{Kind: UpdateFailed, TurnID: t.ID, Reason: nadine.ErrorCode(err), Reply: &reply})
	}
	if j.result != nil {
		j.result <- result{reply, err}
	}
}

// output publishes a turn's events in order from its own goroutine, so a slow
// broker holds back no engine; the first reply sentence marks it spoken.
type output struct {
	r       *Runtime
	ctx     context.Context
	turnID  string
	forward nadine.EmitFunc
	inbox   int64 // the transcript's inbox seq, marked spoken before the first reply sentence
	replied bool  // a reply sentence was published
	ended   bool  // the final marker was published at the reply's speech end
}

func newOutput(r *Runtime, ctx context.Context, turnID string, forward nadine.EmitFunc) *output {
	return &output{r: r, ctx: ctx, turnID: turnID, forward: forward}
}

// emit publishes an event, tells the monitor and passes it to the caller.
func (o *output) emit(e nadine.Event) {
	if o.r.opts.Body != nil {
		o.publish(e)
	}
	o.r.broadcast(Update{Kind: UpdateEvent, TurnID: o.turnID, Event: &e})
	if o.forward != nil {
		o.forward(e)
	}
}

// publish sends an event on the body.
func (o *output) publish(e nadine.Event) {
	b := o.r.opts.Body
	var err error
	switch e.Kind {
	case nadine.EventSpeech:
		seq, ok := o.r.line(o.turnID, e)
		if !ok {
			return // the person interrupted Nadine: withheld
		}
		if !e.Filler && !o.replied {
			// From now on the turn has been heard: a restart must not
			// answer it again.
			o.replied = true
			o.r.mark(o.ctx, nadine.InboxSpoken, o.inbox)
		}
		// A filler line (said while the turn waits) is spoken like a
		// sentence, with its own seq, marked as such.
		err = b.Speak(o.ctx, nadine.Speech{Text: e.Text, Language: e.Language, Seq: seq, TurnID: o.turnID, Filler: e.Filler})
	case nadine.EventGesture:
		err = b.Animate(o.ctx, e.Gesture)
	case nadine.EventAffect:
		if e.Affect != nil {
			err = b.PublishAffect(o.ctx, *e.Affect)
		}
	case nadine.EventUser:
		if e.User != nil {
			err = b.PublishUserInfo(o.ctx, *e.User)
		}
	case nadine.EventLanguage:
		err = b.PublishLanguage(o.ctx, e.Language)
	case nadine.EventSong:
		if e.Song != nil {
			err = b.PlaySong(o.ctx, *e.Song)
		}
	case nadine.EventSpeechEnd, nadine.EventDone:
		// The final marker: at the reply's speech end when the engine
		// told it, else at the turn's end; once.
		if o.ended {
			return
		}
		o.ended = true
		lang := e.Language
		if e.Reply != nil {
			lang = e.Reply.Language
		}
		seq, ok := o.r.done(o.turnID, e)
		if !ok {
			return
		}
		err = b.Speak(o.ctx, nadine.Speech{Language: lang, Seq: seq, Final: true, TurnID: o.turnID})
	}
	if err != nil {
		o.r.log.Warn("bus: event not published", "kind", e.Kind, "turn", o.turnID, "err", err)
		nadine.TraceFrom(o.ctx).Fail("bus:"+string(e.Kind), err)
	}
}
