package web_test

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/web"
)

// clientFrom is an HTTP client whose connections come from the loopback
// address ip (127.0.0.1, 127.0.0.2...): a client at its own address.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// status sends req with c and returns the status.
func status(t *testing.T, c *http.Client, req *http.Request) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(req.Context(), failsafe)
	defer cancel()
	res, err := c.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestOperatorNeverLockedOut: an attacker sending wrong tokens from the
// operator's own address (a reverse proxy, NAT, loopback) never gets a
// request with the right token refused, interleaved over minutes of the
// server's clock or hammering concurrently; the attacker's wrong tokens are
// slowed (429), and a third client at another address is not.
func TestOperatorNeverLockedOut(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	f := newFixture(t, fixtureOptions{token: "operator-token-4f1c9a2e7b", now: clock})
	shared := clientFrom("127.0.0.1")
	wrong := func(path string) *http.Request {
		req := f.request("GET", path, "")
		req.Header.Set("Authorization", "Bearer guess")
		return req
	}
	missing := func(path string) *http.Request {
		req := f.request("GET", path, "")
		req.Header.Del("Authorization")
		return req
	}
	paths := []string{"/api/session", "/api/turns", "/api/users", "/api/robots"}

	// The measure, made harsher: 15 correct requests, one every
	// 6 s, with 5 wrong or missing tokens from the same address before
	// each.
	refused, slowed := 0, 0
	for i := range 15 {
		for j := range 5 {
			req := wrong(paths[j%len(paths)])
			if j%2 == 1 {
				req = missing(paths[j%len(paths)])
			}
			if status(t, shared, req) == http.StatusTooManyRequests {
				slowed++
			}
		}
		if got := status(t, shared, f.request("GET", paths[i%len(paths)], "")); got != http.StatusOK {
			refused++
			t.Logf("correct token %d: %d", i+1, got)
		}
		advance(6 * time.Second)
	}
	t.Logf("interleaved: %d of 15 correct-token requests refused; %d of 75 wrong ones slowed (429)", refused, slowed)
	if refused != 0 {
		t.Errorf("%d of 15 correct-token requests refused, want 0", refused)
	}
	// 10 per minute: the first 10 are answered 401, then 1 in 6 s.
	if slowed < 50 {
		t.Errorf("only %d of 75 wrong tokens got 429, want 52: the attacker is not slowed", slowed)
	}

	// Concurrently: the attacker hammers while the operator works.
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if got := status(t, shared, wrong("/api/session")); got != http.StatusTooManyRequests && got != http.StatusUnauthorized {
				t.Errorf("a wrong token got %d", got)
			}
		}
	})
	refused = 0
	for i := range 40 {
		if got := status(t, shared, f.request("GET", paths[i%len(paths)], "")); got != http.StatusOK {
			refused++
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("concurrent: %d of 40 correct-token requests refused", refused)
	if refused != 0 {
		t.Errorf("%d of 40 correct-token requests refused while the attacker hammers, want 0", refused)
	}

	// The attacker's address is slowed, another address is not.
	if got := status(t, shared, wrong("/api/session")); got != http.StatusTooManyRequests {
		t.Errorf("the attacker's next wrong token got %d, want 429", got)
	}
	if got := status(t, clientFrom("127.0.0.2"), wrong("/api/session")); got != http.StatusUnauthorized {
		t.Errorf("a wrong token from another address got %d, want 401 (its own budget)", got)
	}
	if got, b := f.send(f.request("POST", "/api/turns", `{"text":"Hello"}`)); got != http.StatusOK {
		t.Errorf("the operator's turn: %d %s", got, b)
	}
}

// TestShortTokenWarned: since the right token is never refused, only its
// length stops a guesser; a short one gets a warning (nadine config and
// serve print it).
func TestShortTokenWarned(t *testing.T) {
	for _, tt := range []struct {
		token string
		warn  bool
	}{{"", false}, {"s3cret", true}, {"fifteen-chars-x", true}, {"sixteen-chars-xy", false}, {"éééééééééééééééé", false}} {
		if got := web.TokenWarning(tt.token) != ""; got != tt.warn {
			t.Errorf("TokenWarning(%q) warns %v, want %v", tt.token, got, tt.warn)
		}
	}
	if w := web.TokenWarning("s3cret-token"); !strings.Contains(w, "12 characters") || strings.Contains(w, "s3cret") {
		t.Errorf("warning %q: want the length, never the token", w)
	}
}

// TestCheckAddr: the address checks of Start, made without listening.
func TestCheckAddr(t *testing.T) {
	for _, tt := range []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:8080", "", true},
		{"localhost:0", "", true},
		{"[::1]:8080", "", true},
		{"0.0.0.0:8080", "", false},
		{"0.0.0.0:8080", "operator-token-4f1c9a2e7b", true},
		{"not an address", "", false},
		{"127.0.0.1:http", "", true},
		{"127.0.0.1:eighty", "", false},
	} {
		if err := web.CheckAddr(tt.addr, tt.token); (err == nil) != tt.ok {
			t.Errorf("CheckAddr(%q, token %v) = %v, want ok %v", tt.addr, tt.token != "", err, tt.ok)
		}
	}
}
