package agents

import (
	"context"

	"github.com/nadine-robot/nadine"
)

// ask sends req to m, the model of req.Role, and returns its answer; a role
// with no model is an EUNAVAILABLE error.
func ask(ctx context.Context, m nadine.ChatModel, req nadine.ChatRequest) (string, error) {
	if m == nil {
		return "", nadine.Errorf(nadine.EUNAVAILABLE, "agents: no %s model", req.Role)
	}
	resp, err := m.Chat(ctx, req)
	if err != nil {
		return "", err
	}
	return resp.Content, nil
}
