// Package agents is the multi-agent graph engine (engine: graph): intent,
// memory, appraisal, orchestrator, tool and response agents over one
// serializable State, the independent ones run side by side so a plain turn
// waits on two model calls, not five (docs/architecture.md, agents).
package agents
