package dialogue

import "testing"

// TestReadAnswerChinese: Chinese answers whose words hold a negation or a
// yes that they do not mean ("没错" is right, "都行" consents to nothing,
// "说不好" hesitates), and the yes that repeats the question's verb.
func TestReadAnswerChinese(t *testing.T) {
	for _, c := range []struct {
		say  string
		want Answer
	}{
		{"没错", AnswerYes}, // 没 was read as a no
		{"要", AnswerYes},
		{"要的", AnswerYes},
		{"肯定", AnswerYes},
		{"肯定不要", AnswerNo},
		{"要不还是算了", AnswerNo},
		{"我要想想", AnswerUnclear},
		{"算啦", AnswerNo},
		{"我改变主意了", AnswerNo},
		{"还是记着我吧", AnswerNo},
		{"都行", AnswerUnclear}, // 行 was a yes
		{"随便", AnswerUnclear},
		{"呃 我也说不好", AnswerUnclear}, // 不好 was a no
	} {
		if got := ReadAnswer(c.say); got != c.want {
			t.Errorf("%q: %s, want %s", c.say, got, c.want)
		}
	}
}
