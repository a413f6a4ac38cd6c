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
		// A readable emotion is never refused over its intensity: a
		// missing or unreadable one is 0.5, one out of range is clamped.
		{in: "joy lots", want: nadine.Joy, intensity: 0.5},
		{in: "joy 40", want: nadine.Joy, intensity: 1},
		{in: "euphoria 3", want: nadine.Joy, intensity: 0.3},
		{in: "happy!!! {emotion: joy", want: nadine.Joy, intensity: 0.5},
		{in: "I feel joy and some surprise", want: nadine.Joy, intensity: 0.5},
		{in: "The message makes Nadine feel happy, about 6 out of 10.", want: nadine.Joy, intensity: 0.6},
		{in: `{"Emotion": "Angry", "Intensity": "8"}`, want: nadine.Anger, intensity: 0.8},
		{in: `{"label": "surprise", "score": 0.3}`, want: nadine.Surprise, intensity: 0.3},
		{in: "<think>A compliment.</think>\njoy 6", want: nadine.Joy, intensity: 0.6},
		{in: "purple 3", bad: true},
		{in: `{"emotion": "purple", "intensity": 3}`, bad: true},
		{in: "It is hard to say.", bad: true},
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
