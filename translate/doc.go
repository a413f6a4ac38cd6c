// Package translate translates Nadine's replies and users' inputs between
// the supported languages, and checks that a reply is in the session
// language before it is published.
//
// Two nadine.Translator implementations:
//
//   - Model, the default, asks a chat model (any nadine.ChatModel) with a
//     strict system prompt (prompt.tmpl: translate only, keep names and
//     numbers, output only the translation) under the role "translator",
//     and cleans the answer (surrounding quotes, code fences). The model
//     call is recorded in the turn's trace by the ChatModel itself.
//   - HTTP calls a LibreTranslate-compatible service (POST /translate). It
//     records each call in the context's trace as a
//     nadine.ToolCallRecord{Tool: "translate"}: the record carries the
//     request (without the API key), the translation, the duration and the
//     error, which a Step could not. The API key never appears in errors,
//     logs or traces.
//
// Ensure is the runtime's language check: it detects the language of a
// text with a nadine.LanguageDetector and translates it when it is
// confidently in another language than the one wanted; when detection is
// unsure ("OK", "Alex", "12") the text is left as it is.
//
// Errors carry nadine codes: EINVALID for an unsupported language or a
// missing configuration (and an HTTP 4xx), ERATELIMIT for HTTP 429,
// EUNAVAILABLE for a service that cannot be reached, times out or fails
// (5xx), EBADOUTPUT for an empty or undecodable answer. A chat model's
// errors keep the model's code.
package translate
