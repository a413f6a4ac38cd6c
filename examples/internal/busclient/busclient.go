// Package busclient is the small MQTT 5 client the integration examples
// share: connect to nadine's broker, subscribe, publish at QoS 1, with the
// topic prefix that lets several robots share a broker.
package busclient

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
)

// Topics of nadine's MQTT contract, relative to the prefix
// (docs/asyncapi.yaml).
const (
	TopicSpeak        = "agent/control/speak"
	TopicStartSpeak   = "agent/feedback/start_speak"
	TopicEndSpeak     = "agent/feedback/end_speak"
	TopicSpoken       = "agent/feedback/spoken"
	TopicStop         = "agent/control/stop"
	TopicUserDetected = "graph/user_detected"
	TopicUserEmotion  = "user/emotion"
	TopicUserLeft     = "user/left"
	TopicTranscript   = "stt/transcript"
	TopicSpeechStart  = "stt/speech_started"
)

// Main runs an example's program until SIGINT or SIGTERM and exits 1 with
// its error, if any (a cancelled context or -help is no error).
func Main(name string, run func(ctx context.Context, args []string, stderr io.Writer) error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stderr)
	stop()
	if err != nil && !errors.Is(err, flag.ErrHelp) && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}

// Flags returns an example's flag set with the broker's flags: --url and
// --prefix.
func Flags(name string, stderr io.Writer) (fs *flag.FlagSet, url, prefix *string) {
	fs = flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	url = fs.String("url", "mqtt://127.0.0.1:1883", "nadine's MQTT broker")
	prefix = fs.String("prefix", "nadine", "topic prefix (nadine's mqtt.prefix)")
	return fs, url, prefix
}

// Client is a connection to the broker.
type Client struct {
	cm     *autopaho.ConnectionManager
	prefix string
}

// Handler receives each message on the subscribed topics (full topic names).
type Handler func(topic string, payload []byte)

// Connect subscribes h to topics under prefix; h runs in order on paho's
// goroutine. It returns once the first connection is up.
func Connect(ctx context.Context, rawURL, prefix, clientID string, topics []string, h Handler) (*Client, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("busclient: broker URL %q: want mqtt://host:port", rawURL)
	}
	c := &Client{prefix: strings.TrimSuffix(prefix, "/") + "/"}
	var subs []paho.SubscribeOptions
	for _, t := range topics {
		subs = append(subs, paho.SubscribeOptions{Topic: c.Topic(t), QoS: 1})
	}
	// Connect returns once the first subscription is in place, so that
	// nothing published after it is missed; reconnections subscribe again.
	subscribed := make(chan struct{})
	var once sync.Once
	cfg := autopaho.ClientConfig{
		ServerUrls:                    []*url.URL{u},
		KeepAlive:                     20,
		CleanStartOnInitialConnection: true,
		SessionExpiryInterval:         0,
		ReconnectBackoff:              autopaho.NewConstantBackoff(time.Second),
		OnConnectionUp: func(cm *autopaho.ConnectionManager, _ *paho.Connack) {
			if len(subs) > 0 {
				if _, err := cm.Subscribe(ctx, &paho.Subscribe{Subscriptions: subs}); err != nil {
					fmt.Fprintf(os.Stderr, "busclient: subscribe: %v\n", err)
					return
				}
			}
			once.Do(func() { close(subscribed) })
		},
		ClientConfig: paho.ClientConfig{
			ClientID: clientID,
			OnPublishReceived: []func(paho.PublishReceived) (bool, error){
				func(pr paho.PublishReceived) (bool, error) {
					if h != nil {
						h(pr.Packet.Topic, pr.Packet.Payload)
					}
					return true, nil
				},
			},
		},
	}
	cm, err := autopaho.NewConnection(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("busclient: connect: %w", err)
	}
	select {
	case <-subscribed:
	case <-ctx.Done():
		return nil, fmt.Errorf("busclient: connect to %s: %w", rawURL, ctx.Err())
	}
	c.cm = cm
	return c, nil
}

// Topic is the full name of a topic relative to the prefix.
func (c *Client) Topic(rel string) string { return c.prefix + rel }

// Publish publishes payload on a topic relative to the prefix at QoS 1 and
// waits for the broker's acknowledgment.
func (c *Client) Publish(ctx context.Context, rel string, payload []byte) error {
	_, err := c.cm.Publish(ctx, &paho.Publish{Topic: c.Topic(rel), QoS: 1, Payload: payload})
	if err != nil {
		return fmt.Errorf("busclient: publish %s: %w", c.Topic(rel), err)
	}
	return nil
}

// Close disconnects cleanly.
func (c *Client) Close(ctx context.Context) error {
	return c.cm.Disconnect(ctx)
}
