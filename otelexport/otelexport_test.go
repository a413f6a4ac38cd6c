package otelexport_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/otelexport"
)

// TestFromEnv reads the standard OTEL_* variables, table by table.
func TestFromEnv(t *testing.T) {
	for _, tt := range []struct {
		name     string
		env      map[string]string
		config   string
		on       bool
		endpoint string
		err      bool
	}{
		{name: "nothing set: off"},
		{name: "config key", config: "http://c:4318/v1/traces", on: true, endpoint: "http://c:4318/v1/traces"},
		{name: "endpoint wins over the key", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://env:4318/"},
			config: "http://c:4318/v1/traces", on: true, endpoint: "http://env:4318/v1/traces"},
		{name: "traces endpoint as is", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://env:4318",
			"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://t.example/api/traces"}, on: true, endpoint: "https://t.example/api/traces"},
		{name: "sdk disabled", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://env:4318", "OTEL_SDK_DISABLED": "true"}},
		{name: "exporter none", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://env:4318", "OTEL_TRACES_EXPORTER": "none"}},
		{name: "grpc refused", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://env:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, err: true},
		{name: "bad headers", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://env:4318", "OTEL_EXPORTER_OTLP_HEADERS": "novalue"}, err: true},
		{name: "bad timeout", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://env:4318", "OTEL_EXPORTER_OTLP_TIMEOUT": "5s"}, err: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts, on, err := otelexport.FromEnv(func(k string) string { return tt.env[k] }, tt.config)
			if (err != nil) != tt.err || on != tt.on || opts.Endpoint != tt.endpoint {
				t.Errorf("got %q, on %v, err %v; want %q, on %v, err %v", opts.Endpoint, on, err, tt.endpoint, tt.on, tt.err)
			}
		})
	}
	opts, _, err := otelexport.FromEnv(func(k string) string {
		return map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://e:4318", "OTEL_EXPORTER_OTLP_HEADERS": "api-key=a%20b,x=1",
			"OTEL_EXPORTER_OTLP_TIMEOUT": "2500", "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=museum"}[k]
	}, "")
	if err != nil || opts.Headers["api-key"] != "a b" || opts.Headers["x"] != "1" || opts.Timeout != 2500*time.Millisecond || len(opts.Resource) != 1 {
		t.Errorf("options %+v, err %v", opts, err)
	}
}

// TestExportRetriesOnce: a collector that answers 503 once gets the batch
// again; the decoded request holds the turn's spans.
func TestExportRetriesOnce(t *testing.T) {
	var mu sync.Mutex
	calls, spans := 0, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 1 {
			w.Header().Set("Retry-After", "0")
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		var req coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &req); err != nil {
			t.Errorf("decode: %v", err)
		}
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				spans += len(ss.Spans)
			}
		}
	}))
	defer srv.Close()
	// No batch leaves before Close: the turn's spans go in one batch, so
	// the count of requests is the retry's, whatever the machine's load
	// (a 10 ms batch could split them in two under load).
	e, err := otelexport.New(otelexport.Options{Endpoint: srv.URL + "/v1/traces", Batch: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	e.Export(otelexport.Turn{Robot: "r", Outcome: "answered"}, nadine.TraceData{ID: "t1", Engine: "react", Start: start, Duration: 50 * time.Millisecond,
		Steps:      []nadine.Step{{Name: "engine:react", Start: start, Duration: 40 * time.Millisecond}},
		ModelCalls: []nadine.ModelCall{{Role: "react_agent", Model: "m", Start: start.Add(time.Millisecond), Latency: 30 * time.Millisecond}}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.Close(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if calls != 2 || spans != 3 || e.Failed() != 0 {
		t.Errorf("%d requests, %d spans, %d failed; want 2, 3, 0", calls, spans, e.Failed())
	}
}
