package main

import (
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/internal/syncbuf"

	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/metrics"
)

// needProgram returns the path of a program from Debian, or skips the test
// when it is missing, except in CI, where .ci/run installs it.
func needProgram(t *testing.T, name, debian string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is not installed; CI must install it (.ci/run: apt-get install %s)", name, debian)
	}
	t.Skipf("%s is not installed (Debian: apt-get install %s); skipping", name, debian)
	return ""
}

// freePort returns a loopback port nothing listens on now.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// promServer is a real Prometheus (Debian's package) run on a free port
// with its own configuration and data directory.
type promServer struct {
	t   *testing.T
	url string
}

// startPrometheus runs prometheus scraping target (host:port) every
// second with the bearer token, with the example alert rules loaded.
func startPrometheus(t *testing.T, target, token string) *promServer {
	t.Helper()
	bin := needProgram(t, "prometheus", "prometheus")
	dir := t.TempDir()
	rules, err := filepath.Abs("../../examples/prometheus/alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`global: {scrape_interval: 1s, evaluation_interval: 1s}
rule_files: [%q]
scrape_configs:
  - job_name: nadine
    metrics_path: /metrics
    authorization: {credentials: %q}
    static_configs: [{targets: [%q]}]
`, rules, token, target)
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := freePort(t)
	cmd := exec.Command(bin, "--config.file="+filepath.Join(dir, "prometheus.yml"), "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--log.level=warn")
	var logs syncbuf.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("prometheus:\n%s", logs.String())
		}
	})
	p := &promServer{t: t, url: "http://" + addr}
	mqtttest.Eventually(t, "prometheus to be ready", func() bool {
		resp, err := http.Get(p.url + "/-/ready")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return p
}

// get calls Prometheus's HTTP API and decodes its data.
func (p *promServer) get(path string, q url.Values, data any) error {
	resp, err := http.Get(p.url + path + "?" + q.Encode())
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var body struct {
		Status string          `json:"status"`
		Error  string          `json:"error"`
		Data   json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return err
	}
	if body.Status != "success" {
		return fmt.Errorf("prometheus: %s", body.Error)
	}
	return json.Unmarshal(body.Data, data)
}

// query runs an instant query whose result is one number (NaN when empty).
func (p *promServer) query(expr string) float64 {
	p.t.Helper()
	var data struct {
		Result []struct {
			Value [2]any `json:"value"`
		} `json:"result"`
	}
	if err := p.get("/api/v1/query", url.Values{"query": {expr}}, &data); err != nil {
		p.t.Fatalf("query %s: %v", expr, err)
	}
	if len(data.Result) != 1 {
		return math.NaN()
	}
	s, _ := data.Result[0].Value[1].(string)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		p.t.Fatalf("query %s: value %q", expr, s)
	}
	return v
}

// TestPrometheusScrapesServe runs a real Prometheus scraping a real
// `nadine serve` (graph engine, scripted models with 150 ms to the first
// byte) with its token, through a conversation of 10 transcripts over MQTT,
// then asks Prometheus's HTTP API for the turn count and the first-speech
// p95: the count is exact, and the p95 Prometheus estimates from the
// histogram lies in the bucket that holds the true p95 of the turns'
// traces. The example alert rules load and evaluate without error.
func TestPrometheusScrapesServe(t *testing.T) {
	t.Parallel() // its own serve, Prometheus and ports
	needProgram(t, "prometheus", "prometheus")
	srv := llmtestWithLatency(t)
	const token = "scrape-token-31"
	p := startServe(t, map[string]string{"NADINE_CONFIG": exhibitionConfig(t, "graph", srv.URL()),
		"NADINE_SESSION_IDLE_TIMEOUT": "0", "NADINE_HTTP_TOKEN": token, "NADINE_TURNS_PREEMPTIVE": "false"})
	defer func() {
		if t.Failed() {
			t.Log(p.stderr.String())
		}
	}()
	monitor, _ := url.Parse(p.monitor)
	prom := startPrometheus(t, monitor.Host, token)

	addr := mqtttest.HostPort(p.mqttURL)
	tts := mqtttest.NewPeer(t, addr, "nadine/agent/control/speak")
	stt := mqtttest.NewPeer(t, addr)
	const turns = 10
	for i := range turns {
		id := fmt.Sprintf("prom-%d", i)
		stt.Publish("nadine/stt/transcript", fmt.Appendf(nil, `{"text":"Tell me about sailing, part %d","language":"en","final":true,"id":%q}`, i, id))
		for {
			var s spokenMsg
			if err := json.Unmarshal(tts.Next().Payload, &s); err != nil {
				t.Fatal(err)
			}
			if s.TurnID == id && s.Final {
				break
			}
		}
	}

	// The true first-speech times, from the turns' own traces (a turn is
	// in the monitor once its final sentence is out and it is recorded).
	var firsts []float64
	mqtttest.Eventually(t, "every turn in the monitor", func() bool {
		req, _ := http.NewRequest(http.MethodGet, p.monitor+"/api/turns", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var recent struct {
			Updates []struct {
				Kind  string `json:"kind"`
				Reply struct {
					Trace struct {
						FirstSpeech time.Duration `json:"first_speech_ns"`
					} `json:"trace"`
				} `json:"reply"`
			} `json:"updates"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&recent); err != nil {
			t.Fatal(err)
		}
		firsts = firsts[:0]
		for _, u := range recent.Updates {
			if u.Kind == "turn" {
				firsts = append(firsts, u.Reply.Trace.FirstSpeech.Seconds())
			}
		}
		return len(firsts) == turns
	})
	slices.Sort(firsts)
	trueP95 := firsts[int(math.Ceil(0.95*float64(len(firsts))))-1]

	var answered float64
	mqtttest.Eventually(t, "Prometheus to have scraped every turn", func() bool {
		answered = prom.query(`sum(nadine_turns_total{outcome="answered"})`)
		return answered == turns
	})
	if got := prom.query(`sum(nadine_turns_total)`); got != turns {
		t.Errorf("turns of every outcome: %v, want %d", got, turns)
	}
	p95 := prom.query(`histogram_quantile(0.95, sum by (le) (nadine_turn_first_speech_seconds_bucket))`)
	lo, hi := 0.0, math.Inf(1)
	for _, b := range metrics.SpeechBuckets {
		if b >= trueP95 {
			hi = b
			break
		}
		lo = b
	}
	t.Logf("Prometheus: %v turns answered, first-speech p95 %.3f s (true p95 %.3f s, bucket (%v, %v]); traces: %v", answered, p95, trueP95, lo, hi, firsts)
	if math.IsNaN(p95) || p95 < lo || p95 > hi {
		t.Errorf("first-speech p95 from Prometheus %.3f s is outside the bucket (%v, %v] of the true p95 %.3f s", p95, lo, hi, trueP95)
	}
	if got := prom.query(`sum(nadine_model_calls_total{role="response",outcome="ok"})`); got < turns {
		t.Errorf("response calls counted: %v, want at least %d", got, turns)
	}
	if got := prom.query(`nadine_mqtt_connected{robot="nadine"}`); got != 1 {
		t.Errorf("nadine_mqtt_connected: %v", got)
	}
	if got := prom.query(`up{job="nadine"}`); got != 1 {
		t.Errorf("up: %v (the scrape with the token failed)", got)
	}

	// Every query of the Grafana dashboard is valid PromQL that Prometheus
	// runs on these series ($robot being every robot).
	b, err := os.ReadFile("../../examples/grafana/nadine-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(b, &dash); err != nil {
		t.Fatal(err)
	}
	queries := 0
	for _, panel := range dash.Panels {
		for _, target := range panel.Targets {
			var data json.RawMessage
			expr := strings.ReplaceAll(target.Expr, "$robot", ".*")
			if err := prom.get("/api/v1/query", url.Values{"query": {expr}}, &data); err != nil {
				t.Errorf("dashboard panel %q: %s: %v", panel.Title, target.Expr, err)
			}
			queries++
		}
	}
	if queries < 15 {
		t.Errorf("the dashboard has %d queries", queries)
	}

	// The example alert rules are loaded and evaluate without error, and
	// none fires on a healthy conversation.
	var rules struct {
		Groups []struct {
			Rules []struct {
				Name   string `json:"name"`
				Health string `json:"health"`
				State  string `json:"state"`
				Error  string `json:"lastError"`
			} `json:"rules"`
		} `json:"groups"`
	}
	mqtttest.Eventually(t, "the alert rules to be evaluated", func() bool {
		if err := prom.get("/api/v1/rules", url.Values{}, &rules); err != nil || len(rules.Groups) == 0 {
			return false
		}
		for _, r := range rules.Groups[0].Rules {
			if r.Health != "ok" {
				return false
			}
		}
		return true
	})
	for _, r := range rules.Groups[0].Rules {
		if r.State == "firing" || r.State == "pending" {
			t.Errorf("alert %s is %s on a healthy conversation", r.Name, r.State)
		}
	}
}

