// Package answer is the one lenient reader of JSON as models really write it
// (JSON5 and Python habits, unescaped quotes, double escapes, cut-off values,
// prose and reasoning around it), behind every role through labels. Preamble
// drops reasoning; ReAct reads LangChain's text format. Pure, standard
// library only (docs/architecture.md#answer).
package answer
