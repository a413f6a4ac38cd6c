package bargein

import (
	"regexp"
	"strings"
	"unicode"
)

// Speech-to-text writes what it hears that is no speech as an annotation
// ("[BLANK_AUDIO]", "(upbeat music)", "[MUSIC PLAYING]", "*coughs*", "♪",
// a subtitle credit in parentheses). Read as words, "[MUSIC PLAYING]" was two
// words that stopped Nadine, and then a question she answered. What lies in
// brackets, parentheses or asterisks is no word anyone said to her: it
// never stops her and is never answered (docs/interruptions.md, "The policy").

// soundRE is an annotation of a sound, in the forms speech-to-text writes.
var soundRE = regexp.MustCompile(`\[[^\[\]\n]{0,80}\]|\([^()\n]{0,80}\)|（[^（）\n]{0,80}）|【[^【】\n]{0,80}】|\*[^*\n]{1,80}\*`)

// WithoutSounds returns text without its annotations of sounds.
func WithoutSounds(text string) string {
	if !strings.ContainsAny(text, "[(（【*") {
		return text
	}
	return strings.TrimSpace(soundRE.ReplaceAllString(text, " "))
}

// Sounds reports whether text holds no word: nothing but annotations of
// sounds, signs ("♪", "...") and spaces.
func Sounds(text string) bool {
	return strings.IndexFunc(WithoutSounds(text), func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0
}
