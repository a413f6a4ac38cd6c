package mqtt

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"log/slog"
	"math"
	"net/url"
	"os"
	"time"

	"github.com/nadine-robot/nadine"
)

// Defaults for Options' zero values.
const (
	DefaultURL            = "mqtt://127.0.0.1:1883"
	DefaultPrefix         = "nadine"
	DefaultMaxPayload     = 64 << 10
	DefaultKeepAlive      = 30 * time.Second
	DefaultSessionExpiry  = 10 * time.Minute
	DefaultReconnectMin   = 250 * time.Millisecond
	DefaultReconnectMax   = 10 * time.Second
	DefaultConnectTimeout = 10 * time.Second
	DefaultPublishTimeout = 10 * time.Second
	DefaultInboundBuffer  = 256
	DefaultInboundTimeout = 5 * time.Second
	DefaultDedupSize      = 1024
	DefaultDedupWindow    = 2 * time.Minute
)

// Options configure a Bus. The zero value connects to a broker on
// 127.0.0.1:1883 under the prefix "nadine".
type Options struct {
	// URL: mqtt://, tcp://, mqtts://, tls://, ssl://, ws:// or wss://; user
	// info in it is used when Username and Password are empty.
	URL string
	// ClientID should be stable, and one per robot, so that the persistent
	// session survives a restart; default "nadine-<random>".
	ClientID string
	// Username and Password authenticate to the broker. The password is
	// never logged.
	Username string
	Password string
	// TLS configures mqtts:// and wss:// connections.
	TLS TLSOptions
	// Prefix is the first topic level: all topics are "<prefix>/...", so
	// several robots can share one broker. Default "nadine".
	Prefix string
	// MaxPayload bounds inbound payloads: bigger ones are dropped with a log
	// line. Default 64 KiB.
	MaxPayload int
	// KeepAlive is the MQTT keep-alive period. Default 30 s.
	KeepAlive time.Duration
	// SessionExpiry is how long the broker keeps QoS 1 messages while nadine
	// is away; < 0 ends the session at every disconnection.
	SessionExpiry time.Duration
	// CleanStart discards the session a previous run with the same ClientID
	// left on the broker, at the first connection only.
	CleanStart bool
	// ReconnectMin and ReconnectMax bound the reconnection backoff, which
	// doubles from min to max. Defaults 250 ms and 10 s.
	ReconnectMin time.Duration
	ReconnectMax time.Duration
	// ConnectTimeout bounds one connection attempt, and a subscription.
	// Default 10 s.
	ConnectTimeout time.Duration
	// PublishTimeout bounds one publication: waiting for the connection and
	// for the broker's acknowledgment. Default 10 s.
	PublishTimeout time.Duration
	// InboundBuffer is the capacity of the Inbound channel. Default 256:
	// a turn takes seconds, perception sends a few messages a second.
	InboundBuffer int
	// InboundTimeout is how long a message waits for room in a full Inbound
	// channel before it is dropped with an error log. Default 5 s.
	InboundTimeout time.Duration
	// DedupSize is how many transcript ids (and texts) are remembered to
	// drop redeliveries. Default 1024.
	DedupSize int
	// DedupWindow is how long a transcript without id is remembered to drop
	// a redelivery (DUP) of the same text. Default 2 min.
	DedupWindow time.Duration
	// Persist keeps a batch of transcripts (the inbox) before acknowledgment,
	// returning Seq 0 for a redelivery; while it fails nothing is acknowledged.
	Persist func(ctx context.Context, ts []nadine.Transcript) ([]nadine.Transcript, error)
	// Logger receives the bus's logs; nil discards them.
	Logger *slog.Logger
	// Now returns the current time (Inbound.Received). Default time.Now.
	Now func() time.Time
}

// TLSOptions configure TLS for mqtts:// and wss:// URLs. The zero value
// verifies the broker against the system's roots.
type TLSOptions struct {
	// CAFile is a PEM file of the authorities that sign the broker's
	// certificate; the system roots when empty.
	CAFile string
	// CertFile and KeyFile are the client's PEM certificate and key, for
	// brokers that require client certificates. Both or neither.
	CertFile string
	KeyFile  string
	// InsecureSkipVerify accepts any broker certificate (tests only).
	InsecureSkipVerify bool
	// ServerName overrides the name checked in the broker's certificate;
	// default the URL's host.
	ServerName string
}

func (t TLSOptions) isZero() bool { return t == TLSOptions{} }

