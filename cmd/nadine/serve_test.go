package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/internal/syncbuf"

	"github.com/nadine-robot/nadine/internal/mqtttest"
)

// TestServe runs `nadine serve` as the README says, on free ports: the
// embedded broker takes a transcript from a fake speech-to-text and the
// reply goes out to a fake text-to-speech; the monitor's API answers; a
// signal stops it gracefully.
func TestServe(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var stderr syncbuf.Buffer
	e := env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, getenv: envMap(map[string]string{
		"HOME": t.TempDir(), "NADINE_MQTT_LISTEN": "127.0.0.1:0", "NADINE_HTTP_ADDR": "127.0.0.1:0",
	})}
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"serve"}, e) }()

	var mqttURL, monitor string
	mqtttest.Eventually(t, "serve to start", func() bool {
		s := stderr.String()
		if m := regexp.MustCompile(`MQTT: (mqtt://\S+)`).FindStringSubmatch(s); m != nil {
			mqttURL = m[1]
		}
		if m := regexp.MustCompile(`Monitor: (http://\S+)`).FindStringSubmatch(s); m != nil {
			monitor = m[1]
		}
		select {
		case err := <-done:
			t.Fatalf("serve stopped: %v\n%s", err, s)
		default:
		}
		return mqttURL != "" && monitor != ""
	})
	if !strings.Contains(stderr.String(), "OFFLINE") {
		t.Errorf("the banner does not say it runs offline:\n%s", stderr.String())
	}

	addr := mqtttest.HostPort(mqttURL)
	tts := mqtttest.NewPeer(t, addr, "nadine/agent/control/speak")
	stt := mqtttest.NewPeer(t, addr)
	mqtttest.Eventually(t, "the monitor to be ready", func() bool {
		resp, err := http.Get(monitor + "/api/ready")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	// The API gives the version the banner gives.
	if resp, err := http.Get(monitor + "/api/info"); err != nil {
		t.Error(err)
	} else {
		var info struct {
			Version string `json:"version"`
		}
		err := json.NewDecoder(resp.Body).Decode(&info)
		resp.Body.Close()
		if want := currentVersion().Short(); err != nil || info.Version != want || !strings.Contains(stderr.String(), "Nadine "+want) {
			t.Errorf("/api/info version %q (%v), want the banner's %q:\n%s", info.Version, err, want, stderr.String())
		}
	}
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"Hello Nadine","language":"en","final":true,"id":"serve-1"}`))
	var s struct {
		Text   string `json:"text"`
		TurnID string `json:"turn_id"`
	}
	if err := json.Unmarshal(tts.Next().Payload, &s); err != nil || s.TurnID != "serve-1" || !strings.Contains(s.Text, "Hello") {
		t.Errorf("spoken: %+v (%v)", s, err)
	}

	resp, err := http.Post(monitor+"/api/turns", "application/json", strings.NewReader(`{"text":"What time is it?","user_name":"Robin"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "It is") {
		t.Errorf("POST /api/turns: %d %s", resp.StatusCode, body)
	}

	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(mqtttest.Failsafe):
		t.Fatal("serve did not stop")
	}
}
