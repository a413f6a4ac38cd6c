package offline

import (
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestHanOwnWords: a gesture's, farewell's or feeling's own word (挥, 招,
// 拜拜, 舒服) makes a weak reading of it the act, ahead of a knowledge or
// none reading; a plain reading of something else keeps it. A question of recognizing the speaker asks
// whether she remembers them.
func TestHanOwnWords(t *testing.T) {
	e := New(Options{})
	for _, c := range []struct{ say, want string }{
		{"你的手能动吗 挥一下看看", "wave"}, // read as how she sees (0.21) before
		{"你会不会招手", "wave"},
		{"再摆摆手打个招呼嘛", "wave"},
		{"你能用手跟我打招呼吗", "wave"},
		{"你笑起来真好看", "compliment"}, // plainly praise: no gesture word
		{"你会挥手吗", "wave"},
		{"拜拜咯漂亮的机器人姐姐", "farewell"},           // none 0.29 before
		{"我和好朋友一起来的我有点不舒服。", "feeling_sick"},  // none before
		{"我感到压力很大，我刚到日内瓦。", "feeling_stress"}, // where from, before
		{"现在是一大早，而且我得到了一个很糟糕的消息。", "default"}, // not sadness: 糟 is no own word
		{"你长得挺俊的", "compliment"},              // who she looks like (0.31) before
		{"你的声音好甜", "compliment"},              // how she speaks (0.33) before
		{"你长得像谁", "persona_modeled"},          // asked
		{"你的声音是怎么来的", "knowledge"},            // asked how
		{"你喜不喜欢唱歌", "knowledge"},              // asked by the verb said twice
		{"你现在还认得出我吗", "remember"},             // how she recognizes people 0.39 before
		{"你是怎么认出我的", "knowledge"},             // asks how
		{"你能认出人脸吗", "knowledge"},              // of people, not of the speaker
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

// TestHanIntroductions: the Chinese introductions the examples' contexts do
// not reach, and what looks like them but is not one.
func TestHanIntroductions(t *testing.T) {
	e := New(Options{})
	greeted := hints{greeted: true}
	checkIntroductions(t, e, nadine.Chinese, []introCase{
		{"我的英文名叫Kelvin 中文名叫陈凯文", hints{}, "name", "Kelvin"}, // 英文 made it a language switch
		{"我中文名叫陈凯文", hints{}, "name", "陈凯文"},
		{"我的名字叫什么", hints{}, "", ""}, // asks: no name follows
		{"hi 我是小蔡 蔡依琳的蔡", hints{}, "name", "小蔡"},
		{"嗨，我是阿陈，你呢", hints{}, "name", "阿陈"},
		{"我是小学生", hints{}, "", ""}, // not a familiar name: 学 is no family name
		{"我是從台北來的林佳穎", hints{}, "name", "林佳穎"},
		{"大家好，我是来自广州的陈晓", hints{}, "name", "陈晓"}, // the greeting was the name
		{"我是三班的李子轩", hints{}, "name", "李子轩"},
		{"我是北京来的小李", hints{}, "name", "小李"},
		{"我是公司的程序员", greeted, "", ""}, // 程序 is a word of the examples
		{"我是王老师的学生", greeted, "", ""},
		{"你好我的名字叫做陈小红", hints{}, "name", "陈小红"}, // was 做陈小红
		{"我叫作陈小红", hints{}, "name", "陈小红"},
		{"我姓欧阳，叫欧阳娜娜", hints{}, "name", "欧阳娜娜"}, // was the family name alone
		{"我的外号叫大头", hints{}, "name", "大头"},
		{"我是做销售的", greeted, "", ""},
		{"周杰", greeted, "name", "周杰"},
		{"李明，上海来的，来新加坡出差", hints{}, "name", "李明"},
		{"李明，很高兴认识你", hints{}, "name", "李明"},
		{"王芳，你知道她吗", hints{}, "", ""}, // asks her of someone
		{"张伟，谢谢你", hints{}, "thanks", ""},
	})
}

// TestHanLanguages: a language named in traditional characters or by a name
// the examples lack (华语, 国语, English) is the language asked for.
func TestHanLanguages(t *testing.T) {
	e := New(Options{})
	for _, c := range []struct {
		say    string
		want   string
		target nadine.Language
	}{
		{"請說英語", "language", nadine.English}, // was the list of languages
		{"請用德語回答", "language", nadine.German},
		{"可以讲华语吗", "language", nadine.Chinese}, // none 0.44 before
		{"你会说国语吗", "language", nadine.Chinese},
		{"請說日語", "language_unsupported", ""},
		{"我们讲English好不好", "language", nadine.English}, // feeling_sad before
	} {
		got := e.classify(c.say, nadine.Chinese, hints{})
		if got.traceName() != c.want || got.target != c.target {
			t.Errorf("%q: %s %s, want %s %s", c.say, got.traceName(), got.target, c.want, c.target)
		}
	}
}
