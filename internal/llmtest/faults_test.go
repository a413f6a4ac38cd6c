package llmtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/internal/llmtest"
)

// do sends body and returns the status and body, or the transport error
// (a fresh connection per request, so one fault does not leak into the
// next).
func do(ctx context.Context, url string, body any) (int, []byte, error) {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Close = true
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}

// TestFaultPlanRates: over many requests each fault comes at about its
// rate, the draws repeat with the seed, and each speaks the real wire
// format: a 500 with OpenAI's error body, a reset connection, a hang until
// the client gives up, a stream cut mid-way, junk content in a 200.
func TestFaultPlanRates(t *testing.T) {
	plan := llmtest.FaultPlan{Seed: 7, Error500: 0.2, Reset: 0.1, Hang: 0.1, Cut: 0.1, Junk: 0.2}
	run := func() (map[string]int, map[string]bool) {
		srv := llmtest.New(t)
		srv.Default().Reply("Geneva is a lovely city by the lake.")
		srv.InjectFaults(plan)
		seen := map[string]bool{}
		for i := range 200 {
			body := chat("hi")
			body["stream"] = i%2 == 0
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			status, b, err := do(ctx, srv.URL()+"/chat/completions", body)
			cancel()
			switch {
			case errors.Is(err, context.DeadlineExceeded):
				seen[llmtest.FaultHang] = true
			case err != nil && status == 0:
				seen[llmtest.FaultReset] = true
			case err != nil:
				seen[llmtest.FaultCut] = true // the body broke off
			case status == 500:
				if e := decode[apiError](t, b); e.Error.Type != "server_error" || e.Error.Message == "" {
					t.Errorf("500 body %s", b)
				}
				seen[llmtest.FaultError500] = true
			case status == 200 && llmtest.SpokenJunk(string(b), nil) && !strings.Contains(string(b), "lovely"):
				seen[llmtest.FaultJunk] = true
			}
		}
		return srv.FaultCounts(), seen
	}
	counts, seen := run()
	want := map[string]float64{llmtest.FaultError500: 0.2, llmtest.FaultReset: 0.1, llmtest.FaultHang: 0.1, llmtest.FaultCut: 0.1, llmtest.FaultJunk: 0.2}
	for kind, rate := range want {
		if n := counts[kind]; float64(n) < rate*200*0.5 || float64(n) > rate*200*1.5 {
			t.Errorf("%s: %d of 200, want about %.0f", kind, n, rate*200)
		}
		if !seen[kind] {
			t.Errorf("%s: never seen on the wire", kind)
		}
	}
	again, _ := run()
	for kind := range want {
		if again[kind] != counts[kind] {
			t.Errorf("%s: %d then %d with the same seed", kind, counts[kind], again[kind])
		}
	}
}

// TestFaultPlanEmbeddings: embedding requests draw faults only when the
// plan says so, and never junk.
func TestFaultPlanEmbeddings(t *testing.T) {
	srv := llmtest.New(t)
	srv.InjectFaults(llmtest.FaultPlan{Seed: 1, Junk: 1})
	status, b, err := do(context.Background(), srv.URL()+"/embeddings", map[string]any{"model": "e", "input": []string{"hello"}})
	if err != nil || status != 200 || !strings.Contains(string(b), "embedding") {
		t.Errorf("embedding under a junk plan: %d %s %v", status, b, err)
	}
	srv.InjectFaults(llmtest.FaultPlan{Seed: 1, Error500: 1, Embeddings: true})
	if status, _, _ := do(context.Background(), srv.URL()+"/embeddings", map[string]any{"model": "e", "input": []string{"hello"}}); status != 500 {
		t.Errorf("embedding under a 500 plan with Embeddings: status %d", status)
	}
	srv.InjectFaults(llmtest.FaultPlan{})
	if status, _, _ := do(context.Background(), srv.URL()+"/embeddings", map[string]any{"model": "e", "input": []string{"hello"}}); status != 200 {
		t.Errorf("after the zero plan: status %d", status)
	}
}

// TestDownAndUp: a server that is down refuses connections on its port
// (and breaks the requests in flight); once up again it answers on the same
// URL.
func TestDownAndUp(t *testing.T) {
	srv := llmtest.New(t)
	srv.On(llmtest.MatchLastUser("slow")).Hang()
	srv.Default().Reply("ok")
	url := srv.URL() + "/chat/completions"
	if status, _, err := do(context.Background(), url, chat("hi")); err != nil || status != 200 {
		t.Fatalf("before: %d %v", status, err)
	}
	inFlight := make(chan error, 1)
	go func() {
		_, _, err := do(context.Background(), url, chat("slow"))
		inFlight <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); len(srv.ChatRequests()) < 2; { // the slow request is being served
		if time.Now().After(deadline) {
			t.Fatal("the slow request never arrived")
		}
		time.Sleep(time.Millisecond)
	}
	srv.Down()
	if err := <-inFlight; err == nil {
		t.Errorf("a request in flight survived Down")
	}
	if _, _, err := do(context.Background(), url, chat("hi")); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("while down: %v, want connection refused", err)
	}
	if err := srv.Up(); err != nil {
		t.Fatal(err)
	}
	if status, b, err := do(context.Background(), url, chat("hi")); err != nil || status != 200 || !strings.Contains(string(b), `"ok"`) {
		t.Errorf("after Up: %d %s %v", status, b, err)
	}
}

func TestResetRule(t *testing.T) {
	srv := llmtest.New(t)
	srv.Default().Reset()
	_, _, err := do(context.Background(), srv.URL()+"/chat/completions", chat("hi"))
	if !errors.Is(err, syscall.ECONNRESET) && (err == nil || !strings.Contains(err.Error(), "reset")) {
		t.Errorf("err = %v, want a reset connection", err)
	}
}

func TestSpokenJunk(t *testing.T) {
	tests := []struct {
		spoken string
		want   bool
	}{
		{"Geneva is a lovely city by the lake.", false},
		{"Hello Robin, it is good to see you again!", false},
		{`{"action": "Final Answer", "action_input": "`, true},
		{"The user greets me. I should answer in JSON with the keys action and action_input.", true},
		{"<|im_start|>assistant", true},
		{"Nadine: Nadine: Nadine:", true},
		{"I cannot comply with the requested JSON format because the schema is ambiguous.", true},
	}
	for _, tt := range tests {
		if got := llmtest.SpokenJunk(tt.spoken, nil); got != tt.want {
			t.Errorf("SpokenJunk(%q) = %v, want %v", tt.spoken, got, tt.want)
		}
	}
	for _, j := range llmtest.DefaultJunk {
		if !llmtest.SpokenJunk(j.Text, nil) {
			t.Errorf("junk %q carries none of its marks", j.Text)
		}
	}
}
