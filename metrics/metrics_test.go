package metrics_test

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/metrics"
	"github.com/nadine-robot/nadine/turnstats"
)

// newMetrics is a Metrics of one robot, with a closed breaker and one open.
func newMetrics() *metrics.Metrics {
	return metrics.New(metrics.Options{
		Robots: []metrics.Robot{{Name: "lobby", Engine: "graph", Waiting: func() int { return 2 },
			Connected: func() bool { return true }, Reconnects: func() uint64 { return 1 },
			Inbox: func(context.Context) (map[nadine.InboxState]int, error) {
				return map[nadine.InboxState]int{nadine.InboxAnswered: 4}, nil
			}}},
		Breakers: func() map[string]bool { return map[string]bool{"small": false, "big": true} },
		Lost:     func() map[string]uint64 { return map[string]uint64{"stats": 0} },
	})
}

// gather returns the metric families by name.
func gather(t *testing.T, m *metrics.Metrics) map[string]*dto.MetricFamily {
	t.Helper()
	fams, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*dto.MetricFamily{}
	for _, f := range fams {
		out[f.GetName()] = f
	}
	return out
}

// value returns the value of the series of a family with these labels.
func value(f *dto.MetricFamily, labels map[string]string) (float64, bool) {
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.Metric {
		for _, l := range m.Label {
			if want, ok := labels[l.GetName()]; ok && want != l.GetValue() {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		}
	}
	return 0, false
}

// TestTurnsAndCalls counts turns of every outcome crossed with the
// languages, and the model calls of a trace: each lands under its labels.
func TestTurnsAndCalls(t *testing.T) {
	m := newMetrics()
	trace := &nadine.TraceData{CriticalPath: 2, ModelCalls: []nadine.ModelCall{
		{Role: "response", Profile: "small", Latency: 800 * time.Millisecond, FirstToken: 300 * time.Millisecond, PromptTokens: 120, CompletionTokens: 30},
		{Role: "orchestrator", Profile: "small", Latency: time.Second, Error: "boom", Code: nadine.EUNAVAILABLE},
		{Role: "response", Profile: "small", Latency: 100 * time.Millisecond, Error: "stop", Code: nadine.CallCanceled},
	}}
	langs := []nadine.Language{nadine.English, nadine.French, "xx"}
	for _, o := range turnstats.Outcomes() {
		for _, l := range langs {
			m.Turn(turnstats.Turn{Robot: "lobby", Outcome: o, Language: l, FirstSpeech: 700 * time.Millisecond, Duration: 2 * time.Second}, trace)
		}
	}
	f := gather(t, m)
	for _, o := range turnstats.Outcomes() {
		if v, _ := value(f["nadine_turns_total"], map[string]string{"robot": "lobby", "engine": "graph", "outcome": string(o)}); v != 3 {
			t.Errorf("turns %s: %v, want 3", o, v)
		}
	}
	for l, want := range map[string]float64{"en": 2, "fr": 2, "other": 2} {
		if v, _ := value(f["nadine_languages_total"], map[string]string{"language": l}); v != want {
			t.Errorf("language %s: %v, want %v (answered and fallback turns)", l, v, want)
		}
	}
	if v, _ := value(f["nadine_turn_first_speech_seconds"], map[string]string{"robot": "lobby"}); v != 6 {
		t.Errorf("first speech observations: %v, want 6 (spoken turns only)", v)
	}
	for _, c := range []struct {
		outcome string
		want    float64
	}{{"ok", 6}, {"unavailable", 6}, {"canceled", 6}} {
		role := "response"
		if c.outcome == "unavailable" {
			role = "orchestrator"
		}
		if v, _ := value(f["nadine_model_calls_total"], map[string]string{"role": role, "outcome": c.outcome}); v != c.want {
			t.Errorf("model calls %s %s: %v, want %v", role, c.outcome, v, c.want)
		}
	}
	if v, _ := value(f["nadine_model_tokens_total"], map[string]string{"role": "response", "type": "input"}); v != 720 {
		t.Errorf("input tokens: %v, want 720", v)
	}
	if v, _ := value(f["nadine_model_first_token_seconds"], map[string]string{"role": "response"}); v != 6 {
		t.Errorf("first-token observations: %v, want 6 (streamed calls that gave a token)", v)
	}
	for name, want := range map[string]float64{"nadine_queue_depth": 2, "nadine_mqtt_connected": 1, "nadine_mqtt_reconnects_total": 1} {
		if v, _ := value(f[name], map[string]string{"robot": "lobby"}); v != want {
			t.Errorf("%s: %v, want %v", name, v, want)
		}
	}
	if v, _ := value(f["nadine_breaker_open"], map[string]string{"profile": "big"}); v != 1 {
		t.Errorf("breaker of big: %v, want 1", v)
	}
}

// TestLabelsAreClosed: free text (an error quoting a person, a reason or
// a language nobody configured) never becomes a label value.
func TestLabelsAreClosed(t *testing.T) {
	m := newMetrics()
	const canary = "Robin said hello"
	m.Turn(turnstats.Turn{Robot: "lobby", Outcome: turnstats.Answered, Language: canary}, &nadine.TraceData{
		ModelCalls: []nadine.ModelCall{{Role: "response", Profile: "small", Error: canary, Code: canary}}})
	m.Session(turnstats.Session{Robot: "lobby", Reason: canary + " and left"})
	m.StoreError(canary)
	for name, f := range gather(t, m) {
		for _, s := range f.Metric {
			for _, l := range s.Label {
				if strings.Contains(l.GetValue(), "Robin") || strings.Contains(l.GetValue(), " ") {
					t.Errorf("%s{%s=%q}", name, l.GetName(), l.GetValue())
				}
			}
		}
	}
}

// TestNamesInStep: every metric name the Grafana dashboard, the alert
// rules and docs/observability.md use exists, and the docs describe every
// metric Nadine registers.
func TestNamesInStep(t *testing.T) {
	m := newMetrics()
	m.Turn(turnstats.Turn{Robot: "lobby", Outcome: turnstats.Answered, Language: "en", FirstSpeech: time.Second, Duration: time.Second},
		&nadine.TraceData{ModelCalls: []nadine.ModelCall{{Role: "response", Profile: "small", FirstToken: time.Second, PromptTokens: 1, CompletionTokens: 1}}})
	m.Session(turnstats.Session{Robot: "lobby", Reason: "left"})
	m.Filler("lobby")
	have := map[string]bool{}
	for name := range gather(t, m) {
		if strings.HasPrefix(name, "nadine_") {
			have[name] = true
		}
	}
	name := regexp.MustCompile(`nadine_[a-z_]+[a-z]`)
	used := func(file string) map[string]bool {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, n := range name.FindAllString(string(b), -1) {
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				if base := strings.TrimSuffix(n, suffix); base != n && have[base] {
					n = base
				}
			}
			out[n] = true
		}
		return out
	}
	var dash struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	b, err := os.ReadFile("../examples/grafana/nadine-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &dash); err != nil {
		t.Fatalf("dashboard: %v", err)
	}
	for _, file := range []string{"../examples/grafana/nadine-dashboard.json", "../examples/prometheus/alerts.yml", "../docs/observability.md"} {
		for n := range used(file) {
			if !have[n] {
				t.Errorf("%s uses %s, which Nadine does not export", file, n)
			}
		}
	}
	documented := used("../docs/observability.md")
	var missing []string
	for n := range have {
		if !documented[n] {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("docs/observability.md does not describe %v", missing)
	}
	if len(dash.Panels) < 10 {
		t.Errorf("the dashboard has %d panels", len(dash.Panels))
	}
}
