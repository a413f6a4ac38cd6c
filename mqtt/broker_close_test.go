package mqtt_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/internal/leaktest"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/mqtt"
)

// TestBrokerCloseWithASilentClient: a client that opened its connection
// but never sent CONNECT (a perception process stuck at start, a port
// scanner) does not keep the embedded broker from closing: Close closes
// that connection too, and returns with none of the broker's goroutines
// left, a bus connected to it included.
func TestBrokerCloseWithASilentClient(t *testing.T) {
	before := leaktest.Take()
	b, err := mqtt.StartBroker(context.Background(), mqtt.BrokerOptions{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), mqtttest.Failsafe)
	defer cancel()
	bus, err := mqtt.Connect(ctx, mqtt.Options{URL: b.URL(), ClientID: "nadine-close"})
	if err != nil {
		t.Fatal(err)
	}
	silent, err := net.Dial("tcp", b.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	if err := bus.Close(ctx); err != nil {
		t.Fatal(err)
	}
	closeWithin(t, b, "the silent client")
	if n, err := silent.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("the silent client read %d bytes, %v; want its connection closed (EOF)", n, err)
	}
	leaktest.Check(t, before, mqtttest.Failsafe/4)
}

// closeWithin closes b, failing the test unless Close returns within the
// failsafe; who names what would hold it.
func closeWithin(t *testing.T, b *mqtt.Broker, who string) {
	t.Helper()
	closed := make(chan error, 1)
	go func() { closed <- b.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(mqtttest.Failsafe):
		t.Fatalf("Close did not return: %s holds the broker", who)
	}
}

// rawConnect opens a TCP connection to addr and has it connect as an MQTT
// 3.1.1 client with id and subscribe to filter, reading the CONNACK and the
// SUBACK; then it reads nothing more.
func rawConnect(t *testing.T, addr, id, filter string) net.Conn {
	t.Helper()
	c, err := dialRaw(addr, id, filter)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// dialRaw is rawConnect, with an error.
func dialRaw(addr, id, filter string) (net.Conn, error) { return dialRawQoS(addr, id, filter, 0) }

// dialRawQoS is dialRaw subscribing at qos.
func dialRawQoS(addr, id, filter string, qos byte) (net.Conn, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(4096) // its socket fills up sooner
	}
	connect := []byte{0x00, 0x04, 'M', 'Q', 'T', 'T', 0x04, 0x02, 0x00, 0x3c, 0x00, byte(len(id))}
	connect = append(connect, id...)
	sub := []byte{0x00, 0x01, 0x00, byte(len(filter))}
	sub = append(sub, filter...)
	sub = append(sub, qos)
	pkt := append([]byte{0x10, byte(len(connect))}, connect...)
	pkt = append(pkt, 0x82, byte(len(sub)))
	pkt = append(pkt, sub...)
	if _, err := c.Write(pkt); err != nil {
		c.Close()
		return nil, err
	}
	_ = c.SetReadDeadline(time.Now().Add(mqtttest.Failsafe))
	if _, err := io.ReadFull(c, make([]byte, 4+5)); err != nil { // CONNACK, SUBACK
		c.Close()
		return nil, fmt.Errorf("connect %s: %w", id, err)
	}
	return c, nil
}

// rawPublish publishes payload n times on topic at QoS 0 from a new
// connection.
func rawPublish(t *testing.T, addr, topic string, payload []byte, n int) {
	t.Helper()
	c := rawConnect(t, addr, "flood", "nothing/here")
	defer c.Close()
	body := append([]byte{0x00, byte(len(topic))}, topic...)
	body = append(body, payload...)
	pkt := []byte{0x30}
	for l := len(body); ; {
		b := byte(l % 128)
		if l /= 128; l > 0 {
			pkt = append(pkt, b|0x80)
			continue
		}
		pkt = append(pkt, b)
		break
	}
	pkt = append(pkt, body...)
	for range n {
		if _, err := c.Write(pkt); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBrokerCloseWithAClientThatStoppedReading: a subscriber that stopped
// reading (a frozen text-to-speech process whose socket is full) does not
// keep the embedded broker from closing. mochi writes to a client under
// the client's lock without a deadline, so the write blocked on the full
// socket held the lock the disconnect at Close waited for, for ever: a
// `nadine serve` with such a client on its broker never stopped.
func TestBrokerCloseWithAClientThatStoppedReading(t *testing.T) {
	before := leaktest.Take()
	b, err := mqtt.StartBroker(context.Background(), mqtt.BrokerOptions{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	stuck := rawConnect(t, b.Addr(), "stuck", "#")
	defer stuck.Close()
	rawPublish(t, b.Addr(), "nadine/speak", make([]byte, 64<<10), 400) // 25 MB: more than the sockets hold
	time.Sleep(200 * time.Millisecond)                                 // the broker's writes to the stuck client block
	closeWithin(t, b, "the client that stopped reading")
	leaktest.Check(t, before, mqtttest.Failsafe/4)
}

// TestBrokerTakeoverOfAClientThatStoppedReading: a client whose old
// connection stopped reading (its network went away with the socket full)
// reconnects under the same client id and is answered within the broker's
// write timeout, not once TCP or the keepalive gives the old one up (90 s
// for a 60 s keepalive): the DISCONNECT sent to the old session no longer
// waits behind a write that cannot end.
func TestBrokerTakeoverOfAClientThatStoppedReading(t *testing.T) {
	b, err := mqtt.StartBroker(context.Background(), mqtt.BrokerOptions{Addr: "127.0.0.1:0", WriteTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	stuck := rawConnect(t, b.Addr(), "perception", "#")
	defer stuck.Close()
	rawPublish(t, b.Addr(), "nadine/speak", make([]byte, 64<<10), 400)
	time.Sleep(200 * time.Millisecond) // the broker's writes to the stuck connection block
	type dialed struct {
		c   net.Conn
		err error
	}
	connected := make(chan dialed, 1)
	go func() {
		c, err := dialRaw(b.Addr(), "perception", "#")
		connected <- dialed{c, err}
	}()
	select {
	case d := <-connected:
		if d.err != nil {
			t.Fatalf("reconnection: %v", d.err)
		}
		d.c.Close()
	case <-time.After(mqtttest.Failsafe):
		t.Fatal("the reconnection was not answered: the old connection's blocked write holds the session")
	}
}
