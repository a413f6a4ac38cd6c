package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/internal/syncbuf"

	"go.yaml.in/yaml/v3"

	"github.com/nadine-robot/nadine/internal/llmtest"
)

// canary is the secret the known person says.
const canary = "CANARY-PIN-4242-ZEBRA"

var canaryRE = regexp.MustCompile(regexp.QuoteMeta(canary))

// scriptCanary makes every role of both engines answer the way a model
// that heard the secret would: the reply repeats it, the graph's memory
// update keeps it as a hobby, its episode and context summary quote it.
func scriptCanary(srv *llmtest.Server) {
	echo := func(r llmtest.Request) bool { return canaryRE.MatchString(r.LastUser()) }
	srv.On(llmtest.MatchModel("contextualizer")).ReplyFunc(func(r llmtest.Request) string { return r.LastUser() })
	srv.On(llmtest.MatchModel("react_agent")).ReplyFunc(func(r llmtest.Request) string {
		reply := "Nice to see you."
		if echo(r) {
			reply = "I will keep your PIN " + canary + " safe."
		}
		return "```json\n{\"action\": \"Final Answer\", \"emotion\": \"joy\", \"emotion_intensity\": 4, \"action_input\": \"" + reply +
			"\", \"category\": \"other\", \"causing_person\": \"human\"}\n```"
	})
	srv.On(llmtest.MatchModel("intent_classifier")).ReplyFunc(func(r llmtest.Request) string {
		if echo(r) {
			return "update_user_info"
		}
		return "continue_conversation"
	})
	srv.On(llmtest.MatchModel("memory_update")).ReplyFunc(func(r llmtest.Request) string {
		if strings.Contains(r.System(), "episodic memory") {
			return `{"observation": "Robin said the PIN ` + canary + `.", "thought": "A secret.", "action": "Nadine listened.", "result": "Keep it."}`
		}
		return `{"user_name": "", "current_company": "", "current_position": "", "location": "", "hobbies": ["guarding ` + canary + `"], "interests": []}`
	})
	srv.On(llmtest.MatchModel("appraisal")).Reply("joy 3")
	srv.On(llmtest.MatchModel("orchestrator")).Reply(`{"plan": []}`)
	srv.On(llmtest.MatchModel("context_summary")).Reply("Robin told Nadine the PIN " + canary + ".")
	srv.On(llmtest.MatchModel("response")).ReplyFunc(func(r llmtest.Request) string {
		if canaryRE.MatchString(r.LastUser()) {
			return "I will keep your PIN " + canary + " safe."
		}
		return "Nice to see you."
	})
}

// childServe is `nadine serve` running as a child process (the nadine
// TestMain built, as the bench starts it), with its log.
type childServe struct {
	*serveProcess
	base string // the monitor
	mqtt string // host:port of the embedded broker
	dir  string
}

// startChildServe starts `nadine serve` on a new data directory, with env
// added to its environment.
func startChildServe(t *testing.T, engine, modelURL string, env ...string) *childServe {
	t.Helper()
	dir := t.TempDir()
	d, err := askDefaults(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	exe, err := nadineBinary()
	if err != nil {
		t.Fatal(err)
	}
	var c *childServe
	err = onFreePorts(func(mqttAddr, httpAddr string) error {
		profiles, roles := map[string]any{}, map[string]string{}
		for _, r := range d.Roles {
			profiles[r] = map[string]any{"base_url": modelURL, "model": r, "api_key_env": benchKeyEnv, "max_retries": 0, "timeout": "10s"}
			roles[r] = r
		}
		// The default log level (info), as on a robot.
		b, err := yaml.Marshal(map[string]any{"engine": engine, "data_dir": filepath.Join(dir, "data"),
			"models": map[string]any{"profiles": profiles, "roles": roles}, "embeddings": map[string]any{"provider": "openai", "dimensions": 64},
			"mqtt": map[string]any{"listen": mqttAddr}, "http": map[string]any{"addr": httpAddr}})
		if err != nil {
			return err
		}
		cfg := filepath.Join(dir, "nadine.yaml")
		if err := os.WriteFile(cfg, b, 0o600); err != nil {
			return err
		}
		cmd := exec.Command(exe, "serve", "--config", cfg)
		cmd.Env = append(append([]string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), benchKeyEnv + "=k"}, cacheEnv()...), env...)
		p, err := startProcess(cmd, &syncbuf.Buffer{})
		if err != nil {
			return err
		}
		c = &childServe{serveProcess: p, base: "http://" + httpAddr, mqtt: mqttAddr, dir: filepath.Join(dir, "data")}
		if err := waitHealthy(context.Background(), c.base, p); err != nil {
			c.kill()
			// The logs say "address already in use" when another process
			// took a port meanwhile: onFreePorts then tries new ones.
			return fmt.Errorf("%w\n%s", err, c.logs.String())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.kill)
	return c
}

// stopTerm sends SIGTERM and waits for a graceful exit.
func (c *childServe) stopTerm(t *testing.T) {
	t.Helper()
	if err := c.stop(syscall.SIGTERM, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := c.exitErr(); err != nil {
		t.Fatalf("serve: %v\n%s", err, c.logs.String())
	}
}

// api calls the monitor's API and returns the status and body.
func (c *childServe) api(t *testing.T, method, path, body string) (int, string) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, c.base+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// firstEvent reads the first event of GET /api/events.
func (c *childServe) firstEvent(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/api/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b strings.Builder
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if sc.Text() == "" && b.Len() > 0 {
			break
		}
		b.WriteString(sc.Text() + "\n")
	}
	return b.String()
}

// filesWith returns the files under dir that hold the canary, with counts.
// filesWithSoon is filesWith once the files under dir stop holding the
// canary, or after 10 s: the inbox truncates its log once no transcript
// waits.
func filesWithSoon(t *testing.T, dir string) map[string]int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	files := filesWith(t, dir)
	for len(files) > 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		files = filesWith(t, dir)
	}
	return files
}

