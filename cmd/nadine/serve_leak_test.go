package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/internal/leaktest"
	"github.com/nadine-robot/nadine/internal/mqtttest"
)

// TestServeLeavesNoGoroutine runs `nadine serve` in-process with the ReAct
// engine over a scripted model server, the embedded broker and the
// monitor, works every path that starts goroutines (a heard turn, an early
// turn on an interim transcript that waits for its timer and is adopted,
// a streamed operator turn, a monitor's event stream left open, a client
// still in its MQTT handshake), stops it, and finds no goroutine of it
// left: every one was owned, cancelled and waited for.
func TestServeLeavesNoGoroutine(t *testing.T) {
	srv := preemptModel(t) // started before the snapshot: the test's, not serve's
	before := leaktest.Take()

	p := startServe(t, map[string]string{"NADINE_CONFIG": exhibitionConfig(t, "react", srv.URL())})
	defer func() {
		if t.Failed() {
			t.Log(p.stderr.String())
		}
	}()
	addr := mqtttest.HostPort(p.mqttURL)
	robot := &robotSide{finals: map[string]bool{}}
	tts, lang := mqtttest.NewPeer(t, addr, "nadine/agent/control/speak"), mqtttest.NewPeer(t, addr, "nadine/stt/language")
	robot.collect(tts, lang)
	stt := mqtttest.NewPeer(t, addr)
	transport := &http.Transport{}
	client := &http.Client{Transport: transport}

	// A monitor watching the events, its stream open until the shutdown.
	events, err := client.Get(p.monitor + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	defer events.Body.Close()
	streamEnded := make(chan struct{})
	go func() { // the test's: it ends when serve ends the stream
		defer close(streamEnded)
		_, _ = io.Copy(io.Discard, events.Body)
	}()

	// A heard turn.
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"What is the weather like?","language":"en","final":true,"id":"leak-1"}`))
	mqtttest.Eventually(t, "the reply to the heard transcript", func() bool { return robot.final("leak-1") })
	// An early turn started by the interim's timer (the same words twice,
	// not marked stable), then adopted by the final.
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"what do you like to do","language":"en","final":false}`))
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"what do you like to do","language":"en","final":false}`))
	mqtttest.Eventually(t, "the early turn to ask the model", func() bool { return asked(srv, "react_agent", "what do you like to do") > 0 })
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"What do you like to do?","language":"en","final":true,"id":"leak-2"}`))
	mqtttest.Eventually(t, "the reply to the final transcript", func() bool { return robot.final("leak-2") })
	// A streamed operator turn, read to its end.
	resp, err := client.Post(p.monitor+"/api/turns?stream=1", "application/json", strings.NewReader(`{"text":"Tell me about the lake."}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "event: reply") {
		t.Errorf("streamed turn: %d %s", resp.StatusCode, body)
	}
	// A perception process stuck in its handshake: connected, silent.
	stuck, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer stuck.Close()

	if err := p.stop(); err != nil {
		t.Errorf("serve: %v", err)
	}
	// The test's own goroutines end: its peers, its HTTP connections, the
	// event stream's reader (serve ended the stream), the silent client's
	// connection (serve closed its side).
	<-streamEnded
	for _, peer := range []*mqtttest.Peer{tts, lang, stt} {
		peer.Close()
	}
	transport.CloseIdleConnections()
	if _, err := bufio.NewReader(stuck).ReadByte(); err == nil {
		t.Error("the broker sent a byte to a client that never connected")
	}
	leaktest.Check(t, before, mqtttest.Failsafe/4)
}
