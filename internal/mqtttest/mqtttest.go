// Package mqtttest holds what tests need to play the robot's other
// processes on a real broker: a plain MQTT 5 peer (perception, speech to
// text, control), an embedded broker on a free port, and Mosquitto when it
// is installed.
package mqtttest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"github.com/nadine-robot/nadine/mqtt"
)

// Failsafe bounds every wait so that a broken build fails instead of
// hanging; no test asserts how long anything takes.
const Failsafe = 20 * time.Second

// Eventually polls cond until it holds, or fails the test after Failsafe.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(Failsafe)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// StartBroker starts an embedded broker on addr ("127.0.0.1:0" for any
// port), closed at the end of the test.
func StartBroker(t testing.TB, addr string) *mqtt.Broker {
	t.Helper()
	var (
		b   *mqtt.Broker
		err error
	)
	// The port of a broker just closed may take a moment to be free again.
	Eventually(t, "broker listening on "+addr, func() bool {
		b, err = mqtt.StartBroker(context.Background(), mqtt.BrokerOptions{Addr: addr})
		return err == nil
	})
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// HostPort strips the scheme of a broker URL.
func HostPort(url string) string {
	_, hp, _ := strings.Cut(url, "://")
	return hp
}

var peers atomic.Int64

// Peer is a perception, speech-to-text or control process: a plain paho client.
type Peer struct {
	t     testing.TB
	cli   *paho.Client
	Msg   chan *paho.Publish // everything received on the subscribed filters
	close sync.Once
}

// NewPeer connects a plain MQTT 5 client to the broker at addr (host:port)
// and subscribes it to filters (full topics or wildcards).
func NewPeer(t testing.TB, addr string, filters ...string) *Peer {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("peer dial: %v", err)
	}
	p := &Peer{t: t, Msg: make(chan *paho.Publish, 1024)}
	p.cli = paho.NewClient(paho.ClientConfig{
		Conn: conn,
		OnPublishReceived: []func(paho.PublishReceived) (bool, error){func(pr paho.PublishReceived) (bool, error) {
			p.Msg <- pr.Packet
			return true, nil
		}},
	})
	ctx, cancel := context.WithTimeout(context.Background(), Failsafe)
	defer cancel()
	id := fmt.Sprintf("peer-%d-%d", os.Getpid(), peers.Add(1))
	if _, err := p.cli.Connect(ctx, &paho.Connect{ClientID: id, CleanStart: true, KeepAlive: 30}); err != nil {
		t.Fatalf("peer connect: %v", err)
	}
	t.Cleanup(p.Close)
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

// Close disconnects the peer (the test's cleanup does it otherwise) and
// closes Msg: paho has handed over every message once it disconnected.
func (p *Peer) Close() {
	p.close.Do(func() {
		_ = p.cli.Disconnect(&paho.Disconnect{})
		close(p.Msg)
	})
}

// Publish publishes at QoS 1 and waits for the broker's acknowledgment.
func (p *Peer) Publish(topic string, payload []byte) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Failsafe)
	defer cancel()
	if _, err := p.cli.Publish(ctx, &paho.Publish{Topic: topic, QoS: 1, Payload: payload}); err != nil {
		p.t.Fatalf("peer publish %s: %v", topic, err)
	}
}

// Next returns the next message the peer received.
func (p *Peer) Next() *paho.Publish {
	p.t.Helper()
	select {
	case m := <-p.Msg:
		return m
	case <-time.After(Failsafe):
		p.t.Fatal("peer received nothing")
	}
	return nil
}

// Mosquitto is a Mosquitto broker run by a test.
type Mosquitto struct {
	t       testing.TB
	bin     string
	conf    string
	Addr    string // host:port
	cmd     *exec.Cmd
	cmdDone chan struct{}
	stderr  bytes.Buffer
}

// StartMosquitto runs Mosquitto on a free loopback port; it skips when not
// installed, except in CI, which installs it.
func StartMosquitto(t testing.TB) *Mosquitto {
	t.Helper()
	bin, err := exec.LookPath("mosquitto")
	if err != nil {
		if _, e := os.Stat("/usr/sbin/mosquitto"); e == nil {
			bin = "/usr/sbin/mosquitto"
		} else if os.Getenv("CI") != "" {
			t.Fatal("mosquitto is not installed; CI must install it (.ci/run: apt-get install mosquitto)")
		} else {
			t.Skip("mosquitto is not installed (Debian: apt-get install mosquitto); skipping")
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	_, port, _ := net.SplitHostPort(addr)
	conf := filepath.Join(t.TempDir(), "mosquitto.conf")
	// max_queued_messages: Mosquitto's default (1000) drops what a client
	// has not read beyond it; a robot's broker keeps a burst (README).
	cfg := fmt.Sprintf("listener %s 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\nlog_dest stderr\nlog_type error\nlog_type warning\n", port)
	if err := os.WriteFile(conf, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &Mosquitto{t: t, bin: bin, conf: conf, Addr: addr}
	m.Start()
	t.Cleanup(m.Stop)
	return m
}

// URL is the broker's mqtt:// URL.
func (m *Mosquitto) URL() string { return "mqtt://" + m.Addr }

// Start starts (or restarts) the broker on its port.
func (m *Mosquitto) Start() {
	m.t.Helper()
	m.cmd = exec.Command(m.bin, "-c", m.conf)
	m.cmd.Stderr = &m.stderr
	if err := m.cmd.Start(); err != nil {
		m.t.Fatalf("start mosquitto: %v", err)
	}
	exited := make(chan struct{})
	go func(cmd *exec.Cmd) { _ = cmd.Wait(); close(exited) }(m.cmd)
	m.cmdDone = exited
	Eventually(m.t, "mosquitto to listen on "+m.Addr, func() bool {
		select {
		case <-exited:
			m.t.Fatalf("mosquitto exited: %s", m.stderr.String())
		default:
		}
		c, err := net.DialTimeout("tcp", m.Addr, time.Second)
		if err != nil {
			return false
		}
		_ = c.Close()
		return true
	})
}

// Stop stops the broker.
func (m *Mosquitto) Stop() {
	if m.cmd == nil {
		return
	}
	_ = m.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-m.cmdDone:
	case <-time.After(Failsafe):
		_ = m.cmd.Process.Kill()
		<-m.cmdDone
	}
	m.cmd = nil
}
