package robot

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
)

// Body is what the runtime makes the robot do. *mqtt.Bus implements it
// (cmd/nadine checks).
type Body interface {
	Speak(ctx context.Context, s nadine.Speech) error
	Animate(ctx context.Context, g nadine.Gesture) error
	PublishAffect(ctx context.Context, a nadine.AffectState) error
	PublishUserInfo(ctx context.Context, u nadine.UserRef) error
	PlaySong(ctx context.Context, s nadine.Song) error
	PublishLanguage(ctx context.Context, l nadine.Language) error
}

// Options configures a Runtime. Manager is required.
type Options struct {
	Manager *dialogue.Manager
	// Body receives the turn's output; nil publishes nothing (chat mode).
	Body Body
	// Names records the id → name map when face recognition stores a face.
	Names nadine.ProfileStore
	// SpeakTimeout resumes listening when end_speak never comes (30 s).
	SpeakTimeout time.Duration
	// ShutdownGrace bounds how long the turn in flight may take to finish
	// once Run's context is done (30 s).
	ShutdownGrace time.Duration
	Now           func() time.Time
	Logger        *slog.Logger
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
}

// job is one entry of the turn queue: a turn or a user leaving.
type job struct {
	turn   *nadine.Turn
	left   bool
	emit   nadine.EmitFunc
	result chan result
}

type result struct {
	reply nadine.Reply
	err   error
}

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
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Runtime{opts: opts, log: opts.Logger, m: opts.Manager, wake: make(chan struct{}, 1), subs: map[int]chan Update{}}, nil
}

