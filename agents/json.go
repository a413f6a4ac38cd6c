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

// routerFormat is the search router's format, its tool an enum of names.
func routerFormat(names []string) nadine.ResponseFormat {
	enum, _ := json.Marshal(names)
	return schema("search_route", `{"type":"object","properties":{"tool":{"type":"string","enum":`+string(enum)+
		`},"query":{"type":"string"}},"required":["tool","query"],"additionalProperties":false}`)
}
