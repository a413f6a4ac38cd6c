package lexical

import "strings"

// Function words of the supported languages, accent-folded. They still count
// (a question is more than its nouns) but weigh a quarter of a content word.
const (
	englishStop = `a an and are as at be been but by can could did do does for from had has have he her him his how i if in
into is it its me my no not of on or our she so than that the their them then there these they this to too us was we were
what when where which who whom why will with would you your yours am im dont`
	frenchStop = `a au aux avec ce ces c ca dans de des du elle elles en est et etre eu il ils j je l la le les leur lui m ma
mais me mes moi mon n ne nos notre nous on ou par pas pour qu que qui s sa se ses son sur t ta te tes toi ton tu un une vos
votre vous y suis es sont ai as avons avez ont ete`
	germanStop = `aber als am an auch auf aus bei bin bist da das dass dem den der des die du ein eine einem einen einer es
fur hat habe haben ich ihr im in ist ja mit mich mir nicht noch nur oder sein sie sind so uber um und uns von vor war was
wie wir wo zu zum zur`
	chineseStop = `的 了 是 在 和 也 就 都 吗 呢 吧 啊 我 你 他 她 它 们 这 那 有 不 个 着 么`
)

// stopwords returns the set of down-weighted words.
func stopwords() map[string]bool {
	m := make(map[string]bool, 300)
	for _, list := range []string{englishStop, frenchStop, germanStop, chineseStop} {
		for _, w := range strings.Fields(list) {
			m[w] = true
		}
	}
	return m
}
