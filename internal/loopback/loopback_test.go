package loopback

import (
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestServeAndClose: the server answers on its URL; Close does not wait
// for a connection a client opened and never used (http.Server.Shutdown
// alone waits 5 s for it), and waits for a request in flight.
func TestServeAndClose(t *testing.T) {
	release := make(chan struct{})
	s := Run(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			<-release
		}
		_, _ = io.WriteString(w, "ok")
	}))
	resp, err := http.Get(s.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "ok" {
		t.Fatalf("body %q", b)
	}
	unused, err := net.Dial("tcp", s.URL[len("http://"):])
	if err != nil {
		t.Fatal(err)
	}
	defer unused.Close()
	slow := make(chan error, 1)
	go func() {
		resp, err := http.Get(s.URL + "/slow")
		if err == nil {
			resp.Body.Close()
		}
		slow <- err
	}()
	time.Sleep(50 * time.Millisecond) // the slow request is in flight
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
		t.Fatal("Close returned with a request in flight")
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	select {
	case <-closed:
	case <-time.After(shutdownWait - time.Second):
		t.Fatal("Close waited for the unused connection")
	}
	if err := <-slow; err != nil {
		t.Errorf("the request in flight failed: %v", err)
	}
}

// TestCloseClientConnections: the open connections are closed, as a
// server going away does.
func TestCloseClientConnections(t *testing.T) {
	s := Run(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "ok") }))
	defer s.Close()
	c, err := net.Dial("tcp", s.URL[len("http://"):])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 512)
	if _, err := c.Read(buf); err != nil {
		t.Fatal(err)
	}
	s.CloseClientConnections()
	_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Read(buf); err == nil {
		t.Error("the connection is still open")
	}
}
