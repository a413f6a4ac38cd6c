package mqtt_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/mqtt"
)

// failsafe bounds every wait in these tests so that a broken build fails
// instead of hanging; no test asserts how long anything takes.
const failsafe = mqtttest.Failsafe

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

// startBroker starts an embedded broker on addr, closed at the end of the
// test.
func startBroker(t *testing.T, addr string) *mqtt.Broker { return mqtttest.StartBroker(t, addr) }

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
func next(t *testing.T, b *mqtt.Bus) nadine.Inbound {
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
	return nadine.Inbound{}
}

// eventually polls cond until it holds.
func eventually(t *testing.T, what string, cond func() bool) { mqtttest.Eventually(t, what, cond) }

// newPeer connects a perception, STT or control process to the broker.
func newPeer(t *testing.T, addr string, filters ...string) *mqtttest.Peer {
	return mqtttest.NewPeer(t, addr, filters...)
}

// hostPort strips the scheme of a broker URL.
func hostPort(url string) string { return mqtttest.HostPort(url) }

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
