package bargein_test

import (
	"testing"

	"github.com/nadine-robot/nadine/bargein"
)

// TestSounds: what speech-to-text writes for a sound, in its forms and four
// languages, holds no word; a word beside an annotation is speech.
func TestSounds(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"[BLANK_AUDIO]", true},
		{"(upbeat music)", true},
		{"[MUSIC PLAYING]", true},
		{"♪♪♪", true},
		{"...", true},
		{"*coughs*", true},
		{"[Musik]", true},
		{"(applaudissements)", true},
		{"（掌声）", true},
		{"【音乐】", true},
		{"(Sous-titres réalisés par la communauté d'Amara.org)", true},
		{"[laughter] ♪ [applause]", true},
		{"(laughs) Wait, stop!", false},
		{"Hello Nadine", false},
		{"1990", false},
		{"你好", false},
		{"C'est (vraiment) beau", false},
	} {
		if got := bargein.Sounds(tc.in); got != tc.want {
			t.Errorf("Sounds(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestSoundsNeverInterrupt: a sound heard while Nadine speaks stops nothing
// however speech-to-text writes it; a command beside a sound still does.
func TestSoundsNeverInterrupt(t *testing.T) {
	j, err := bargein.New(0)
	if err != nil {
		t.Fatal(err)
	}
	saying := "I was built at MIRALab in Geneva and I love meeting people."
	for _, s := range []string{"[BLANK_AUDIO]", "(upbeat music)", "[MUSIC PLAYING]", "(Sous-titres réalisés par la communauté d'Amara.org)", "*coughs*"} {
		if v := j.Hear(s, saying); v.Stop {
			t.Errorf("Hear(%q) = %+v: a sound stopped her", s, v)
		}
	}
	if v := j.Hear("(laughs) wait, stop", saying); !v.Stop {
		t.Errorf("a command beside a laugh did not stop her: %+v", v)
	}
}
