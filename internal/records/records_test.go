package records

import (
	"errors"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
)

var t0 = time.Date(2026, 11, 30, 14, 3, 12, 0, time.UTC)

func now() time.Time { return t0 }

func TestMemory(t *testing.T) {
	tests := []struct {
		name     string
		userID   string
		m        nadine.Memory
		wantCode string
		wantMeta map[string]string
	}{
		{"defaults", "alice", nadine.Memory{Type: nadine.MemoryFact, ConversationID: "c1"}, "",
			map[string]string{"date": "2026-11-30", "time": "14:03:12", "timestamp": "1796047392", "conversation_id": "c1"}},
		{"given keys win", "alice", nadine.Memory{UserID: "alice", Type: nadine.MemoryEpisode, Time: t0.Add(time.Hour),
			Metadata: map[string]string{"date": "yesterday", "k": "v"}}, "",
			map[string]string{"date": "yesterday", "time": "15:03:12", "timestamp": "1796050992", "k": "v"}},
		{"no user", "", nadine.Memory{Type: nadine.MemoryFact}, nadine.EINVALID, nil},
		{"another user", "alice", nadine.Memory{UserID: "bob", Type: nadine.MemoryFact}, nadine.EINVALID, nil},
		{"unknown type", "alice", nadine.Memory{Type: "gossip"}, nadine.EINVALID, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			given := tt.m.Metadata
			m, err := Memory("store", "add memory", tt.userID, tt.m, now)
			if got := nadine.ErrorCode(err); got != tt.wantCode {
				t.Fatalf("error code %q (%v), want %q", got, err, tt.wantCode)
			}
			if err != nil {
				return
			}
			if m.UserID != tt.userID || m.Time.IsZero() || len(m.Metadata) != len(tt.wantMeta) {
				t.Errorf("Memory = %+v, want user %s, a time and metadata %v", m, tt.userID, tt.wantMeta)
			}
			for k, v := range tt.wantMeta {
				if m.Metadata[k] != v {
					t.Errorf("Metadata[%q] = %q, want %q", k, m.Metadata[k], v)
				}
			}
			if given != nil && len(given) != 2 {
				t.Errorf("the caller's metadata map was changed: %v", given)
			}
		})
	}
}

func TestUpdateProfile(t *testing.T) {
	p, err := UpdateProfile("alice", nadine.Profile{UserID: "x", UserName: "stale"}, false,
		func(p nadine.Profile, found bool) (nadine.Profile, error) {
			if found || p.UserName != "" || p.UserID != "alice" {
				t.Errorf("fn got %+v, %v; want an empty profile of alice, not found", p, found)
			}
			p.UserID, p.UserName = "mallory", "Alice"
			return p, nil
		}, now)
	if err != nil || p.UserID != "alice" || p.UserName != "Alice" || !p.LastUpdated.Equal(t0) {
		t.Errorf("UpdateProfile = %+v, %v; want alice named Alice, updated now", p, err)
	}
	boom := errors.New("boom")
	_, err = UpdateProfile("alice", nadine.Profile{}, true, func(p nadine.Profile, _ bool) (nadine.Profile, error) { return p, boom }, now)
	var fe *FnError
	if !errors.As(err, &fe) || !errors.Is(err, boom) {
		t.Errorf("UpdateProfile with a failing fn = %v, want a *FnError around boom", err)
	}
}

// TestNeedIDs: an empty user or conversation id is EINVALID, named with
// the store and the operation.
func TestNeedIDs(t *testing.T) {
	tests := []struct {
		user, conv, want string
	}{
		{"", "c1", "sqlite: append message: empty user id"},
		{"u1", "", "sqlite: append message: empty conversation id"},
		{"u1", "c1", ""},
	}
	for _, tt := range tests {
		err := NeedConversation("sqlite", "append message", tt.user, tt.conv)
		if tt.want == "" {
			if err != nil {
				t.Errorf("(%q, %q): %v", tt.user, tt.conv, err)
			}
			continue
		}
		if err == nil || err.Error() != tt.want || nadine.ErrorCode(err) != nadine.EINVALID {
			t.Errorf("(%q, %q) = %v, want EINVALID %q", tt.user, tt.conv, err, tt.want)
		}
	}
}
