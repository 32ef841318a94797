#!/usr/bin/python3
"""One style for every problem detail (issue 26): walks the Swift sources for every detail the
server can answer (`HTTPError(status, "…")`, each `problemDetail` case, the messages of
`ListEditError` and precondition failures, and the model's fault phrases) and checks each
against the style docs/API.md states (section 2, before "410 Gone"):

- a detail is a sentence: it starts with a capital letter, or with the name of what it is about
  (a query parameter the server reads, a header, a flag, a JSON Pointer), or with an
  interpolated value; it ends with a period, unless it ends by embedding an error's description;
- the model's faults (document, patch and pointer errors, embedded after a sentence and a colon)
  are phrases: no capital to start, no closing period;
- ids, keys and other values from the request are in double quotes (`\\"\\(id)\\"`);
- no stray spaces.

Prints one line per detail that breaks a rule and exits non-zero if any does (or if it finds
implausibly few details: the walk itself broke).

    /usr/bin/python3 Tests/integration/test_detail_style.py
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "Sources"
# Where a detail's text starts: the string expression after these.
SITES = [
    re.compile(r"HTTPError\(\s*\.\w+,\s*"),  # HTTPError(.status, "…" + "…", …)
    re.compile(r"(?:ListEditError\.\w+|ListEditError|RowPreconditionFailed)\(\s*(?:message:\s*)?"),
    re.compile(r"preconditionFailed\(\s*"),
]
# The model's faults (ListModel: document, patch and pointer errors) are phrases the HTTP layer
# embeds after its own sentence and a colon ("The result is not a valid list: /rows/0: must be
# …"): no capital, no closing period.
MODEL_MESSAGE = re.compile(r"\b(?:ListDocumentError|Failure|JSONPointerError|JSONPatchError)\([^\"]*?message:\s*")
MODEL = "\u0000model: "
CASE = re.compile(r"^\s*case [^\n]*?:\s*(?=\")", re.M)  # the `case …: "…"` lines of a problemDetail switch
NAME_FIRST = re.compile(r"^(--[a-z-]+|[A-Z][a-z]+(?:-[A-Z][a-zA-Z]+)+|/[\w/~.{}-]*)( |:)")


def parameter_names():
    """Every query parameter the server reads (`request.query("…")`): a detail may start with one."""
    names = set()
    for path in SOURCES.rglob("*.swift"):
        names.update(re.findall(r'query\("([\w.]+)"\)', path.read_text()))
    return names


PARAMETERS = parameter_names() | {"filter"}
UNQUOTED_VALUE = re.compile(r'(?<!\\")\\\((id|key|list|listID|rowKey|section|sectionKey|other|header|value|given|\$0)\)(?!\\")')


def literal_at(text, i):
    """The Swift string literal starting at text[i] == '"' (interpolations, with any string
    literals inside them, kept as written): (its content, the index after it)."""
    assert text[i] == '"'
    i += 1
    out = []
    while i < len(text):
        c = text[i]
        if c == "\\" and text[i + 1] == "(":
            depth, j = 1, i + 2
            while depth:
                if text[j] == '"':
                    _, j = literal_at(text, j)
                    continue
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                j += 1
            out.append(text[i:j])
            i = j
        elif c == "\\":
            out.append(text[i:i + 2])
            i += 2
        elif c == '"':
            return "".join(out), i + 1
        else:
            out.append(c)
            i += 1
    raise ValueError("unterminated literal")


def expression_at(text, i):
    """The text of a detail expression at text[i]: string literals joined by `+`, and a
    `….rule` constant (ListID.rule: a sentence of its own) as "Rule."; None if it is no literal."""
    parts = []
    while True:
        while text[i] in " \n":
            i += 1
        rule = re.match(r"\w+\.rule\b", text[i:])
        if rule:
            parts.append("Rule.")
            i += rule.end()
        elif text[i] == '"' and not text.startswith('"""', i):
            part, i = literal_at(text, i)
            parts.append(part)
        else:
            break
        after = re.match(r"\s*\+\s*", text[i:])
        if not after:
            break
        i += after.end()
    return "".join(parts) if parts else None


def details(text):
    """(offset, detail) of every detail in a Swift file."""
    for site in SITES:
        for match in site.finditer(text):
            detail = expression_at(text, match.end())
            if detail is not None:
                yield match.start(), detail
    for match in MODEL_MESSAGE.finditer(text):
        detail = expression_at(text, match.end())
        if detail is not None:
            yield match.start(), MODEL + detail
    for block in re.finditer(r"var problemDetail: String\? \{.*?\n    \}\n", text, re.S):
        for match in CASE.finditer(block.group(0)):
            detail = expression_at(block.group(0), match.end())
            if detail is not None:
                yield block.start() + match.start(), detail


def problems_of(detail):
    if detail.startswith(MODEL):
        phrase = detail[len(MODEL):]
        out = ["a model fault's phrase ends with a period"] if phrase.endswith(".") else []
        if phrase[:1].isupper() and not NAME_FIRST.match(phrase):
            out.append("a model fault's phrase starts with a capital")
        if UNQUOTED_VALUE.search(phrase):
            out.append("a value from the request without double quotes")
        return out
    out = []
    text = detail.strip()
    if not text:
        return ["empty"]
    first = text[0]
    word = re.match(r"[\w.]+", text)
    named = word is not None and word.group(0).split(".")[0] in PARAMETERS
    if not (first.isupper() or text.startswith("\\(") or NAME_FIRST.match(text) or named):
        out.append("does not start with a capital, a name or a value")
    # A detail may end with an error's own description (`\\(error)`), checked where it is made.
    if not text.endswith(".") and not re.search(r"\\\((error|error\.description|failure)\)$", text):
        out.append("does not end with a period")
    if UNQUOTED_VALUE.search(text):
        out.append("a value from the request without double quotes")
    if detail != detail.strip() or "  " in detail:
        out.append("stray spaces")
    return out


def main():
    found, bad = 0, []
    for path in sorted(SOURCES.rglob("*.swift")):
        text = path.read_text()
        for offset, detail in details(text):
            found += 1
            for problem in problems_of(detail):
                line = text[:offset].count("\n") + 1
                bad.append(f"{path.relative_to(ROOT)}:{line}: {problem}: {detail!r}")
    for line in bad:
        print("FAIL detail style:", line)
    print(f"{'FAIL' if bad else 'ok  '} detail style: {found} details checked, {len(bad)} break the style")
    return 1 if bad else 0 if found > 50 else 2


if __name__ == "__main__":
    sys.exit(main())
