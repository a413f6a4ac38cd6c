package mqtt_test

import (
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/packets"

	"github.com/nadine-robot/nadine/mqtt"
)

// wireBroker is a minimal MQTT 5 server speaking the real wire format, which
// lets a test send what a broker sends on redelivery: a PUBLISH with the DUP
// flag. It accepts one client, acknowledges its CONNECT and SUBSCRIBE, then
// the test drives it.
type wireBroker struct {
	t    *testing.T
	ln   net.Listener
	conn chan net.Conn
	c    net.Conn
}

func startWireBroker(t *testing.T) *wireBroker {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w := &wireBroker{t: t, ln: ln, conn: make(chan net.Conn, 1)}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		t.Cleanup(func() { _ = c.Close() })
		if p, err := packets.ReadPacket(c); err != nil || p.Type != packets.CONNECT {
			return
		}
		if _, err := packets.NewControlPacket(packets.CONNACK).WriteTo(c); err != nil {
			return
		}
		p, err := readSkippingPings(c)
		if err != nil || p.Type != packets.SUBSCRIBE {
			return
		}
		sub := p.Content.(*packets.Subscribe)
		ack := packets.NewControlPacket(packets.SUBACK)
		ack.Content.(*packets.Suback).PacketID = sub.PacketID
		ack.Content.(*packets.Suback).Reasons = make([]byte, len(sub.Subscriptions))
		for i := range sub.Subscriptions {
			ack.Content.(*packets.Suback).Reasons[i] = 1 // granted QoS 1
		}
		if _, err := ack.WriteTo(c); err != nil {
			return
		}
		w.conn <- c
	}()
	return w
}

func (w *wireBroker) url() string { return "mqtt://" + w.ln.Addr().String() }

// publish sends a QoS 1 PUBLISH and waits for the client's PUBACK: the
// client acknowledges every message, delivered or dropped.
func (w *wireBroker) publish(id uint16, topic, payload string, dup bool) {
	w.t.Helper()
	if w.c == nil {
		select {
		case w.c = <-w.conn:
		case <-time.After(failsafe):
			w.t.Fatal("the bus did not subscribe")
		}
	}
	p := &packets.Publish{PacketID: id, QoS: 1, Topic: topic, Payload: []byte(payload), Duplicate: dup, Properties: &packets.Properties{}}
	if _, err := p.WriteTo(w.c); err != nil {
		w.t.Fatalf("write PUBLISH: %v", err)
	}
	_ = w.c.SetReadDeadline(time.Now().Add(failsafe))
	r, err := readSkippingPings(w.c)
	if err != nil {
		w.t.Fatalf("read PUBACK %d: %v", id, err)
	}
	if r.Type != packets.PUBACK || r.Content.(*packets.Puback).PacketID != id {
		w.t.Fatalf("got packet type %d, want PUBACK %d", r.Type, id)
	}
}

// readSkippingPings reads the next packet, answering keep-alive pings on
// the way (paho pings as soon as it connects).
func readSkippingPings(c net.Conn) (*packets.ControlPacket, error) {
	for {
		p, err := packets.ReadPacket(c)
		if err != nil || p.Type != packets.PINGREQ {
			return p, err
		}
		if _, err := packets.NewControlPacket(packets.PINGRESP).WriteTo(c); err != nil {
			return nil, err
		}
	}
}

func TestBus_RedeliveryDeduplicated(t *testing.T) {
	w := startWireBroker(t)
	var now atomic.Int64
	now.Store(fixedNow.UnixNano())
	opts := testOptions(w.url(), &logs{})
	opts.Now = func() time.Time { return time.Unix(0, now.Load()) }
	b := connect(t, opts)
	topic := b.Topic(mqtt.TopicTranscript)

	steps := []struct {
		payload string
		dup     bool
		want    string // the text delivered, "" for none
	}{
		{"yes", false, "yes"},
		{"yes", true, ""},                               // redelivery of a delivered text
		{"yes", false, "yes"},                           // the same words said again
		{`{"text":"yes","language":"fr"}`, true, "yes"}, // same text in another language: not delivered before
		{`{"text":"with id","id":"A"}`, false, "with id"},
		{`{"text":"with id","id":"A"}`, true, ""},              // redelivered id
		{`{"text":"with id","id":"A"}`, false, ""},             // an id is never answered twice
		{`{"text":"other text","id":"B"}`, true, "other text"}, // a DUP never delivered before
		{"never seen", true, "never seen"},
	}
	for i, s := range steps {
		w.publish(uint16(i+1), topic, s.payload, s.dup)
	}
	// Past the window, a DUP of an old text is delivered.
	now.Add(int64(mqtt.DefaultDedupWindow + time.Second))
	w.publish(100, topic, "yes", true)
	w.publish(101, topic, "sentinel", false)

	var want []string
	for _, s := range steps {
		if s.want != "" {
			want = append(want, s.want)
		}
	}
	want = append(want, "yes", "sentinel")
	for i, text := range want {
		if got := next(t, b); got.Transcript.Text != text {
			t.Fatalf("message %d: got %q, want %q", i, got.Transcript.Text, text)
		}
	}
}

func TestBus_DedupSizeBounded(t *testing.T) {
	broker := startBroker(t, "127.0.0.1:0")
	opts := testOptions(broker.URL(), &logs{})
	opts.DedupSize = 2
	b := connect(t, opts)
	stt := newPeer(t, broker.Addr())
	// Only the last two ids are remembered: "a" is forgotten once "b" and
	// "c" came, "c" is still known.
	for _, id := range []string{"a", "b", "c", "a", "c", "end"} {
		stt.Publish(b.Topic(mqtt.TopicTranscript), []byte(`{"text":"words","id":"`+id+`"}`))
	}
	for _, want := range []string{"a", "b", "c", "a", "end"} {
		if got := next(t, b); got.Transcript.ID != want {
			t.Fatalf("got id %q, want %q", got.Transcript.ID, want)
		}
	}
}