func filesWith(t *testing.T, dir string) map[string]int {
	t.Helper()
	out := map[string]int{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := bytes.Count(b, []byte(canary)); n > 0 {
			rel, _ := filepath.Rel(dir, path)
			out[rel] = n
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCanaryForgetLeavesNothing is the canary through the real
// binary: a known person says a secret (over MQTT, as the robot hears it,
// and through the API), Nadine repeats it, the interaction ends so that it
// is stored as memory (and, in the graph, as a profile field, an episode
// and graph state); then the person is forgotten through the API. After
// that the secret is in none of the data directory's files — the database,
// its WAL and shared-memory files — nor in the log, nor in any API answer,
// while serve runs and after it stopped.
func TestCanaryForgetLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts nadine serve as a child process")
	}
	t.Parallel() // its own children, ports and data directory; it checks no timing
	for _, engine := range []string{"react", "graph"} {
		t.Run(engine, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.WithAPIKey("k"))
			scriptCanary(srv)
			c := startChildServe(t, engine, srv.URL())

			// The person introduces themself on the monitor, then speaks
			// to the robot over MQTT; a malformed transcript carrying the
			// secret is dropped.
			status, body := c.api(t, "POST", "/api/turns", `{"text":"Hello, I am Robin","user_name":"Robin"}`)
			var turn struct {
				Reply struct {
					UserID string `json:"user_id"`
				} `json:"reply"`
			}
			if status != http.StatusOK || json.Unmarshal([]byte(body), &turn) != nil || turn.Reply.UserID == "" {
				t.Fatalf("POST /api/turns: %d %s", status, body)
			}
			id := turn.Reply.UserID
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			peer, err := dialPeer(ctx, c.mqtt)
			if err != nil {
				t.Fatal(err)
			}
			defer peer.close()
			if err := peer.publish(ctx, "nadine/graph/user_detected", map[string]any{"user_name": "Robin", "user_id": id, "confidence": 0.9}); err != nil {
				t.Fatal(err)
			}
			if err := peer.publish(ctx, "nadine/stt/transcript", map[string]any{"text": 42, "note": "my PIN is " + canary}); err != nil {
				t.Fatal(err)
			}
			w, err := peer.say(ctx, "nadine", "canary-1", "Please remember my PIN, it is "+canary+".")
			if err != nil {
				t.Fatal(err)
			}
			if err := peer.wait(ctx, w, time.Minute); err != nil {
				t.Fatalf("%v\n%s", err, c.logs.String())
			}
			status, body = c.api(t, "POST", "/api/turns", fmt.Sprintf(`{"text":"Did you get it? %s","user_id":%q}`, canary, id))
			if status != http.StatusOK || !strings.Contains(body, canary) {
				t.Fatalf("the reply does not repeat the secret (the canary proves nothing): %d %s", status, body)
			}
			if status, body = c.api(t, "POST", "/api/session/end", `{}`); status != http.StatusAccepted {
				t.Fatalf("POST /api/session/end: %d %s", status, body)
			}
			var u string
			deadline := time.Now().Add(30 * time.Second)
			for time.Now().Before(deadline) {
				if _, u = c.api(t, "GET", "/api/users/"+id, ""); strings.Contains(u, canary) && strings.Contains(u, `"memories":[{`) {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			if !strings.Contains(u, canary) {
				t.Fatalf("the secret never reached the person's memories: %s", u)
			}
			if files := filesWith(t, c.dir); len(files) == 0 {
				t.Fatal("the secret is in no file before the forget: the canary proves nothing")
			}

			if status, body = c.api(t, "DELETE", "/api/users/"+id, ""); status != http.StatusOK {
				t.Fatalf("DELETE /api/users/%s: %d %s", id, status, body)
			}
			// Every API answer, while serve runs.
			answers := map[string]string{}
			for _, p := range []string{"/api/users", "/api/users/" + id, "/api/users/Robin", "/api/session", "/api/info", "/api/ready",
				"/api/health", "/api/language"} {
				_, answers["GET "+p] = c.api(t, "GET", p, "")
			}
			answers["GET /api/events"] = c.firstEvent(t)
			for what, a := range answers {
				if strings.Contains(a, canary) {
					t.Errorf("%s holds the secret after the forget: %s", what, a)
				}
			}
			if !strings.Contains(answers["GET /api/users/"+id], "not_found") {
				t.Errorf("the person is still known: %s", answers["GET /api/users/"+id])
			}
			if files := filesWith(t, c.dir); len(files) > 0 {
				t.Errorf("while serve runs, the secret is still in %v", files)
			}
			c.stopTerm(t)
			if files := filesWith(t, c.dir); len(files) > 0 {
				t.Errorf("after serve stopped, the secret is still in %v", files)
			}
			logs := c.logs.String()
			if n := strings.Count(logs, canary); n > 0 {
				t.Errorf("the log holds the secret %d times:\n%s", n, logs)
			}
			if !strings.Contains(logs, "msg=turn") || !strings.Contains(logs, "malformed message dropped") || !strings.Contains(logs, "forgot") {
				t.Errorf("the log lacks the turn lines, the dropped message or the forget (the test would prove nothing):\n%s", logs)
			}
			for _, l := range strings.Split(logs, "\n") {
				if strings.Contains(l, "msg=turn") {
					t.Logf("%s turn line: %s", engine, l)
					break
				}
			}
		})
	}
}

// TestCanaryStrangerLeavesNothing: a stranger (nobody names them, no face
// is recognized) says a secret to the robot over MQTT and Nadine repeats
// it; once the interaction ends (user/left) the secret is in none of the
// data directory's files — the memory store, the transcript inbox, their
// WAL and shared-memory files — nor in the log.
func TestCanaryStrangerLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts nadine serve as a child process")
	}
	t.Parallel() // its own children, ports and data directory; it checks no timing
	for _, engine := range []string{"react", "graph"} {
		t.Run(engine, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.WithAPIKey("k"))
			scriptCanary(srv)
			c := startChildServe(t, engine, srv.URL())
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			peer, err := dialPeer(ctx, c.mqtt)
			if err != nil {
				t.Fatal(err)
			}
			defer peer.close()
			for i, text := range []string{"My PIN is " + canary + ", remember it.", "Did you get my PIN " + canary + "?"} {
				w, err := peer.say(ctx, "nadine", fmt.Sprintf("stranger-%d", i), text)
				if err != nil {
					t.Fatal(err)
				}
				if err := peer.wait(ctx, w, time.Minute); err != nil {
					t.Fatalf("%v\n%s", err, c.logs.String())
				}
			}
			if _, s := c.api(t, "GET", "/api/session", ""); !strings.Contains(s, `"turns":2`) {
				t.Fatalf("the stranger's two turns are not in the session: %s", s)
			}
			if err := peer.publish(ctx, "nadine/user/left", nil); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(30 * time.Second)
			for {
				if _, s := c.api(t, "GET", "/api/session", ""); strings.Contains(s, `"turns":0`) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the interaction did not end")
				}
				time.Sleep(50 * time.Millisecond)
			}
			if files := filesWithSoon(t, c.dir); len(files) > 0 {
				t.Errorf("once the stranger left, the secret is still in %v", files)
			}
			c.stopTerm(t)
			if files := filesWith(t, c.dir); len(files) > 0 {
				t.Errorf("after serve stopped, the secret is still in %v", files)
			}
			if n := strings.Count(c.logs.String(), canary); n > 0 {
				t.Errorf("the log holds the secret %d times", n)
			}
		})
	}
}
