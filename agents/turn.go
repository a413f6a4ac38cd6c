package agents

import (
	"context"
	"sync"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
)

// turn is what one turn's nodes share outside the state, reached through
// State.live, never the context; a nil *turn emits nothing.
type turn struct {
	// ctx is the turn's context, which speculative work runs under: a
	// node's own context ends with the node.
	ctx context.Context
	out nadine.Request // Emit, Filler and Hold of the turn's output

	mu       sync.Mutex
	gests    []nadine.Gesture
	emotion  *affect.Emotion
	felt     *affect.State // the appraised feelings, for the speculation (feel)
	memories map[string]*lazy[memoryHit]
	vectors  map[string]*lazy[[]float32]

	later []func(ctx context.Context) // work for after the reply

	late *summaryJob  // the background summary the turn did not wait for
	spec *speculation // the speculative response, until the response node takes it
	took bool         // the speculation was taken (or the turn is over)
}

// memoryHit is the best memory of one type, if any.
type memoryHit struct {
	m  nadine.ScoredMemory
	ok bool
}

// lazy is a value computed once.
type lazy[T any] struct {
	once sync.Once
	v    T
	err  error
}

// newTurn returns the shared part of a turn running under ctx, whose
// output is req's.
func newTurn(ctx context.Context, req nadine.Request) *turn {
	return &turn{ctx: ctx, out: nadine.Request{Emit: req.Emit, Filler: req.Filler, Hold: req.Hold},
		memories: map[string]*lazy[memoryHit]{}, vectors: map[string]*lazy[[]float32]{}}
}

// send emits an event and remembers the gestures.
func (t *turn) send(ev nadine.Event) {
	if t == nil {
		return
	}
	if ev.Kind == nadine.EventGesture {
		t.mu.Lock()
		t.gests = append(t.gests, ev.Gesture)
		t.mu.Unlock()
	}
	t.out.Emit(ev)
}

// askFiller asks the turn's output for a filler line (a search, a
// capture: the output decides whether one is said).
func (t *turn) askFiller() {
	if t != nil {
		t.out.AskFiller()
	}
}

// toolInput is the input of a tool call of the turn.
func (t *turn) toolInput(ctx context.Context, text string, lang nadine.Language, user string) nadine.ToolInput {
	in := nadine.ToolInput{Text: text, Language: lang, UserID: user, Emit: t.send}
	if t != nil {
		in.Filler = t.out.Filler
		in.AfterReply = func(fn func(context.Context)) { t.afterReply(ctx, fn) }
	}
	return in
}

func (t *turn) gestures() []nadine.Gesture {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]nadine.Gesture(nil), t.gests...)
}

// setAppraised records the emotion the appraisal gave this turn.
func (t *turn) setAppraised(e affect.Emotion) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.emotion = &e
	t.mu.Unlock()
}

// setFeelings records the appraised feelings for the speculative response.
func (t *turn) setFeelings(a affect.State) {
	t.mu.Lock()
	t.felt = &a
	t.mu.Unlock()
}

// feelings returns the appraised feelings, once known.
func (t *turn) feelings() (affect.State, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.felt == nil {
		return affect.State{}, false
	}
	return *t.felt, true
}

func (t *turn) appraised() (affect.Emotion, bool) {
	if t == nil {
		return affect.Emotion{}, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.emotion == nil {
		return affect.Emotion{}, false
	}
	return *t.emotion, true
}

// once returns the lazy value under key in the map m picks from t,
// creating it; outside a turn it computes fn every time.
func once[T any](t *turn, m func(*turn) map[string]*lazy[T], key string, fn func() (T, error)) (T, error) {
	if t == nil {
		return fn()
	}
	t.mu.Lock()
	values := m(t)
	l, ok := values[key]
	if !ok {
		l = &lazy[T]{}
		values[key] = l
	}
	t.mu.Unlock()
	l.once.Do(func() { l.v, l.err = fn() })
	return l.v, l.err
}

func (t *turn) memoryHits() map[string]*lazy[memoryHit]   { return t.memories }
func (t *turn) queryVectors() map[string]*lazy[[]float32] { return t.vectors }

// afterReply queues fn for nadine.Request.AfterReply, the one way work is
// deferred; outside a turn fn runs now.
func (t *turn) afterReply(ctx context.Context, fn func(ctx context.Context)) {
	if t == nil {
		fn(ctx)
		return
	}
	t.mu.Lock()
	t.later = append(t.later, fn)
	t.mu.Unlock()
}

// queued takes the work queued for after the reply.
func (t *turn) queued() []func(ctx context.Context) {
	t.mu.Lock()
	defer t.mu.Unlock()
	q := t.later
	t.later = nil
	return q
}

// lateSummary records the background summary the turn went on without.
func (t *turn) lateSummary(j *summaryJob) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.late = j
	t.mu.Unlock()
}

// lateResult returns that summary and the key of its history, once it is
// done.
func (t *turn) lateResult() (text, key string, ok bool) {
	if t == nil {
		return "", "", false
	}
	t.mu.Lock()
	j := t.late
	t.mu.Unlock()
	if j == nil {
		return "", "", false
	}
	text, ok = j.result()
	return text, j.key, ok
}

// setSpeculation reports false outside a turn, when the turn has one already,
// or when it is past its response.
func (t *turn) setSpeculation(sp *speculation) bool {
	if t == nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.spec != nil || t.took {
		return false
	}
	t.spec = sp
	return true
}

// speculation returns the turn's speculative response, if any, without
// taking it.
func (t *turn) speculation() *speculation {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.spec
}

// dropSpeculation takes sp if still the turn's, so another can start; false
// when the response node took it meanwhile.
func (t *turn) dropSpeculation(sp *speculation) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.spec != sp || t.took {
		return false
	}
	t.spec = nil
	return true
}

// takeSpeculation returns the speculative response, once; none is started
// after.
func (t *turn) takeSpeculation() *speculation {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	sp := t.spec
	t.spec, t.took = nil, true
	return sp
}
