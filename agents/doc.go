// Package agents is the multi-agent graph engine of seed 001 (engine:
// graph), built on the graph runner: an intention classifier, memory
// update and retrieval agents, an affective appraisal and update, an
// orchestrator with its contextualizer, three tool agents (search, vision,
// knowledge) and a response agent, over one serializable State.
//
// # Wiring
//
// Seed 001 runs its nodes one after the other: intent → memory → appraisal
// → contextualizer → orchestrator → response, five model calls in sequence
// before Nadine says a word. Here, what needs only the input, the history
// and the stored state runs side by side, in the parallel group
// "understand":
//
//	START → understand = { intention_classifier ‖ memory_retrieve_agent ‖ affective_appraisal ‖ orchestrator }
//	understand ─ update_user_info → memory_update_agent
//	           ─ otherwise        → orchestrator (dispatch)
//	memory_update_agent ─ name to confirm   → response_agent ("Is your name Alice?")
//	                    ─ identity changed  → memory_retrieve_agent → orchestrator
//	                    ─ end_conversation  → END (after the reply: the episodic save)
//	                    ─ otherwise         → orchestrator
//	orchestrator ─ plan empty → response_agent, else → plan_steps[0].agent
//	search_agent | knowledge_rag_agent | vision_agent ─ steps left → orchestrator, else → response_agent
//	response_agent → affective_update ─ end_conversation → memory_update_agent
//	                                  ─ name to confirm  → name_confirmation (interrupt)
//	                                  ─ otherwise        → END
//	name_confirmation (resumed next turn) ─ next candidate → response_agent, settled → understand
//
// A plain turn thus waits on two model calls in sequence (the group, then
// the streamed response) instead of five; the trace's CriticalPath shows it.
// The price is speculation:
//
//   - The orchestrator plans before the intent is known, and its plan is
//     discarded on the fast path (first_greeting, end_conversation), which
//     costs one wasted orchestrator call on those turns. A short message
//     made of a greeting or a farewell word and no question is not planned
//     speculatively; if its intent is not a fast-path one after all, the
//     plan is made after the group, on the critical path.
//   - The appraisal and the retrieval read the best episode through a
//     per-turn memo, so it is searched once; a person with no stored
//     episode costs the appraisal no embedding wait. When the message
//     introduces a name, the recognized user's episode stays out of the
//     appraisal's prompt, since the speaker may be someone else. The
//     appraisal answers in two tokens ("joy 4"), not a JSON object of ten,
//     because the response waits for it.
//   - The context summary of the history before the latest message is
//     computed in the background right after each turn (over the window the
//     next turn will have) and kept for the next one; the next turn waits for
//     it if it is still running and computes it inline only when it covers
//     another history (for example after a restart).
//   - The update_user_info path adds the profile extraction (it decides who
//     the person is, which the reply needs). A search adds the tool call
//     only: the orchestrator sees the search tools and its plan names one
//     (the router runs only when it does not), and the response agent reads
//     the results itself (Options.SearchSummary brings back seed 001's
//     search_answer summary, one more call in sequence).
//   - Writes the reply does not need (profiles, the state, episodes) and
//     the next turn's context summary run after the reply is published
//     (nadine.Request.AfterReply).
//
// The tests build the original sequential wiring from the same nodes and
// measure the difference: 5 model calls in sequence against 2.
//
// # Around the graph
//
// Respond adopts the person perception recognized (Turn.UserID), trims the
// history to ConversationLimit, and persists the state between turns (see
// Persistence below): Nadine's mood survives restarts. An ambiguous name
// ends the turn with an interrupt of the name_confirmation node,
// checkpointed under PendingKey of the person asked; the next turn
// (in this process or after a restart) resumes it with the answer: yes /
// correct / that's me (oui, ja, 是) links the top candidate, another stated
// name gets its own profile, a lone unconfirmed candidate makes the given
// name a new user, and otherwise the next candidate is asked about. The
// question itself is a fixed sentence in the session language (no model
// call). When its checkpoint cannot be saved, the turn still returns the
// question, which was spoken, with a trace failure (an error would make the
// fallback engine speak again); the next turn asks it again. Every settled identity is emitted as an EventUser for face
// recognition; a greeting and a farewell wave; language changes emit
// EventLanguage; each appraisal emits EventAffect; the reply streams one
// EventSpeech per sentence. On end_conversation the episode summary and the
// conversation text are stored after the reply (Wait and Close wait for
// them) and the per-conversation state is reset.
//
// Request.Mood is not used: the engine keeps and persists the whole PAD
// state itself. Token limits and temperatures come from the model profiles;
// requests set none (reasoning models spend tokens before they answer).
//
// Memories are read and written only for the known user of the turn
// (every store call takes their id), and a changed identity clears what
// was retrieved for the previous one before anything reaches a prompt.
//
// # Persistence and forgetting
//
// The state between turns is stored in two parts, so that the store's
// ForgetUser (which erases the checkpoints whose key starts with
// "<userID>/") erases everything the engine kept about a person:
//
//   - StateKey ("robot/state") holds Nadine's own state: the affect
//     (personality, emotion, mood, turn count) and the language. A state
//     saved there by an earlier version, with a person's data in it, is
//     rewritten without it when it is first read.
//   - PersonStateKey(id) ("<id>/graph/state") holds the conversation state
//     of a real user id: who they are (with their profile), the window,
//     the context summary, the greeting bookkeeping and the name question.
//     The unknown user's conversation state is kept in memory only (a
//     restart loses it, which costs at most a context summary).
//   - PendingKey(id) ("<id>/graph/pending") holds a run interrupted by a
//     name question asked to a real user id; one asked to the unknown user
//     (the usual case) is under CheckpointKey ("robot/graph"). A question
//     the next turn cannot answer (another conversation, another person,
//     the unknown person now recognized) is discarded.
//
// The forget may come from another process (nadine memory forget, the web
// monitor), so memory is not trusted: at the start of each turn of a real
// user id the engine reads their PersonStateKey (one row). Found, it is the
// conversation state the turn starts from. Missing while memory holds a
// saved state of that id, the user was forgotten: the conversation state
// is reset, the user is taken as the request gives them (their profile is
// read again, and is gone), the background context summary is dropped and
// the trace says so; Nadine's affect survives. A user known only by a face
// (an id without a profile) has their key like anyone else, so the absence
// of a profile never resets anything. A user forgotten while their turn
// runs (their key was read at the start and is gone at the end) is not
// saved again. Two gaps remain: a user forgotten during the very first turn
// of their id is saved by its end, and between turns the memory of the
// last person's state lasts until the next turn (nothing reads it).
//
// # Evaluation
//
// Eval runs the sample sets of testdata/samples (embedded) against a set of
// models, through the engine's own prompts and parsers, and reports a pass
// count per agent, so that a lab can compare models (nadine eval).
package agents
