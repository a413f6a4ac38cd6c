package mqtt

import (
	"context"
	"testing"
	"time"
)

// TestReceiveMaximum: the bus tells the broker how many unacknowledged
// messages it takes (the Inbound channel's size), so paho does not size its
// receive queue for 65,535 (half a megabyte per connection).
func TestReceiveMaximum(t *testing.T) {
	tests := []struct {
		buffer int
		want   uint16
	}{
		{0, DefaultInboundBuffer}, // the default
		{10, 256},                 // at least 256
		{5000, 5000},
	}
	for _, tt := range tests {
		ctx := context.Background()
		b, err := StartBroker(ctx, BrokerOptions{Addr: "127.0.0.1:0"})
		if err != nil {
			t.Fatal(err)
		}
		bus, err := Connect(ctx, Options{URL: b.URL(), ClientID: "rm-test", InboundBuffer: tt.buffer})
		if err != nil {
			b.Close()
			t.Fatal(err)
		}
		var got uint16
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if cl, ok := b.srv.Clients.Get("rm-test"); ok {
				got = cl.Properties.Props.ReceiveMaximum
				break
			}
		}
		_ = bus.Close(ctx)
		b.Close()
		if got != tt.want {
			t.Errorf("InboundBuffer %d: receive maximum %d, want %d", tt.buffer, got, tt.want)
		}
	}
}
