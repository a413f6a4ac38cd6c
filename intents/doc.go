// Package intents understands short utterances by learning from example
// utterances instead of matching phrases: what the offline engine knows of
// an intent is a list of things visitors say for it, in each language.
//
// An example file has a "## label" line before each intent's examples, one
// example per line, and "## @slot" before the values a {slot} of the
// examples takes ("my name is {name}"), in the manner of Mycroft's
// Padatious .intent files. Train fits two multinomial logistic regressions
// (as Snips NLU's intent classifier does) over the same sparse features, one
// for the intent and one for the language: words (a word no example uses is
// "<unk>", a number "<num>", a lookup slot's value "<slot>", as Rasa's
// lookup tables), word bigrams, character 3- and 4-grams of each word
// (Rasa's char_wb count vectors), Chinese character trigrams, and separate
// features for the words in the scope of a negation. Examples with slots are
// trained with several values, and some words of every copy but the first
// are hidden, so that an unknown word means what the words around it mean.
// "none" is a label like the others, trained on what visitors say that is
// none of the intents; the caller adds a calibrated threshold (CrossValidate,
// Folds, Sweep). The contexts the examples put around each slot, and how
// strongly each announces it, tell where a value is (SlotSpans).
//
// Training is deterministic; a Model is immutable and safe for concurrent
// use. docs/offline.md gives the figures and where this differs from Rasa,
// Snips and Padatious.
package intents
