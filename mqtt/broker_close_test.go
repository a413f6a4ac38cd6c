package mqtt_test

import (
	"context"
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
	closed := make(chan error, 1)
	go func() { closed <- b.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(mqtttest.Failsafe):
		t.Fatal("Close did not return: the silent client holds the broker")
	}
	if n, err := silent.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("the silent client read %d bytes, %v; want its connection closed (EOF)", n, err)
	}
	leaktest.Check(t, before, mqtttest.Failsafe/4)
}
