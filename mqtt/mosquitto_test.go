package mqtt_test

import (
	"testing"

	"github.com/nadine-robot/nadine/internal/mqtttest"
)

// TestConversation_Mosquitto runs the conversation on Debian's mosquitto
// broker (skipped when it is not installed).
func TestConversation_Mosquitto(t *testing.T) {
	m := mqtttest.StartMosquitto(t)
	conversation(t, brokerEnv{url: m.URL(), stop: m.Stop, start: m.Start})
}
