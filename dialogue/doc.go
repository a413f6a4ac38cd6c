// Package dialogue holds the dialogue manager: the one path from a final
// transcript to a reply. It normalizes the input, keeps the session (who is
// in front of the robot, the language, Nadine's mood, the conversation
// window), asks the configured engine for a reply, falls back to the next
// engine when one fails, and stores the conversation window as long-term
// memory (History) off the reply's critical path.
//
// Events flow one way: from the engine, through the turn's Output, to
// the session (the manager applies each event as it goes out) and to the
// caller's emit function (the robot runtime, which publishes them on the
// bus and passes them to the monitor). The Output owns what the turn says
// (order, holds, the filler rule, the sentence check, the speech budget;
// docs/output.md); it is given what it needs (the session language at the
// turn's start, the one function that applies an event to the session,
// the sentence check) and never calls anything else of the manager;
// nothing called from emit calls back into the manager. The one way the manager offers an engine to defer work is
// Request.AfterReply; that work runs once the reply is out.
//
// A spoken "forget me" is the manager's too (forget.go): an engine emits
// nadine.EventForgetRequest, the manager asks for confirmation, reads the
// answer with ReadAnswer (confirm.go) before any engine, and erases
// through ManagerOptions.Forget (docs/privacy-forget.md).
//
// Every goroutine the manager starts is its own and waited for: a turn's
// silence filler by the turn, an early turn (Preempt) by whoever cancels or
// adopts it, and an engine abandoned past a turn's budget by Close.
package dialogue
