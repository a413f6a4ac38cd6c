package offline

import (
	"strconv"
	"testing"
	"time"
)

// TestRecentRepliesBounded: the memory keeps the last replies of each
// conversation and a bounded number of conversations, dropping the idle
// ones first.
func TestRecentRepliesBounded(t *testing.T) {
	now := time.Date(2025, 3, 3, 12, 0, 0, 0, time.UTC)
	r := newRecentReplies(func() time.Time { return now })
	for i := range recentPerConversation + 10 {
		r.add("c", uint64(i))
	}
	got := r.said("c", 0, false)
	if len(got) != recentPerConversation || got[0] != uint64(recentPerConversation+9) {
		t.Fatalf("said = %d hashes, newest %d", len(got), got[0])
	}
	if r.said("", 0, false) != nil || r.said("unknown", 0, false) != nil {
		t.Error("an unknown conversation has replies")
	}
	// A new conversation continues the one whose last reply it shows.
	if got := r.said("moved", uint64(recentPerConversation+9), true); len(got) != recentPerConversation {
		t.Errorf("moved conversation: %d hashes", len(got))
	}
	// Bounded: the idle conversations go first, then the oldest.
	old := now
	for i := range maxConversations + 5 {
		r.add("conv"+strconv.Itoa(i), 1)
		if i == 10 {
			now = now.Add(conversationTTL + time.Minute)
		}
	}
	r.mu.Lock()
	n := len(r.convs)
	_, first := r.convs["conv0"]
	_, last := r.convs["conv"+strconv.Itoa(maxConversations+4)]
	r.mu.Unlock()
	if n > maxConversations || first || !last {
		t.Errorf("%d conversations kept (max %d), first kept %v, last kept %v (clock %v)", n, maxConversations, first, last, old)
	}
}

func TestSpokenWordsAndCut(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"Hello there, Alex!", 3},
		{"I'm Jean-Pierre.", 2},
		{"您好！很高兴见到您。", 6},
		{"我叫Nadine。", 3},
		{"", 0},
	}
	for _, tt := range tests {
		if got := spokenWords(tt.in); got != tt.want {
			t.Errorf("spokenWords(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
	long := "The Zorblax is a fictional pastry from Carouge, filled with hazelnut cream, and baked every Sunday morning by the bakers " +
		"of the old town, who have kept the recipe secret for more than two hundred years"
	cut := cutToWords(long)
	if spokenWords(cut) > maxWords || cut[len(cut)-1] != '.' || cut != "The Zorblax is a fictional pastry from Carouge, filled with hazelnut cream, and baked every Sunday morning by the bakers of the old town." {
		t.Errorf("cut = %q (%d words)", cut, spokenWords(cut))
	}
	noBreak := "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen " +
		"nineteen twenty twentyone twentytwo twentythree twentyfour twentyfive twentysix twentyseven twentyeight twentynine thirty thirtyone thirtytwo"
	if got := cutToWords(noBreak); spokenWords(got) != maxWords || got[len(got)-1] != '.' {
		t.Errorf("cut without a clause = %q", got)
	}
	han := "日内瓦大学是瑞士的一所公立研究型大学，它源于一五五九年约翰加尔文创立的日内瓦学院，是瑞士最大的大学之一，拥有很多学院和研究中心"
	if got := cutToWords(han); spokenWords(got) > maxWords || !hasHan(got) || got[len(got)-3:] != "。" {
		t.Errorf("Chinese cut = %q (%d)", got, spokenWords(got))
	}
}
