// Package lexical is the offline default embedder: a deterministic,
// model-free text vectorizer, so that long-term memory and the knowledge
// base work with no embedding model at all.
//
// A text is lowercased and accent-folded ("Genève" → "geneve"), then split
// into words; Chinese, Japanese and Korean characters are treated as
// one-character words. Three groups of features are hashed into a vector of
// the configured dimension (signed feature hashing, so collisions cancel out
// on average instead of piling up):
//
//   - word unigrams (Chinese: single characters),
//   - word bigrams (Chinese: character bigrams),
//   - character 3- and 4-grams of each word, padded with a space on each
//     side, so that "live", "lives" and "lived" share most features
//     (Chinese runs contribute their character 2- and 3-grams).
//
// Each feature is weighted by sublinear term frequency (1 + ln tf); a short
// list of English, French, German and Chinese function words is
// down-weighted. Each group is L2-normalized, the groups are mixed with fixed
// weights (words 1, bigrams 0.5, character n-grams 0.8), and the result is
// L2-normalized, so cosine similarity is a dot product. A text without any
// word yields the zero vector.
//
// The embedder's Name is "lexical-v1-<dims>": vectors of different
// dimensions, or of a future version of the features, never mix.
package lexical
