package nadine_test

import (
	"regexp"
	"testing"

	"github.com/nadine-robot/nadine"
)

func TestNewUserID(t *testing.T) {
	tests := map[string]string{
		"Alex":                                 `^alex-[0-9a-f]{6}$`,
		"  Anne-Marie Dupont":                  `^anne-marie-dupont-[0-9a-f]{6}$`,
		"Zoë":                                  `^zoe-[0-9a-f]{6}$`,
		"Léa Müller-Groß":                      `^lea-muller-gross-[0-9a-f]{6}$`,
		"Søren Łukasz":                         `^soren-lukasz-[0-9a-f]{6}$`,
		"Ἀλέξης":                               `^user-[0-9a-f]{6}$`,
		"娜丁":                                   `^user-[0-9a-f]{6}$`,
		"A very long name that goes on and on": `^a-very-long-name-that-goes-on-an-[0-9a-f]{6}$`,
	}
	for name, want := range tests {
		if got := nadine.NewUserID(name); !regexp.MustCompile(want).MatchString(got) {
			t.Errorf("NewUserID(%q) = %q, want %s", name, got, want)
		}
	}
	if a, b := nadine.NewUserID("Alex"), nadine.NewUserID("Alex"); a == b {
		t.Errorf("two new users named Alex got the same id")
	}
}

func TestFindUser(t *testing.T) {
	users := []nadine.UserRef{{ID: "alex-1", Name: "Alex"}, {ID: "bob", Name: "Alex B"}, {ID: "Alex B", Name: "Zed"}}
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"alex", "alex-1", true},
		{"alex-1", "alex-1", true},
		{"Alex B", "Alex B", true}, // an id wins over a name
		{"carol", "", false},
	}
	for _, tt := range tests {
		got, ok := nadine.FindUser(users, tt.in)
		if ok != tt.ok || got.ID != tt.want {
			t.Errorf("FindUser(%q) = %+v, %v", tt.in, got, ok)
		}
	}
}
