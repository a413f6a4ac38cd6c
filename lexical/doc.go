// Package lexical is the offline default embedder: a deterministic,
// model-free vectorizer (signed feature hashing of words, word bigrams and
// character n-grams), so memory and the knowledge base work with no embedding
// model. Its Name carries version and dimensions so vectors never mix
// (docs/architecture.md#lexical).
package lexical
