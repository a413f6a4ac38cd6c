// Package offline is Nadine's rule-based engine: it answers when no
// language model is configured, and it is the dialogue manager's last
// fallback when the model engines fail.
//
// It is honest about being rule-based. It recognizes a small set of intents
// in English, French, German and Chinese — greetings and farewells, name
// introductions ("my name is Alex", "je m'appelle Alex", "ich heiße Alex",
// "我叫Alex"), "do you remember me?", the time and the date, "how are you",
// requests to smile, wave or be angry, asking for a song, switching
// language, "what can you do", insults, compliments and thanks — and
// answers everything else with a polite line saying that it is running in
// offline mode.
//
// Matching works on a normalized copy of the input: lowercase, accents
// folded (German umlauts become ae, oe, ue), punctuation splitting the text
// into clauses. Latin phrases match whole words; Chinese phrases match
// substrings. The phrase tables and the reply templates live in
// phrases.go and replies.go, one readable map each.
//
// Replies follow seed 000's rules: the language of the phrase that matched
// (else the session language), formal address (vous, Sie, 您), at most two
// sentences, never "I don't understand". The engine is deterministic: when
// several wordings exist for a reply, the number of Nadine's earlier
// messages in the conversation picks one, so she does not repeat herself.
// With a nadine.ProfileStore the names people give are persisted, and a
// later run recognizes them ("Do you remember me?"); without one the name
// lives only in the session.
package offline
