package agents

import (
	"slices"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
)

func TestMergeProfile(t *testing.T) {
	old := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	base := nadine.Profile{UserID: "alex-1", UserName: "Alex", CurrentCompany: "EPFL", Hobbies: []string{"Skiing"}, LastUpdated: old}
	tests := []struct {
		name        string
		ex          Extraction
		wantCompany string
		wantHobbies []string
		wantChanged []string
		wantTime    time.Time
	}{
		{"nothing new", Extraction{CurrentCompany: " EPFL ", Hobbies: []string{"skiing", " "}}, "EPFL", []string{"Skiing"}, nil, old},
		{"new company", Extraction{CurrentCompany: "CERN"}, "CERN", []string{"Skiing"}, []string{"current_company"}, now},
		{"hobbies deduplicated", Extraction{Hobbies: []string{"SKIING", "chess", "Chess"}}, "EPFL", []string{"Skiing", "chess"}, []string{"hobbies"}, now},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, changed := mergeProfile(base, tt.ex, now)
			if got.CurrentCompany != tt.wantCompany || !slices.Equal(got.Hobbies, tt.wantHobbies) ||
				!slices.Equal(changed, tt.wantChanged) || !got.LastUpdated.Equal(tt.wantTime) {
				t.Errorf("got %+v changed %v", got, changed)
			}
			if len(base.Hobbies) != 1 {
				t.Fatalf("the stored profile was modified in place")
			}
		})
	}
}
