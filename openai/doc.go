// Package openai is the chat model and embedder for every server that speaks
// the OpenAI HTTP API (OpenAI, Ollama, vLLM, llama.cpp, LM Studio), over
// net/http. A call makes one attempt (again only to drop a refused field):
// retries are the failover layer's. The API key never appears in errors,
// logs or traces; server messages that echo it are scrubbed. Wire details
// and why not go-openai: docs/architecture.md#openai.
package openai
