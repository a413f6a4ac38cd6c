package web_test

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
)

// TestEventStreamsAreCapped: beyond http.max_streams open streams the next
// is refused with 503 and Retry-After; closing one makes room again.
func TestEventStreamsAreCapped(t *testing.T) {
	f := newFixture(t, fixtureOptions{maxStreams: 3})
	var closers []func()
	for range 3 {
		ch, closeStream := f.openStream(f.request("GET", "/api/events", ""))
		if ev := <-ch; ev.Name != "session" {
			t.Fatalf("first event %q, want session", ev.Name)
		}
		closers = append(closers, closeStream)
	}
	got, b := f.send(f.request("GET", "/api/events", ""))
	e := decode[errorBody](t, string(b))
	if got != http.StatusServiceUnavailable || e.Code != nadine.EUNAVAILABLE {
		t.Errorf("the 4th stream: %d %s, want 503", got, b)
	}
	closers[0]()
	eventually(t, "a slot to come back", func() bool {
		res, err := http.DefaultClient.Do(f.request("GET", "/api/health", ""))
		if err != nil {
			return false
		}
		res.Body.Close()
		req := f.request("GET", "/api/events", "")
		res, err = http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		defer res.Body.Close()
		return res.StatusCode == http.StatusOK
	})
	for _, c := range closers[1:] {
		c()
	}
	// The other endpoints never counted.
	f.call("GET", "/api/session", "", http.StatusOK, nil)
}

// TestTokenFailuresAreRateLimited: a client sending wrong tokens is
// refused with 429 (and Retry-After) after http.max_token_failures per
// minute, until an attempt comes back; the right token is still served
// (other clients: limits_internal_test.go).
func TestTokenFailuresAreRateLimited(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	f := newFixture(t, fixtureOptions{token: "s3cret-token", maxTokenFailures: 3, now: clock})
	wrong := func() *http.Request {
		req := f.request("GET", "/api/session", "")
		req.Header.Set("Authorization", "Bearer guess")
		return req
	}
	for i := range 3 {
		if got, b := f.send(wrong()); got != http.StatusUnauthorized {
			t.Fatalf("wrong token %d: %d %s, want 401", i+1, got, b)
		}
	}
	res, err := http.DefaultClient.Do(wrong())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("4th wrong token: %d, want 429", res.StatusCode)
	}
	if s, _ := strconv.Atoi(res.Header.Get("Retry-After")); s < 1 || s > 20 {
		t.Errorf("Retry-After %q, want 1 to 20 seconds", res.Header.Get("Retry-After"))
	}
	got, b := f.send(wrong())
	if e := decode[errorBody](t, string(b)); got != http.StatusTooManyRequests || e.Code != nadine.ERATELIMIT {
		t.Errorf("a wrong token while blocked: %d %s, want 429", got, b)
	}
	// The right token is served all the same (TestOperatorNeverLockedOut).
	f.call("GET", "/api/session", "", http.StatusOK, nil)
	f.call("GET", "/api/health", "", http.StatusOK, nil) // health needs no token
	advance(20 * time.Second)                            // one attempt back (3 per minute)
	f.call("GET", "/api/session", "", http.StatusOK, nil)
	if got, _ := f.send(wrong()); got != http.StatusUnauthorized {
		t.Errorf("after the wait a wrong token gets %d, want 401", got)
	}
	if got, _ := f.send(wrong()); got != http.StatusTooManyRequests {
		t.Errorf("then the next gets %d, want 429", got)
	}
	if logs := f.logs.String(); !strings.Contains(logs, "too many failed token attempts") {
		t.Errorf("the refusal is not logged:\n%s", logs)
	}
}
