// Package llmtest is a scripted server speaking the real OpenAI wire format
// (chat, streaming, tool calls, embeddings), so every model test runs a real
// client end to end. Rules answer in order; an unmatched request gets HTTP
// 400 so a missing rule fails the test. Faults, refusals and outages (Down,
// InjectFaults) are scripted too, repeatably from a seed. Safe for
// concurrent requests (docs/architecture.md#llmtest).
package llmtest
