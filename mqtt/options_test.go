package mqtt_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/mqtt"
)

// pki is a throw-away certificate authority with a server certificate for
// 127.0.0.1 and a client certificate, written as PEM files.
type pki struct {
	caFile, certFile, keyFile string // CA, client certificate and key
	server                    tls.Certificate
	pool                      *x509.CertPool
}

func newPKI(t *testing.T) pki {
	t.Helper()
	dir := t.TempDir()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "nadine test CA"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		KeyUsage:              x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	issue := func(serial int64, usage x509.ExtKeyUsage, ips ...net.IP) (certPEM, keyPEM []byte) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial),
			Subject:      pkix.Name{CommonName: "nadine test"},
			NotBefore:    time.Now().Add(-time.Hour),
			NotAfter:     time.Now().Add(time.Hour),
			KeyUsage:     x509.KeyUsageDigitalSignature,
			ExtKeyUsage:  []x509.ExtKeyUsage{usage},
			IPAddresses:  ips,
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		kder, err := x509.MarshalECPrivateKey(key)
		if err != nil {
			t.Fatal(err)
		}
		return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})
	}
	p := pki{
		caFile:   filepath.Join(dir, "ca.pem"),
		certFile: filepath.Join(dir, "client.pem"),
		keyFile:  filepath.Join(dir, "client.key"),
		pool:     x509.NewCertPool(),
	}
	p.pool.AddCert(ca)
	write := func(name string, data []byte) {
		if err := os.WriteFile(name, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(p.caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}))
	cert, key := issue(2, x509.ExtKeyUsageClientAuth)
	write(p.certFile, cert)
	write(p.keyFile, key)
	scert, skey := issue(3, x509.ExtKeyUsageServerAuth, net.ParseIP("127.0.0.1"))
	if p.server, err = tls.X509KeyPair(scert, skey); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestConnect_InvalidOptions(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.pem")
	if err := os.WriteFile(garbage, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts mqtt.Options
		want string // the field the error must name
	}{
		{"scheme", mqtt.Options{URL: "http://127.0.0.1:1883"}, "mqtt: URL"},
		{"no host", mqtt.Options{URL: "mqtt://"}, "mqtt: URL"},
		{"missing CA file", mqtt.Options{URL: "mqtts://127.0.0.1:8883", TLS: mqtt.TLSOptions{CAFile: filepath.Join(dir, "nope.pem")}}, "mqtt: TLS.CAFile"},
		{"CA file without certificate", mqtt.Options{URL: "mqtts://127.0.0.1:8883", TLS: mqtt.TLSOptions{CAFile: garbage}}, "mqtt: TLS.CAFile"},
		{"cert without key", mqtt.Options{URL: "mqtts://127.0.0.1:8883", TLS: mqtt.TLSOptions{CertFile: garbage}}, "mqtt: TLS.KeyFile"},
		{"key without cert", mqtt.Options{URL: "mqtts://127.0.0.1:8883", TLS: mqtt.TLSOptions{KeyFile: garbage}}, "mqtt: TLS.CertFile"},
		{"bad key pair", mqtt.Options{URL: "mqtts://127.0.0.1:8883", TLS: mqtt.TLSOptions{CertFile: garbage, KeyFile: garbage}}, "mqtt: TLS.CertFile/TLS.KeyFile"},
		{"TLS on plain URL", mqtt.Options{URL: "mqtt://127.0.0.1:1883", TLS: mqtt.TLSOptions{InsecureSkipVerify: true}}, "mqtt: TLS"},
		{"wildcard prefix", mqtt.Options{Prefix: "robots/#"}, "mqtt: Prefix"},
		{"empty level prefix", mqtt.Options{Prefix: "robots//a"}, "mqtt: Prefix"},
		{"system prefix", mqtt.Options{Prefix: "$SYS"}, "mqtt: Prefix"},
		{"negative payload", mqtt.Options{MaxPayload: -1}, "mqtt: MaxPayload"},
		{"negative keepalive", mqtt.Options{KeepAlive: -time.Second}, "mqtt: KeepAlive"},
		{"huge keepalive", mqtt.Options{KeepAlive: 100 * time.Hour}, "mqtt: KeepAlive"},
		{"huge session expiry", mqtt.Options{SessionExpiry: math.MaxInt64}, "mqtt: SessionExpiry"},
		{"password in URL stays secret", mqtt.Options{URL: "mqtt://nadine:hunter2@127.0.0.1:1883", Prefix: "#"}, "mqtt: Prefix"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := mqtt.Connect(context.Background(), tt.opts)
			if err == nil {
				_ = b.Close(context.Background())
				t.Fatal("Connect succeeded")
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %q, want it to start with %q", err, tt.want)
			}
			if got, want := nadine.ErrorCode(err), nadine.EINVALID; got != want {
				t.Errorf("code %q, want %q", got, want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error %q shows the password", err)
			}
		})
	}
}

