package tools_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/tools"
)

func TestBehaviour(t *testing.T) {
	tests := []struct {
		in          string
		wantGesture nadine.Gesture
		wantSay     string
	}{
		{"smile", nadine.Smile, "Tell the human 'I am smiling now'."},
		{"Smile.", nadine.Smile, "Tell the human 'I am smiling now'."},
		{"please smile", nadine.Smile, "Tell the human 'I am smiling now'."},
		{`"SMILE"`, nadine.Smile, "Tell the human 'I am smiling now'."},
		{"anger", nadine.AngerFace, "Tell the human 'I am angry now'."},
		{"look angry", nadine.AngerFace, "Tell the human 'I am angry now'."},
		{"wave", nadine.Wave, "Tell the human 'I am waving at you now'."},
		{"Wave!", nadine.Wave, "Tell the human 'I am waving at you now'."},
		{"sourire", nadine.Smile, "Tell the human 'I am smiling now'."},
		{"winken", nadine.Wave, "Tell the human 'I am waving at you now'."},
		{"请微笑", nadine.Smile, "Tell the human 'I am smiling now'."},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var order []string
			rec := &recorder{log: &order}
			b := tools.NewBehaviour(tools.BehaviourConfig{Sleep: func(ctx context.Context, d time.Duration) error {
				order = append(order, "sleep:"+d.String())
				return nil
			}}, nil)
			got, err := b.Call(t.Context(), input(tt.in, nadine.English, rec))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.wantSay {
				t.Errorf("got %q, want %q", got, tt.wantSay)
			}
			evs := rec.all()
			if len(evs) != 1 || evs[0].Kind != nadine.EventGesture || evs[0].Gesture != tt.wantGesture {
				t.Errorf("events = %+v, want one %s gesture", evs, tt.wantGesture)
			}
			if want := "emit:gesture,sleep:2s"; strings.Join(order, ",") != want {
				t.Errorf("order = %v, want %s (gesture, then a 2 s wait)", order, want)
			}
		})
	}
}

func TestBehaviourUnknown(t *testing.T) {
	rec := &recorder{}
	slept := false
	b := tools.NewBehaviour(tools.BehaviourConfig{Sleep: func(context.Context, time.Duration) error { slept = true; return nil }}, nil)
	got, err := b.Call(t.Context(), input("dance", nadine.English, rec))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"smile", "anger", "wave"} {
		if !strings.Contains(got, want) {
			t.Errorf("observation %q does not list %q", got, want)
		}
	}
	if len(rec.all()) != 0 || slept {
		t.Errorf("unknown input emitted %v, slept %v", rec.all(), slept)
	}
}

func TestBehaviourWaitConfig(t *testing.T) {
	var waited []time.Duration
	sleep := func(_ context.Context, d time.Duration) error { waited = append(waited, d); return nil }
	b := tools.NewBehaviour(tools.BehaviourConfig{Wait: 500 * time.Millisecond, Sleep: sleep}, nil)
	if _, err := b.Call(t.Context(), input("wave", nadine.English, nil)); err != nil {
		t.Fatal(err)
	}
	b = tools.NewBehaviour(tools.BehaviourConfig{Wait: -1, Sleep: sleep}, nil)
	if _, err := b.Call(t.Context(), input("wave", nadine.English, nil)); err != nil {
		t.Fatal(err)
	}
	if len(waited) != 1 || waited[0] != 500*time.Millisecond {
		t.Errorf("waited %v, want [500ms] (a negative Wait does not wait)", waited)
	}
}

func TestBehaviourHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	b := tools.NewBehaviour(tools.BehaviourConfig{}, nil) // the real SleepContext
	_, err := b.Call(ctx, input("smile", nadine.English, nil))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestSleepContext(t *testing.T) {
	if err := tools.SleepContext(t.Context(), time.Millisecond); err != nil {
		t.Errorf("SleepContext = %v, want nil", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := tools.SleepContext(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("SleepContext on a canceled context = %v, want Canceled", err)
	}
}
