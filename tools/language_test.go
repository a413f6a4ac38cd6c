package tools_test

import (
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/tools"
)

func TestLanguageSwitcher(t *testing.T) {
	tests := []struct {
		in       string
		wantLang nadine.Language // "" means unsupported
		wantSay  string
	}{
		{"French", nadine.French, "Tell the human 'À partir de maintenant, je vais parler français.'"},
		{"speak german please", nadine.German, "Tell the human 'Ab jetzt spreche ich Deutsch.'"},
		{"中文", nadine.Chinese, "Tell the human '从现在开始，我会说中文。'"},
		{"English.", nadine.English, "Tell the human 'From now on I will speak English.'"},
		{"Deutsch", nadine.German, "Ab jetzt spreche ich Deutsch."},
		{"Klingon", "", `"Klingon" is not a language you speak`},
		{"", "", "you speak English, French, German and Chinese"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			rec := &recorder{}
			got, err := tools.NewLanguageSwitcher(nil).Call(t.Context(), input(tt.in, nadine.English, rec))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got, tt.wantSay) {
				t.Errorf("got %q, want it to contain %q", got, tt.wantSay)
			}
			evs := rec.all()
			if tt.wantLang == "" {
				if len(evs) != 0 {
					t.Errorf("unsupported language emitted %+v", evs)
				}
				if !strings.Contains(got, "English, French, German and Chinese") {
					t.Errorf("got %q, want the supported languages listed", got)
				}
				return
			}
			if len(evs) != 1 || evs[0].Kind != nadine.EventLanguage || evs[0].Language != tt.wantLang {
				t.Errorf("events = %+v, want one switch to %s", evs, tt.wantLang)
			}
		})
	}
}
