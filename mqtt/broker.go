package mqtt

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/hooks/auth"
	"github.com/mochi-mqtt/server/v2/listeners"

	"github.com/nadine-robot/nadine"
)

// DefaultBrokerAddr listens on the loopback interface only.
const DefaultBrokerAddr = "127.0.0.1:1883"

// BrokerOptions' zero value listens on 127.0.0.1:1883; every limit has a default
// so no bad client holds unbounded memory or makes others wait.
type BrokerOptions struct {
	// Addr off the loopback interface needs Users; port 0 picks a free port
	// (see Broker.Addr).
	Addr string
	// TLSConfig, when set, makes the listener speak TLS (mqtts://).
	TLSConfig *tls.Config
	// Logger receives the broker's logs; nil discards them.
	Logger *slog.Logger
	// Users (name → password) are the only clients accepted; empty, anyone
	// may connect, so the broker stays on loopback.
	Users map[string]string
	// WriteTimeout disconnects a client whose writes make no progress that
	// long; a slow write that progresses goes on. Default DefaultBrokerWriteTimeout.
	WriteTimeout time.Duration
	// MaxPacketSize refuses a larger packet from its header, before reading
	// its body, and disconnects the client (0x95).
	MaxPacketSize int
	// MaxClients bounds clients and kept sessions: a new id is refused beyond
	// it, a known id may always reconnect.
	MaxClients int
	// MaxInflight is the receive maximum announced in CONNACK; a client that
	// sends more unacknowledged QoS 1/2 messages is disconnected.
	MaxInflight int
	// MaxQueued and MaxQueuedBytes bound a client's held QoS 1/2 messages
	// (further ones are dropped and counted); a full write queue disconnects.
	MaxQueued      int
	MaxQueuedBytes int
	// MaxRetained and MaxRetainedBytes bound retained messages; one beyond is
	// refused (0x97 to an MQTT 5 QoS 1/2 publisher), replacing one never is.
	MaxRetained      int
	MaxRetainedBytes int
}

// The embedded broker's default limits (see BrokerOptions).
const (
	DefaultBrokerWriteTimeout     = time.Second
	DefaultBrokerMaxPacketSize    = 128 << 10
	DefaultBrokerMaxClients       = 128
	DefaultBrokerMaxInflight      = 64
	DefaultBrokerMaxQueued        = 10000
	DefaultBrokerMaxQueuedBytes   = 16 << 20
	DefaultBrokerMaxRetained      = 1000
	DefaultBrokerMaxRetainedBytes = 1 << 20
)

// MaxSessionExpiry caps what a client asks for, so a gone client's session
// frees its MaxClients slot within the hour.
const MaxSessionExpiry = time.Hour

// maxMQTTPacket is the largest packet MQTT can encode (a remaining length
// of 268,435,455 bytes and its fixed header).
const maxMQTTPacket = 268_435_460

// minPacketSize is the smallest MaxPacketSize: room for a transcript and
// a sentence with their topics and properties.
const minPacketSize = 1024

