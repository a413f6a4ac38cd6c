package mqtt

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"

	"github.com/nadine-robot/nadine"
)

// Bus reconnects and resubscribes by itself; its methods are safe for
// concurrent use.
type Bus struct {
	opts   Options
	log    *slog.Logger
	prefix string // with the trailing "/"
	cm     *autopaho.ConnectionManager
	cancel context.CancelFunc
	runCtx context.Context

	in       chan nadine.Inbound
	inMu     sync.RWMutex // guards inClosed against sends on a closed channel
	inClosed bool
	quit     chan struct{} // closed by Close
	close    sync.Once

	recvMu   sync.Mutex // serializes message handling across reconnections
	dedup    *dedup
	spokenMu sync.Mutex
	spoken   *lru // "topic\x00turn_id\x00seq" of speech the broker acknowledged

	pipe   chan received  // parsed messages, in arrival order, for pump
	pumped chan struct{}  // closed when pump returns
	subs   sync.WaitGroup // subscribe goroutines (one per connection), waited by Close

	mu        sync.Mutex
	gen       uint64 // incremented at each connection change
	up        bool   // the network connection is up
	ready     bool   // up and subscribed
	readyCh   chan struct{}
	readyOnce sync.Once
	lastErr   error      // the last connection or subscription failure
	failures  int        // connection attempts failed since the last success
	connects  uint64     // connections established: the first, then each reconnection
	fatal     chan error // a failure that retrying cannot fix, for Connect
	closing   bool       // Close was called: no subscribe goroutine starts
}

// Connect's ctx bounds only the first connection; an error retrying cannot fix
// is EINVALID at once.
func Connect(ctx context.Context, opts Options) (*Bus, error) {
	o, u, tlsCfg, err := opts.config()
	if err != nil {
		return nil, err
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	b := &Bus{
		opts:    o,
		log:     o.Logger,
		prefix:  o.Prefix + "/",
		cancel:  cancel,
		runCtx:  runCtx,
		in:      make(chan nadine.Inbound, o.InboundBuffer),
		quit:    make(chan struct{}),
		dedup:   newDedup(o.DedupSize, o.DedupWindow),
		pipe:    make(chan received, receiveMaximum(o)),
		pumped:  make(chan struct{}),
		spoken:  newLRU(o.DedupSize),
		readyCh: make(chan struct{}),
		fatal:   make(chan error, 1),
	}
	var expiry uint32
	if o.SessionExpiry > 0 {
		expiry = uint32(o.SessionExpiry / time.Second)
	}
	cfg := autopaho.ClientConfig{
		ServerUrls:                    []*url.URL{u},
		TlsCfg:                        tlsCfg,
		KeepAlive:                     uint16(max(o.KeepAlive/time.Second, 1)),
		CleanStartOnInitialConnection: o.CleanStart,
		SessionExpiryInterval:         expiry,
		ReconnectBackoff:              backoff(o.ReconnectMin, o.ReconnectMax),
		ConnectTimeout:                o.ConnectTimeout,
		OnConnectionUp:                b.onUp,
		OnConnectionDown:              b.onDown,
		OnConnectError:                b.onConnectError,
		Debug:                         pahoLogger{b.log, "autopaho"},
		Errors:                        pahoLogger{b.log, "autopaho"},
		PahoErrors:                    pahoLogger{b.log, "paho"},
		ConnectUsername:               o.Username,
		ConnectPassword:               []byte(o.Password),
		// The broker sends about as many unacknowledged messages as the
		// Inbound channel holds (at least 256); paho sizes its receive
		// queue by it (65,535 by default: half a megabyte per connection,
		// which a process serving many robots feels).
		ConnectPacketBuilder: func(c *paho.Connect, _ *url.URL) (*paho.Connect, error) {
			if c.Properties == nil {
				c.Properties = &paho.ConnectProperties{}
			}
			rm := receiveMaximum(o)
			c.Properties.ReceiveMaximum = &rm
			return c, nil
		},
		ClientConfig: paho.ClientConfig{
			// Acknowledgments are sent by pump, in order, once each
			// message is handled (a transcript: once it is in the inbox).
			EnableManualAcknowledgment: true,
			SendAcksInterval:           ackInterval,
			ClientID:                   o.ClientID,
			OnPublishReceived:          []func(paho.PublishReceived) (bool, error){b.onPublish},
			OnServerDisconnect:         b.onServerDisconnect,
			OnClientError:              b.onClientError,
		},
	}
	cm, err := autopaho.NewConnection(runCtx, cfg)
	if err != nil {
		cancel()
		return nil, nadine.Errorf(nadine.EINVALID, "mqtt: connect %s: %w", o.URL, err)
	}
	b.cm = cm
	go b.pump()
	b.log.Debug("mqtt: connecting", "url", o.URL, "client_id", o.ClientID, "prefix", o.Prefix)

	code := nadine.EUNAVAILABLE
	var cause error
	select {
	case <-b.readyCh:
		return b, nil
	case cause = <-b.fatal:
		code = nadine.EINVALID
	case <-ctx.Done():
		b.mu.Lock()
		cause = b.lastErr
		b.mu.Unlock()
		if cause == nil {
			cause = ctx.Err()
		}
	}
	closeCtx, cancelClose := context.WithTimeout(context.Background(), o.ConnectTimeout)
	defer cancelClose()
	_ = b.Close(closeCtx)
	return nil, nadine.Errorf(code, "mqtt: connect %s: %w", o.URL, cause)
}

// receiveMaximum is the receive maximum the bus announces: about as many
// unacknowledged messages as the Inbound channel holds, at least 256.
func receiveMaximum(o Options) uint16 {
	return uint16(min(max(o.InboundBuffer, 256), math.MaxUint16))
}

// permanent reports a connection failure that retrying cannot fix.
func permanent(err error) bool {
	var ce *autopaho.ConnackError
	if errors.As(err, &ce) {
		switch ce.ReasonCode {
		case 0x84, // unsupported protocol version
			0x85, // client identifier not valid
			0x86, // bad user name or password
			0x87, // not authorized
			0x8C: // bad authentication method
			return true
		}
	}
	var (
		verify   *tls.CertificateVerificationError
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
	)
	return errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &hostname) || errors.As(err, &invalid)
}

