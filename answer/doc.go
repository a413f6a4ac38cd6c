// Package answer reads what a model wrote where a program expects JSON,
// the way models really write it: it is the one lenient reader behind every
// role (the ReAct steps, the graph's intent, appraisal, plan, extraction
// and response), through labels.ExtractJSON and labels.AnswerText.
//
// Read finds every JSON object or list in an answer and returns each as
// strict JSON, whatever its defects:
//
//   - JSON5 and Python habits: single quotes, bare keys, True/False/None,
//     trailing or missing commas, // and /* */ comments, NaN;
//   - raw newlines and unescaped quotation marks inside strings (a quote
//     ends a string only where what follows can follow a string);
//   - double escapes ("\\u00e8", "\\n"): decoded once more;
//   - several values, or a list: all are returned, in order;
//   - a value cut off: what was complete is kept, a member whose value was
//     cut is dropped (a reply that was complete before the cut is used);
//   - prose, code fences and reasoning around it.
//
// Preamble drops reasoning the model wrote before its answer, in any of
// the forms models use (<think> and other tags, [THINK], "Thought:" lines),
// and ReAct reads the text format of LangChain's ReAct prompt ("Thought:",
// "Action:", "Action Input:", "Final Answer:").
//
// The package is pure: no I/O, the standard library only.
package answer
