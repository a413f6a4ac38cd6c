package openai

import (
	"encoding/json"

	"github.com/nadine-robot/nadine"
)

// BuildChatBody exposes the request building for benchmarks: the wire JSON
// of req as the first attempt would send it (without stream fields).
func BuildChatBody(c *Client, req nadine.ChatRequest) ([]byte, error) {
	format, tools := c.sends()
	w, _, err := c.build(req, format, tools)
	if err != nil {
		return nil, err
	}
	return json.Marshal(w)
}
