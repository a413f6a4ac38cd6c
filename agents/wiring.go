package agents

import (
	"context"
	"github.com/nadine-robot/nadine/speakable"

	"github.com/nadine-robot/nadine/graph"
)

// toolNodes are the tool agents a plan may name.
var toolNodes = []string{NodeSearch, NodeKnowledge, NodeVision}

func isToolNode(name string) bool {
	for _, t := range toolNodes {
		if t == name {
			return true
		}
	}
	return false
}

// makeNodes makes the engine's nodes, each with the dependencies it uses,
// from the options, models and tools New set.
func (e *Engine) makeNodes() {
	o := e.opts
	e.intentNode = intentClassifier{model: e.model(RoleIntent), prompts: e.prompts}
	e.responseNode = &responder{model: e.model(RoleResponse), prompts: e.prompts, static: staticResponsePrompt(e.prompts), gates: &speakable.Cache{},
		now: o.Now, scenes: o.Visual, speculating: o.Speculate}
	e.recallNode = &memoryRecall{on: e.memoryOn(), store: o.Store, embedder: o.Embedder, scenes: o.Visual, speculate: e.responseNode.speculate}
	e.memoryNode = &memoryUpdater{on: e.memoryOn(), store: o.Store, embedder: o.Embedder, model: e.model(RoleMemoryUpdate),
		prompts: e.prompts, nameHigh: o.NameHigh, nameLow: o.NameLow, makeUserID: o.NewUserID, now: o.Now, log: e.log,
		work: e.work}
	e.affectNode = &affective{model: e.model(RoleAppraisal), prompts: e.prompts, now: o.Now, recall: e.recallNode, feel: e.responseNode.feel}
	e.searchNode, e.visionNode = newSearchAgent(e), newVisionAgent(e)
	e.knowledgeNode = &knowledgeAgent{store: o.Store, embedder: o.Embedder}
	e.orchestratorNode = &orchestrator{planner: e.model(RoleOrchestrator), summarizer: e.model(RoleContextSummary), prompts: e.prompts,
		search: e.searchNode, maxSteps: o.MaxSteps, summaryWait: o.SummaryWait,
		conversationLimit: o.ConversationLimit, now: o.Now, log: e.log, work: e.work}
	e.orchestratorNode.contextOf, e.orchestratorNode.turnEnded = e.orchestratorNode.backgroundContext, e.orchestratorNode.startSummary
	if o.SeedWiring {
		e.sequential()
	}
}

// sequential makes the nodes the original sequential wiring's (SeedWiring),
// for comparison (no speculation, inline summary, router, answer model); build wires edges to match.
func (e *Engine) sequential() {
	e.responseNode.speculating = false
	e.searchNode.summary, e.searchNode.planTools = true, nil
	e.orchestratorNode.contextOf, e.orchestratorNode.turnEnded = e.orchestratorNode.inlineContext, func(State) {}
}

// build wires the graph (see the package documentation for the picture).
func (e *Engine) build() (*graph.Runnable[State], error) {
	g := graph.New[State]().
		AddNode(NodeIntent, e.intentNode.run).
		AddNode(NodeMemoryRetrieve, e.recallNode.run).
		AddNode(NodeAppraisal, e.affectNode.appraise).
		AddNode(NodeOrchestrator, e.orchestratorNode.orchestrate).
		AddNode(NodeMemoryUpdate, e.memoryNode.updateMemory).
		AddNode(NodeSearch, e.searchNode.run).
		AddNode(NodeKnowledge, e.knowledgeNode.run).
		AddNode(NodeVision, e.visionNode.run).
		AddNode(NodeResponse, e.responseNode.respond).
		AddNode(NodeAffectUpdate, e.affectNode.update).
		AddNode(NodeNameConfirm, e.memoryNode.confirmName)
	if e.opts.SeedWiring {
		// Seed 001 as written: one node after the other.
		g.AddEdge(graph.Start, NodeIntent).
			AddRouter(NodeIntent, afterIntentSeed, NodeMemoryUpdate, NodeMemoryRetrieve, graph.End).
			AddEdge(NodeMemoryRetrieve, NodeAppraisal).
			AddEdge(NodeAppraisal, NodeOrchestrator).
			AddRouter(NodeMemoryUpdate, afterMemoryUpdate(NodeMemoryRetrieve), graph.End, NodeResponse, NodeMemoryRetrieve).
			AddRouter(NodeNameConfirm, afterConfirm(NodeIntent), NodeResponse, NodeIntent)
	} else {
		// What needs only the input, the history and the stored state runs
		// side by side.
		g.AddParallel(NodeUnderstand, mergeUnderstanding, NodeIntent, NodeMemoryRetrieve, NodeAppraisal, NodeOrchestrator).
			AddEdge(graph.Start, NodeUnderstand).
			AddRouter(NodeUnderstand, afterUnderstand, NodeMemoryUpdate, NodeOrchestrator, graph.End).
			AddEdge(NodeMemoryRetrieve, NodeOrchestrator).
			AddRouter(NodeMemoryUpdate, afterMemoryUpdate(NodeOrchestrator), graph.End, NodeResponse, NodeMemoryRetrieve, NodeOrchestrator).
			AddRouter(NodeNameConfirm, afterConfirm(NodeUnderstand), NodeResponse, NodeUnderstand)
	}
	g.AddRouter(NodeOrchestrator, dispatch, append([]string{NodeResponse}, toolNodes...)...)
	for _, t := range toolNodes {
		g.AddRouter(t, afterTool, NodeResponse, NodeOrchestrator)
	}
	g.AddEdge(NodeResponse, NodeAffectUpdate).
		AddRouter(NodeAffectUpdate, afterAffectUpdate, graph.End, NodeMemoryUpdate, NodeNameConfirm)
	return g.Compile(graph.Options[State]{
		// Every node at most once, plus two per tool step (the agent
		// and the orchestrator's dispatch), plus a resumed name question.
		MaxSteps: 16 + 2*e.opts.MaxSteps,
		// Each turn runs with its own checkpointer, holding the
		// session's interrupted run (see runTurn).
		Hooks:       []graph.Hook[State]{graph.TraceHook[State]()},
		Checkpoints: &graph.MemoryCheckpointer{},
	})
}

