package mqtt

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/hooks/auth"
	"github.com/mochi-mqtt/server/v2/listeners"

	"github.com/nadine-robot/nadine"
)

// DefaultBrokerAddr is where the embedded broker listens by default: the
// loopback interface only.
const DefaultBrokerAddr = "127.0.0.1:1883"

// BrokerOptions configure the embedded broker. The zero value listens on
// 127.0.0.1:1883 without TLS and discards logs.
type BrokerOptions struct {
	// Addr is the TCP address to listen on; port 0 picks a free port (see
	// Broker.Addr). Default DefaultBrokerAddr.
	Addr string
	// TLSConfig, when set, makes the listener speak TLS (mqtts://).
	TLSConfig *tls.Config
	// Logger receives the broker's logs; nil discards them.
	Logger *slog.Logger
	// Users, when not empty, are the only clients accepted: user name →
	// password. Empty, every client may connect.
	Users map[string]string
	// WriteTimeout bounds each write to a client: a client that takes no
	// data for that long (it stopped reading, or its network is gone and
	// its socket is full) is disconnected, so that it holds nothing of
	// the broker (its reconnection under the same client id, Close).
	// Default DefaultBrokerWriteTimeout.
	WriteTimeout time.Duration
}

// DefaultBrokerWriteTimeout is BrokerOptions.WriteTimeout's default.
const DefaultBrokerWriteTimeout = 10 * time.Second

// Broker is an embedded MQTT 3.1.1/5 broker (mochi-mqtt), used by
// "nadine serve" when no broker is configured so that perception and control
// processes on the robot have somewhere to connect.
//
// Without Users it lets every client connect, subscribe and publish: keep
// it on the loopback interface then. With Users only those user names, with
// their passwords, may connect; off the loopback interface, add TLS too, or
// the passwords cross the network in clear.
type Broker struct {
	srv   *mochi.Server
	addr  string
	tls   bool
	close sync.Once
}

// StartBroker starts a broker listening on opts.Addr. ctx bounds only the
// start: the broker runs until Close.
func StartBroker(ctx context.Context, opts BrokerOptions) (*Broker, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("mqtt: start broker: %w", err)
	}
	if opts.Addr == "" {
		opts.Addr = DefaultBrokerAddr
	}
	if err := opts.Check(); err != nil {
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	srv := mochi.New(&mochi.Options{Logger: log.With("component", "mqtt-broker")})
	var hook mochi.Hook = new(auth.AllowHook)
	if len(opts.Users) > 0 {
		hook = newPasswordHook(opts.Users)
	}
	if err := srv.AddHook(hook, nil); err != nil {
		return nil, fmt.Errorf("mqtt: start broker: auth hook: %w", err)
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", opts.Addr)
	if err != nil {
		return nil, nadine.Errorf(nadine.EUNAVAILABLE, "mqtt: start broker on %s: %w", opts.Addr, err)
	}
	if opts.TLSConfig != nil {
		ln = tls.NewListener(ln, opts.TLSConfig)
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = DefaultBrokerWriteTimeout
	}
	tcp := &tcpListener{id: "tcp", ln: ln, writeTimeout: opts.WriteTimeout, served: make(chan struct{}), open: map[*boundedConn]struct{}{}}
	if err := srv.AddListener(tcp); err != nil {
		_ = ln.Close()
		_ = srv.Close()
		return nil, fmt.Errorf("mqtt: start broker on %s: %w", opts.Addr, err)
	}
	if err := srv.Serve(); err != nil {
		_ = srv.Close()
		return nil, fmt.Errorf("mqtt: start broker on %s: %w", opts.Addr, err)
	}
	tcp.mu.Lock()
	tcp.serving = true
	tcp.mu.Unlock()
	b := &Broker{srv: srv, addr: tcp.Address(), tls: opts.TLSConfig != nil}
	log.Info("mqtt: broker listening", "addr", b.addr, "tls", b.tls, "users", len(opts.Users))
	return b, nil
}

// Addr returns the address the broker listens on, with the real port when
// Addr asked for port 0.
func (b *Broker) Addr() string { return b.addr }

// URL returns the URL clients connect to: "mqtt://host:port", or
// "mqtts://host:port" with TLS.
// An unspecified listening host (":1883", "0.0.0.0:1883") is given as
// 127.0.0.1.
func (b *Broker) URL() string {
	addr := b.addr
	if host, port, err := net.SplitHostPort(addr); err == nil {
		if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
			addr = net.JoinHostPort("127.0.0.1", port)
		}
	}
	if b.tls {
		return "mqtts://" + addr
	}
	return "mqtt://" + addr
}

