package mqtt_test

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/mqtt"
)

// burstSize is how many transcripts the burst tests flood the broker with.
const burstSize = 3000

// burst floods the broker with QoS 1 transcripts as fast as a client can
// publish (eight publications in flight at once) while perception keeps
// publishing beside them and two other clients talk to each other. Nadine
// reads nothing at first, so that the broker uses up her receive quota and
// queues the rest (where mochi-mqtt v2.7.9 deadlocked), then reads as fast
// as she can. Every transcript arrives, in publication order; perception
// and the other clients are served throughout; nadine still speaks after
// the burst.
func burst(t *testing.T, url string) {
	addr := hostPort(url)
	opts := testOptions(url, &logs{})
	opts.ClientID = "nadine-burst"
	opts.InboundTimeout = failsafe // nothing dropped for want of a reader
	b := connect(t, opts)
	stt := newPeer(t, addr)
	perception := newPeer(t, addr)
	other := newPeer(t, addr, "elsewhere/ping")
	otherPub := newPeer(t, addr)
	ctl := newPeer(t, addr, b.Topic(mqtt.TopicSpeak))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var (
		wg        sync.WaitGroup
		published atomic.Int64
		emotions  atomic.Int64
		pings     atomic.Int64
	)
	// Perception and two unrelated clients go on during the burst; each
	// publication waits for the broker's acknowledgment, so a frozen
	// broker fails them (Peer.Publish fails the test after Failsafe).
	wg.Go(func() {
		for ctx.Err() == nil {
			perception.Publish(b.Topic(mqtt.TopicUserEmotion), []byte("happy"))
			emotions.Add(1)
			time.Sleep(2 * time.Millisecond)
		}
	})
	wg.Go(func() {
		for ctx.Err() == nil {
			otherPub.Publish("elsewhere/ping", []byte("ping"))
			pings.Add(1)
			time.Sleep(2 * time.Millisecond)
		}
	})
	var pingsSeen atomic.Int64
	wg.Go(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-other.Msg:
				pingsSeen.Add(1)
			}
		}
	})

	// The flood: eight publishers share the numbers in order, so the
	// broker receives them nearly in order; what nadine must keep is the
	// order in which the broker received them, checked below per
	// publisher.
	const publishers = 8
	var counter atomic.Int64
	var flood sync.WaitGroup
	for p := range publishers {
		flood.Go(func() {
			for {
				i := counter.Add(1) - 1
				if i >= burstSize {
					return
				}
				stt.Publish(b.Topic(mqtt.TopicTranscript), fmt.Appendf(nil, `{"text":"burst %d","id":"%d-%d"}`, i, p, i))
				published.Add(1)
			}
		})
	}
	// Nadine reads nothing until the broker has had to queue for her.
	eventually(t, "a third of the burst published", func() bool { return published.Load() >= burstSize/3 })

	last := map[string]int{} // per publisher, the last number seen
	got, others := 0, 0
	deadline := time.Now().Add(3 * failsafe) // perception goes on: next alone never times out
	for got < burstSize {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d transcripts arrived (the broker dropped the rest?)", got, burstSize)
		}
		in := next(t, b)
		if in.Kind != nadine.InboundTranscript {
			others++
			continue
		}
		var p, i int
		if _, err := fmt.Sscanf(in.Transcript.ID, "%d-%d", &p, &i); err != nil {
			t.Fatalf("transcript id %q: %v", in.Transcript.ID, err)
		}
		key := strconv.Itoa(p)
		if prev, ok := last[key]; ok && i <= prev {
			t.Fatalf("publisher %d: transcript %d arrived after %d (out of order)", p, i, prev)
		}
		last[key] = i
		got++
	}
	flood.Wait()

	// After the burst: perception still flows, the other clients are still
	// served, and nadine speaks.
	before, seen := emotions.Load(), pingsSeen.Load()
	eventually(t, "perception to go on after the burst", func() bool { return emotions.Load() > before+5 })
	eventually(t, "the other clients to be served after the burst", func() bool { return pingsSeen.Load() > seen+5 })
	for {
		in := next(t, b)
		if in.Kind == nadine.InboundUserEmotion {
			break
		}
	}
	speakCtx, cancelSpeak := context.WithTimeout(context.Background(), failsafe)
	defer cancelSpeak()
	if err := b.Speak(speakCtx, nadine.Speech{Text: "Still here.", Language: nadine.English, TurnID: "after-burst"}); err != nil {
		t.Fatalf("Speak after the burst: %v", err)
	}
	if m := ctl.Next(); string(m.Payload) == "" {
		t.Fatal("control received an empty speech")
	}
	cancel()
	// Drain what perception sent meanwhile so that no publisher blocks.
	go func() {
		for range b.Inbound() {
		}
	}()
	wg.Wait()
	if others == 0 {
		t.Error("no perception message arrived during the burst")
	}
}

// TestBurst_Embedded floods the embedded broker (mochi-mqtt, patched: see
// third_party/mochi-server/README.md).
func TestBurst_Embedded(t *testing.T) {
	b := startBroker(t, "127.0.0.1:0")
	burst(t, b.URL())
}

// TestBurst_Mosquitto floods Mosquitto the same way (skipped when it is not
// installed; CI installs it).
func TestBurst_Mosquitto(t *testing.T) {
	m := mqtttest.StartMosquitto(t)
	burst(t, m.URL())
}
