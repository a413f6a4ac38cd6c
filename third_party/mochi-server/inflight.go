// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2023 mochi-mqtt, mochi-co
// SPDX-FileContributor: mochi-co

package mqtt

import (
	"sort"
	"sync"
	"sync/atomic"

	"github.com/mochi-mqtt/server/v2/packets"
)

// Inflight is a map of InflightMessage keyed on packet id.
type Inflight struct {
	sync.RWMutex
	internal            map[uint16]packets.Packet // internal contains the inflight packets
	receiveQuota        int32                     // remaining inbound qos quota for flow control
	sendQuota           int32                     // remaining outbound qos quota for flow control
	maximumReceiveQuota int32                     // maximum allowed receive quota
	maximumSendQuota    int32                     // maximum allowed send quota
	order               map[uint16]uint64         // nadine patch: insertion order of each packet, to keep FIFO order within a second
	last                uint64                    // nadine patch: the last order given
	waiting             int                       // nadine patch: packets waiting for send quota (Expiry < 0)
	bytes               int64                     // nadine patch: the payload bytes the packets hold
	waitq               []waitEntry               // nadine patch: the packets waiting for send quota, in the order they came
}

// waitEntry is a packet waiting for send quota (nadine patch): its id, and
// its insertion order, which tells it from a later packet with the same id.
type waitEntry struct {
	id  uint16
	ord uint64
}

// NewInflights returns a new instance of an Inflight packets map.
func NewInflights() *Inflight {
	return &Inflight{
		internal: map[uint16]packets.Packet{},
		order:    map[uint16]uint64{},
	}
}

// Set adds or updates an inflight packet by packet id.
func (i *Inflight) Set(m packets.Packet) bool {
	i.Lock()
	defer i.Unlock()

	old, ok := i.internal[m.PacketID]
	if ok && old.Expiry < 0 {
		i.waiting--
	}
	if ok {
		i.bytes -= int64(len(old.Payload))
	}
	i.bytes += int64(len(m.Payload))
	if !ok {
		i.last++
		i.order[m.PacketID] = i.last
	}
	if m.Expiry < 0 {
		i.waiting++
		if !ok || old.Expiry >= 0 {
			i.waitq = append(i.waitq, waitEntry{m.PacketID, i.order[m.PacketID]})
		}
	}
	i.internal[m.PacketID] = m
	return !ok
}

// Waiting returns how many packets wait for send quota (nadine patch): a
// new packet must wait behind them, or it would overtake them.
func (i *Inflight) Waiting() int {
	i.RLock()
	defer i.RUnlock()
	return i.waiting
}

// Bytes returns the payload bytes the packets hold (nadine patch), which
// Capabilities.MaximumClientQueuedBytes bounds.
func (i *Inflight) Bytes() int64 {
	i.RLock()
	defer i.RUnlock()
	return i.bytes
}

// before reports whether a comes before b: by creation time, then by
// insertion order (nadine patch; the creation time is in seconds).
func (i *Inflight) before(a, b packets.Packet) bool {
	if a.Created != b.Created {
		return a.Created < b.Created
	}
	return i.order[a.PacketID] < i.order[b.PacketID]
}

// Get returns an inflight packet by packet id.
func (i *Inflight) Get(id uint16) (packets.Packet, bool) {
	i.RLock()
	defer i.RUnlock()

	if m, ok := i.internal[id]; ok {
		return m, true
	}

	return packets.Packet{}, false
}

// Len returns the size of the inflight messages map.
func (i *Inflight) Len() int {
	i.RLock()
	defer i.RUnlock()
	return len(i.internal)
}

// Clone returns a new instance of Inflight with the same message data.
// This is used when transferring inflights from a taken-over session.
func (i *Inflight) Clone() *Inflight {
	c := NewInflights()
	i.RLock()
	defer i.RUnlock()
	for k, v := range i.internal {
		c.internal[k] = v
	}
	for k, v := range i.order {
		c.order[k] = v
	}
	c.last, c.waiting, c.bytes = i.last, i.waiting, i.bytes
	c.waitq = append([]waitEntry(nil), i.waitq...)
	return c
}

// GetAll returns all the inflight messages.
func (i *Inflight) GetAll(immediate bool) []packets.Packet {
	i.RLock()
	defer i.RUnlock()

	m := []packets.Packet{}
	for _, v := range i.internal {
		if !immediate || (immediate && v.Expiry < 0) {
			m = append(m, v)
		}
	}

	// nadine patch: the whole creation time, then the insertion order, so
	// that packets created within one second keep their order.
	sort.Slice(m, func(a, b int) bool { return i.before(m[a], m[b]) })

	return m
}

// NextImmediate returns the next inflight packet which is indicated to be sent immediately.
// This typically occurs when the quota has been exhausted, and we need to wait until new quota
// is free to continue sending.
func (i *Inflight) NextImmediate() (packets.Packet, bool) {
	i.Lock()
	defer i.Unlock()

	// nadine patch: this used to call GetAll, which read-locks again: with
	// a writer waiting in between (publishToClient's Set), Go's RWMutex
	// deadlocks; and it sorted every packet in flight at each call, which
	// a burst of thousands made quadratic. The waiting packets are a queue
	// in the order they came; those sent or deleted since leave it here.
	for len(i.waitq) > 0 {
		e := i.waitq[0]
		if v, ok := i.internal[e.id]; ok && v.Expiry < 0 && i.order[e.id] == e.ord {
			return v, true
		}
		i.waitq = i.waitq[1:]
	}

	return packets.Packet{}, false
}

// Delete removes an in-flight message from the map. Returns true if the message existed.
func (i *Inflight) Delete(id uint16) bool {
	i.Lock()
	defer i.Unlock()

	old, ok := i.internal[id]
	if ok && old.Expiry < 0 {
		i.waiting--
	}
	if ok {
		i.bytes -= int64(len(old.Payload))
	}
	delete(i.internal, id)
	delete(i.order, id)

	return ok
}

// TakeRecieveQuota reduces the receive quota by 1.
func (i *Inflight) DecreaseReceiveQuota() {
	if atomic.LoadInt32(&i.receiveQuota) > 0 {
		atomic.AddInt32(&i.receiveQuota, -1)
	}
}

// TakeRecieveQuota increases the receive quota by 1.
func (i *Inflight) IncreaseReceiveQuota() {
	if atomic.LoadInt32(&i.receiveQuota) < atomic.LoadInt32(&i.maximumReceiveQuota) {
		atomic.AddInt32(&i.receiveQuota, 1)
	}
}

// ResetReceiveQuota resets the receive quota to the maximum allowed value.
func (i *Inflight) ResetReceiveQuota(n int32) {
	atomic.StoreInt32(&i.receiveQuota, n)
	atomic.StoreInt32(&i.maximumReceiveQuota, n)
}

// DecreaseSendQuota reduces the send quota by 1.
func (i *Inflight) DecreaseSendQuota() {
	if atomic.LoadInt32(&i.sendQuota) > 0 {
		atomic.AddInt32(&i.sendQuota, -1)
	}
}

// IncreaseSendQuota increases the send quota by 1.
func (i *Inflight) IncreaseSendQuota() {
	if atomic.LoadInt32(&i.sendQuota) < atomic.LoadInt32(&i.maximumSendQuota) {
		atomic.AddInt32(&i.sendQuota, 1)
	}
}

// ResetSendQuota resets the send quota to the maximum allowed value.
func (i *Inflight) ResetSendQuota(n int32) {
	atomic.StoreInt32(&i.sendQuota, n)
	atomic.StoreInt32(&i.maximumSendQuota, n)
}
