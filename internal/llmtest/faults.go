package llmtest

import (
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
)

// Fault kinds a FaultPlan injects, as FaultCounts names them.
const (
	FaultError500 = "http_500" // HTTP 500 with OpenAI's error body
	FaultHang     = "hang"     // the request is accepted and never answered
	FaultReset    = "reset"    // the connection is reset (TCP RST) without an answer
	FaultCut      = "cut"      // the answer breaks off half-way (a stream cut mid-way)
	FaultJunk     = "junk"     // a 200 answer whose content is unusable model output
)

// serverErrorMessage is what OpenAI says with a 500.
const serverErrorMessage = "The server had an error while processing your request. Sorry about that!"

// FaultPlan injects faults the way real servers and models go wrong, one or
// none per request drawn from Seed; rates sum to at most 1.
type FaultPlan struct {
	Seed     uint64
	Error500 float64 // HTTP 500 with OpenAI's error body
	Hang     float64 // accepted, never answered (until the client gives up)
	Reset    float64 // the connection reset before any answer
	Cut      float64 // a stream cut after half its pieces (a plain answer: half its body)
	Junk     float64 // the model's content replaced by one of JunkTexts (chat only)
	// JunkTexts are the unusable outputs said instead of the answer
	// (DefaultJunk's texts when empty), taken in turn.
	JunkTexts []string
	// Embeddings makes embedding requests draw faults too (500, hang,
	// reset; never junk nor a cut).
	Embeddings bool
}

// Junk is unusable model output and the marks whose presence in what the
// robot said shows it was spoken (SpokenJunk).
type Junk struct {
	Text  string
	Marks []string
}

// DefaultJunk is what real models answer when they go wrong: cut JSON,
// leaked reasoning, template tokens, loops, format refusals.
var DefaultJunk = []Junk{
	{Text: `{"action": "Final Answer", "action_input": "`, Marks: []string{`"action`, "action_input"}},
	{Text: "<think>The user greets me. I should answer in JSON with the keys action and action_input.</think>",
		Marks: []string{"<think", "</think", "should answer in json"}},
	{Text: "<|im_start|>assistant\n<|im_end|>", Marks: []string{"<|im_", "im_start", "im_end"}},
	{Text: "```json\n{\"plan\": [{\"agent\": \"search_agent\", \"message\": ", Marks: []string{"```", `"plan"`, "search_agent"}},
	{Text: "Nadine: Nadine: Nadine: Nadine: Nadine: Nadine: Nadine: Nadine:", Marks: []string{"nadine: nadine:"}},
	{Text: "I cannot comply with the requested JSON format because the schema is ambiguous.", Marks: []string{"requested json format"}},
}

// junkTexts returns the texts of DefaultJunk.
func junkTexts() []string {
	out := make([]string, len(DefaultJunk))
	for i, j := range DefaultJunk {
		out[i] = j.Text
	}
	return out
}

// SpokenJunk reports whether spoken text (a sentence the robot said)
// carries a mark of one of junk (DefaultJunk when nil), ignoring case.
func SpokenJunk(spoken string, junk []Junk) bool {
	if junk == nil {
		junk = DefaultJunk
	}
	s := strings.ToLower(spoken)
	for _, j := range junk {
		for _, m := range j.Marks {
			if strings.Contains(s, strings.ToLower(m)) {
				return true
			}
		}
	}
	return false
}

// faults is a Server's fault injection state, under Server.mu.
type faults struct {
	plan   FaultPlan
	rnd    *rand.Rand
	junk   int // the next junk text
	counts map[string]int
}

// InjectFaults replaces the server's fault plan; the zero plan stops
// injecting. The counts start again.
func (s *Server) InjectFaults(p FaultPlan) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(p.JunkTexts) == 0 {
		p.JunkTexts = junkTexts()
	}
	s.faults = faults{plan: p, rnd: rand.New(rand.NewPCG(p.Seed, p.Seed^0x9e3779b97f4a7c15)), counts: map[string]int{}}
}

// FaultCounts returns how many of each fault the plan injected.
func (s *Server) FaultCounts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.faults.counts))
	for k, v := range s.faults.counts {
		out[k] = v
	}
	return out
}

// draw picks the fault of one request ("" for none) and, for junk, its text.
func (s *Server) draw(req Request) (kind, junk string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := &s.faults
	p := f.plan
	if f.rnd == nil || (req.IsEmbeddings() && !p.Embeddings) {
		return "", ""
	}
	x := f.rnd.Float64()
	for _, c := range []struct {
		kind string
		rate float64
	}{{FaultError500, p.Error500}, {FaultHang, p.Hang}, {FaultReset, p.Reset}, {FaultCut, p.Cut}, {FaultJunk, p.Junk}} {
		if (c.kind == FaultJunk || c.kind == FaultCut) && req.IsEmbeddings() {
			continue
		}
		if x < c.rate {
			kind = c.kind
			break
		}
		x -= c.rate
	}
	if kind == "" {
		return "", ""
	}
	f.counts[kind]++
	if kind == FaultJunk {
		junk = p.JunkTexts[f.junk%len(p.JunkTexts)]
		f.junk++
	}
	return kind, junk
}

// resetConn resets the request's connection: a TCP RST, as a server that
// crashed or a proxy that dropped it.
func resetConn(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			if tc, ok := conn.(*net.TCPConn); ok {
				_ = tc.SetLinger(0)
			}
			conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

// Down stops the server as a crashed process does: the port refuses and open
// connections break. Up brings it back on the same address.
func (s *Server) Down() {
	s.listener.down()
	s.srv.CloseClientConnections()
}

// Up listens again after Down, on the same address; it returns an error
// when the port cannot be taken back.
func (s *Server) Up() error { return s.listener.up() }

// switchListener is a listener that can stop listening and listen again on
// the same address, under an http.Server that keeps calling Accept.
type switchListener struct {
	addr string

	mu     sync.Mutex
	l      net.Listener  // nil while down
	wake   chan struct{} // closed by up (and by Close)
	closed bool
	done   chan struct{} // closed by Close
}

func newSwitchListener(l net.Listener) *switchListener {
	return &switchListener{addr: l.Addr().String(), l: l, wake: make(chan struct{}), done: make(chan struct{})}
}

// Accept waits for a connection; while down it waits for up.
func (s *switchListener) Accept() (net.Conn, error) {
	for {
		s.mu.Lock()
		l, wake, closed := s.l, s.wake, s.closed
		s.mu.Unlock()
		if closed {
			return nil, net.ErrClosed
		}
		if l == nil {
			select {
			case <-wake:
			case <-s.done:
			}
			continue
		}
		c, err := l.Accept()
		if err == nil {
			return c, nil
		}
		s.mu.Lock()
		wentDown := s.l != l && !s.closed
		s.mu.Unlock()
		if !wentDown {
			return nil, err
		}
	}
}

func (s *switchListener) down() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.l == nil || s.closed {
		return
	}
	s.l.Close()
	s.l, s.wake = nil, make(chan struct{})
}

func (s *switchListener) up() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.l != nil || s.closed {
		return nil
	}
	l, err := net.Listen("tcp", s.addr)
	if err != nil {
		return errors.Join(errors.New("llmtest: listen again on "+s.addr), err)
	}
	s.l = l
	close(s.wake)
	return nil
}

// Close stops listening for good.
func (s *switchListener) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	close(s.done)
	if s.l != nil {
		return s.l.Close()
	}
	return nil
}

// Addr is the address, down or up.
func (s *switchListener) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.l != nil {
		return s.l.Addr()
	}
	a, _ := net.ResolveTCPAddr("tcp", s.addr)
	return a
}