// Close disconnects every client and stops listening. It waits for the
// clients to be gone, so that the address can be listened on again, and
// for the listener's goroutines (accepting, one per connection). mochi's
// own housekeeping goroutines (its event loop, each client's write loop)
// end as Close stops the server and the clients; mochi does not wait for
// them.
func (b *Broker) Close() error {
	var err error
	b.close.Do(func() {
		if e := b.srv.Close(); e != nil {
			err = fmt.Errorf("mqtt: close broker: %w", e)
		}
	})
	return err
}

// tcpListener is the broker's TCP listener. Unlike mochi's own, it stops
// accepting connections before it disconnects the clients, so that a client
// reconnecting while the broker shuts down is refused at once instead of
// being accepted and never answered.
//
// Its goroutines are the broker's: Serve's (which mochi starts), and one
// per connection; Close ends and waits for them all, closing the
// connections mochi did not disconnect (one still in its handshake).
type tcpListener struct {
	id           string
	ln           net.Listener
	log          *slog.Logger
	writeTimeout time.Duration // BrokerOptions.WriteTimeout

	served  chan struct{} // closed when Serve returns
	conns   sync.WaitGroup
	mu      sync.Mutex
	open    map[*boundedConn]struct{} // connections being served
	closed  bool
	serving bool // mochi started Serve (its Serve returned nil)
}

var _ listeners.Listener = (*tcpListener)(nil)

// Init implements listeners.Listener; the socket is already open.
func (l *tcpListener) Init(log *slog.Logger) error {
	l.log = log
	return nil
}

// Serve accepts connections until the listener is closed.
func (l *tcpListener) Serve(establish listeners.EstablishFn) {
	defer close(l.served)
	for {
		conn, err := l.ln.Accept()
		if err != nil {
			return
		}
		l.mu.Lock()
		if l.closed {
			l.mu.Unlock()
			_ = conn.Close()
			return
		}
		bc := &boundedConn{Conn: conn, timeout: l.writeTimeout}
		l.open[bc] = struct{}{}
		l.conns.Add(1) // under mu: never after Close waits
		l.mu.Unlock()
		go func() {
			defer l.conns.Done()
			if err := establish(l.id, bc); err != nil {
				l.log.Debug("mqtt: broker connection ended", "error", err)
			}
			l.mu.Lock()
			delete(l.open, bc)
			l.mu.Unlock()
			_ = conn.Close()
		}()
	}
}

// ID implements listeners.Listener.
func (l *tcpListener) ID() string { return l.id }

// Address returns the address the socket is bound to.
func (l *tcpListener) Address() string { return l.ln.Addr().String() }

// Protocol implements listeners.Listener.
func (l *tcpListener) Protocol() string { return "tcp" }

// closeWriteGrace bounds the writes to a client once the broker closes
// (the DISCONNECT it is sent): Close does not wait a whole WriteTimeout
// for a client that stopped reading.
const closeWriteGrace = time.Second

// boundedConn is a client's connection whose every write ends within its
// timeout. mochi writes to a client under the client's lock with no
// deadline, so a write blocked on a full socket (a client that stopped
// reading, a network gone) held that lock for as long as TCP kept the
// connection: the DISCONNECT of a session taken over by the client's
// reconnection, or of Close, waited on it; Close for ever. A write that
// fails closes the connection: the client is gone, and half a packet must
// not be followed by another.
type boundedConn struct {
	net.Conn
	timeout time.Duration

	mu      sync.Mutex // orders the deadlines Write and closeBy set
	closing time.Time  // Close's deadline: no write lasts beyond it
}

// Write implements net.Conn.
func (c *boundedConn) Write(b []byte) (int, error) {
	c.mu.Lock()
	d := time.Now().Add(c.timeout)
	if !c.closing.IsZero() && c.closing.Before(d) {
		d = c.closing
	}
	_ = c.Conn.SetWriteDeadline(d)
	c.mu.Unlock()
	n, err := c.Conn.Write(b)
	if err != nil {
		_ = c.Conn.Close()
	}
	return n, err
}

// closeBy makes the writes in progress and to come end by deadline.
func (c *boundedConn) closeBy(deadline time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closing = deadline
	_ = c.Conn.SetWriteDeadline(deadline)
}

// Close stops accepting, disconnects the listener's clients (each write
// to them bounded by closeWriteGrace), closes the connections not yet
// clients, and waits until every goroutine of the listener has returned.
func (l *tcpListener) Close(closeClients listeners.CloseFn) {
	l.mu.Lock()
	l.closed = true
	deadline := time.Now().Add(closeWriteGrace)
	for c := range l.open {
		c.closeBy(deadline) // a write blocked on a full socket fails then
	}
	l.mu.Unlock()
	_ = l.ln.Close()
	closeClients(l.id)
	l.mu.Lock()
	for c := range l.open {
		_ = c.Close()
	}
	l.mu.Unlock()
	l.conns.Wait()
	l.mu.Lock()
	serving := l.serving
	l.mu.Unlock()
	if serving {
		<-l.served
	}
}
