package speakable

import (
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestCitationsAndRows: what local models add to a reply for the eye (a
// source list, an address after an arrow, a table's row met alone, a
// clock's time as a field, the packet or the search results named as a
// source) is not said; the reply around it is, and the same words in
// sentences of her own are speech (probe11, docs/speech.md).
func TestCitationsAndRows(t *testing.T) {
	c := New(nil)
	for _, tt := range []struct {
		lang   nadine.Language
		in     string
		spoken bool
	}{
		{nadine.English, "Sources: [1] https://www.miralab.ch", false},
		{nadine.English, "References: 1. https://en.wikipedia.org/wiki/Nadine_Social_Robot", false},
		{nadine.English, "- [Wikipedia](https://en.wikipedia.org/wiki/Nadine)", false},
		{nadine.English, "2. www.unige.ch", false},
		{nadine.Chinese, "- [MIRALab官网](https://www.miralab.ch)", false},
		{nadine.English, "Learn more → https://www.geneve.com/en/old-town", false},
		{nadine.English, "| Language | Can I speak it?", false},
		{nadine.English, "Current time: 10:15.", false},
		{nadine.German, "Laut Nachrichtenpaket ist es 10 Uhr.", false},
		{nadine.Chinese, "搜索结果显示明天是晴天。", false},
		{nadine.English, "You can read all about me at https://www.miralab.ch.", true},
		{nadine.English, "Sources of inspiration for my creators included science fiction.", true},
		{nadine.English, "I'll meet you at 10:15 by the lake.", true},
		{nadine.English, "Geneva → Lausanne is a short train ride.", true},
		{nadine.German, "Laut Wetterbericht wird es morgen in Genf sonnig.", true},
		{nadine.Chinese, "我喜欢在网上搜索有趣的东西。", true},
		{nadine.English, "The hall is 200 m² wide.", true},
	} {
		got, err := c.Sentence(tt.in, tt.lang)
		if spoken := err == nil && got != ""; spoken != tt.spoken {
			t.Errorf("Sentence(%q) = %q, %v; spoken %v, want %v", tt.in, got, err, spoken, tt.spoken)
		}
	}
}

// TestSourceListLeftOut: a reply read whole loses its source section, a
// heading and the links listed under it, and keeps its sentences.
func TestSourceListLeftOut(t *testing.T) {
	for _, tt := range []struct {
		lang     nadine.Language
		in, want string
		notHeard string
	}{
		{nadine.English, "I'm Nadine, and I live in Geneva.\n\nSources:\n1. https://en.wikipedia.org/wiki/Nadine\n2. https://www.miralab.ch/projects", "I'm Nadine, and I live in Geneva.", "website"},
		{nadine.Chinese, "**相关链接：**\n- [MIRALab官网](https://www.miralab.ch)\n- [日内瓦大学](https://www.unige.ch)\n\n我是一个社交机器人。", "我是一个社交机器人。", "官网"},
		{nadine.German, "Hallo! Ich bin Nadine.\n\nQuellen:\n- https://de.wikipedia.org/wiki/Nadine\n- www.unige.ch", "Hallo! Ich bin Nadine.", "Quellen"},
	} {
		said, _, err := New(nil).Reply(tt.in, tt.lang)
		if err != nil || said != tt.want || strings.Contains(said, tt.notHeard) {
			t.Errorf("Reply(%q) = %q, %v; want %q", tt.in, said, err, tt.want)
		}
	}
}

// TestPromptListsAndIntensity: the prompt's list of what she never names
// and an emotion's German "Stärke" with a number are the prompt's; a list
// without the packet and a wind's strength are speech.
func TestPromptListsAndIntensity(t *testing.T) {
	c := New(nil)
	for _, tt := range []struct {
		lang   nadine.Language
		in     string
		spoken bool
	}{
		{nadine.Chinese, "我不能提及数据包、智能体、工具或搜索。", false},
		{nadine.English, "I never talk about packets, agents or tools.", false},
		{nadine.French, "Je ne parle jamais des paquets, des agents ni des outils.", false},
		{nadine.German, "Pakete, Agenten und Werkzeuge erwähne ich nie.", false},
		{nadine.German, "meine gefühle sind freude stärke 4 deshalb klinge ich fröhlich", false},
		{nadine.English, "Secret agents, tools and gadgets make spy films fun.", true},
		{nadine.German, "Heute weht ein Wind der Stärke 4 über den See.", true},
		{nadine.Chinese, "我喜欢用工具做手工。", true},
		{nadine.French, "La poste livre des paquets et des lettres.", true},
	} {
		got, err := c.Sentence(tt.in, tt.lang)
		if spoken := err == nil && got != ""; spoken != tt.spoken {
			t.Errorf("Sentence(%q) = %q, %v; spoken %v, want %v", tt.in, got, err, spoken, tt.spoken)
		}
	}
}
