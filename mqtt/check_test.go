package mqtt_test

import (
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/mqtt"
)

// TestChecksAreConnectsChecks: the exported checks refuse what Connect and
// StartBroker refuse, with EINVALID, before anything connects or listens.
func TestChecksAreConnectsChecks(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
		ok   bool
	}{
		{"url", mqtt.CheckURL("mqtt://127.0.0.1:1883"), true},
		{"default url", mqtt.CheckURL(""), true},
		{"wss url", mqtt.CheckURL("wss://broker.example/mqtt"), true},
		{"misspelt scheme", mqtt.CheckURL("htp://broker:1883"), false},
		{"no host", mqtt.CheckURL("mqtt://:1883"), false},
		{"bad port", mqtt.CheckURL("mqtt://broker:18x3"), false},
		{"prefix", mqtt.CheckPrefix("lobby/nadine"), true},
		{"slash prefix", mqtt.CheckPrefix("/"), false},
		{"wildcard prefix", mqtt.CheckPrefix("nadine/#"), false},
		{"reserved prefix", mqtt.CheckPrefix("$SYS"), false},
		{"options", mqtt.Options{URL: "mqtt://127.0.0.1:1883", Prefix: "nadine"}.Check(), true},
		{"TLS files on a plain URL", mqtt.Options{URL: "mqtt://127.0.0.1:1883", TLS: mqtt.TLSOptions{CAFile: "ca.pem"}}.Check(), false},
		{"missing CA file", mqtt.Options{URL: "mqtts://127.0.0.1:8883", TLS: mqtt.TLSOptions{CAFile: "/nonexistent/ca.pem"}}.Check(), false},
		{"listen", mqtt.BrokerOptions{Addr: "127.0.0.1:0"}.Check(), true},
		{"default listen", mqtt.BrokerOptions{}.Check(), true},
		{"listen without port", mqtt.BrokerOptions{Addr: "not an address"}.Check(), false},
		{"listen on a bad port", mqtt.BrokerOptions{Addr: "127.0.0.1:eighteen"}.Check(), false},
	} {
		if tt.ok != (tt.err == nil) {
			t.Errorf("%s: err = %v, want ok %v", tt.name, tt.err, tt.ok)
		}
		if tt.err != nil && nadine.ErrorCode(tt.err) != nadine.EINVALID {
			t.Errorf("%s: code %s, want invalid", tt.name, nadine.ErrorCode(tt.err))
		}
	}
}