// withDefaults' errors name the field.
func (o BrokerOptions) withDefaults() (BrokerOptions, error) {
	if o.Addr == "" {
		o.Addr = DefaultBrokerAddr
	}
	host, _, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return o, nadine.Errorf(nadine.EINVALID, "mqtt: broker Addr %q: %w", o.Addr, err)
	}
	if len(o.Users) == 0 && !LoopbackHost(host) {
		return o, nadine.Errorf(nadine.EINVALID, "mqtt: broker Addr %q is not a loopback address and no Users are set: anyone on the network could read what people say and make Nadine speak", o.Addr)
	}
	for _, f := range []struct {
		name     string
		v        *int
		def, max int
	}{
		{"MaxPacketSize", &o.MaxPacketSize, DefaultBrokerMaxPacketSize, maxMQTTPacket},
		{"MaxClients", &o.MaxClients, DefaultBrokerMaxClients, math.MaxInt32},
		{"MaxInflight", &o.MaxInflight, DefaultBrokerMaxInflight, math.MaxUint16},
		{"MaxQueued", &o.MaxQueued, DefaultBrokerMaxQueued, math.MaxUint16},
		{"MaxQueuedBytes", &o.MaxQueuedBytes, DefaultBrokerMaxQueuedBytes, math.MaxInt},
		{"MaxRetained", &o.MaxRetained, DefaultBrokerMaxRetained, math.MaxUint16},
		{"MaxRetainedBytes", &o.MaxRetainedBytes, DefaultBrokerMaxRetainedBytes, math.MaxInt},
	} {
		switch {
		case *f.v < 0:
			return o, nadine.Errorf(nadine.EINVALID, "mqtt: broker %s: must not be negative (got %d)", f.name, *f.v)
		case *f.v == 0:
			*f.v = f.def
		case *f.v > f.max:
			return o, nadine.Errorf(nadine.EINVALID, "mqtt: broker %s: at most %d (got %d)", f.name, f.max, *f.v)
		}
	}
	if o.MaxPacketSize < minPacketSize {
		return o, nadine.Errorf(nadine.EINVALID, "mqtt: broker MaxPacketSize: at least %d (got %d)", minPacketSize, o.MaxPacketSize)
	}
	if o.WriteTimeout < 0 {
		return o, nadine.Errorf(nadine.EINVALID, "mqtt: broker WriteTimeout: must not be negative (got %v)", o.WriteTimeout)
	}
	if o.WriteTimeout == 0 {
		o.WriteTimeout = DefaultBrokerWriteTimeout
	}
	return o, nil
}

// LoopbackHost is false for an empty host, which listens on every interface.
func LoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Broker is the embedded broker "nadine serve" runs when none is configured.
// Without Users it listens on loopback only; off loopback use TLS too.
type Broker struct {
	srv    *mochi.Server
	retain *retainLimits
	addr   string
	tls    bool
	close  sync.Once
}

// StartBroker's ctx bounds only the start: the broker runs until Close.
func StartBroker(ctx context.Context, opts BrokerOptions) (*Broker, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("mqtt: start broker: %w", err)
	}
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	caps := mochi.NewDefaultServerCapabilities()
	caps.MaximumPacketSize = uint32(opts.MaxPacketSize)
	caps.MaximumClients = int64(opts.MaxClients)
	caps.ReceiveMaximum = uint16(opts.MaxInflight)
	caps.MaximumInflight = uint16(opts.MaxQueued)
	caps.MaximumClientWritesPending = int32(opts.MaxQueued + opts.MaxRetained) // each at most 65,535
	caps.MaximumClientQueuedBytes = int64(opts.MaxQueuedBytes)
	caps.MaximumSessionExpiryInterval = uint32(MaxSessionExpiry / time.Second)
	srv := mochi.New(&mochi.Options{Logger: log.With("component", "mqtt-broker"), Capabilities: caps})
	limits := newRetainLimits(srv, opts.MaxRetained, opts.MaxRetainedBytes)
	if err := srv.AddHook(limits, nil); err != nil {
		return nil, fmt.Errorf("mqtt: start broker: limits hook: %w", err)
	}
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
	tcp := &tcpListener{id: "tcp", ln: ln, tls: opts.TLSConfig, writeTimeout: opts.WriteTimeout, served: make(chan struct{}), open: map[*boundedConn]struct{}{}}
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
	b := &Broker{srv: srv, retain: limits, addr: tcp.Address(), tls: opts.TLSConfig != nil}
	log.Info("mqtt: broker listening", "addr", b.addr, "tls", b.tls, "users", len(opts.Users))
	return b, nil
}

