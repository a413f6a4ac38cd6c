package main

import (
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/nadine-robot/nadine/internal/mqtttest"
)

// otlpReceiver is an OTLP/HTTP traces endpoint: it decodes each request
// with the official protobuf types (ExportTraceServiceRequest) and keeps
// the spans and the resource.
type otlpReceiver struct {
	t        *testing.T
	srv      *httptest.Server
	mu       sync.Mutex
	spans    []*tracepb.Span
	resource []*commonpb.KeyValue
	bad      []string
}

func newOTLPReceiver(t *testing.T) *otlpReceiver {
	r := &otlpReceiver{t: t}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var msg coltracepb.ExportTraceServiceRequest
		r.mu.Lock()
		defer r.mu.Unlock()
		switch {
		case req.Method != http.MethodPost || req.URL.Path != "/v1/traces":
			r.bad = append(r.bad, req.Method+" "+req.URL.Path)
		case req.Header.Get("Content-Type") != "application/x-protobuf":
			r.bad = append(r.bad, "content type "+req.Header.Get("Content-Type"))
		case req.Header.Get("X-Team-Key") != "k3y":
			r.bad = append(r.bad, "no X-Team-Key header from OTEL_EXPORTER_OTLP_HEADERS")
		default:
			if err := proto.Unmarshal(body, &msg); err != nil {
				r.bad = append(r.bad, "decode: "+err.Error())
				break
			}
			for _, rs := range msg.ResourceSpans {
				r.resource = rs.GetResource().GetAttributes()
				for _, ss := range rs.ScopeSpans {
					r.spans = append(r.spans, ss.Spans...)
				}
			}
			b, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
			w.Header().Set("Content-Type", "application/x-protobuf")
			_, _ = w.Write(b)
			return
		}
		http.Error(w, "bad request", http.StatusBadRequest)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// turnSpans returns the spans of the first trace whose root is a turn.
func (r *otlpReceiver) turnSpans() []*tracepb.Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.spans {
		if s.Name == "turn" && len(s.ParentSpanId) == 0 {
			var out []*tracepb.Span
			for _, x := range r.spans {
				if string(x.TraceId) == string(s.TraceId) {
					out = append(out, x)
				}
			}
			return out
		}
	}
	return nil
}

func attr(s *tracepb.Span, key string) *commonpb.AnyValue {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			return kv.Value
		}
	}
	return nil
}

// spanTree indexes spans by id and draws the tree, for failure messages.
type spanTree struct {
	byID     map[string]*tracepb.Span
	children map[string][]*tracepb.Span
	root     *tracepb.Span
}

func newSpanTree(spans []*tracepb.Span) *spanTree {
	tr := &spanTree{byID: map[string]*tracepb.Span{}, children: map[string][]*tracepb.Span{}}
	for _, s := range spans {
		tr.byID[string(s.SpanId)] = s
		if len(s.ParentSpanId) == 0 {
			tr.root = s
		}
	}
	for _, s := range spans {
		if len(s.ParentSpanId) > 0 {
			tr.children[string(s.ParentSpanId)] = append(tr.children[string(s.ParentSpanId)], s)
		}
	}
	for _, c := range tr.children {
		sort.Slice(c, func(i, j int) bool { return c[i].StartTimeUnixNano < c[j].StartTimeUnixNano })
	}
	return tr
}

func (tr *spanTree) String() string {
	var b strings.Builder
	var walk func(s *tracepb.Span, depth int)
	walk = func(s *tracepb.Span, depth int) {
		fmt.Fprintf(&b, "%s%s [%s] %.1f ms\n", strings.Repeat("  ", depth), s.Name, hex.EncodeToString(s.SpanId)[:6],
			float64(s.EndTimeUnixNano-s.StartTimeUnixNano)/1e6)
		for _, c := range tr.children[string(s.SpanId)] {
			walk(c, depth+1)
		}
	}
	if tr.root != nil {
		walk(tr.root, 0)
	}
	return b.String()
}

// parent returns the name of a span's parent.
func (tr *spanTree) parent(s *tracepb.Span) string {
	if p, ok := tr.byID[string(s.ParentSpanId)]; ok {
		return p.Name
	}
	return ""
}