// config's errors are EINVALID and name the field; the TLS config is nil for
// plain connections.
func (o Options) config() (Options, *url.URL, *tls.Config, error) {
	u, secure, err := brokerURL(o.URL)
	if err != nil {
		return o, nil, nil, err
	}
	if u.Port() == "" {
		port := map[string]string{"mqtt": "1883", "tcp": "1883", "mqtts": "8883", "tls": "8883", "ssl": "8883", "ws": "80", "wss": "443"}[u.Scheme]
		u.Host = u.Host + ":" + port
	}
	if u.User != nil && o.Username == "" && o.Password == "" {
		o.Username = u.User.Username()
		o.Password, _ = u.User.Password()
	}
	u.User = nil
	o.URL = u.String()
	if !secure && !o.TLS.isZero() {
		return o, nil, nil, nadine.Errorf(nadine.EINVALID, "mqtt: TLS: set but URL scheme %q is not TLS (use mqtts:// or wss://)", u.Scheme)
	}
	var tlsCfg *tls.Config
	if secure {
		if tlsCfg, err = o.TLS.config(); err != nil {
			return o, nil, nil, err
		}
	}

	if o.ClientID == "" {
		var b [4]byte
		_, _ = rand.Read(b[:])
		o.ClientID = "nadine-" + hex.EncodeToString(b[:])
	}
	if o.Prefix == "" {
		o.Prefix = DefaultPrefix
	}
	if err := CheckPrefix(o.Prefix); err != nil {
		return o, nil, nil, err
	}
	positive := []struct {
		name string
		v    *time.Duration
		def  time.Duration
	}{
		{"KeepAlive", &o.KeepAlive, DefaultKeepAlive},
		{"ReconnectMin", &o.ReconnectMin, DefaultReconnectMin},
		{"ReconnectMax", &o.ReconnectMax, DefaultReconnectMax},
		{"ConnectTimeout", &o.ConnectTimeout, DefaultConnectTimeout},
		{"PublishTimeout", &o.PublishTimeout, DefaultPublishTimeout},
		{"InboundTimeout", &o.InboundTimeout, DefaultInboundTimeout},
		{"DedupWindow", &o.DedupWindow, DefaultDedupWindow},
	}
	for _, p := range positive {
		if *p.v < 0 {
			return o, nil, nil, nadine.Errorf(nadine.EINVALID, "mqtt: %s: negative duration %s", p.name, *p.v)
		}
		if *p.v == 0 {
			*p.v = p.def
		}
	}
	if o.KeepAlive > math.MaxUint16*time.Second {
		return o, nil, nil, nadine.Errorf(nadine.EINVALID, "mqtt: KeepAlive: %s exceeds 65535 s", o.KeepAlive)
	}
	if o.ReconnectMax < o.ReconnectMin {
		o.ReconnectMax = o.ReconnectMin
	}
	switch {
	case o.SessionExpiry == 0:
		o.SessionExpiry = DefaultSessionExpiry
	case o.SessionExpiry > math.MaxUint32*time.Second:
		return o, nil, nil, nadine.Errorf(nadine.EINVALID, "mqtt: SessionExpiry: %s too long", o.SessionExpiry)
	}
	ints := []struct {
		name string
		v    *int
		def  int
	}{
		{"MaxPayload", &o.MaxPayload, DefaultMaxPayload},
		{"InboundBuffer", &o.InboundBuffer, DefaultInboundBuffer},
		{"DedupSize", &o.DedupSize, DefaultDedupSize},
	}
	for _, p := range ints {
		if *p.v < 0 {
			return o, nil, nil, nadine.Errorf(nadine.EINVALID, "mqtt: %s: negative value %d", p.name, *p.v)
		}
		if *p.v == 0 {
			*p.v = p.def
		}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o, u, tlsCfg, nil
}

// config builds the TLS configuration, reading the files it names.
func (t TLSOptions) config() (*tls.Config, error) {
	c := &tls.Config{
		MinVersion:         tls.VersionTLS12,
		ServerName:         t.ServerName,
		InsecureSkipVerify: t.InsecureSkipVerify, //nolint:gosec // opt-in, documented as tests only
	}
	if t.CAFile != "" {
		pem, err := os.ReadFile(t.CAFile)
		if err != nil {
			return nil, nadine.Errorf(nadine.EINVALID, "mqtt: TLS.CAFile: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, nadine.Errorf(nadine.EINVALID, "mqtt: TLS.CAFile: no PEM certificate in %s", t.CAFile)
		}
		c.RootCAs = pool
	}
	switch {
	case t.CertFile != "" && t.KeyFile == "":
		return nil, nadine.Errorf(nadine.EINVALID, "mqtt: TLS.KeyFile: required with TLS.CertFile")
	case t.CertFile == "" && t.KeyFile != "":
		return nil, nadine.Errorf(nadine.EINVALID, "mqtt: TLS.CertFile: required with TLS.KeyFile")
	case t.CertFile != "":
		cert, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
		if err != nil {
			return nil, nadine.Errorf(nadine.EINVALID, "mqtt: TLS.CertFile/TLS.KeyFile: %w", err)
		}
		c.Certificates = []tls.Certificate{cert}
	}
	return c, nil
}

// backoff is none for the first attempt, then min doubling up to max.
func backoff(minDelay, maxDelay time.Duration) func(int) time.Duration {
	return func(attempt int) time.Duration {
		if attempt <= 0 {
			return 0
		}
		d := minDelay
		for i := 1; i < attempt && d < maxDelay; i++ {
			d *= 2
		}
		return min(d, maxDelay)
	}
}
