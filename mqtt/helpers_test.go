package mqtt_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"github.com/nadine-robot/nadine/mqtt"
)

// failsafe bounds every wait in these tests so that a broken build fails
// instead of hanging; no test asserts how long anything takes.
const failsafe = 20 * time.Second

// logs captures slog records as JSON lines.
type logs struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logs) logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func (l *logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// records returns the records whose message is msg.
func (l *logs) records(msg string) []map[string]any {
	var out []map[string]any
	for _, line := range strings.Split(l.String(), "\n") {
		if line == "" {
			continue
		}
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			continue
		}
		if r["msg"] == msg {
			out = append(out, r)
		}
	}
	return out
}

// startBroker starts an embedded broker on addr ("127.0.0.1:0" for any
// port), closed at the end of the test.
func startBroker(t *testing.T, addr string) *mqtt.Broker {
	t.Helper()
	var (
		b   *mqtt.Broker
		err error
	)
	// The port of a broker just closed may take a moment to be free again.
	eventually(t, "broker listening on "+addr, func() bool {
		b, err = mqtt.StartBroker(context.Background(), mqtt.BrokerOptions{Addr: addr})
		return err == nil
	})
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// testOptions returns bus options for tests: fast reconnection, captured
// logs, a fixed clock.
func testOptions(url string, l *logs) mqtt.Options {
	return mqtt.Options{
		URL:          url,
		ReconnectMin: 10 * time.Millisecond,
		ReconnectMax: 100 * time.Millisecond,
		Logger:       l.logger(),
		Now:          func() time.Time { return fixedNow },
	}
}

var fixedNow = time.Date(2025, 3, 14, 15, 9, 26, 0, time.UTC)

// connect connects a bus, closed at the end of the test.
func connect(t *testing.T, opts mqtt.Options) *mqtt.Bus {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), failsafe)
	defer cancel()
	b, err := mqtt.Connect(ctx, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), failsafe)
		defer cancel()
		_ = b.Close(ctx)
	})
	return b
}

// next returns the bus's next inbound message.
func next(t *testing.T, b *mqtt.Bus) mqtt.Inbound {
	t.Helper()
	select {
	case in, ok := <-b.Inbound():
		if !ok {
			t.Fatal("Inbound closed")
		}
		return in
	case <-time.After(failsafe):
		t.Fatal("no inbound message")
	}
	return mqtt.Inbound{}
}

// eventually polls cond until it holds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(failsafe)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// peer is a perception, STT or control process: a plain paho client.
type peer struct {
	t   *testing.T
	cli *paho.Client
	msg chan *paho.Publish
}

// newPeer connects a plain MQTT 5 client to the broker at addr (host:port)
// and subscribes it to filters (full topics).
func newPeer(t *testing.T, addr string, filters ...string) *peer {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("peer dial: %v", err)
	}
	p := &peer{t: t, msg: make(chan *paho.Publish, 256)}
	p.cli = paho.NewClient(paho.ClientConfig{
		Conn: conn,
		OnPublishReceived: []func(paho.PublishReceived) (bool, error){func(pr paho.PublishReceived) (bool, error) {
			p.msg <- pr.Packet
			return true, nil
		}},
	})
	ctx, cancel := context.WithTimeout(context.Background(), failsafe)
	defer cancel()
	id := fmt.Sprintf("peer-%d", time.Now().UnixNano())
	if _, err := p.cli.Connect(ctx, &paho.Connect{ClientID: id, CleanStart: true, KeepAlive: 30}); err != nil {
		t.Fatalf("peer connect: %v", err)
	}
	t.Cleanup(func() { _ = p.cli.Disconnect(&paho.Disconnect{}) })
	if len(filters) > 0 {
		var subs []paho.SubscribeOptions
		for _, f := range filters {
			subs = append(subs, paho.SubscribeOptions{Topic: f, QoS: 1})
		}
		if _, err := p.cli.Subscribe(ctx, &paho.Subscribe{Subscriptions: subs}); err != nil {
			t.Fatalf("peer subscribe: %v", err)
		}
	}
	return p
}

// publish publishes at QoS 1 and waits for the broker's acknowledgment.
func (p *peer) publish(topic string, payload []byte) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), failsafe)
	defer cancel()
	if _, err := p.cli.Publish(ctx, &paho.Publish{Topic: topic, QoS: 1, Payload: payload}); err != nil {
		p.t.Fatalf("peer publish %s: %v", topic, err)
	}
}

// next returns the next message the peer received.
func (p *peer) next() *paho.Publish {
	p.t.Helper()
	select {
	case m := <-p.msg:
		return m
	case <-time.After(failsafe):
		p.t.Fatal("peer received nothing")
	}
	return nil
}

// hostPort strips the scheme of a broker URL.
func hostPort(url string) string {
	_, hp, _ := strings.Cut(url, "://")
	return hp
}

// proxy forwards TCP connections to a broker; cut drops every connection
// and refuses new ones until listen is called again, which simulates a
// network outage between nadine and a broker that stays up.
type proxy struct {
	t      *testing.T
	target string
	addr   string
	mu     sync.Mutex
	ln     net.Listener
	conns  []net.Conn
}

func newProxy(t *testing.T, target string) *proxy {
	t.Helper()
	p := &proxy{t: t, target: target, addr: "127.0.0.1:0"}
	p.listen()
	t.Cleanup(p.cut)
	return p
}

func (p *proxy) url() string { return "mqtt://" + p.addr }

// listen (re)opens the proxy on its address.
func (p *proxy) listen() {
	p.t.Helper()
	var ln net.Listener
	eventually(p.t, "the proxy to listen on "+p.addr, func() bool {
		var err error
		ln, err = net.Listen("tcp", p.addr)
		return err == nil
	})
	p.mu.Lock()
	p.ln, p.addr = ln, ln.Addr().String()
	p.mu.Unlock()
	go func() {
		for {
			down, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", p.target)
			if err != nil {
				_ = down.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, down, up)
			p.mu.Unlock()
			pipe := func(dst, src net.Conn) {
				_, _ = io.Copy(dst, src)
				_ = dst.Close()
				_ = src.Close()
			}
			go pipe(up, down)
			go pipe(down, up)
		}
	}()
}

// cut closes the listener and every connection.
func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		_ = p.ln.Close()
		p.ln = nil
	}
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
}