// Inbound is closed by Close. Read it promptly: a message that finds it full
// waits Options.InboundTimeout and is dropped.
func (b *Bus) Inbound() <-chan nadine.Inbound { return b.in }

// Connected is true only once the subscriptions are in place too.
func (b *Bus) Connected() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.ready
}

// Reconnects counts reconnections after a lost connection, for metrics.
func (b *Bus) Reconnects() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return max(b.connects, 1) - 1
}

// Prefix returns the topic prefix, without the trailing slash.
func (b *Bus) Prefix() string { return strings.TrimSuffix(b.prefix, "/") }

// Topic returns the full topic of a topic relative to the prefix.
func (b *Bus) Topic(rel string) string { return b.prefix + rel }

// Close disconnects cleanly, keeping the broker's session, and closes
// Inbound; the bus's own goroutines have returned when it does. Idempotent.
func (b *Bus) Close(ctx context.Context) error {
	var err error
	b.close.Do(func() {
		close(b.quit)
		b.mu.Lock()
		b.closing = true
		b.mu.Unlock()
		err = b.cm.Disconnect(ctx)
		b.cancel()
		b.subs.Wait() // they end with runCtx
		<-b.pumped
		b.mu.Lock()
		b.up, b.ready = false, false
		b.gen++
		b.mu.Unlock()
		b.inMu.Lock()
		b.inClosed = true
		close(b.in)
		b.inMu.Unlock()
		b.log.Info("mqtt: disconnected", "url", b.opts.URL)
	})
	if err != nil {
		return fmt.Errorf("mqtt: close: %w", err)
	}
	return nil
}

// onUp must not block, so it subscribes in the background.
func (b *Bus) onUp(cm *autopaho.ConnectionManager, ack *paho.Connack) {
	b.mu.Lock()
	b.gen++
	gen := b.gen
	b.up = true
	b.failures = 0
	b.connects++
	closing := b.closing
	if !closing {
		b.subs.Add(1) // under mu: never after Close set closing and waits
	}
	b.mu.Unlock()
	b.log.Info("mqtt: connected", "url", b.opts.URL, "client_id", b.opts.ClientID, "session_present", ack.SessionPresent)
	if closing {
		return
	}
	go func() {
		defer b.subs.Done()
		b.subscribe(cm, gen)
	}()
}