// llmtestWithLatency is the scripted graph models of preemptModel, each
// answer's first byte 150 ms after the request.
func llmtestWithLatency(t *testing.T) *llmtest.Server {
	srv := llmtest.New(t, llmtest.WithLatency(150*time.Millisecond))
	srv.On(llmtest.MatchModel("intent_classifier")).Reply("continue_conversation")
	srv.On(llmtest.MatchModel("appraisal")).Reply("joy 3")
	srv.On(llmtest.MatchModel("orchestrator")).Reply(`{"plan": []}`)
	srv.On(llmtest.MatchModel("context_summary")).Reply("A visitor chats with Nadine.")
	srv.On(llmtest.MatchModel("memory_update")).Reply(`{"user_name":"","hobbies":[],"interests":[]}`)
	srv.On(llmtest.MatchModel("response")).Reply("I love sailing on the lake. Do you sail too?")
	return srv
}

// llmtestZero is the same scripted graph models, answering at once.
func llmtestZero(t testing.TB) *llmtest.Server {
	srv := llmtest.New(t)
	srv.On(llmtest.MatchModel("intent_classifier")).Reply("continue_conversation")
	srv.On(llmtest.MatchModel("appraisal")).Reply("joy 3")
	srv.On(llmtest.MatchModel("orchestrator")).Reply(`{"plan": []}`)
	srv.On(llmtest.MatchModel("context_summary")).Reply("A visitor chats with Nadine.")
	srv.On(llmtest.MatchModel("memory_update")).Reply(`{"user_name":"","hobbies":[],"interests":[]}`)
	srv.On(llmtest.MatchModel("response")).Reply("I love sailing on the lake. Do you sail too?")
	return srv
}
