package answer_test

import (
	"testing"

	"github.com/nadine-robot/nadine/answer"
)

// TestNamesReply: a field's name says it holds the reply when one of its
// words names a reply and none names an aside, in four languages and in
// the ways keys are written (snake, camel, spaces, Chinese compounds).
func TestNamesReply(t *testing.T) {
	for name, want := range map[string]bool{
		"reply": true, "final_answer": true, "finalAnswer": true, "Spoken Reply": true,
		"réponse": true, "reponse": true, "texte": true, "Antwort": true, "nachricht": true,
		"回复": true, "最终回答": true, "答复": true,
		"reasoning": false, "thought": false, "analysis": false, "source": false, "links": false,
		"reply_markdown": false, "system_message": false, "answer_sources": false, "user_message": false,
		"raisonnement": false, "begruendung": false, "quelle": false, "notizen": false,
		"思考": false, "链接": false, "回复来源": false, "name": false, "arguments": false, "emotion": false,
		"Antworttext": true, "Endantwort": true, "réponse_finale": true, "texte de la réponse": true, "replyText": true,
		"message_id": false, "response_time": false, "messageCount": false, "kontext": false, "reply_to": false,
	} {
		if got := answer.NamesReply(name); got != want {
			t.Errorf("NamesReply(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestNamesAside: a field named as reasoning, a source, the prompt or the
// reply in another form is said beside the reply, never as it.
func TestNamesAside(t *testing.T) {
	for name, want := range map[string]bool{
		"reasoning": true, "chain_of_thought": true, "sources": true, "notes": true, "rationale": true,
		"system_prompt": true, "reply_html": true, "gedanke": true, "pensée": true, "来源": true,
		"reply": false, "arguments": false, "tool_calls": false, "messages": false, "data": false,
	} {
		if got := answer.NamesAside(name); got != want {
			t.Errorf("NamesAside(%q) = %v, want %v", name, got, want)
		}
	}
}