// subscribe runs after every connection, since a restarted broker lost the
// session; a refusal is logged and kept as the last error.
func (b *Bus) subscribe(cm *autopaho.ConnectionManager, gen uint64) {
	var subs []paho.SubscribeOptions
	for _, t := range InboundTopics() {
		// RetainHandling 1: retained messages only for a new subscription,
		// so that resubscribing on a kept session does not replay them.
		subs = append(subs, paho.SubscribeOptions{Topic: b.prefix + t, QoS: 1, RetainHandling: 1})
	}
	delay := backoff(b.opts.ReconnectMin, b.opts.ReconnectMax)
	for attempt := 0; ; attempt++ {
		select {
		case <-time.After(delay(attempt)):
		case <-b.runCtx.Done():
			return
		}
		if !b.current(gen) {
			return
		}
		ctx, cancel := context.WithTimeout(b.runCtx, b.opts.ConnectTimeout)
		ack, err := cm.Subscribe(ctx, &paho.Subscribe{Subscriptions: subs})
		cancel()
		if ack != nil && len(ack.Reasons) == len(subs) {
			var refused []string
			for i, r := range ack.Reasons {
				switch {
				case r >= 0x80:
					refused = append(refused, fmt.Sprintf("%s (reason 0x%02x)", subs[i].Topic, r))
				case r < 1:
					b.log.Warn("mqtt: broker granted QoS 0 only", "topic", subs[i].Topic)
				}
			}
			if len(refused) > 0 {
				err := fmt.Errorf("subscription refused: %s", strings.Join(refused, ", "))
				b.log.Error("mqtt: "+err.Error(), "url", b.opts.URL)
				b.setErr(err)
				return
			}
			err = nil
		}
		if err != nil {
			b.log.Warn("mqtt: subscribe failed; retrying", "error", err)
			b.setErr(fmt.Errorf("subscribe: %w", err))
			continue
		}
		b.mu.Lock()
		ok := b.gen == gen && b.up
		if ok {
			b.ready = true
		}
		b.mu.Unlock()
		if ok {
			b.log.Info("mqtt: subscribed", "prefix", b.Prefix(), "topics", len(subs))
			b.readyOnce.Do(func() { close(b.readyCh) })
		}
		return
	}
}

// current reports whether gen is still the live connection.
func (b *Bus) current(gen uint64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.gen == gen && b.up
}

func (b *Bus) setErr(err error) {
	b.mu.Lock()
	b.lastErr = err
	b.mu.Unlock()
}

// onDown runs when an established connection is lost; autopaho reconnects.
func (b *Bus) onDown() bool {
	b.mu.Lock()
	b.gen++
	b.up, b.ready = false, false
	b.mu.Unlock()
	select {
	case <-b.quit:
	default:
		b.log.Warn("mqtt: connection lost; reconnecting", "url", b.opts.URL)
	}
	return true
}

// onConnectError logs failed connection attempts: the first at warn, the
// following ones at debug so that a broker down for long does not flood.
func (b *Bus) onConnectError(err error) {
	b.mu.Lock()
	b.lastErr = err
	b.failures++
	n := b.failures
	b.mu.Unlock()
	if permanent(err) {
		select {
		case b.fatal <- err:
		default:
		}
	}
	level := slog.LevelDebug
	if n == 1 {
		level = slog.LevelWarn
	}
	b.log.Log(context.Background(), level, "mqtt: connection attempt failed", "url", b.opts.URL, "attempt", n, "error", err)
}

func (b *Bus) onServerDisconnect(d *paho.Disconnect) {
	reason := ""
	if d.Properties != nil {
		reason = d.Properties.ReasonString
	}
	b.log.Warn("mqtt: broker disconnected us", "reason_code", d.ReasonCode, "reason", reason)
}

func (b *Bus) onClientError(err error) {
	b.log.Debug("mqtt: client error", "error", err)
}

// received is a message parsed on paho's goroutine, not yet acknowledged; a
// nil in means not to deliver it.
type received struct {
	in  *nadine.Inbound
	dup bool // the broker's DUP flag
	pkt *paho.Publish
	cli *paho.Client
}

