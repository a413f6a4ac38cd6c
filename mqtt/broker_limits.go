package mqtt

import (
	"bytes"
	"strings"
	"sync"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// retainLimits recounts from the store before refusing, so it refuses only on
// what is there.
type retainLimits struct {
	mochi.HookBase
	srv               *mochi.Server
	maxCount, maxSize int

	mu    sync.Mutex
	sizes map[string]int // topic → bytes held (topic and payload)
	total int
}

func newRetainLimits(srv *mochi.Server, count, size int) *retainLimits {
	return &retainLimits{srv: srv, maxCount: count, maxSize: size, sizes: map[string]int{}}
}

// ID implements mochi.Hook.
func (h *retainLimits) ID() string { return "nadine-retain-limits" }

// Provides implements mochi.Hook.
func (h *retainLimits) Provides(b byte) bool {
	return bytes.Contains([]byte{mochi.OnPublish, mochi.OnWill, mochi.OnRetainedExpired}, []byte{b})
}

// OnPublish refuses a retained message that does not fit: MQTT 5 QoS 1/2
// publishers get PUBACK 0x97; others lose it silently (3.1.1 cannot say no).
func (h *retainLimits) OnPublish(cl *mochi.Client, pk packets.Packet) (packets.Packet, error) {
	if !pk.FixedHeader.Retain || h.take(pk.TopicName, len(pk.Payload)) {
		return pk, nil
	}
	h.Log.Warn("mqtt: broker refused a retained message: the retained messages are at their limit",
		"client_id", cl.ID, "topic", pk.TopicName, "size", len(pk.Payload), "max_retained", h.maxCount, "max_retained_bytes", h.maxSize)
	if cl.Properties.ProtocolVersion == 5 && pk.FixedHeader.Qos > 0 {
		return pk, packets.ErrQuotaExceeded
	}
	return pk, packets.CodeSuccessIgnore
}

// OnWill keeps a client's will within the limits too: a will that does
// not fit is published, not retained.
func (h *retainLimits) OnWill(cl *mochi.Client, will mochi.Will) (mochi.Will, error) {
	if will.Retain && !h.take(will.TopicName, len(will.Payload)) {
		h.Log.Warn("mqtt: broker will not retain a will: the retained messages are at their limit",
			"client_id", cl.ID, "topic", will.TopicName, "size", len(will.Payload))
		will.Retain = false
	}
	return will, nil
}

// OnRetainedExpired forgets a retained message the broker dropped.
func (h *retainLimits) OnRetainedExpired(topic string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.total -= h.sizes[topic]
	delete(h.sizes, topic)
}

// take counts a retained message of payload bytes on topic (an empty one
// clears the topic) and reports whether it fits.
func (h *retainLimits) take(topic string, payload int) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if payload == 0 {
		h.total -= h.sizes[topic]
		delete(h.sizes, topic)
		return true
	}
	size := len(topic) + payload
	if !h.fits(topic, size) {
		h.recount()
		if !h.fits(topic, size) {
			return false
		}
	}
	h.total += size - h.sizes[topic]
	h.sizes[topic] = size
	return true
}

// fits reports whether size bytes on topic, replacing what it holds,
// stay within the limits (h.mu is held).
func (h *retainLimits) fits(topic string, size int) bool {
	count := len(h.sizes)
	if _, ok := h.sizes[topic]; !ok {
		count++
	}
	return count <= h.maxCount && h.total-h.sizes[topic]+size <= h.maxSize
}

// recount counts the retained messages from the broker's store, leaving
// out its own ($SYS) topics (h.mu is held).
func (h *retainLimits) recount() {
	h.sizes, h.total = map[string]int{}, 0
	for topic, pk := range h.srv.Topics.Retained.GetAll() {
		if strings.HasPrefix(topic, "$") {
			continue
		}
		size := len(topic) + len(pk.Payload)
		h.sizes[topic] = size
		h.total += size
	}
}

// held counts again from the broker's store.
func (h *retainLimits) held() (count, size int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.recount()
	return len(h.sizes), h.total
}
