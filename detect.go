package nadine

import "context"

// LanguageDetector tells which supported language a text is in.
type LanguageDetector interface {
	// Detect returns the most likely language of text and a confidence in
	// 0..1; ok is false when the text is too short or ambiguous to tell.
	Detect(text string) (lang Language, confidence float64, ok bool)
}

// Translator translates text between supported languages.
type Translator interface {
	// Translate renders text, written in from (or unknown when from is
	// ""), in to.
	Translate(ctx context.Context, text string, from, to Language) (string, error)
}
