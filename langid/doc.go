// Package langid tells which of English, French, German and Chinese a short
// utterance is in, to check a reply's language before it is spoken. Han
// characters are Chinese; Latin-script text is scored with trigram models
// from lingua-go's tables (gen.go) plus common words. Names and loanwords
// give ok=false rather than a confident guess. Why not lingua-go itself:
// docs/architecture.md#langid.
package langid