// Run handles inbound messages until ctx is done or in is closed, then
// stops taking transcripts, lets the turn in flight finish (within
// ShutdownGrace), stores any history chunk that is due, and returns. A nil
// in runs only operator turns.
func (r *Runtime) Run(ctx context.Context, in <-chan nadine.Inbound) error {
	workCtx, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelWork()
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.work(workCtx)
	}()
	r.loop(ctx, in)

	// Shutdown: refuse new work, finish the turn in flight.
	r.mu.Lock()
	r.closed = true
	dropped := r.queue
	r.queue = nil
	r.mu.Unlock()
	for _, j := range dropped {
		if j.result != nil {
			j.result <- result{err: nadine.Errorf(nadine.EUNAVAILABLE, "robot: shutting down")}
		}
	}
	if len(dropped) > 0 {
		r.log.Warn("shutdown: queued turns not answered", "count", len(dropped))
	}
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
		}
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
		if speaking {
			r.log.Info("transcript dropped: listening is suspended while Nadine speaks", "id", msg.Transcript.ID, "chars", len(msg.Transcript.Text))
			return
		}
		t := nadine.Turn{ID: msg.Transcript.ID, Text: msg.Transcript.Text, Language: msg.Transcript.Language, Time: msg.Received}
		r.enqueue(job{turn: &t})
	case nadine.InboundUserLeft:
		if id := msg.User.ID; id != "" && id != nadine.UnknownUser && id != r.m.Session().User.ID {
			r.log.Info("user left who was not in front of the robot; ignored", "user", id)
			return
		}
		r.enqueue(job{left: true})
	case nadine.InboundUserName, nadine.InboundUserDetected:
		r.m.SetUser(msg.User)
		r.log.Info("user in front of the robot", "user", msg.User.ID, "name", msg.User.Name, "confidence", msg.Confidence)
		r.broadcastSession()
	case nadine.InboundFaceStored:
		if r.opts.Names != nil && msg.User.ID != "" && msg.User.Name != "" {
			if err := r.opts.Names.SetUserName(ctx, msg.User.ID, msg.User.Name); err != nil {
				r.log.Warn("face_stored: name not recorded", "user", msg.User.ID, "err", err)
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
	case nadine.InboundEndSpeak:
		r.mu.Lock()
		r.speaking = time.Time{}
		r.mu.Unlock()
	default:
		r.log.Debug("inbound message ignored", "kind", msg.Kind)
	}
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

// Submit queues an operator's turn behind those already heard, waits for
// it and returns the reply. emit, if not nil, receives the turn's events as
// they happen.
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

// EndInteraction queues the end of the current user's interaction.
func (r *Runtime) EndInteraction() bool { return r.enqueue(job{left: true}) }

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

// work runs queued jobs one at a time until the runtime is closed and the
// queue is empty.
func (r *Runtime) work(ctx context.Context) {
	for {
		r.mu.Lock()
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
		r.queue = r.queue[1:]
		r.mu.Unlock()
		r.run(ctx, j)
	}
}

// run executes one job.
func (r *Runtime) run(ctx context.Context, j job) {
	if j.left {
		if err := r.m.EndInteraction(ctx); err != nil {
			r.log.Error("end of interaction: history not stored", "err", err)
		}
		r.broadcastSession()
		return
	}
	t := *j.turn
	if t.ID == "" {
		t.ID = newTurnID()
	}
	tctx := nadine.WithTrace(ctx, nadine.NewTrace(t.ID, t.Text, r.opts.Now()))
	out := newOutput(r, tctx, t.ID, j.emit)
	reply, err := r.m.Stream(tctx, t, out.emit)
	out.close()
	if err == nil {
		r.broadcast(Update{Kind: UpdateTurn, TurnID: t.ID, Input: t.Text, Reply: &reply})
		r.broadcastSession()
	} else {
		r.log.Warn("turn refused", "err", err)
	}
	if j.result != nil {
		j.result <- result{reply, err}
	}
}

// output publishes one turn's events on the body as they happen. A
// publisher goroutine sends them in order, so the engine does not wait for
// each message's acknowledgment before it goes on; the turn's end waits
// until everything before it is published.
type output struct {
	r       *Runtime
	ctx     context.Context
	turnID  string
	forward nadine.EmitFunc

	mu      sync.Mutex // events may come from parallel branches; publish in order
	seq     int
	queue   chan published
	drained chan struct{}
	closed  bool
}

// published is an event with what it is published with.
type published struct {
	e    nadine.Event
	seq  int
	lang nadine.Language // the final marker's language
	sent chan struct{}   // closed once published, when someone waits for it
}

func newOutput(r *Runtime, ctx context.Context, turnID string, forward nadine.EmitFunc) *output {
	o := &output{r: r, ctx: ctx, turnID: turnID, forward: forward}
	if r.opts.Body != nil {
		o.queue, o.drained = make(chan published, 64), make(chan struct{})
		go o.publish()
	}
	return o
}

// close ends the publisher once it has sent everything queued.
func (o *output) close() {
	o.mu.Lock()
	if o.queue != nil && !o.closed {
		o.closed = true
		close(o.queue)
	}
	o.mu.Unlock()
	if o.drained != nil {
		<-o.drained
	}
}

// publish sends the queued events in order.
func (o *output) publish() {
	defer close(o.drained)
	b := o.r.opts.Body
	for p := range o.queue {
		e := p.e
		var err error
		switch e.Kind {
		case nadine.EventSpeech:
			// A filler line (said while the turn waits on a tool) is
			// spoken like a sentence, with its own seq, marked as such.
			err = b.Speak(o.ctx, nadine.Speech{Text: e.Text, Language: e.Language, Seq: p.seq, TurnID: o.turnID, Filler: e.Filler})
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
		case nadine.EventDone:
			err = b.Speak(o.ctx, nadine.Speech{Language: p.lang, Seq: p.seq, Final: true, TurnID: o.turnID})
		}
		if err != nil {
			o.r.log.Warn("bus: event not published", "kind", e.Kind, "turn", o.turnID, "err", err)
			nadine.TraceFrom(o.ctx).Fail("bus:"+string(e.Kind), err)
		}
		if p.sent != nil {
			close(p.sent)
		}
	}
}

func (o *output) emit(e nadine.Event) {
	o.mu.Lock()
	var sent chan struct{}
	if o.queue != nil && !o.closed {
		p := published{e: e, seq: o.seq}
		switch e.Kind {
		case nadine.EventSpeech:
			o.seq++
			if e.Filler {
				// A filler is said before the slow wait it announces:
				// the engine goes on once it is out.
				sent = make(chan struct{})
				p.sent = sent
				defer func() { <-sent }()
			}
		case nadine.EventDone:
			p.lang = o.r.m.Language()
		}
		o.queue <- p
	}
	if e.Kind == nadine.EventDone {
		// The reply is over when its last message is out: what runs
		// after the reply (memory writes) comes after it.
		o.mu.Unlock()
		o.close()
		o.mu.Lock()
	}
	defer o.mu.Unlock()
	o.r.broadcast(Update{Kind: UpdateEvent, TurnID: o.turnID, Event: &e})
	if o.forward != nil {
		o.forward(e)
	}
}
