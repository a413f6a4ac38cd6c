package mqtt_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/mqtt"
)

// startLimited starts an embedded broker with opts on a free loopback
// port, closed at the end of the test.
func startLimited(t *testing.T, opts mqtt.BrokerOptions) *mqtt.Broker {
	t.Helper()
	opts.Addr = "127.0.0.1:0"
	b, err := mqtt.StartBroker(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// stall connects a client that subscribes to filter at qos and then reads
// nothing, and fills its socket: 400 messages of 64 KiB (25 MB, more than
// the sockets hold) published on fill, which filter must match.
func stall(t *testing.T, b *mqtt.Broker, filter string, qos byte, fill string) net.Conn {
	t.Helper()
	c, err := dialRawQoS(b.Addr(), "stalled", filter, qos)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	rawPublish(t, b.Addr(), fill, make([]byte, 64<<10), 400)
	time.Sleep(200 * time.Millisecond) // the broker's writes to it block
	return c
}

// clients waits until the broker has n clients connected and reports
// whether it came to that within the failsafe.
func clients(b *mqtt.Broker, n int) bool {
	for deadline := time.Now().Add(failsafe); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b.Stats().Clients == n {
			return true
		}
	}
	return false
}

// TestBrokerStalledSubscriberDelaysNobody: a subscriber of everything
// that stopped reading (its socket full, the broker's write to it blocked)
// holds up no one: each of nadine's sentences is acknowledged and
// delivered to a reading subscriber while the write stays blocked. mochi
// used to write under the client's lock, which every QoS 1 delivery to
// that client takes for its packet id: the publisher's connection waited
// for the write to fail (10 s), and with it every sentence (the write
// bound is an hour here: the test fails at the failsafe).
func TestBrokerStalledSubscriberDelaysNobody(t *testing.T) {
	b := startLimited(t, mqtt.BrokerOptions{WriteTimeout: time.Hour, MaxQueued: 65535, MaxQueuedBytes: 1 << 30})
	stall(t, b, "nadine/#", 1, "nadine/fill")
	var l logs
	o := testOptions(b.URL(), &l)
	o.ClientID = "nadine-speaks"
	bus := connect(t, o)
	ctl := newPeer(t, hostPort(b.URL()), "nadine/agent/control/speak")
	for i := range 20 {
		ctx, cancel := context.WithTimeout(context.Background(), failsafe)
		err := bus.Speak(ctx, nadine.Speech{Text: fmt.Sprintf("Sentence %d.", i), Language: "en", Seq: i, TurnID: "stalled"})
		cancel()
		if err != nil {
			t.Fatalf("sentence %d: %v", i, err)
		}
		if m := ctl.Next(); !strings.Contains(string(m.Payload), fmt.Sprintf("Sentence %d.", i)) {
			t.Fatalf("sentence %d: control got %s", i, m.Payload)
		}
	}
}

// TestBrokerDisconnectsAClientWhoseQueueIsFull: a client whose queue of
// packets to write is full is disconnected (it used to keep its
// connection and lose messages one by one, for as long as its writes
// lasted), and the broker says so.
func TestBrokerDisconnectsAClientWhoseQueueIsFull(t *testing.T) {
	var l logs
	b := startLimited(t, mqtt.BrokerOptions{WriteTimeout: time.Hour, MaxQueued: 16, MaxRetained: 1, Logger: l.logger()})
	stall(t, b, "#", 0, "nadine/fill")
	if !clients(b, 0) {
		t.Fatal("the client with a full queue is still connected")
	}
	if !strings.Contains(l.String(), "its outbound queue is full") {
		t.Errorf("no log line says why:\n%s", lastLog(l.String()))
	}
}

// TestBrokerDisconnectsAStalledClient: a client that takes no data for
// the write timeout is disconnected (boundedConn's test checks that one
// taking it slowly is not).
func TestBrokerDisconnectsAStalledClient(t *testing.T) {
	b := startLimited(t, mqtt.BrokerOptions{WriteTimeout: 100 * time.Millisecond})
	stall(t, b, "#", 0, "nadine/fill")
	if !clients(b, 0) {
		t.Fatal("the stalled client is still connected")
	}
}

// lastLog returns the end of a log, for an error message.
func lastLog(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

// rawV5 connects an MQTT 5 client over TCP and reads its CONNACK.
func rawV5(t *testing.T, addr, id string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	body := []byte{0x00, 0x04, 'M', 'Q', 'T', 'T', 0x05, 0x02, 0x00, 0x3c, 0x00, 0x00, byte(len(id))}
	body = append(body, id...)
	if _, err := c.Write(append([]byte{0x10, byte(len(body))}, body...)); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(failsafe))
	hdr := make([]byte, 2)
	if _, err := io.ReadFull(c, hdr); err != nil || hdr[0] != 0x20 {
		t.Fatalf("CONNACK: % x, %v", hdr, err)
	}
	if _, err := io.ReadFull(c, make([]byte, hdr[1])); err != nil {
		t.Fatal(err)
	}
	return c
}

// sendHuge publishes a message of size bytes on topic (retained or not)
// from c, writing its body 64 KiB at a time, and returns how many bytes
// went out before the connection failed.
func sendHuge(c net.Conn, topic string, size int, retain bool) int {
	hdr := byte(0x30)
	if retain {
		hdr |= 0x01
	}
	body := append([]byte{0x00, byte(len(topic))}, topic...)
	body = append(body, 0x00) // no properties
	rem := len(body) + size
	pkt := []byte{hdr}
	for l := rem; ; {
		b := byte(l % 128)
		if l /= 128; l > 0 {
			pkt = append(pkt, b|0x80)
			continue
		}
		pkt = append(pkt, b)
		break
	}
	pkt = append(pkt, body...)
	sent := 0
	_ = c.SetWriteDeadline(time.Now().Add(failsafe))
	if _, err := c.Write(pkt); err != nil {
		return 0
	}
	chunk := make([]byte, 64<<10)
	for sent < size {
		n, err := c.Write(chunk[:min(len(chunk), size-sent)])
		sent += n
		if err != nil {
			break
		}
	}
	return sent
}

// heap is the live heap after a collection.
func heap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestBrokerRefusesOversizedPackets: with the default limits, messages of
// 20 MB, retained or not, are refused from their header: the client is
// disconnected long before it has sent them, nothing is retained or
// delivered, and the broker's heap does not grow by them. The CONNACK
// announces the maximum. It used to take any size, and keep retained ones
// for ever.
func TestBrokerRefusesOversizedPackets(t *testing.T) {
	b := startLimited(t, mqtt.BrokerOptions{})
	addr := b.Addr()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	cli := paho.NewClient(paho.ClientConfig{Conn: conn})
	ctx, cancel := context.WithTimeout(context.Background(), failsafe)
	defer cancel()
	ack, err := cli.Connect(ctx, &paho.Connect{ClientID: "announce", CleanStart: true, KeepAlive: 30})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Disconnect(&paho.Disconnect{})
	if ack.Properties == nil || ack.Properties.MaximumPacketSize == nil || *ack.Properties.MaximumPacketSize != mqtt.DefaultBrokerMaxPacketSize {
		t.Errorf("CONNACK maximum packet size: %+v, want %d", ack.Properties, mqtt.DefaultBrokerMaxPacketSize)
	}
	sub := newPeer(t, addr, "big/#")
	before := heap()
	const size = 20 << 20
	for i, retain := range []bool{true, true, false, true} {
		c := rawV5(t, addr, fmt.Sprintf("big-%d", i))
		if sent := sendHuge(c, fmt.Sprintf("big/%d", i), size, retain); sent >= size {
			t.Errorf("message %d (retained %v): all %d bytes were taken", i, retain, size)
		}
		if !clients(b, 2) {
			t.Errorf("message %d: the sender is still connected", i)
		}
	}
	if grew := int64(heap()) - int64(before); grew > 8<<20 {
		t.Errorf("the heap grew by %d MB", grew>>20)
	}
	sub.Publish("big/small", []byte("fits"))
	if m := sub.Next(); m.Topic != "big/small" {
		t.Errorf("the subscriber got %s first (%d bytes)", m.Topic, len(m.Payload))
	}
	late := newPeer(t, addr, "big/#")
	select {
	case m := <-late.Msg:
		t.Errorf("retained: %s (%d bytes)", m.Topic, len(m.Payload))
	case <-time.After(200 * time.Millisecond):
	}
}

// TestBrokerRetainedLimits: retained messages are bounded in number and
// bytes; replacing and clearing stay possible; an MQTT 5 publisher is told
// (quota exceeded), an MQTT 3.1.1 one's message is dropped.
func TestBrokerRetainedLimits(t *testing.T) {
	var l logs
	b := startLimited(t, mqtt.BrokerOptions{MaxRetained: 3, MaxRetainedBytes: 200, Logger: l.logger()})
	addr := b.Addr()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	cli := paho.NewClient(paho.ClientConfig{Conn: conn})
	ctx, cancel := context.WithTimeout(context.Background(), failsafe)
	defer cancel()
	if _, err := cli.Connect(ctx, &paho.Connect{ClientID: "retainer", CleanStart: true, KeepAlive: 30}); err != nil {
		t.Fatal(err)
	}
	defer cli.Disconnect(&paho.Disconnect{})
	steps := []struct {
		topic   string
		size    int
		refused bool
	}{
		{"r/1", 10, false},
		{"r/2", 10, false},
		{"r/3", 10, false},
		{"r/4", 10, true},   // a fourth
		{"r/1", 20, false},  // replacing
		{"r/2", 0, false},   // clearing
		{"r/4", 10, false},  // room again
		{"r/5", 1, true},    // a fourth
		{"r/3", 190, true},  // 229 bytes
		{"r/3", 150, false}, // 189 bytes
	}
	for i, s := range steps {
		pr, err := cli.Publish(ctx, &paho.Publish{Topic: s.topic, QoS: 1, Retain: true, Payload: []byte(strings.Repeat("x", s.size))})
		refused := err != nil && pr != nil && pr.ReasonCode == 0x97
		if err != nil && !refused {
			t.Fatalf("step %d (%s, %d bytes): %v", i, s.topic, s.size, err)
		}
		if refused != s.refused {
			t.Errorf("step %d (%s, %d bytes): refused %v, want %v", i, s.topic, s.size, refused, s.refused)
		}
	}
	old := rawConnect(t, addr, "v311", "nothing/here")
	defer old.Close()
	body := append([]byte{0x00, 0x03}, "r/9"...)
	body = append(body, "old"...)
	if _, err := old.Write(append([]byte{0x31, byte(len(body))}, body...)); err != nil {
		t.Fatal(err)
	}
	// The late subscriber gets what is retained, and then a marker. The
	// broker acknowledges a publish before it forwards it, so the last one
	// may also arrive live, without the retain flag: only flagged ones count.
	late := newPeer(t, addr, "r/#")
	late.Publish("r/marker", []byte("end"))
	var got []string
	for {
		m := late.Next()
		if m.Topic == "r/marker" {
			break
		}
		if m.Retain {
			got = append(got, fmt.Sprintf("%s:%d", m.Topic, len(m.Payload)))
		}
	}
	if g, w := fmt.Sprint(sortedStrings(got)), "[r/1:20 r/3:150 r/4:10]"; g != w {
		t.Errorf("retained: %s, want %s", g, w)
	}
	// The old client's refusal is logged on its own connection's
	// goroutine, which the late subscriber's marker does not wait for.
	refusals := func() int { return strings.Count(l.String(), "the retained messages are at their limit") }
	eventually(t, "four refusals logged", func() bool { return refusals() >= 4 })
	if n := refusals(); n != 4 {
		t.Errorf("%d refusals logged, want 4:\n%s", n, lastLog(l.String()))
	}
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// TestBrokerMaxClients: beyond MaxClients, a client with a new id is
// refused (server busy), the sessions kept for clients gone counting; a
// known id takes its session back.
func TestBrokerMaxClients(t *testing.T) {
	b := startLimited(t, mqtt.BrokerOptions{MaxClients: 2})
	addr := b.Addr()
	dial := func(id string, keep bool) (*paho.Client, error) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			return nil, err
		}
		cli := paho.NewClient(paho.ClientConfig{Conn: conn})
		ctx, cancel := context.WithTimeout(context.Background(), failsafe)
		defer cancel()
		c := &paho.Connect{ClientID: id, CleanStart: !keep, KeepAlive: 30}
		if keep {
			expiry := uint32(60)
			c.Properties = &paho.ConnectProperties{SessionExpiryInterval: &expiry}
		}
		ack, err := cli.Connect(ctx, c)
		if err != nil {
			conn.Close()
			if ack != nil {
				return nil, fmt.Errorf("reason 0x%02x: %w", ack.ReasonCode, err)
			}
			return nil, err
		}
		return cli, nil
	}
	a, err := dial("a", false)
	if err != nil {
		t.Fatal(err)
	}
	k, err := dial("kept", true)
	if err != nil {
		t.Fatal(err)
	}
	_ = k.Disconnect(&paho.Disconnect{})
	time.Sleep(100 * time.Millisecond)
	if _, err := dial("new", false); err == nil || !strings.Contains(err.Error(), "0x89") {
		t.Errorf("a third client beside a kept session: %v, want refused (0x89)", err)
	}
	k, err = dial("kept", true)
	if err != nil {
		t.Fatalf("the kept session's client: %v", err)
	}
	defer k.Disconnect(&paho.Disconnect{})
	_ = a.Disconnect(&paho.Disconnect{})
	eventually(t, "a new client once one left", func() bool {
		c, err := dial("new", false)
		if err != nil {
			return false
		}
		_ = c.Disconnect(&paho.Disconnect{})
		return true
	})
}

