package offline

import (
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestHanGesture: a gesture's own word (挥, 招, 微笑) makes a weak reading
// of it the request, ahead of a knowledge or none reading; a plain reading
// of something else keeps it.
func TestHanGesture(t *testing.T) {
	e := New(Options{})
	for _, c := range []struct{ say, want string }{
		{"你的手能动吗 挥一下看看", "wave"}, // read as how she sees (0.21) before
		{"你会不会招手", "wave"},
		{"再摆摆手打个招呼嘛", "wave"},
		{"你能用手跟我打招呼吗", "wave"},
		{"你笑起来真好看", "compliment"}, // plainly praise: no gesture word
		{"你会挥手吗", "wave"},
	} {
		if got := e.classify(c.say, nadine.Chinese, hints{}).traceName(); got != c.want {
			t.Errorf("%q: %s, want %s", c.say, got, c.want)
		}
	}
	for w, g := range hanOwnWords() {
		if w == "向" || w == "手" || w == "笑" {
			t.Errorf("%q is %s's own word: it is any request's", w, g)
		}
	}
	if hanOwnWords()["挥"] != "wave" || hanOwnWords()["招手"] != "wave" || hanOwnWords()["微笑"] != "smile" {
		t.Errorf("own words %v: want 挥, 招手 wave, 微笑 smile", hanOwnWords())
	}
}
