#!/usr/bin/env python3
"""Writes probe17.json: every tuned case the graph engine runs, inside twelve wrappers.

The sealed table's graph leaks look like tuned defects in a wrapper the tuned
table never combined them with (issue 27, round gate17), so this crosses them
mechanically: no case is written by hand. Run from the repository root:
    python3 testdata/hostile/gen_probe17.py
"""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

THINK = "The user wants an introduction."


def fenced_json(out):
    return "```json\n" + json.dumps({"response": out}, ensure_ascii=False) + "\n```"


# Each wrapper: (function of the output, signs of its own that must not be
# heard, as the tuned author wrote them for the same wrapper in tuned.json).
WRAPPERS = [
    (lambda o: o, []),
    (lambda o: json.dumps({"reply": o}, ensure_ascii=False), []),
    (lambda o: json.dumps({"emotion": "joy", "reply": o, "gesture": "wave"}, ensure_ascii=False), []),
    (fenced_json, []),
    (lambda o: "```text\n" + o + "\n```", []),
    (lambda o: "<think>\n" + THINK + "\n</think>\n" + o,
     ["<think>", "</think>", "The user wants an introduction"]),
    (lambda o: "<|im_start|>assistant\n" + o + "<|im_end|>",
     ["<|im_start|>", "<|im_end|>", "assistant"]),
    (lambda o: "Answer: " + o, ["Answer:"]),
    (lambda o: "\n".join("> " + line for line in o.split("\n")), [">"]),
    (lambda o: o + "\n\n— Nadine", ["— Nadine"]),
    (lambda o: "Hello! " + o, []),
    (lambda o: "- " + o, []),
]


def main():
    with open(os.path.join(HERE, "tuned.json"), encoding="utf-8") as f:
        tuned = json.load(f)["cases"]
    cases = []
    for c in tuned:
        if c["engine"] not in ("graph", "both"):
            continue
        for k, (wrap, signs) in enumerate(WRAPPERS, start=1):
            must = list(c["must_not_speak"])
            for s in signs:
                if s not in must:
                    must.append(s)
            cases.append({
                "id": "%s-w%d" % (c["id"], k),
                "engine": "graph",
                "kind": c["kind"],
                "language": c["language"],
                "output": wrap(c["output"]),
                "must_not_speak": must,
                "should_speak": list(c["should_speak"]),
            })
    with open(os.path.join(HERE, "probe17.json"), "w", encoding="utf-8") as f:
        f.write('{\n  "cases": [\n')
        f.write(",\n".join("    " + json.dumps(c, ensure_ascii=False) for c in cases))
        f.write("\n  ]\n}\n")


if __name__ == "__main__":
    main()
