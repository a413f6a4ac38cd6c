package config

import (
	"math"
	"net"
	"time"

	"github.com/nadine-robot/nadine/mqtt"
)

// The embedded broker's limits (mqtt.max_*, .write_timeout) apply when mqtt.url
// is empty; no client can go beyond a default (docs/bus-limits.md).

// withBrokerLimits sets the broker limits of m to their defaults.
func withBrokerLimits(m MQTTConfig) MQTTConfig {
	m.MaxPacketSize, m.MaxClients, m.MaxInflight = mqtt.DefaultBrokerMaxPacketSize, mqtt.DefaultBrokerMaxClients, mqtt.DefaultBrokerMaxInflight
	m.MaxQueued, m.MaxQueuedBytes = mqtt.DefaultBrokerMaxQueued, mqtt.DefaultBrokerMaxQueuedBytes
	m.MaxRetained, m.MaxRetainedBytes = mqtt.DefaultBrokerMaxRetained, mqtt.DefaultBrokerMaxRetainedBytes
	m.WriteTimeout = Duration(mqtt.DefaultBrokerWriteTimeout)
	return m
}

// validateBroker checks the limits fit MQTT, and that a broker listening off
// loopback has users: anyone there could read what people say.
func (c *Config) validateBroker(bad func(field, format string, args ...any)) {
	m := c.MQTT
	for _, f := range []struct {
		field    string
		v        int
		min, max int
	}{
		{"mqtt.max_packet_size", m.MaxPacketSize, 1024, 268_435_460},
		{"mqtt.max_clients", m.MaxClients, 1, math.MaxInt32},
		{"mqtt.max_inflight", m.MaxInflight, 1, math.MaxUint16},
		{"mqtt.max_queued", m.MaxQueued, 1, math.MaxUint16},
		{"mqtt.max_queued_bytes", m.MaxQueuedBytes, 1, math.MaxInt},
		{"mqtt.max_retained", m.MaxRetained, 1, math.MaxUint16},
		{"mqtt.max_retained_bytes", m.MaxRetainedBytes, 1, math.MaxInt},
	} {
		if f.v < f.min || f.v > f.max {
			bad(f.field, "must be between %d and %d (got %d)", f.min, f.max, f.v)
		}
	}
	if m.WriteTimeout <= 0 {
		bad("mqtt.write_timeout", "must be positive (got %s)", time.Duration(m.WriteTimeout))
	}
	if _, _, err := net.SplitHostPort(m.Listen); err == nil && m.URL == "" && len(m.BrokerUsers) == 0 && !loopbackAddr(m.Listen) {
		bad("mqtt.listen", "%s is not a loopback address: the embedded broker needs mqtt.broker_users to listen there (anyone on the network could read what people say and make Nadine speak)", m.Listen)
	}
}
