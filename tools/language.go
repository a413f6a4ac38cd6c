package tools

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/nadine-robot/nadine"
)

// LanguageSwitcher switches the session language (recognition and
// synthesis) by emitting an EventLanguage.
type LanguageSwitcher struct {
	logger *slog.Logger
}

var _ nadine.Tool = (*LanguageSwitcher)(nil)

// NewLanguageSwitcher returns the Languages Switcher tool.
func NewLanguageSwitcher(logger *slog.Logger) *LanguageSwitcher {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &LanguageSwitcher{logger: logger}
}

// Name returns "Languages Switcher".
func (l *LanguageSwitcher) Name() string { return NameLanguage }

// Description says when to use the tool.
func (l *LanguageSwitcher) Description() string {
	return "Use it when the human asks you to speak another language. " +
		"Input: the name of the language, for example French. You speak " + spokenLanguages() + "."
}

// switchSentence confirms a switch, in the new language.
var switchSentence = map[nadine.Language]string{
	nadine.English: "From now on I will speak English.",
	nadine.French:  "À partir de maintenant, je vais parler français.",
	nadine.German:  "Ab jetzt spreche ich Deutsch.",
	nadine.Chinese: "从现在开始，我会说中文。",
}

// spokenLanguages lists the supported languages' names: "English, French,
// German and Chinese".
func spokenLanguages() string {
	var names []string
	for _, l := range nadine.Languages() {
		names = append(names, l.Name())
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// Call matches any word of in.Text against the supported languages and
// returns the confirmation in the new language.
func (l *LanguageSwitcher) Call(ctx context.Context, in nadine.ToolInput) (string, error) {
	text := cleanInput(in.Text)
	lang, err := nadine.ParseLanguage(text)
	if err != nil {
		l.logger.InfoContext(ctx, "unsupported language", "input", nadine.Content(text))
		return fmt.Sprintf("%q is not a language you speak. Tell the human, in the current language, that you speak %s.",
			truncate(cleanText(text), 60), spokenLanguages()), nil
	}
	emit(in, nadine.Event{Kind: nadine.EventLanguage, Language: lang})
	l.logger.InfoContext(ctx, "language switched", "from", in.Language, "to", lang)
	s, ok := switchSentence[lang]
	if !ok {
		s = "From now on I will speak " + lang.Name() + "."
	}
	return fmt.Sprintf("You now speak %s. Tell the human '%s'", lang.Name(), s), nil
}