// ack's order does not matter: paho sends PUBACKs in the order messages came.
func (r received) ack(log *slog.Logger) {
	if r.cli == nil || r.pkt == nil || r.pkt.QoS == 0 {
		return
	}
	if err := r.cli.Ack(r.pkt); err != nil {
		log.Debug("mqtt: acknowledgment not sent", "topic", r.pkt.Topic, "error", err)
	}
}

// onPublish runs on paho's receive goroutine; waiting here is the backpressure
// (the broker stops at the receive maximum).
func (b *Bus) onPublish(pr paho.PublishReceived) (bool, error) {
	b.recvMu.Lock()
	defer b.recvMu.Unlock()
	p := pr.Packet
	r := received{dup: p.Duplicate(), pkt: p, cli: pr.Client}
	r.in = b.parse(p)
	select {
	case b.pipe <- r:
	case <-b.quit:
	}
	return true, nil
}

// parse logs why a message is not delivered (nil).
func (b *Bus) parse(p *paho.Publish) *nadine.Inbound {
	rel, ok := strings.CutPrefix(p.Topic, b.prefix)
	kind, known := inboundKind(rel)
	if !ok || !known {
		b.log.Debug("mqtt: message on an unexpected topic ignored", "topic", p.Topic)
		return nil
	}
	size := len(p.Payload)
	if size > b.opts.MaxPayload {
		b.drop(p.Topic, fmt.Sprintf("payload larger than %d bytes", b.opts.MaxPayload), size)
		return nil
	}
	if !utf8.Valid(p.Payload) {
		b.drop(p.Topic, "invalid UTF-8", size)
		return nil
	}
	in, err := parseInbound(kind, p.Payload)
	var unsupported *unsupportedLanguageError
	switch {
	case errors.Is(err, errIgnored):
		b.log.Debug("mqtt: message ignored", "topic", p.Topic, "reason", err.Error())
		return nil
	case errors.As(err, &unsupported):
		b.log.Warn("mqtt: unsupported transcript language", "topic", p.Topic, "reason", err.Error())
	case err != nil:
		b.drop(p.Topic, err.Error(), size)
		return nil
	}
	now := b.opts.Now()
	in.Received = now
	if kind == nadine.InboundTranscript {
		in.Transcript.Received = now
	}
	b.log.Debug("mqtt: received", "topic", p.Topic, "kind", kind, "size", size)
	return &in
}

// pump keeps a batch's transcripts (Options.Persist) before acknowledging any,
// so nothing acknowledged is lost.
func (b *Bus) pump() {
	defer close(b.pumped)
	for {
		var batch []received
		select {
		case r := <-b.pipe:
			batch = append(batch, r)
		case <-b.quit:
			return
		}
	more:
		for len(batch) < maxBatch {
			select {
			case r := <-b.pipe:
				batch = append(batch, r)
			default:
				break more
			}
		}
		if !b.handle(batch) {
			return
		}
	}
}

// maxBatch bounds what pump persists and acknowledges at once.
const maxBatch = 256

// ackInterval is how often paho sends the acknowledgments made.
const ackInterval = 10 * time.Millisecond

// handle reports false when the bus closed before the batch's transcripts were
// kept; they are then not acknowledged.
func (b *Bus) handle(batch []received) bool {
	if b.opts.Persist == nil {
		for _, r := range batch {
			b.deliver(r)
			r.ack(b.log)
		}
		return true
	}
	now := b.opts.Now()
	var keep []int // the batch's transcripts to persist
	for i, r := range batch {
		if staleInterim(r) {
			batch[i].in = nil
			continue
		}
		if r.in == nil || r.in.Kind != nadine.InboundTranscript || !r.in.Transcript.Final {
			continue // an interim transcript is no turn: neither kept nor deduplicated
		}
		if b.dedup.seen(r.in.Transcript, r.dup, now) {
			b.log.Info("mqtt: duplicate transcript dropped", "topic", r.pkt.Topic, "id", r.in.Transcript.ID, "dup", r.dup)
			batch[i].in = nil
			continue
		}
		b.dedup.deliver(r.in.Transcript, now) // a second copy in this batch is a duplicate
		keep = append(keep, i)
	}
	if len(keep) > 0 {
		ts := make([]nadine.Transcript, len(keep))
		for j, i := range keep {
			ts[j] = batch[i].in.Transcript
		}
		stored, ok := b.persist(ts)
		if !ok {
			return false
		}
		for j, i := range keep {
			if stored[j].Seq == 0 {
				b.log.Info("mqtt: duplicate transcript dropped", "topic", batch[i].pkt.Topic, "id", stored[j].ID, "dup", batch[i].dup, "kept", true)
				batch[i].in = nil
				continue
			}
			batch[i].in.Transcript = stored[j]
		}
	}
	for _, r := range batch {
		if r.in != nil {
			b.enqueue(*r.in, r.in.Kind == nadine.InboundTranscript && r.in.Transcript.Final)
		}
		r.ack(b.log)
	}
	return true
}

