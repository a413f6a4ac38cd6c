package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/eclipse/paho.golang/paho"
)

// benchPeer plays the rest of the robot (perception, speech-to-text,
// text-to-speech) for any number of robots.
type benchPeer struct {
	cli *paho.Client

	mu    sync.Mutex
	turns map[string]*turnWatch // by turn id
	stray int                   // speak messages of no known turn, or after its end
	// crossed counts speak messages of a turn on another robot's topics
	// than the one it was said to.
	crossed int
	// onSpeak, when set before the first message, is called for each
	// speak message (the durability bench waits for quiet).
	onSpeak func()
}

// turnWatch is what one turn's speak messages showed.
type turnWatch struct {
	prefix                       string // the robot the transcript was said to
	sent                         time.Time
	filler, first, last, finalAt time.Time
	sentences, finals            int
	texts                        []string // every sentence said, fillers included, in order
	done                         chan struct{}
}

// speakMsg is the payload of <prefix>/agent/control/speak.
type speakMsg struct {
	Text   string `json:"text"`
	Final  bool   `json:"final"`
	Filler bool   `json:"filler"`
	TurnID string `json:"turn_id"`
}

// dialPeer connects to the broker at addr (host:port) and listens to the
// speak topic of every prefix.
func dialPeer(ctx context.Context, addr string) (*benchPeer, error) {
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("bench: dial broker: %w", err)
	}
	p := &benchPeer{turns: map[string]*turnWatch{}}
	p.cli = paho.NewClient(paho.ClientConfig{
		Conn: conn,
		OnPublishReceived: []func(paho.PublishReceived) (bool, error){func(pr paho.PublishReceived) (bool, error) {
			p.received(pr.Packet.Topic, pr.Packet.Payload, time.Now())
			return true, nil
		}},
	})
	if _, err := p.cli.Connect(ctx, &paho.Connect{ClientID: fmt.Sprintf("bench-peer-%d", time.Now().UnixNano()), CleanStart: true, KeepAlive: 30}); err != nil {
		return nil, fmt.Errorf("bench: connect: %w", err)
	}
	if _, err := p.cli.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: "+/agent/control/speak", QoS: 1}}}); err != nil {
		return nil, fmt.Errorf("bench: subscribe: %w", err)
	}
	return p, nil
}

func (p *benchPeer) close() { _ = p.cli.Disconnect(&paho.Disconnect{}) }

func (p *benchPeer) received(topic string, payload []byte, at time.Time) {
	if !strings.HasSuffix(topic, "/agent/control/speak") {
		return
	}
	var m speakMsg
	if json.Unmarshal(payload, &m) != nil {
		return
	}
	if p.onSpeak != nil {
		p.onSpeak()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	w := p.turns[m.TurnID]
	if w != nil && w.prefix != strings.TrimSuffix(topic, "/agent/control/speak") {
		p.crossed++ // another robot's reply, or this reply on another robot
		return
	}
	if w == nil || w.finals > 0 {
		if w != nil && m.Final {
			w.finals++ // answered twice
		}
		p.stray++
		return
	}
	if m.Text != "" {
		w.texts = append(w.texts, m.Text)
	}
	switch {
	case m.Final:
		w.finalAt = at
		w.finals++
		if m.Text != "" {
			w.last = at
			w.sentences++
		}
		close(w.done)
	case m.Filler:
		if w.filler.IsZero() {
			w.filler = at
		}
	case m.Text != "":
		if w.first.IsZero() {
			w.first = at
		}
		w.last = at
		w.sentences++
	}
}

// say publishes a transcript for the robot at prefix and returns its watch.
func (p *benchPeer) say(ctx context.Context, prefix, id, text string) (*turnWatch, error) {
	w := &turnWatch{prefix: prefix, done: make(chan struct{})}
	p.mu.Lock()
	p.turns[id] = w
	p.mu.Unlock()
	body, _ := json.Marshal(map[string]any{"text": text, "language": "en", "final": true, "id": id})
	w.sent = time.Now()
	if _, err := p.cli.Publish(ctx, &paho.Publish{Topic: prefix + "/stt/transcript", QoS: 1, Payload: body}); err != nil {
		return nil, fmt.Errorf("bench: publish transcript: %w", err)
	}
	return w, nil
}

// watch returns the watch of a turn id said before this peer connected
// (a transcript answered after a restart), registering it.
func (p *benchPeer) watch(prefix, id string) *turnWatch {
	w := &turnWatch{prefix: prefix, sent: time.Now(), done: make(chan struct{})}
	p.mu.Lock()
	p.turns[id] = w
	p.mu.Unlock()
	return w
}

// publish sends a perception message.
func (p *benchPeer) publish(ctx context.Context, topic string, v any) error {
	body, _ := json.Marshal(v)
	if _, err := p.cli.Publish(ctx, &paho.Publish{Topic: topic, QoS: 1, Payload: body}); err != nil {
		return fmt.Errorf("bench: publish %s: %w", topic, err)
	}
	return nil
}

// wait waits for the turn's final speak message.
func (p *benchPeer) wait(ctx context.Context, w *turnWatch, timeout time.Duration) error {
	select {
	case <-w.done:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("bench: no final speak message after %v", timeout)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// result copies a finished turn's times.
func (p *benchPeer) result(w *turnWatch) turnWatch {
	p.mu.Lock()
	defer p.mu.Unlock()
	return turnWatch{sent: w.sent, filler: w.filler, first: w.first, last: w.last, finalAt: w.finalAt, sentences: w.sentences, finals: w.finals,
		texts: append([]string(nil), w.texts...)}
}

// duplicates counts turns answered more than once, and stray messages.
func (p *benchPeer) duplicates() (twice, stray int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, w := range p.turns {
		if w.finals > 1 {
			twice++
		}
	}
	return twice, p.stray
}

// crossings counts speak messages heard on another robot's topics than
// their turn's.
func (p *benchPeer) crossings() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.crossed
}

// hostPort strips the scheme of a broker URL ("mqtt://127.0.0.1:1883").
func hostPort(url string) string {
	if _, hp, ok := strings.Cut(url, "://"); ok {
		return hp
	}
	return url
}
