package config

import (
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/mqtt"
)

// TestBrokerLimitsConfig: the embedded broker's limits have their
// defaults, take environment overrides, reach the broker's options, and
// are validated, each error naming its field.
func TestBrokerLimitsConfig(t *testing.T) {
	home := t.TempDir()
	cfg, err := Load("", envMap(map[string]string{"HOME": home}))
	if err != nil {
		t.Fatal(err)
	}
	want := mqtt.BrokerOptions{Addr: "127.0.0.1:1883", MaxPacketSize: mqtt.DefaultBrokerMaxPacketSize, MaxClients: mqtt.DefaultBrokerMaxClients,
		MaxInflight: mqtt.DefaultBrokerMaxInflight, MaxQueued: mqtt.DefaultBrokerMaxQueued, MaxQueuedBytes: mqtt.DefaultBrokerMaxQueuedBytes,
		MaxRetained: mqtt.DefaultBrokerMaxRetained, MaxRetainedBytes: mqtt.DefaultBrokerMaxRetainedBytes, WriteTimeout: mqtt.DefaultBrokerWriteTimeout}
	if got := cfg.BrokerOptions(nil, nil); got.Addr != want.Addr || got.MaxPacketSize != want.MaxPacketSize || got.MaxClients != want.MaxClients ||
		got.MaxInflight != want.MaxInflight || got.MaxQueued != want.MaxQueued || got.MaxQueuedBytes != want.MaxQueuedBytes ||
		got.MaxRetained != want.MaxRetained || got.MaxRetainedBytes != want.MaxRetainedBytes || got.WriteTimeout != want.WriteTimeout {
		t.Errorf("defaults: %+v, want %+v", got, want)
	}
	cfg, err = Load(writeConfig(t, "mqtt: {max_packet_size: 4096, max_retained: 5}\n"), envMap(map[string]string{"HOME": home,
		"NADINE_MQTT_MAX_CLIENTS": "7", "NADINE_MQTT_WRITE_TIMEOUT": "250ms", "NADINE_MQTT_MAX_QUEUED_BYTES": "1000000"}))
	if err != nil {
		t.Fatal(err)
	}
	if o := cfg.BrokerOptions(nil, nil); o.MaxPacketSize != 4096 || o.MaxRetained != 5 || o.MaxClients != 7 || o.WriteTimeout != 250*time.Millisecond || o.MaxQueuedBytes != 1000000 {
		t.Errorf("file and environment: %+v", o)
	}
	for _, tt := range []struct{ yaml, field string }{
		{"mqtt: {max_packet_size: 100}", "mqtt.max_packet_size"},
		{"mqtt: {max_packet_size: 300000000}", "mqtt.max_packet_size"},
		{"mqtt: {max_clients: 0}", "mqtt.max_clients"},
		{"mqtt: {max_inflight: 70000}", "mqtt.max_inflight"},
		{"mqtt: {max_queued: -1}", "mqtt.max_queued"},
		{"mqtt: {max_queued_bytes: 0}", "mqtt.max_queued_bytes"},
		{"mqtt: {max_retained: 0}", "mqtt.max_retained"},
		{"mqtt: {max_retained_bytes: -5}", "mqtt.max_retained_bytes"},
		{"mqtt: {write_timeout: 0s}", "mqtt.write_timeout"},
		{"mqtt: {listen: '0.0.0.0:1883'}", "mqtt.listen"},
	} {
		_, err := Load(writeConfig(t, tt.yaml+"\n"), envMap(map[string]string{"HOME": home}))
		if err == nil || !strings.Contains(err.Error(), ": "+tt.field+":") {
			t.Errorf("%s: error %v, want one naming %s", tt.yaml, err, tt.field)
		}
	}
}
