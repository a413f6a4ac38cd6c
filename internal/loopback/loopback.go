// Package loopback serves HTTP on a loopback port for scripted peers: the
// scripted model and search servers of the tests and of `nadine bench`.
// It does what the tests used net/http/httptest for (a URL, closing client
// connections, closing and waiting), without linking httptest or testing
// into the production binary.
package loopback

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// shutdownWait bounds how long Close waits for requests in flight.
const shutdownWait = 5 * time.Second

// Server is an HTTP server on 127.0.0.1.
type Server struct {
	// URL is the server's base URL, http://127.0.0.1:PORT.
	URL string
	// Listener is the listener Start serves; New sets it, and a caller
	// may wrap it before Start.
	Listener net.Listener

	srv   *http.Server
	mu    sync.Mutex
	conns map[net.Conn]http.ConnState
	done  chan struct{}
}

// New returns a server for h listening on a free loopback port, not
// serving yet.
func New(h http.Handler) (*Server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("loopback: listen: %w", err)
	}
	s := &Server{URL: "http://" + l.Addr().String(), Listener: l, conns: map[net.Conn]http.ConnState{}, done: make(chan struct{})}
	s.srv = &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ConnState: s.track}
	return s, nil
}

// Start starts serving Listener.
func (s *Server) Start() {
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(s.Listener) // ends with ErrServerClosed
	}()
}

// Run returns a started server for h; it panics when no loopback port is
// free, as httptest does (a machine without one cannot run a bench).
func Run(h http.Handler) *Server {
	s, err := New(h)
	if err != nil {
		panic(err)
	}
	s.Start()
	return s
}

func (s *Server) track(c net.Conn, st http.ConnState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch st {
	case http.StateClosed, http.StateHijacked:
		delete(s.conns, c)
	default:
		s.conns[c] = st
	}
}

// CloseClientConnections closes every open connection to the server, as
// a server going away does to its clients.
func (s *Server) CloseClientConnections() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		_ = c.Close()
	}
}

// Close does what httptest.Server.Close does; http.Server.Shutdown alone
// would wait 5 s for a connection a client opened and never used.
func (s *Server) Close() {
	s.srv.SetKeepAlivesEnabled(false)
	_ = s.Listener.Close()
	deadline := time.Now().Add(shutdownWait)
	for {
		s.mu.Lock()
		busy := 0
		for c, st := range s.conns {
			if st == http.StateIdle || st == http.StateNew {
				_ = c.Close()
			} else {
				busy++
			}
		}
		s.mu.Unlock()
		if busy == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	_ = s.srv.Close()
	select {
	case <-s.done:
	case <-time.After(shutdownWait):
	}
}
