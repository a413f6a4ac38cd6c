package mqtt_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/mqtt"
)

// TestBrokerUsers: with users configured, the embedded broker accepts only
// those user names with their passwords; the bus of an accepted user works.
func TestBrokerUsers(t *testing.T) {
	var l logs
	b, err := mqtt.StartBroker(context.Background(), mqtt.BrokerOptions{Addr: "127.0.0.1:0", Logger: l.logger(),
		Users: map[string]string{"perception": "p-secret", "nadine": "n-secret"}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, tt := range []struct{ name, user, password string }{
		{"no credentials", "", ""},
		{"wrong password", "perception", "guess"},
		{"another user's password", "perception", "n-secret"},
		{"unknown user", "control", "p-secret"},
		{"prefix of the password", "perception", "p-secre"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := testOptions(b.URL(), &l)
			o.ClientID, o.Username, o.Password = "c-"+strings.ReplaceAll(tt.name, " ", "-"), tt.user, tt.password
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			if bus, err := mqtt.Connect(ctx, o); err == nil {
				_ = bus.Close(context.Background())
				t.Fatal("connected")
			}
		})
	}
	o := testOptions(b.URL(), &l)
	o.ClientID, o.Username, o.Password = "nadine", "nadine", "n-secret"
	bus := connect(t, o)
	peer := testOptions(b.URL(), &l)
	peer.ClientID, peer.Username, peer.Password, peer.Prefix = "perception", "perception", "p-secret", "other"
	connect(t, peer)
	if !bus.Connected() {
		t.Error("the accepted user is not connected")
	}
	if !strings.Contains(l.String(), "unknown user or wrong password") {
		t.Errorf("refusals are not logged:\n%s", l.String())
	}
	if strings.Contains(l.String(), "p-secret") || strings.Contains(l.String(), "guess") {
		t.Error("a password reached the logs")
	}
}
