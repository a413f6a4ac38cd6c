package agents

import (
	"context"

	"github.com/nadine-robot/nadine"
)

// knowledgeAgent is the knowledge_rag_agent node: the most relevant chunk, its
// related visual noted in the trace for the monitor.
type knowledgeAgent struct {
	store    nadine.KnowledgeStore
	embedder nadine.Embedder // the embedder the knowledge base was built with
}

// run is the node.
func (a *knowledgeAgent) run(ctx context.Context, s State) (State, error) {
	step, s := popStep(s, NodeKnowledge)
	s.KnowledgeRetrieval = appendResult(s.KnowledgeRetrieval, a.lookUp(ctx, step.Message))
	return s, nil
}

func (a *knowledgeAgent) lookUp(ctx context.Context, query string) string {
	tr := nadine.TraceFrom(ctx)
	if a.store == nil || a.embedder == nil {
		tr.Notef("knowledge_rag_agent: no store or embedder")
		return KnowledgeUnavailable
	}
	res, err := nadine.RetrieveKnowledge(ctx, a.store, a.embedder, query, 1)
	if err != nil {
		return KnowledgeUnavailable
	}
	if len(res) == 0 {
		return KnowledgeNotFound
	}
	c := res[0]
	if v := c.Metadata[nadine.KnowledgeMetaVisual]; v != "" {
		tr.Notef("related visual: %s", v)
	}
	text := nadine.Shorten(c.Text, 1500)
	if c.Title != "" {
		text = c.Title + ": " + text
	}
	return text
}