// TestBrokerOffLoopbackNeedsUsers: anonymous access is for the loopback
// interface only; beyond it the broker needs users.
func TestBrokerOffLoopbackNeedsUsers(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		if b, err := mqtt.StartBroker(context.Background(), mqtt.BrokerOptions{Addr: addr}); nadine.ErrorCode(err) != nadine.EINVALID {
			if b != nil {
				_ = b.Close()
			}
			t.Errorf("%s without users: %v, want EINVALID", addr, err)
		}
	}
	b, err := mqtt.StartBroker(context.Background(), mqtt.BrokerOptions{Addr: "0.0.0.0:0", Users: map[string]string{"perception": "secret"}})
	if err != nil {
		t.Fatalf("0.0.0.0 with users: %v", err)
	}
	_ = b.Close()
	for _, tt := range []struct {
		opts mqtt.BrokerOptions
		want string
	}{
		{mqtt.BrokerOptions{MaxPacketSize: 100}, "MaxPacketSize"},
		{mqtt.BrokerOptions{MaxQueued: -1}, "MaxQueued"},
		{mqtt.BrokerOptions{MaxInflight: 70000}, "MaxInflight"},
		{mqtt.BrokerOptions{WriteTimeout: -time.Second}, "WriteTimeout"},
	} {
		tt.opts.Addr = "127.0.0.1:0"
		b, err := mqtt.StartBroker(context.Background(), tt.opts)
		if nadine.ErrorCode(err) != nadine.EINVALID || !strings.Contains(err.Error(), tt.want) {
			if b != nil {
				_ = b.Close()
			}
			t.Errorf("%+v: %v, want EINVALID naming %s", tt.opts, err, tt.want)
		}
	}
}