// BrokerStats are what the embedded broker holds and what it dropped.
type BrokerStats struct {
	Clients       int   // connected now
	Sessions      int   // kept, of clients connected or gone
	Retained      int   // retained messages (the broker's own $SYS ones aside)
	RetainedBytes int   // their topics and payloads
	Dropped       int64 // messages not delivered to a client: its queue was full, or its QoS 1/2 messages held were at MaxQueued
}

// Stats returns the broker's figures now.
func (b *Broker) Stats() BrokerStats {
	count, size := b.retain.held()
	return BrokerStats{
		Clients:       int(atomic.LoadInt64(&b.srv.Info.ClientsConnected)),
		Sessions:      b.srv.Clients.Len(),
		Retained:      count,
		RetainedBytes: size,
		Dropped:       atomic.LoadInt64(&b.srv.Info.MessagesDropped) + atomic.LoadInt64(&b.srv.Info.InflightDropped),
	}
}

// Addr has the real port when Addr asked for port 0.
func (b *Broker) Addr() string { return b.addr }

// URL gives an unspecified listening host (":1883", "0.0.0.0") as 127.0.0.1.
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

// Close waits for the clients and the listener's goroutines so the address can
// be reused; mochi's own goroutines end with it unwaited.
func (b *Broker) Close() error {
	var err error
	b.close.Do(func() {
		if e := b.srv.Close(); e != nil {
			err = fmt.Errorf("mqtt: close broker: %w", e)
		}
	})
	return err
}

// tcpListener stops accepting before disconnecting clients, unlike mochi's, so
// a client reconnecting during shutdown is refused at once.
type tcpListener struct {
	id           string
	ln           net.Listener
	tls          *tls.Config // BrokerOptions.TLSConfig: TLS over the bounded connection
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
		bc := &boundedConn{Conn: conn, timeout: l.writeTimeout, log: l.log}
		l.open[bc] = struct{}{}
		l.conns.Add(1) // under mu: never after Close waits
		l.mu.Unlock()
		go func() {
			defer l.conns.Done()
			var c net.Conn = bc
			if l.tls != nil {
				// Under TLS, so that a slow write's progress is seen
				// (a TLS connection fails for good at its first
				// deadline).
				c = tls.Server(bc, l.tls)
			}
			if err := establish(l.id, c); err != nil {
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

// closeWriteGrace bounds the DISCONNECT written at Close, so Close does not wait
// a whole WriteTimeout for a client that stopped reading.
const closeWriteGrace = time.Second

// boundedConn exists because mochi writes with no deadline: a client that
// stopped reading held Close for ever. A failed write closes the connection.
type boundedConn struct {
	net.Conn
	timeout time.Duration
	log     *slog.Logger // says when a stalled client is disconnected; nil: nothing

	mu      sync.Mutex // orders the deadlines Write and closeBy set
	closing time.Time  // Close's deadline: no write lasts beyond it
}

// Write implements net.Conn.
func (c *boundedConn) Write(b []byte) (int, error) {
	written := 0
	for {
		c.mu.Lock()
		d := time.Now().Add(c.timeout)
		closing := !c.closing.IsZero()
		if closing && c.closing.Before(d) {
			d = c.closing
		}
		_ = c.Conn.SetWriteDeadline(d)
		c.mu.Unlock()
		n, err := c.Conn.Write(b[written:])
		written += n
		if err != nil && n > 0 && !closing && errors.Is(err, os.ErrDeadlineExceeded) {
			continue // slow, not stalled
		}
		if err != nil {
			if !closing && errors.Is(err, os.ErrDeadlineExceeded) && c.log != nil {
				c.log.Warn("client disconnected: it took no data", "remote", c.RemoteAddr().String(), "write_timeout", c.timeout)
			}
			_ = c.Conn.Close()
		}
		return written, err
	}
}

// closeBy makes the writes in progress and to come end by deadline.
func (c *boundedConn) closeBy(deadline time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closing = deadline
	_ = c.Conn.SetWriteDeadline(deadline)
}

// Close bounds each write to a client by closeWriteGrace and returns only when
// every goroutine of the listener has.
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