func TestConnect_NoBroker(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens there now
	l := &logs{}
	opts := testOptions("mqtt://nadine:hunter2@"+addr, l)
	// Connect gives up when its context ends: end it once an attempt has
	// failed, however long that took (no time budget: the machine is
	// shared).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		deadline := time.Now().Add(failsafe)
		for len(l.records("mqtt: connection attempt failed")) == 0 && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	b, err := mqtt.Connect(ctx, opts)
	if err == nil {
		_ = b.Close(context.Background())
		t.Fatal("Connect succeeded without a broker")
	}
	if got, want := nadine.ErrorCode(err), nadine.EUNAVAILABLE; got != want {
		t.Errorf("code %q, want %q (%v)", got, want, err)
	}
	if !strings.Contains(err.Error(), "mqtt: connect mqtt://"+addr) {
		t.Errorf("error %q does not name the broker", err)
	}
	if strings.Contains(err.Error(), "hunter2") || strings.Contains(l.String(), "hunter2") {
		t.Errorf("the password leaked: %v\n%s", err, l.String())
	}
	if len(l.records("mqtt: connection attempt failed")) == 0 {
		t.Error("no failed attempt logged")
	}
}

func TestConnect_TLS(t *testing.T) {
	p := newPKI(t)
	other := newPKI(t)
	startTLS := func(t *testing.T, cfg *tls.Config) *mqtt.Broker {
		b, err := mqtt.StartBroker(context.Background(), mqtt.BrokerOptions{Addr: "127.0.0.1:0", TLSConfig: cfg})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = b.Close() })
		if !strings.HasPrefix(b.URL(), "mqtts://127.0.0.1:") {
			t.Fatalf("URL %q, want mqtts://127.0.0.1:port", b.URL())
		}
		return b
	}
	plain := startTLS(t, &tls.Config{Certificates: []tls.Certificate{p.server}})
	mutual := startTLS(t, &tls.Config{Certificates: []tls.Certificate{p.server}, ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: p.pool})

	ok := []struct {
		name   string
		broker *mqtt.Broker
		tls    mqtt.TLSOptions
	}{
		{"CA file", plain, mqtt.TLSOptions{CAFile: p.caFile}},
		{"insecure", plain, mqtt.TLSOptions{InsecureSkipVerify: true}},
		{"client certificate", mutual, mqtt.TLSOptions{CAFile: p.caFile, CertFile: p.certFile, KeyFile: p.keyFile}},
	}
	for _, tt := range ok {
		t.Run(tt.name, func(t *testing.T) {
			opts := testOptions(tt.broker.URL(), &logs{})
			opts.TLS = tt.tls
			b := connect(t, opts)
			// The bus hears its own transcript topic: a round trip over TLS.
			if err := b.Publish(context.Background(), mqtt.TopicTranscript, []byte("over TLS")); err != nil {
				t.Fatal(err)
			}
			if got := next(t, b); got.Transcript.Text != "over TLS" {
				t.Errorf("got %+v", got)
			}
		})
	}

	bad := []struct {
		name string
		tls  mqtt.TLSOptions
	}{
		{"unknown authority", mqtt.TLSOptions{CAFile: other.caFile}},
		{"wrong server name", mqtt.TLSOptions{CAFile: p.caFile, ServerName: "broker.example"}},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			opts := testOptions(plain.URL(), &logs{})
			opts.TLS = tt.tls
			// A certificate that does not verify ends Connect at once; the
			// context is only a failsafe.
			ctx, cancel := context.WithTimeout(context.Background(), failsafe)
			defer cancel()
			b, err := mqtt.Connect(ctx, opts)
			if err == nil {
				_ = b.Close(context.Background())
				t.Fatal("Connect succeeded")
			}
			if got, want := nadine.ErrorCode(err), nadine.EINVALID; got != want {
				t.Errorf("code %q, want %q (%v)", got, want, err)
			}
			if !strings.Contains(err.Error(), "certificate") {
				t.Errorf("error %q does not say the certificate is the problem", err)
			}
		})
	}
}

