package mqtt

import (
	"net"
	"net/url"
	"strings"

	"github.com/nadine-robot/nadine"
)

// The checks below are the ones Connect and StartBroker make of their
// options, exported so that a program can refuse a bad configuration
// before it starts anything (`nadine config` runs them). Errors are
// EINVALID and name the option.

// CheckURL reports what makes s unusable as Connect sees it; empty is DefaultURL.
func CheckURL(s string) error {
	_, _, err := brokerURL(s)
	return err
}

// CheckPrefix reports what makes p unusable as a topic prefix.
func CheckPrefix(p string) error {
	if why := validPrefix(p); why != "" {
		return nadine.Errorf(nadine.EINVALID, "mqtt: Prefix %q: %s", p, why)
	}
	return nil
}

// Check makes every check Connect makes of o before it connects: the URL,
// the TLS files (read), the prefix and the bounds.
func (o Options) Check() error {
	_, _, _, err := o.config()
	return err
}

// Check makes every check StartBroker makes of o before it listens.
func (o BrokerOptions) Check() error {
	o, err := o.withDefaults()
	if err != nil {
		return err
	}
	return checkListenAddr(o.Addr)
}

// checkListenAddr wants host:port with a port number or a known service
// name; whether the host is a local address is learnt when listening.
func checkListenAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err == nil {
		_, err = net.LookupPort("tcp", port)
	}
	if err != nil {
		return nadine.Errorf(nadine.EINVALID, "mqtt: broker Addr %q: %w", addr, err)
	}
	return nil
}

// brokerURL lower-cases the scheme and says whether it is a TLS one.
func brokerURL(s string) (*url.URL, bool, error) {
	if s == "" {
		s = DefaultURL
	}
	u, err := url.Parse(s)
	if err != nil {
		// url.Parse errors quote the URL, which may hold a password.
		return nil, false, nadine.Errorf(nadine.EINVALID, "mqtt: URL: cannot parse")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	secure := false
	switch u.Scheme {
	case "mqtt", "tcp", "ws":
	case "mqtts", "tls", "ssl", "wss":
		secure = true
	default:
		return nil, false, nadine.Errorf(nadine.EINVALID, "mqtt: URL: unsupported scheme %q (want mqtt, mqtts, ws or wss)", u.Scheme)
	}
	if u.Hostname() == "" {
		return nil, false, nadine.Errorf(nadine.EINVALID, "mqtt: URL: no host in %s", u.Redacted())
	}
	if p := u.Port(); p != "" {
		if _, err := net.LookupPort("tcp", p); err != nil {
			return nil, false, nadine.Errorf(nadine.EINVALID, "mqtt: URL: port %q: %w", p, err)
		}
	}
	return u, secure, nil
}
