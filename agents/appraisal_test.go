package agents_test

import (
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
)

func TestParseAppraisal(t *testing.T) {
	tests := []struct {
		in        string
		want      nadine.Emotion
		intensity float64
		bad       bool
	}{
		{in: "joy 4", want: nadine.Joy, intensity: 0.4},
		{in: "Surprised 10", want: nadine.Surprise, intensity: 1},
		{in: " sadness 2.\n", want: nadine.Sadness, intensity: 0.2},
		{in: "anger 7/10", want: nadine.Anger, intensity: 0.7},
		{in: "neutral", want: nadine.Neutral, intensity: 0.5},
		{in: `{"emotion":"joy","intensity":0.4}`, want: nadine.Joy, intensity: 0.4},
		{in: `{"emotion": "fear", "intensity": 6}`, want: nadine.Fear, intensity: 0.6},
		{in: "joy lots", bad: true},
		{in: "joy 40", bad: true},
		{in: "euphoria 3", bad: true},
		{in: "happy!!! {emotion: joy", bad: true},
		{in: "I feel joy and some surprise", bad: true},
		{in: "", bad: true},
	}
	for _, tt := range tests {
		got, x, err := agents.ParseAppraisal(tt.in)
		if tt.bad {
			if err == nil || nadine.ErrorCode(err) != nadine.EBADOUTPUT {
				t.Errorf("ParseAppraisal(%q) = %s %v, %v; want a bad_output error", tt.in, got, x, err)
			}
			continue
		}
		if err != nil || got != tt.want || x < tt.intensity-1e-9 || x > tt.intensity+1e-9 {
			t.Errorf("ParseAppraisal(%q) = %s %v, %v; want %s %v", tt.in, got, x, err, tt.want, tt.intensity)
		}
	}
}