func TestBroker_Addr(t *testing.T) {
	// Every interface: with users (anonymous access is for loopback only).
	b, err := mqtt.StartBroker(context.Background(), mqtt.BrokerOptions{Addr: ":0", Users: map[string]string{"u": "p"}})
	if err != nil {
		t.Fatal(err)
	}
	_, port, err := net.SplitHostPort(b.Addr())
	if err != nil || port == "0" || port == "" {
		t.Fatalf("Addr() = %q, want the real port", b.Addr())
	}
	if got, want := b.URL(), "mqtt://127.0.0.1:"+port; got != want {
		t.Errorf("URL() = %q, want %q", got, want)
	}
	// The port is taken: a second broker cannot start there.
	_, err = mqtt.StartBroker(context.Background(), mqtt.BrokerOptions{Addr: "127.0.0.1:" + port})
	if got, want := nadine.ErrorCode(err), nadine.EUNAVAILABLE; got != want {
		t.Errorf("second broker on the same port: %v, want code %q", err, want)
	}
	if _, err := mqtt.StartBroker(context.Background(), mqtt.BrokerOptions{Addr: "no-port"}); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("bad address: %v, want EINVALID", err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestBus_OutboundValidation(t *testing.T) {
	broker := startBroker(t, "127.0.0.1:0")
	b := connect(t, testOptions(broker.URL(), &logs{}))
	ctx := context.Background()
	tests := []struct {
		name  string
		topic string
		call  func() error
	}{
		{"speak empty", mqtt.TopicSpeak, func() error { return b.Speak(ctx, nadine.Speech{Text: " "}) }},
		{"speak language", mqtt.TopicSpeak, func() error { return b.Speak(ctx, nadine.Speech{Text: "hola", Language: "es"}) }},
		{"speak seq", mqtt.TopicSpeak, func() error { return b.Speak(ctx, nadine.Speech{Text: "hi", Seq: -1}) }},
		{"speak UTF-8", mqtt.TopicSpeak, func() error { return b.Speak(ctx, nadine.Speech{Text: "\xff"}) }},
		{"animation empty", mqtt.TopicAnimation, func() error { return b.Animate(ctx, "") }},
		{"animation line", mqtt.TopicAnimation, func() error { return b.Animate(ctx, "wave\nsmile") }},
		{"affect label", mqtt.TopicAffect, func() error { return b.PublishAffect(ctx, nadine.AffectState{Label: "happy"}) }},
		{"affect NaN", mqtt.TopicAffect, func() error { return b.PublishAffect(ctx, nadine.AffectState{Arousal: math.NaN()}) }},
		{"user info id", mqtt.TopicUserInfo, func() error { return b.PublishUserInfo(ctx, nadine.UserRef{Name: "Alice"}) }},
		{"forget face id", mqtt.TopicUserInfo, func() error { return b.ForgetFace(ctx, " ") }},
		{"capture path", mqtt.TopicCapture, func() error { return b.RequestCapture(ctx, "  ") }},
		{"song path", mqtt.TopicSong, func() error { return b.PlaySong(ctx, nadine.Song{Title: "x"}) }},
		{"song language", mqtt.TopicSong, func() error { return b.PlaySong(ctx, nadine.Song{Path: "/a.wav", Language: "xx"}) }},
		{"stt language", mqtt.TopicSTTLanguage, func() error { return b.PublishLanguage(ctx, "") }},
		{"raw wildcard", "a/#", func() error { return b.Publish(ctx, "a/#", nil) }},
		{"raw empty level", "/a", func() error { return b.Publish(ctx, "/a", nil) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if got, want := nadine.ErrorCode(err), nadine.EINVALID; got != want {
				t.Fatalf("error %v (code %q), want code %q", err, got, want)
			}
			if prefix := "mqtt: publish " + b.Topic(tt.topic) + ": "; !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error %q, want it to start with %q", err, prefix)
			}
		})
	}
}
