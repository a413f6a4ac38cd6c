// Package openai implements nadine.ChatModel and nadine.Embedder for every
// server that speaks the OpenAI HTTP API: OpenAI itself, Ollama's /v1,
// vLLM, the llama.cpp server and LM Studio.
//
// A Client is one configured profile (server, model, temperature, limits);
// an Embedder is one embedding model. Both speak the wire format directly
// over net/http rather than through github.com/sashabaranov/go-openai:
// that library's Temperature is a float32 with omitempty (an explicit 0 for
// deterministic classifiers cannot be sent), its error path drops the
// response headers (no Retry-After), its decoder cannot tell a truncated
// body from a garbage one, and it validates requests against model names
// client-side. The wire format needed here is small (wire.go).
//
// What goes over the wire:
//
//   - Messages keep their roles; a user message with Images becomes
//     multi-part content (a text part and image_url parts; URLs or data
//     URLs). Message and function names are reduced to [A-Za-z0-9_-] as
//     OpenAI demands, and function names are mapped back in the answer.
//   - Format json_object becomes response_format json_object; json_schema
//     becomes response_format json_schema with name, schema and strict.
//   - Tools become "tools" of type function; tool calls in the answer, in
//     assistant messages and the tool results (tool_call_id) round-trip.
//   - Temperature is sent only when configured (0 included).
//   - No stop sequences are ever sent: newer OpenAI models reject them.
//   - The token limit is sent as max_completion_tokens to api.openai.com
//     and as max_tokens to every other server (the field all of them
//     accept). If a server answers 400 naming the field as unsupported or
//     unrecognized, the call is retried at once with the other field and
//     the client remembers the choice.
//   - Streaming requests ask for stream_options.include_usage, so the last
//     chunk carries token counts (OpenAI, vLLM, Ollama, llama.cpp and LM
//     Studio accept it). A strict server that rejects the field (400 or 422
//     naming it) gets the request again without it, and the client stops
//     sending it.
//
// A call makes one attempt (again at once only to drop a refused field):
// retries are the failover layer's. Errors of a 429 or 503 carry the
// server's Retry-After (seconds or an HTTP date) capped at 30 seconds.
//
// Errors carry nadine codes: ERATELIMIT for 429; EUNAVAILABLE for 5xx,
// connection failures and timeouts; EINVALID for other 4xx (for 401 and
// 403, a hint to check the API key) and for requests that cannot be sent;
// EBADOUTPUT for answers that cannot be decoded or have no choices. Messages
// start with "openai:" and name the profile and the model. The API key
// never appears in errors, logs or traces: server messages that echo it are
// scrubbed.
//
// Every call records one nadine.ModelCall in the context's trace, with the
// number of attempts, the latency over all of them, and the token counts.
package openai
