package agents

import (
	"encoding/json"

	"github.com/nadine-robot/nadine"
)

// schema returns a strict JSON-schema response format.
func schema(name, s string) nadine.ResponseFormat {
	return nadine.ResponseFormat{Type: nadine.FormatJSONSchema, Name: name, Schema: json.RawMessage(s), Strict: true}
}

var (
	extractionFormat = schema("user_info", `{"type":"object","properties":{`+
		`"user_name":{"type":"string"},"current_company":{"type":"string"},"current_position":{"type":"string"},`+
		`"location":{"type":"string"},"hobbies":{"type":"array","items":{"type":"string"}},`+
		`"interests":{"type":"array","items":{"type":"string"}}},`+
		`"required":["user_name","current_company","current_position","location","hobbies","interests"],"additionalProperties":false}`)
	episodeFormat = schema("episode", `{"type":"object","properties":{`+
		`"observation":{"type":"string"},"thought":{"type":"string"},"action":{"type":"string"},"result":{"type":"string"}},`+
		`"required":["observation","thought","action","result"],"additionalProperties":false}`)
)

// The formats of the roles whose prompt asks for a compact text answer ("joy 4"),
// for servers that constrain answers: the schemas keep them as short, and the readers take both.
var (
	intentFormat = schema("intent", `{"type":"object","properties":{"intent":{"type":"string","enum":`+
		intentEnum()+`}},"required":["intent"],"additionalProperties":false}`)
	appraisalFormat = schema("appraisal", `{"type":"object","properties":{`+
		`"emotion":{"type":"string","enum":["joy","sadness","fear","disgust","anger","surprise","neutral"]},`+
		`"intensity":{"type":"integer","description":"0 to 10"}},"required":["emotion","intensity"],"additionalProperties":false}`)
	planFormat = schema("plan", `{"type":"object","properties":{"plan":{"type":"array","description":`+
		`"one step per item, as the prompt writes a line; empty when no agent is needed","items":{"type":"string"}}},`+
		`"required":["plan"],"additionalProperties":false}`)
)

// intentEnum is the intent labels as a JSON list, so that a label added to
// Intents is one the schema lets the model answer.
func intentEnum() string {
	enum, _ := json.Marshal(Intents())
	return string(enum)
}

// routerFormat is the search router's format, its tool an enum of names.
func routerFormat(names []string) nadine.ResponseFormat {
	enum, _ := json.Marshal(names)
	return schema("search_route", `{"type":"object","properties":{"tool":{"type":"string","enum":`+string(enum)+
		`},"query":{"type":"string"}},"required":["tool","query"],"additionalProperties":false}`)
}
