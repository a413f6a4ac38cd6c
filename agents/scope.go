package agents

import (
	"context"
	"sync"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
)

// scope is what one turn shares outside the (serializable) state: the
// emit function, what was emitted, and work that parallel nodes share
// (the query vector, the best memories), each done once.
type scope struct {
	emit nadine.EmitFunc

	mu       sync.Mutex
	said     bool // some speech was emitted
	gests    []nadine.Gesture
	emotion  *affect.Emotion
	memories map[string]*lazy[memoryHit]
	vectors  map[string]*lazy[[]float32]

	queue bool                        // a turn's scope: afterReply queues
	later []func(ctx context.Context) // work for after the reply

	late *summaryJob // the background summary the turn did not wait for

	// turn is the turn's context (nil outside a turn), which speculative
	// work runs under: a node's own context ends with the node.
	turn context.Context
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

type scopeKey struct{}

func newScope(emit nadine.EmitFunc) *scope {
	return &scope{emit: emit, memories: map[string]*lazy[memoryHit]{}, vectors: map[string]*lazy[[]float32]{}}
}

func withScope(ctx context.Context, sc *scope) context.Context {
	return context.WithValue(ctx, scopeKey{}, sc)
}

// scopeFrom returns the turn's scope (a silent one outside a turn, as in
// Eval).
func scopeFrom(ctx context.Context) *scope {
	if sc, ok := ctx.Value(scopeKey{}).(*scope); ok {
		return sc
	}
	return newScope(func(nadine.Event) {})
}

// send emits an event and remembers the gestures and whether Nadine spoke.
func (sc *scope) send(ev nadine.Event) {
	switch ev.Kind {
	case nadine.EventGesture:
		sc.mu.Lock()
		sc.gests = append(sc.gests, ev.Gesture)
		sc.mu.Unlock()
	case nadine.EventSpeech:
		if !ev.Filler {
			sc.mu.Lock()
			sc.said = true
			sc.mu.Unlock()
		}
	}
	sc.emit(ev)
}

// spoke reports whether the turn emitted speech.
func (sc *scope) spoke() bool {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.said
}

func (sc *scope) gestures() []nadine.Gesture {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return append([]nadine.Gesture(nil), sc.gests...)
}

// setAppraised records the emotion the appraisal gave this turn.
func (sc *scope) setAppraised(e affect.Emotion) {
	sc.mu.Lock()
	sc.emotion = &e
	sc.mu.Unlock()
}

func (sc *scope) appraised() (affect.Emotion, bool) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.emotion == nil {
		return affect.Emotion{}, false
	}
	return *sc.emotion, true
}

// once returns the lazy value under key in m, creating it.
func once[T any](sc *scope, m map[string]*lazy[T], key string, fn func() (T, error)) (T, error) {
	sc.mu.Lock()
	l, ok := m[key]
	if !ok {
		l = &lazy[T]{}
		m[key] = l
	}
	sc.mu.Unlock()
	l.once.Do(func() { l.v, l.err = fn() })
	return l.v, l.err
}

// afterReply queues fn to run once the reply is published (see
// Engine.Respond); outside a turn it runs fn now.
func (sc *scope) afterReply(ctx context.Context, fn func(ctx context.Context)) {
	sc.mu.Lock()
	if sc.queue {
		sc.later = append(sc.later, fn)
		sc.mu.Unlock()
		return
	}
	sc.mu.Unlock()
	fn(ctx)
}

// queued takes the work queued for after the reply.
func (sc *scope) queued() []func(ctx context.Context) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	q := sc.later
	sc.later = nil
	return q
}

// afterReply queues fn in the turn in ctx (see scope.afterReply).
func afterReply(ctx context.Context, fn func(ctx context.Context)) {
	scopeFrom(ctx).afterReply(ctx, fn)
}

// emit sends an event of the turn in ctx.
func emit(ctx context.Context, ev nadine.Event) { scopeFrom(ctx).send(ev) }

// lateSummary records the background summary the turn went on without.
func (sc *scope) lateSummary(j *summaryJob) {
	sc.mu.Lock()
	sc.late = j
	sc.mu.Unlock()
}

// lateResult returns that summary and the key of its history, once it is
// done.
func (sc *scope) lateResult() (text, key string, ok bool) {
	sc.mu.Lock()
	j := sc.late
	sc.mu.Unlock()
	if j == nil {
		return "", "", false
	}
	text, ok = j.result()
	return text, j.key, ok
}

// setSpeculation records the turn's speculative response; it reports false
// when the turn already has one or is past its response.
func (sc *scope) setSpeculation(sp *speculation) bool {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.spec != nil || sc.took {
		return false
	}
	sc.spec = sp
	return true
}

// takeSpeculation returns the speculative response, once; none is started
// after.
func (sc *scope) takeSpeculation() *speculation {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sp := sc.spec
	sc.spec, sc.took = nil, true
	return sp
}
