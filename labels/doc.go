// Package labels reads what models write where a program expects a label,
// a number or a piece of text, so that a usable answer is never thrown away
// over its spelling. It is pure (no I/O) and shared by the engines and the
// adapters that parse model answers.
//
// Names match by Key: case, spaces, underscores, hyphens and dots aside,
// so "Final Answer", "final_answer" and "FINAL-ANSWER" are one name. Each
// kind of label also has a table of synonyms:
//
//	emotion    joy ← happy, happiness, joyful, glad, delighted, pleased, cheerful, excited, amused,
//	                  content, love, grateful, proud, euphoric, elated, enthusiastic, glee, positive
//	           sadness ← sad, unhappy, sorrow, melancholy, disappointed, grief, lonely, hurt, depressed, regret
//	           fear ← afraid, scared, fearful, anxious, worried, nervous, terrified, frightened, alarmed
//	           disgust ← disgusted, revulsion, repulsed, revolted, gross, contempt
//	           anger ← angry, mad, annoyed, irritated, furious, rage, frustrated, offended, outraged
//	           surprise ← surprised, astonished, amazed, shocked, startled, wonder, curious, curiosity
//	           neutral ← none, calm, no emotion, indifferent, relaxed, normal, null, n/a
//	category   greeting ← greet, greetings, hello, salutation, welcome, first greeting
//	           farewell ← goodbye, bye, leaving, parting, end conversation
//	           insult ← offense, offensive, rude, rudeness, abuse, insulting
//	           complement ← compliment, compliments, praise, flattery
//	           information request ← information, info, question, request, query, inquiry, enquiry, ask
//	           other ← small talk, chitchat, statement, conversation, misc, general, opinion, comment, chat,
//	                    continue conversation, none
//	causing    SELF ← self, Nadine, me, myself, I, robot, herself
//	person     SOMEONE ELSE ← someone, somebody, other, another person, third party, others
//	           human ← human, and for the user: user, the user, person, the person, visitor, speaker,
//	                    you, interlocutor, guest (the user's name when it is known)
//	           any other person's name is kept as that person; nothing usable is human
//
// The engines add their own tables (actions, intents, agents) with the same
// Table type; README.md ("How model answers are read") lists them all.
//
// Numbers are accepted as JSON numbers or strings ("7", "7.5", "7/10",
// "7 out of 10", "70%"), or as words (zero to ten, low, mild, medium,
// moderate, high, strong, very high, extreme), and clamped by the caller's
// range. An object where text was expected yields the field that holds the
// text (the caller names the candidates), a place's "City,CC", or its only
// string value.
package labels