// named returns the spans of a name.
func (tr *spanTree) named(name string) []*tracepb.Span {
	var out []*tracepb.Span
	for _, s := range tr.byID {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// TestOTLPExportOfAGraphTurn runs `nadine serve` with the graph engine and
// OTEL_EXPORTER_OTLP_ENDPOINT pointing at an httptest receiver that
// decodes what is sent with the official OTLP protobuf types, and checks
// the span tree of one turn: the turn, the engine attempt, the parallel
// group and its nodes, and each model call as a GenAI client span under
// the node that made it, with model and token usage; every span of the
// trace hangs from the turn, each from the step it ran in, however close
// the steps' times. Without log.content no attribute carries what
// the person said; with it the turn's span does.
func TestOTLPExportOfAGraphTurn(t *testing.T) {
	t.Parallel() // its own serve and collector
	for _, content := range []bool{false, true} {
		t.Run(fmt.Sprintf("content=%v", content), func(t *testing.T) {
			const canary = "Zanzibarquokka"
			rcv := newOTLPReceiver(t)
			srv := llmtestWithLatency(t)
			p := startServe(t, map[string]string{"NADINE_CONFIG": exhibitionConfig(t, "graph", srv.URL()),
				"NADINE_SESSION_IDLE_TIMEOUT": "0", "NADINE_TURNS_PREEMPTIVE": "false", "NADINE_LOG_CONTENT": fmt.Sprint(content),
				"OTEL_EXPORTER_OTLP_ENDPOINT": rcv.srv.URL, "OTEL_EXPORTER_OTLP_HEADERS": "X-Team-Key=k3y",
				"OTEL_SERVICE_NAME": "nadine-lobby"})
			defer func() {
				if t.Failed() {
					t.Log(p.stderr.String())
				}
			}()
			resp, err := http.Post(p.monitor+"/api/turns", "application/json",
				strings.NewReader(`{"text":"Tell me about sailing near `+canary+`","user_name":"Robin`+canary+`"}`))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			var spans []*tracepb.Span
			mqtttest.Eventually(t, "the turn's spans to be exported", func() bool {
				spans = rcv.turnSpans()
				return len(spans) > 0
			})
			rcv.mu.Lock()
			if len(rcv.bad) > 0 {
				t.Errorf("bad export requests: %v", rcv.bad)
			}
			service := ""
			for _, kv := range rcv.resource {
				if kv.Key == "service.name" {
					service = kv.Value.GetStringValue()
				}
			}
			rcv.mu.Unlock()
			if service != "nadine-lobby" {
				t.Errorf("service.name %q, want OTEL_SERVICE_NAME's", service)
			}
			tr := newSpanTree(spans)
			t.Logf("span tree:\n%s", tr)
			root := tr.root
			if root == nil || root.Name != "turn" || root.Kind != tracepb.Span_SPAN_KIND_CONSUMER {
				t.Fatalf("no turn span at the root")
			}
			for key, want := range map[string]string{"nadine.engine": "graph", "nadine.turn.outcome": "answered", "nadine.robot": "nadine", "nadine.turn.language": "en"} {
				if got := attr(root, key).GetStringValue(); got != want {
					t.Errorf("turn span %s = %q, want %q", key, got, want)
				}
			}
			for _, s := range spans {
				if len(s.ParentSpanId) > 0 && tr.byID[string(s.ParentSpanId)] == nil {
					t.Errorf("span %s hangs from a span not in the trace", s.Name)
				}
				if s.StartTimeUnixNano > s.EndTimeUnixNano || s.StartTimeUnixNano < root.StartTimeUnixNano || s.EndTimeUnixNano > root.EndTimeUnixNano {
					t.Errorf("span %s is not within the turn's time", s.Name)
				}
			}
			// Each node under its group or the engine, each model call
			// under the node named for its role (the response's is
			// checked below: a kept speculation is made by no node).
			for child, parent := range map[string]string{
				"engine:graph": "turn", "understand": "engine:graph", "intention_classifier": "understand",
				"affective_appraisal": "understand", "orchestrator": "understand", "memory_retrieve_agent": "understand",
				"response_agent":         "engine:graph",
				"chat intent_classifier": "intention_classifier", "chat appraisal": "affective_appraisal",
				"chat orchestrator": "orchestrator",
			} {
				found := false
				for _, s := range tr.named(child) {
					found = found || tr.parent(s) == parent
				}
				if !found {
					t.Errorf("no span %q under %q", child, parent)
				}
			}
			// The group holds its members, once each, and nothing else:
			// the nodes after it (the orchestrator's dispatch, the
			// response, however soon they start and short they are)
			// hang from the engine.
			var members []string
			for _, s := range tr.children[string(tr.named("understand")[0].SpanId)] {
				if s.Kind == tracepb.Span_SPAN_KIND_INTERNAL {
					members = append(members, s.Name)
				}
			}
			sort.Strings(members)
			if want := []string{"affective_appraisal", "intention_classifier", "memory_retrieve_agent", "orchestrator"}; !slices.Equal(members, want) {
				t.Errorf("the group holds %q, want its members %q", members, want)
			}
			for _, name := range []string{"response_agent", "affective_update"} {
				for _, s := range tr.named(name) {
					if tr.parent(s) != "engine:graph" {
						t.Errorf("%s hangs from %q, want the engine", name, tr.parent(s))
					}
				}
			}
			// The response speculated beside the group
			// (features.speculate) runs in the turn, not in a node: it
			// hangs from the engine (a kept speculation is the turn's
			// only response call); the response agent's own call, when
			// the speculation was discarded, hangs from it.
			good := 0
			for _, s := range tr.named("chat response") {
				switch tr.parent(s) {
				case "engine:graph", "response_agent":
				default:
					t.Errorf("a response call hangs from %q", tr.parent(s))
				}
				if s.Kind == tracepb.Span_SPAN_KIND_CLIENT && attr(s, "gen_ai.operation.name").GetStringValue() == "chat" &&
					attr(s, "gen_ai.provider.name").GetStringValue() == "openai" && attr(s, "error.type") == nil &&
					attr(s, "gen_ai.request.model").GetStringValue() == "response" && attr(s, "gen_ai.usage.output_tokens").GetIntValue() > 0 &&
					attr(s, "gen_ai.usage.input_tokens").GetIntValue() > 0 && attr(s, "nadine.model.role").GetStringValue() == "response" &&
					attr(s, "nadine.model.first_token_s").GetDoubleValue() > 0 {
					good++
				}
			}
			if good == 0 {
				t.Errorf("no response call span with the GenAI attributes, model, token usage and first token")
			}
			sawText := false
			for _, s := range spans {
				for _, kv := range s.Attributes {
					if strings.Contains(kv.Value.String(), canary) {
						sawText = true
						if !content {
							t.Errorf("span %s attribute %s carries what the person said without log.content", s.Name, kv.Key)
						}
					}
				}
			}
			if content && !strings.Contains(attr(root, "nadine.turn.input").GetStringValue(), canary) {
				t.Errorf("with log.content the turn span has no input (saw text: %v)", sawText)
			}
		})
	}
}