// persist retries until the bus closes: while the inbox fails nothing is
// acknowledged, and the broker keeps the messages.
func (b *Bus) persist(ts []nadine.Transcript) ([]nadine.Transcript, bool) {
	delay := backoff(b.opts.ReconnectMin, b.opts.ReconnectMax)
	for attempt := 0; ; attempt++ {
		select {
		case <-time.After(delay(attempt)):
		case <-b.quit:
			return nil, false
		}
		stored, err := b.opts.Persist(b.runCtx, ts)
		if err == nil && len(stored) == len(ts) {
			return stored, true
		}
		if err == nil {
			err = fmt.Errorf("kept %d of %d transcripts", len(stored), len(ts))
		}
		b.log.Error("mqtt: transcripts not kept; not acknowledged, retrying", "count", len(ts), "attempt", attempt+1, "err", err)
	}
}

// deliver does not record a transcript the full channel refused, so that sent
// again it is a turn.
func (b *Bus) deliver(r received) {
	if r.in == nil {
		return
	}
	if staleInterim(r) {
		return
	}
	now := b.opts.Now()
	final := r.in.Kind == nadine.InboundTranscript && r.in.Transcript.Final // interim ones are not deduplicated
	if final && b.dedup.seen(r.in.Transcript, r.dup, now) {
		b.log.Info("mqtt: duplicate transcript dropped", "topic", r.pkt.Topic, "id", r.in.Transcript.ID, "dup", r.dup)
		return
	}
	if b.enqueue(*r.in, false) && final {
		b.dedup.deliver(r.in.Transcript, now)
	}
}

// staleInterim: what the person was saying before a reconnection is no reason
// for an early turn now.
func staleInterim(r received) bool {
	return r.dup && r.in != nil && r.in.Kind == nadine.InboundTranscript && !r.in.Transcript.Final
}

// drop logs a malformed message: topic, reason and size, never the payload.
func (b *Bus) drop(topic, reason string, size int) {
	b.log.Warn("mqtt: malformed message dropped", "topic", topic, "reason", reason, "size", size)
}

// enqueue waits until the bus closes for a transcript kept in the inbox:
// dropping it loses nothing, but the runtime would not hear it before a restart.
func (b *Bus) enqueue(in nadine.Inbound, kept bool) bool {
	b.inMu.RLock()
	defer b.inMu.RUnlock()
	if b.inClosed {
		return false
	}
	select {
	case b.in <- in:
		return true
	default:
	}
	b.log.Warn("mqtt: inbound queue full; waiting for the consumer", "kind", in.Kind, "capacity", cap(b.in))
	if kept {
		select {
		case b.in <- in:
			return true
		case <-b.quit:
			return false
		}
	}
	t := time.NewTimer(b.opts.InboundTimeout)
	defer t.Stop()
	select {
	case b.in <- in:
		return true
	case <-b.quit:
		return false
	case <-t.C:
		b.log.Error("mqtt: inbound queue full; message dropped", "kind", in.Kind, "waited", b.opts.InboundTimeout)
		return false
	}
}

// pahoLogger sends paho's and autopaho's own logs to slog at debug.
type pahoLogger struct {
	log  *slog.Logger
	from string
}

func (l pahoLogger) Println(v ...any) {
	if !l.log.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	l.log.Debug(strings.TrimSpace(fmt.Sprintln(v...)), "from", l.from)
}

func (l pahoLogger) Printf(format string, v ...any) {
	if !l.log.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	l.log.Debug(strings.TrimSpace(fmt.Sprintf(format, v...)), "from", l.from)
}
