// Package dialogue holds the dialogue manager: the one path from a final
// transcript to a reply. It normalizes the input, keeps the session (who is
// in front of the robot, the language, Nadine's mood, the conversation
// window), asks the configured engine for a reply, falls back to the next
// engine when one fails, and stores the conversation window as long-term
// memory (History) off the reply's critical path.
package dialogue
