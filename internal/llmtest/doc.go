// Package llmtest is a scripted OpenAI-compatible server for tests.
//
// New starts a loopback HTTP server (internal/loopback) that speaks the real OpenAI wire format:
// POST /v1/chat/completions (JSON, or server-sent events when the request
// says "stream": true), POST /v1/embeddings and GET /v1/models. Every test in
// the repository that involves a model points a real client (openai.Client)
// at it, so the whole path from request building to response parsing runs.
//
// Answers are scripted with rules, matched in order against each decoded
// request:
//
//	srv := llmtest.New(t)
//	srv.On(llmtest.MatchLastUser("weather")).Once().ReplyToolCall("get_weather", `{"city":"Paris"}`)
//	srv.On(llmtest.MatchToolResult("sunny")).Reply("It is sunny in Paris.")
//	srv.On(llmtest.MatchSystem("classifier")).Fail(429).RetryAfter(1)
//	srv.Default().Reply("I see.")
//
// A chat request that no rule matches gets HTTP 400 with the message
// "llmtest: no rule matched: <last user message>", so a missing rule shows
// up as a failed test rather than a silent answer. Faults (Fail, Hang,
// Garbage, Disconnect, Reset, AbortAfter) exercise a client's retry and
// error handling. Requests returns every request received, decoded, for
// assertions on what went over the wire.
//
// Structured outputs speak both wire formats: a rule may answer with
// tool calls (ReplyToolCall; streamed as tool_calls deltas, the name then
// the arguments in pieces), and requests are decoded with their
// response_format, schema and tools. RejectFormat and RejectTools answer
// HTTP 400 as OpenAI, Ollama, vLLM and llama.cpp word their refusals, and
// a tool message that answers no call of the assistant message before it
// gets OpenAI's 400.
//
// Outages are scripted too, for failover tests and nadine bench --faults:
// InjectFaults draws faults at rates on top of the rules (HTTP 500 with
// OpenAI's error body, a hang that never answers, a reset connection, a
// stream cut mid-way, junk content from DefaultJunk), repeatably from a
// seed, and counts them (FaultCounts); Down makes the port refuse
// connections as a stopped server does, and Up brings it back on the same
// URL. SpokenJunk tells whether junk reached what the robot said.
//
// Embeddings are deterministic: each text is hashed word by word into a
// vector (feature hashing, L2-normalized), so equal texts get equal vectors
// and texts that share words are similar. Vector computes the same vector.
//
// A Server is safe for concurrent requests.
package llmtest
