package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/internal/syncbuf"

	"github.com/eclipse/paho.golang/paho"

	"github.com/nadine-robot/nadine/internal/mqtttest"
)

// servedProcess is `nadine serve` running in-process.
type servedProcess struct {
	mqttURL, monitor string
	stderr           *syncbuf.Buffer
	stop             func() error
}

// startServe runs `nadine serve` in-process with vars (free ports unless
// given) and waits for its banner.
func startServe(t *testing.T, vars map[string]string) *servedProcess {
	t.Helper()
	all := map[string]string{"HOME": t.TempDir(), "NADINE_MQTT_LISTEN": "127.0.0.1:0", "NADINE_HTTP_ADDR": "127.0.0.1:0"}
	for k, v := range vars {
		all[k] = v
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &servedProcess{stderr: &syncbuf.Buffer{}}
	e := env{stdin: strings.NewReader(""), stdout: p.stderr, stderr: p.stderr, getenv: envMap(all)}
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"serve"}, e) }()
	var once bool
	p.stop = func() error {
		if once {
			return nil
		}
		once = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(mqtttest.Failsafe):
			t.Fatal("serve did not stop")
			return nil
		}
	}
	t.Cleanup(func() { _ = p.stop() })
	mqtttest.Eventually(t, "serve to start", func() bool {
		s := p.stderr.String()
		if m := regexp.MustCompile(`MQTT: (mqtt://\S+)`).FindStringSubmatch(s); m != nil {
			p.mqttURL = m[1]
		}
		if m := regexp.MustCompile(`Monitor: (http://\S+)`).FindStringSubmatch(s); m != nil {
			p.monitor = m[1]
		}
		select {
		case err := <-done:
			t.Fatalf("serve stopped: %v\n%s", err, s)
		default:
		}
		return p.mqttURL != "" && (p.monitor != "" || all["NADINE_HTTP_ADDR"] == "off")
	})
	return p
}

var peerIDs int

// dialAs connects a plain MQTT 5 client with a user name and password.
func dialAs(t *testing.T, addr, user, password string) (*paho.Client, chan *paho.Publish, error) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	msgs := make(chan *paho.Publish, 64)
	cli := paho.NewClient(paho.ClientConfig{Conn: conn, OnPublishReceived: []func(paho.PublishReceived) (bool, error){
		func(pr paho.PublishReceived) (bool, error) { msgs <- pr.Packet; return true, nil }}})
	ctx, cancel := context.WithTimeout(context.Background(), mqtttest.Failsafe)
	defer cancel()
	peerIDs++
	c := &paho.Connect{ClientID: fmt.Sprintf("peer-%s-%d", user, peerIDs), CleanStart: true, KeepAlive: 30}
	if user != "" {
		c.UsernameFlag, c.Username, c.PasswordFlag, c.Password = true, user, true, []byte(password)
	}
	if _, err := cli.Connect(ctx, c); err != nil {
		conn.Close()
		return nil, nil, err
	}
	t.Cleanup(func() { _ = cli.Disconnect(&paho.Disconnect{}) })
	return cli, msgs, nil
}

// TestServeBrokerUsers: with mqtt.broker_users the embedded broker refuses
// clients without the right password, while nadine itself and the
// configured perception and control processes talk as before.
func TestServeBrokerUsers(t *testing.T) {
	p := startServe(t, map[string]string{
		"NADINE_MQTT_BROKER_USERS": "robot", "NADINE_MQTT_PASSWORD_ROBOT": "r0bot-pass", "NADINE_HTTP_ADDR": "off"})
	addr := mqtttest.HostPort(p.mqttURL)
	for _, c := range [][2]string{{"", ""}, {"robot", "guess"}, {"intruder", "r0bot-pass"}} {
		if _, _, err := dialAs(t, addr, c[0], c[1]); err == nil {
			t.Errorf("user %q with password %q connected", c[0], c[1])
		}
	}
	cli, msgs, err := dialAs(t, addr, "robot", "r0bot-pass")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), mqtttest.Failsafe)
	defer cancel()
	if _, err := cli.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: "nadine/agent/control/speak", QoS: 1}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := cli.Publish(ctx, &paho.Publish{Topic: "nadine/stt/transcript", QoS: 1,
		Payload: []byte(`{"text":"Hello Nadine","language":"en","id":"auth-1"}`)}); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-msgs:
		var s struct{ Text, TurnID string }
		if json.Unmarshal(m.Payload, &s) != nil || !strings.Contains(s.Text, "Hello") {
			t.Errorf("spoken: %s", m.Payload)
		}
	case <-time.After(mqtttest.Failsafe):
		t.Fatalf("no reply\n%s", p.stderr.String())
	}
	if err := p.stop(); err != nil {
		t.Fatal(err)
	}
	if logs := p.stderr.String(); strings.Contains(logs, "r0bot-pass") || strings.Contains(logs, "without users") {
		t.Errorf("logs show the password or warn wrongly:\n%s", logs)
	}
}

// TestServeRefusesAnOpenBroker: an embedded broker off the loopback
// interface without users does not start: serve refuses the configuration,
// naming the field.
func TestServeRefusesAnOpenBroker(t *testing.T) {
	var out syncbuf.Buffer
	e := env{stdin: strings.NewReader(""), stdout: &out, stderr: &out,
		getenv: envMap(map[string]string{"HOME": t.TempDir(), "NADINE_MQTT_LISTEN": "0.0.0.0:0", "NADINE_HTTP_ADDR": "off"})}
	err := run(context.Background(), []string{"serve"}, e)
	if err == nil || !strings.Contains(err.Error(), "mqtt.listen") || !strings.Contains(err.Error(), "mqtt.broker_users") {
		t.Errorf("serve with an open broker: %v\n%s", err, out.String())
	}
}
