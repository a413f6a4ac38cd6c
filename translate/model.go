package translate

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"text/template"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/answer"
	"github.com/nadine-robot/nadine/labels"
	"github.com/nadine-robot/nadine/spoken"
)

// Role names the translator's model calls in the trace.
const Role = "translator"

//go:embed prompt.tmpl
var promptText string

var promptTemplate = template.Must(template.New("prompt").Parse(promptText))

// Prompt's from is unknown when "".
func Prompt(from, to nadine.Language) (string, error) {
	if err := checkLanguages(from, to); err != nil {
		return "", err
	}
	var b bytes.Buffer
	data := struct{ From, To string }{To: languageName(to)}
	if from != "" {
		data.From = languageName(from)
	}
	if err := promptTemplate.Execute(&b, data); err != nil {
		return "", fmt.Errorf("translate: render prompt: %w", err)
	}
	return b.String(), nil
}

// languageName names a language in the prompt; Chinese is written in
// simplified characters, as zh-CN text-to-speech expects.
func languageName(l nadine.Language) string {
	if l == nadine.Chinese {
		return "Simplified Chinese"
	}
	return l.Name()
}

// Model translates with a chat model. Its zero value is not usable: set
// Model. It is safe for concurrent use if the chat model is.
type Model struct {
	// Model answers the translation requests.
	Model nadine.ChatModel
	// MaxTokens caps the answer's length; 0 leaves it to the model's
	// profile.
	MaxTokens int
	// Logger receives one debug line per translation; nil discards.
	Logger *slog.Logger
}

var _ nadine.Translator = (*Model)(nil)

// Translate makes no call for empty text or from == to; an empty answer is
// EBADOUTPUT and the chat model's errors keep their codes.
func (m *Model) Translate(ctx context.Context, text string, from, to nadine.Language) (string, error) {
	if m == nil || m.Model == nil {
		return "", nadine.Errorf(nadine.EINVALID, "translate: no chat model configured")
	}
	if err := checkLanguages(from, to); err != nil {
		return "", err
	}
	if strings.TrimSpace(text) == "" || from == to {
		return text, nil
	}
	system, err := Prompt(from, to)
	if err != nil {
		return "", err
	}
	// The translator's rules join the turn's prompts, so that a translation
	// that says them back is caught as every echo is (the text translated is
	// hers, not the visitor's: it is no Said).
	nadine.TraceFrom(ctx).AddPrompt(nadine.Prompt{Role: Role, Instructions: []string{system}})
	resp, err := m.Model.Chat(ctx, nadine.ChatRequest{
		Role: Role,
		Messages: []nadine.ChatMessage{
			{Role: nadine.RoleSystem, Content: system},
			{Role: nadine.RoleUser, Content: text},
		},
		MaxTokens: m.MaxTokens,
	})
	if err != nil {
		return "", fmt.Errorf("translate: model: %w", err)
	}
	out := Clean(resp.Content, text)
	if t := strings.TrimSpace(resp.Content); out != t && out != strings.Trim(t, "\"'“”«» ") {
		nadine.TraceFrom(ctx).Notef("translator: the answer was read as its translation (%d of %d characters kept)", len(out), len(t))
	}
	logger(m.Logger).DebugContext(ctx, "translate: model", "from", from, "to", to,
		"model", resp.Model, "in_chars", utf8.RuneCountInString(text), "out_chars", utf8.RuneCountInString(out))
	if out == "" {
		return "", nadine.Errorf(nadine.EBADOUTPUT, "translate: model %q returned an empty translation", resp.Model)
	}
	return out, nil
}

// translationKeys hold the translation of a model that answered in JSON.
var translationKeys = []string{"translation", "translated_text", "translated", "text", "output", "result"}

// onlyText is the one string of a JSON object answer that is not the
// source text, whatever its key: a model names its fields as it likes;
// object reports that body is an object at all.
func onlyText(body, source string) (text string, object bool) {
	body = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(body), "```"))
	v, ok := answer.Read(body).First()
	if !ok || !v.Object() {
		return "", false
	}
	f, _ := labels.Fields(json.RawMessage(v.JSON))
	var found []string
	for _, raw := range f {
		var str string
		if json.Unmarshal(raw, &str) != nil {
			continue // numbers, flags, lists: no translation
		}
		if str = strings.TrimSpace(str); str != "" && str != strings.TrimSpace(source) {
			found = append(found, str)
		}
	}
	if len(found) != 1 {
		return "", true
	}
	return found[0], true
}

// introRE is a line a chatty model puts before its translation ("Here is
// the French translation:").
var introRE = regexp.MustCompile(`(?i)^[^\n]{0,80}\b(?:translation|translated|traduction|übersetzung|翻译)\b[^\n]{0,40}:\s*\n`)

// Clean keeps quotation marks when source itself is wrapped in the same ones;
// a JSON answer gives its translation field, else its one text, else
// nothing.
func Clean(reply, source string) string {
	s := strings.TrimSpace(spoken.StripThinking(reply))
	if t := strings.TrimSpace(strings.TrimPrefix(s, "```json")); strings.HasPrefix(t, "{") && !strings.HasPrefix(strings.TrimSpace(source), "{") {
		if j := labels.AnswerText(s, translationKeys...); j != "" {
			s = j
		} else if j, object := onlyText(t, source); j != "" {
			s = j // {"fr": "…", "confidence": 0.93}
		} else if object {
			return "" // an object with no translation in it ("{}") is none
		}
	}
	s = strings.TrimSpace(introRE.ReplaceAllString(s, ""))
	if l := strings.ToLower(s); strings.HasPrefix(l, "translation:") && !strings.HasPrefix(strings.ToLower(strings.TrimSpace(source)), "translation:") {
		s = strings.TrimSpace(s[len("translation:"):])
	}
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```")
		if i := strings.IndexByte(s, '\n'); i >= 0 && !strings.Contains(s[:i], "```") {
			s = s[i+1:] // drop the fence's language tag line
		}
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
	}
	src := strings.TrimSpace(source)
	// The opening and closing quotation marks a model may wrap a
	// translation in.
	quotePairs := [...][2]string{
		{`"`, `"`}, {`'`, `'`}, {"“", "”"}, {"‘", "’"}, {"«", "»"}, {"»", "«"},
		{"„", "“"}, {"„", "”"}, {"‚", "‘"}, {"‹", "›"}, {"「", "」"}, {"『", "』"}, {"`", "`"},
	}
	for range 2 { // "«  “text”  »" happens
		stripped := false
		for _, q := range quotePairs {
			if len(s) >= len(q[0])+len(q[1]) && strings.HasPrefix(s, q[0]) && strings.HasSuffix(s, q[1]) &&
				!(strings.HasPrefix(src, q[0]) && strings.HasSuffix(src, q[1])) {
				inner := s[len(q[0]) : len(s)-len(q[1])]
				if (q[0] == `"` || q[0] == "`") && strings.Contains(inner, q[0]) {
					continue // "a" and "b": not one quoted text
				}
				s = strings.TrimSpace(inner)
				stripped = true
				break
			}
		}
		if !stripped {
			break
		}
	}
	return s
}

func checkLanguages(from, to nadine.Language) error {
	if !to.Valid() {
		return nadine.Errorf(nadine.EINVALID, "translate: unsupported target language %q", to)
	}
	if from != "" && !from.Valid() {
		return nadine.Errorf(nadine.EINVALID, "translate: unsupported source language %q", from)
	}
	return nil
}

func logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return l
}