// mergeUnderstanding merges the parallel group: each member owns its
// fields.
func mergeUnderstanding(base State, r []State) State {
	intent, memory, appraisal, plan := r[0], r[1], r[2], r[3]
	out := base
	out.Intent, out.Language = intent.Intent, intent.Language
	out.FirstGreetingDone, out.GreetedUserID = intent.FirstGreetingDone, intent.GreetedUserID
	out.UserInfo = memory.UserInfo
	out.ConversationMemory, out.EpisodeMemory, out.VisualMemory = memory.ConversationMemory, memory.EpisodeMemory, memory.VisualMemory
	out.Affect = appraisal.Affect
	out.PlanSteps, out.Planned = plan.PlanSteps, plan.Planned
	out.ContextSummary, out.ContextKey = plan.ContextSummary, plan.ContextKey
	return out
}

// afterUnderstand: a request to be forgotten ends the run (the dialogue
// manager answers it), a personal fact goes to the memory update.
func afterUnderstand(_ context.Context, s State) (string, error) {
	switch s.Intent {
	case IntentForgetMe:
		return graph.End, nil
	case IntentUpdateUserInfo:
		return NodeMemoryUpdate, nil
	}
	return NodeOrchestrator, nil
}

func afterIntentSeed(_ context.Context, s State) (string, error) {
	switch s.Intent {
	case IntentForgetMe:
		return graph.End, nil
	case IntentUpdateUserInfo:
		return NodeMemoryUpdate, nil
	}
	return NodeMemoryRetrieve, nil
}

// afterMemoryUpdate routes: a farewell's save ends the run, a name question
// goes to the response, a new identity retrieves its memories.
func afterMemoryUpdate(next string) graph.Router[State] {
	return func(_ context.Context, s State) (string, error) {
		switch {
		case s.Intent == IntentEndConversation:
			return graph.End, nil
		case s.confirmationPending():
			return NodeResponse, nil
		case s.IdentityChanged:
			return NodeMemoryRetrieve, nil
		}
		return next, nil
	}
}

// dispatch goes to the plan's first agent, or to the response.
func dispatch(_ context.Context, s State) (string, error) {
	if len(s.PlanSteps) == 0 || !isToolNode(s.PlanSteps[0].Agent) {
		return NodeResponse, nil
	}
	return s.PlanSteps[0].Agent, nil
}

// afterTool is the tool-agent contract's edge: back to the orchestrator
// while steps remain.
func afterTool(_ context.Context, s State) (string, error) {
	if len(s.PlanSteps) == 0 {
		return NodeResponse, nil
	}
	return NodeOrchestrator, nil
}

func afterAffectUpdate(_ context.Context, s State) (string, error) {
	switch {
	case s.Intent == IntentEndConversation:
		return NodeMemoryUpdate, nil
	case s.confirmationPending():
		return NodeNameConfirm, nil
	}
	return graph.End, nil
}

// afterConfirm asks the next candidate, or goes on with the turn once the
// identity is settled.
func afterConfirm(next string) graph.Router[State] {
	return func(_ context.Context, s State) (string, error) {
		if s.confirmationPending() {
			return NodeResponse, nil
		}
		return next, nil
	}
}
