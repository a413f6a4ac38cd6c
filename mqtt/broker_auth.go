package mqtt

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// passwordHook compares in constant time; a connected client may use every
// topic (no ACL).
type passwordHook struct {
	mochi.HookBase
	users map[string][sha256.Size]byte // user name → hash of the password
}

func newPasswordHook(users map[string]string) *passwordHook {
	h := &passwordHook{users: make(map[string][sha256.Size]byte, len(users))}
	for u, p := range users {
		h.users[u] = sha256.Sum256([]byte(p))
	}
	return h
}

// ID implements mochi.Hook.
func (h *passwordHook) ID() string { return "nadine-password-auth" }

// Provides implements mochi.Hook.
func (h *passwordHook) Provides(b byte) bool {
	return bytes.Contains([]byte{mochi.OnConnectAuthenticate, mochi.OnACLCheck}, []byte{b})
}

// OnConnectAuthenticate accepts a known user with the right password.
func (h *passwordHook) OnConnectAuthenticate(cl *mochi.Client, pk packets.Packet) bool {
	want, ok := h.users[string(pk.Connect.Username)]
	got := sha256.Sum256(pk.Connect.Password)
	match := subtle.ConstantTimeCompare(want[:], got[:]) == 1
	if !ok || !match {
		h.Log.Warn("mqtt: broker refused a client: unknown user or wrong password",
			"client_id", cl.ID, "username", string(pk.Connect.Username), "remote", cl.Net.Remote)
		return false
	}
	return true
}

// OnACLCheck lets an authenticated client use every topic.
func (h *passwordHook) OnACLCheck(*mochi.Client, string, bool) bool { return true }
