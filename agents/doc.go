// Package agents is the multi-agent graph engine (engine:
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
//	           ─ forget_me        → END (the dialogue manager asks for confirmation)
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
// the streamed response) instead of five; with Options.Speculate, on one:
// the response starts beside the group, as soon as the person's memories
// are retrieved, on the inputs an empty plan gives, and its sentences are
// held until the plan is known; an empty plan releases them, anything that
// changes the response's inputs (a plan with tools, a greeting or a
// farewell, a new fact about the person, another language, another
// emotion) cancels it unheard (speculate.go). The trace's CriticalPath
// shows it, and its Speculations say what was kept and what a discarded
// one cost. The price is speculation:
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
//     next turn will have) and kept for the next one. The next turn waits
//     for it at most Options.SummaryWait (30 ms): when the person answered
//     faster than the summary model, or the summary covers another history
//     (after a restart), the orchestrator reads the last known summary and
//     the last exchange instead, and nothing waits; the late summary, once
//     done, becomes the last known one.
//   - The update_user_info path adds the profile extraction (it decides who
//     the person is, which the reply needs). A search adds the tool call
//     only: the orchestrator sees the search tools and its plan names one
//     (the router runs only when it does not), and the response agent reads
//     the results itself (Options.SearchSummary brings back the
//     search_answer model's summary, one more call in sequence).
//   - Writes the reply does not need (profiles, the state, episodes) and
//     the next turn's context summary run after the reply is published
//     (nadine.Request.AfterReply).
//
// The tests build the original sequential wiring from the same nodes and
// measure the difference: 5 model calls in sequence against 2.
//
// # Nodes
//
// Each node family is a type holding only what it uses, in a file of its
// own: intentClassifier (intent.go), memoryRecall (recall.go),
// memoryUpdater with the name confirmation and the episodic save
// (memory.go), affective (affective.go), orchestrator with its background
// context summary (orchestrator.go), searchAgent (search.go), visionAgent
// (vision.go), knowledgeAgent (knowledge.go) and responder with its
// speculative start (response.go, speculate.go). makeNodes (wiring.go)
// builds them from the Options; the Engine keeps the turn around them
// (engine.go) and the session state (persist.go).
//
// What the nodes of one turn share (the emit function, the gestures said,
// the per-turn memo of memories and query vectors, the speculative
// response, the work queued for after the reply) is a turn value
// (turn.go) that Respond makes and the state carries (never serialized);
// a node reaches it through its state, never through its context, and
// sends events only through it: events go one way, from the nodes to the
// request's Emit. Work a node defers is queued in the turn and handed to
// nadine.Request.AfterReply. The goroutines the engine starts beside and
// after its turns (speculative responses, context summaries, episode
// saves) are owned by its work value (work.go): Close cancels the
// summaries, lets an episode being saved finish, and waits for all.
//
// # Around the graph
//
// Respond adopts the person perception recognized (Turn.UserID), trims the
// history to ConversationLimit, and starts from the session the request
// carries (see Session below). An ambiguous name ends the turn with an
// interrupt of the name_confirmation node, whose checkpoint goes back to
// the session; the next turn (in this process or after a restart) resumes
// it with the answer: yes / correct / that's me (oui, ja, 是) links the top
// candidate, another stated name gets its own profile, a lone unconfirmed
// candidate makes the given name a new user, and otherwise the next
// candidate is asked about. The question itself is a fixed sentence in the
// session language (no model call). Every settled identity is emitted as an
// EventUser for face recognition; a greeting and a farewell wave; language
// changes emit EventLanguage; each appraisal emits EventAffect; the reply
// streams one EventSpeech per sentence. On end_conversation the episode
// summary and the conversation text are stored after the reply (Wait and
// Close wait for them) and the per-conversation state is reset.
//
// Token limits and temperatures come from the model profiles; requests set
// none (reasoning models spend tokens before they answer).
//
// Memories are read and written only for the known user of the turn
// (every store call takes their id), and a changed identity clears what
// was retrieved for the previous one before anything reaches a prompt.
//
// # Session
//
// The engine keeps no state of its own between turns. It reads Nadine's
// affect (Session.Affect), the language, the greeting bookkeeping
// (Session.Greeted) and its own state for this interaction
// (Session.Engine: who the person is, the context summary, the turn count,
// a pending name question and the run it interrupted) from the request's
// session, and returns the turn's state to the dialogue manager in one
// EventSession after the reply. The manager owns the session: it persists
// it (with the person, never for a stranger), erases it with the person,
// and resets it at every end of interaction, so that the next visitor
// starts fresh. A session part that names another person than the turn's
// is not used.
//
// # Evaluation
//
// Eval runs the sample sets of testdata/samples (embedded) against a set of
// models, through the engine's own prompts and parsers, and reports a pass
// count per agent, so that a lab can compare models (nadine eval).
package agents
