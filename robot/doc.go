// Package robot is the runtime of `nadine serve`: it sits between the robot
// bus (perception, speech-to-text, text-to-speech, animation) and the
// dialogue manager.
//
// Inbound messages are handled in arrival order. Transcripts and "user
// left" signals go through one queue, so turns run one at a time in the
// order they were heard, and a user leaving ends the conversation only
// after the turns heard before. While Nadine speaks (between start_speak
// and end_speak, or until SpeakTimeout passes if end_speak never comes)
// listening is suspended, as in the original: a transcript heard then is
// most likely Nadine hearing herself, and is dropped with a log line.
// Turns submitted by the operator (HTTP, CLI) are never dropped.
//
// Heard transcripts are durable when Options.Inbox is set: the bus keeps
// each one in the inbox before acknowledging it, Run takes the inbox's
// pending transcripts first, and each transcript's progress is recorded
// (taken, spoken before its first sentence, answered), so that after a
// crash a silent turn is answered and one that had spoken is not answered
// again. A transcript leaves the queue as expired as soon as it is older
// than Options.MaxAge; at most Options.Queue heard transcripts wait, the
// oldest going first; when more than Options.Backlog wait, the newest is
// answered next and the older ones are superseded (fresh.go). Expired and
// dropped transcripts are logged and sent to subscribers (UpdateExpired,
// UpdateDropped).
//
// A turn's events go out on the bus as they happen: each sentence (already
// checked for language by the dialogue manager, which translates a sentence
// that is not in the session language), gestures, affect, the settled
// identity, language switches and songs. Subscribers (the web monitor)
// receive every event, every finished turn and every session change.
// Nothing called from a turn's emit function calls back into the dialogue
// manager: the runtime reads the session at start and after each turn.
//
// Every goroutine the runtime starts ends before Run returns: the worker
// and the idle watch (Run stops and waits for them), each turn's publisher
// (drained when the turn ends), and an interim transcript's timer (stopped
// or waited for at shutdown, when no early turn starts any more).
package robot
