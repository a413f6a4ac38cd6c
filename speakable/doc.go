// Package speakable decides what of a model's reply may be said aloud to a
// museum visitor, sentence by sentence: the one gate every reply sentence
// of both engines goes through before it is spoken (the dialogue manager's
// output), and that the engines use to ask their model again.
//
// A Checker is built from the prompts the engines actually sent during the
// turn (nadine.Prompt, recorded on the turn's trace). A sentence is not
// spoken when it
//
//   - repeats the prompt's instructions: most of its words are runs found
//     word for word in what the engine wrote (data sections, the person's
//     own words and the chat history left out), in any script (Chinese is
//     read a character at a time);
//   - speaks of Nadine in the prompt's voice ("You are Nadine, a social
//     humanoid robot", "Vous êtes Nadine"), where she speaks in her own;
//   - holds a data section's delimiter, a heading of the prompt, a field
//     name of the answer format ("action_input") or a label of the ReAct
//     format ("Thought:", "Action:");
//   - is not for the visitor: the prompt's voice in any wording or
//     language, an instruction to the model, talk about how the answer
//     is made, a note about the user. A classifier trained on examples
//     (examples/*.txt) against what Nadine legitimately says tells it;
//     an aside or a lead-in is judged on its own (backstage.go);
//   - is JSON, markup, code, or a chat-template token (see
//     spoken.Sentence, which also cleans Markdown and quotes).
//
// Spoken form is kept grammatical: a sentence with a web address says
// where instead ("on the MIRALab website", named after the address's host
// as the prompt spells it) or is dropped whole, never left with a hole;
// a sentence with an e-mail address is dropped; "As an AI language model"
// and its kind (a clause or a sentence that presents the speaker as an AI,
// a language model or an assistant, or disclaims feelings and a body as
// one) are removed.
//
// The package is pure: no I/O.
package speakable
