// Package offline is Nadine's rule-based engine: what a newcomer meets
// first (no model configured), what an exhibition runs on when the network
// fails, and the dialogue manager's last fallback when the model engines
// fail.
//
// It recognizes, in English, French, German and Chinese:
//
//   - who she is, from nadine.Persona (her name, what she is, who made her
//     and where, her age, where she stands now, whom she looks like, whether
//     she feels), and what she can do, with singing only when the song
//     library holds a song;
//   - questions the knowledge base answers (MIRALab, the University of
//     Geneva, her creator, social robots, how she works, and whatever a lab
//     ingests): the question is embedded with the injected embedder and
//     searched in the injected nadine.KnowledgeStore; a built-in section is
//     said in the wording of the conversation's language (facts.go maps
//     every built-in section to a fact with a template per language), an
//     ingested section is quoted in one or two sentences of its own, in its
//     own language, and the reply is tagged with that language;
//   - greetings, farewells, names ("my name is Alex", "je m'appelle Alex",
//     "ich heiße Alex", "我叫Alex"), "do you remember me?", the time and the
//     date, gestures (smile, wave, angry face), songs, language switching;
//   - feelings and news people tell about ("I am sad today", "j'ai réussi
//     mon examen", "mir ist langweilig", "我很累"), met with empathy, and
//     what they say after it; "and you?" follow-ups;
//   - insults and compliments, graded by their words, insults sharper each
//     time they come again in the conversation; apologies, thanks, jokes,
//     the weather (honestly: she cannot look it up), small talk;
//   - a request to be forgotten, which the dialogue manager confirms and
//     carries out (nadine.EventForgetRequest).
//
// Everything else gets an honest limit: one sentence that says she cannot
// answer that and what she can do instead. What she says about why is
// true: "my language model is unavailable" only when the dialogue manager
// says an earlier engine could not reach its model
// (nadine.Request.FallbackReason EUNAVAILABLE or ERATELIMIT), "something
// went wrong" when its answer was unusable, said once per conversation;
// offline by configuration she never claims a failure.
//
// Understanding is learned from examples, not matched against phrases:
// examples/*.txt hold what visitors say for each intent, in each language,
// and a classifier trained on them (package intents) reads each utterance,
// its clauses and the greeting or "and you?" that comes along; entities
// (a name, a language, a place) are read where the examples put their
// slots; what is none of the intents goes to the knowledge base, then to
// the honest limit. One handler per intent answers (handlers.go). What the
// conversation expects (a name she asked for, a feeling after "how are
// you?", more about a worry) weighs the reading and lets go when the person
// talks about something else. docs/offline.md gives the design, the
// calibration and the evaluation.
//
// Replies follow the dialogue rules: the language of the utterance (else what
// the language detector is sure of, else the session language), formal
// address (vous, Sie, 您), at most two sentences and 30 words, never "I
// don't understand". A key has several wordings; the engine says one it has
// not said in the conversation, read from the history window and from a
// bounded memory of its own replies per conversation (variety.go says why
// the window alone is not enough), and once it said them all, one again
// behind "As I said:" (or "Here is a classic:" for a joke). With a nadine.ProfileStore the
// names people give are persisted, and a later run recognizes them.
package offline
