package web

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
)

// sseWriteTimeout bounds one write to an event stream, so that a client
// that stopped reading does not hold its handler forever.
const sseWriteTimeout = 30 * time.Second

// sseStream writes Server-Sent Events: "event: NAME\ndata: JSON\n\n".
type sseStream struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

// startSSE sends the headers of an event stream.
func startSSE(w http.ResponseWriter) *sseStream {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	w.WriteHeader(http.StatusOK)
	s := &sseStream{w: w, rc: http.NewResponseController(w)}
	_ = s.rc.Flush()
	return s
}

// send writes one event. JSON never holds a raw newline, so the data fits
// on one line.
func (s *sseStream) send(event string, v any) error {
	b, err := marshal(v)
	if err != nil {
		return fmt.Errorf("web: encode %s event: %w", event, err)
	}
	return s.write(fmt.Sprintf("event: %s\ndata: %s\n\n", event, b))
}

// comment writes a comment line, which clients ignore (heartbeats).
func (s *sseStream) comment(text string) error {
	return s.write(": " + text + "\n\n")
}

func (s *sseStream) write(text string) error {
	_ = s.rc.SetWriteDeadline(time.Now().Add(sseWriteTimeout))
	if _, err := fmt.Fprint(s.w, text); err != nil {
		return fmt.Errorf("web: write event: %w", err)
	}
	if err := s.rc.Flush(); err != nil {
		return fmt.Errorf("web: flush event: %w", err)
	}
	return nil
}

// eventQueue's push never blocks: a slow client must not slow Nadine down.
type eventQueue struct {
	mu     sync.Mutex
	items  []nadine.Event
	notify chan struct{}
}

func newEventQueue() *eventQueue { return &eventQueue{notify: make(chan struct{}, 1)} }

// push is a nadine.EmitFunc.
func (q *eventQueue) push(e nadine.Event) {
	q.mu.Lock()
	q.items = append(q.items, e)
	q.mu.Unlock()
	select {
	case q.notify <- struct{}{}:
	default:
	}
}

func (q *eventQueue) drain() []nadine.Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.items
	q.items = nil
	return out
}
