package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/internal/mqtttest"
)

// TestMetricsCarryNoConversation talks to `nadine serve` (offline) with a
// canary word in what people say, in their names and user ids and in the
// transcript ids, over the API and over MQTT, then reads /metrics: it
// needs the API's token, counts the turns, languages and interactions, and
// nowhere carries the canary. After serve stops, `nadine report` reads the
// same turns from the records.
func TestMetricsCarryNoConversation(t *testing.T) {
	const canary = "quokkacanary"
	const token = "metrics-token-31"
	home := t.TempDir()
	p := startServe(t, map[string]string{"HOME": home, "NADINE_HTTP_TOKEN": token, "NADINE_SESSION_IDLE_TIMEOUT": "0"})
	post := func(path, body string) {
		req, _ := http.NewRequest(http.MethodPost, p.monitor+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			t.Fatalf("POST %s: %d %s", path, resp.StatusCode, b)
		}
	}
	post("/api/turns", `{"text":"Hello, my name is `+canary+`","user_name":"`+canary+`"}`)
	post("/api/turns", `{"text":"Bonjour, je m'appelle `+canary+`, quelle heure est-il ?","user_id":"`+canary+`-id","language":"fr"}`)
	post("/api/session/end", `{}`)
	addr := mqtttest.HostPort(p.mqttURL)
	tts := mqtttest.NewPeer(t, addr, "nadine/agent/control/speak")
	stt := mqtttest.NewPeer(t, addr)
	stt.Publish("nadine/user/user_detected", []byte(`{"user_id":"`+canary+`-face","user_name":"`+canary+`","confidence":0.9}`))
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"Hello, `+canary+` here, how are you?","language":"en","final":true,"id":"`+canary+`-turn"}`))
	for {
		var s spokenMsg
		if err := json.Unmarshal(tts.Next().Payload, &s); err != nil {
			t.Fatal(err)
		}
		if s.Final {
			break
		}
	}

	get := func(auth string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, p.monitor+"/metrics", nil)
		if auth != "" {
			req.Header.Set("Authorization", "Bearer "+auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get(""); code != http.StatusUnauthorized {
		t.Errorf("/metrics without the token: %d, want 401", code)
	}
	if code, _ := get("wrong"); code != http.StatusUnauthorized {
		t.Errorf("/metrics with a wrong token: %d, want 401", code)
	}
	wants := []string{
		`nadine_turns_total{engine="offline",outcome="answered",robot="nadine"} 3`,
		`nadine_turns_total{engine="offline",outcome="expired",robot="nadine"} 0`,
		`nadine_languages_total{language="fr",robot="nadine"} 1`,
		`nadine_languages_total{language="en",robot="nadine"} 2`,
		`nadine_sessions_total{reason="api",robot="nadine"} 1`,
		`nadine_turn_first_speech_seconds_count{engine="offline",robot="nadine"} 3`,
		`nadine_mqtt_connected{robot="nadine"} 1`,
		`nadine_queue_depth{robot="nadine"} 0`,
		`nadine_inbox_transcripts{robot="nadine",state="answered"} 1`,
		`# TYPE nadine_turn_first_speech_seconds histogram`,
	}
	// The third turn's metrics are recorded as it ends, not all at once:
	// wait until every line is there, then name those that never came.
	var text string
	var missing []string
	for deadline := time.Now().Add(mqtttest.Failsafe); ; time.Sleep(20 * time.Millisecond) {
		code, body := get(token)
		text, missing = body, nil
		for _, want := range wants {
			if !strings.Contains(body, want) {
				missing = append(missing, want)
			}
		}
		if code == http.StatusOK && len(missing) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, want := range missing {
		t.Errorf("/metrics has no line %q", want)
	}
	if strings.Contains(strings.ToLower(text), canary) {
		for _, line := range strings.Split(text, "\n") {
			if strings.Contains(strings.ToLower(line), canary) {
				t.Errorf("/metrics carries what was said or who said it: %s", line)
			}
		}
	}

	// nadine report reads the same turns from serve's records.
	if err := p.stop(); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	dir := t.TempDir()
	e := env{stdin: strings.NewReader(""), stdout: &out, stderr: &errs, getenv: envMap(map[string]string{"HOME": home})}
	html := filepath.Join(dir, "day.html")
	if err := run(context.Background(), []string{"report", "--out", html, "--json", "-"}, e); err != nil {
		t.Fatalf("report: %v\n%s", err, errs.String())
	}
	var rep struct {
		Summary struct {
			Turns     int            `json:"turns"`
			Visitors  int            `json:"visitors"`
			Languages map[string]int `json:"languages"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("report JSON: %v\n%s", err, out.String())
	}
	if rep.Summary.Turns != 3 || rep.Summary.Visitors < 1 || rep.Summary.Languages["fr"] != 1 {
		t.Errorf("report summary: %+v", rep.Summary)
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script", "src=", "href=", "@import", "url(", canary} {
		if strings.Contains(strings.ToLower(string(page)), bad) {
			t.Errorf("the report is not self-contained or carries text: it has %q", bad)
		}
	}
	if strings.Count(string(page), "<svg") != 5 {
		t.Errorf("the report has %d charts, want 5", strings.Count(string(page), "<svg"))
	}
}
