// Package tools holds what the ReAct engine and the graph's tool agents can
// call: search, news, weather, gestures, songs, the language switch and
// Forget me. A result is an instruction to Nadine, so an action and its
// acknowledgment stay in one turn; effects go out as nadine.Events, never to
// the bus. Outside results are fenced as data, without URLs. Song library
// format and the rest: docs/architecture.md#tools-1.
package tools
