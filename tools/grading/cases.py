"""Name what a failing graded cell shows a learner: which check failed, in words, never its code.

A hidden test names the kind of case in its assertion message, as a plain string literal:

    assert _same(f(0, 200, 50), []), "empty input"
    assert _same(f(1000, 250, 100), [0, 150, 300, 450, 600, 750]), "exact fit"

``kind_of_failure`` finds the statement of the test cell that failed (from the line number in
the traceback), and a literal message is the case kind, shown as written. An f-string message
usually holds the inputs of a loop over cases: it is never shown whole. When it holds the loop's
case label (``f"merge_hits: {label}"`` over a table of named cases), the label is the kind. For
lesson 3 the inputs are read to name the case (``overlap_case``); otherwise only two literal
forms are kept (``... must raise ValueError``, a closing ``(note in words)``), or the case stays
unnamed. An error other than an
assertion (the learner's function raised) is named by the message of the assert it happened
in, the same way.

Leaves out: the expected values and the test code, which nothing here ever returns.
Example: ``overlap_case(1000, 250, 100)`` -> ``"an exact fit (the last chunk ends exactly at n)"``.
"""

from __future__ import annotations

import ast
import re

ANSI = re.compile(r"\x1b\[[0-9;]*m")
CELL_LINE = re.compile(r"Cell In\[\d+\], line (\d+)")
CALL = re.compile(r"^(\w+)\((.*)\)(?: is wrong| must raise ValueError)?$", re.S)
LABELS = {"label", "kind", "case"}  # loop variables that name the case of a labelled table
TYPE_MESSAGES = ("exact type check", "the result has the right values but not the right types")
#: how an examples cell's ``expect`` (chunklib.course.selfcheck) begins when only the type is off
TYPE_ONLY = "✗ The value is right, but not its type:"


def failing_line(traceback: list[str]) -> int | None:
    """The line of the test cell itself where the error happened (the traceback's first frame):
    ``failing_line(["Cell In[7], line 12"])`` -> 12."""
    for line in traceback:
        found = CELL_LINE.search(ANSI.sub("", line))
        if found:
            return int(found.group(1))
    return None


def failing_assert(source: str, line: int | None) -> ast.Assert | None:
    """The innermost ``assert`` statement of ``source`` that spans ``line``."""
    if line is None:
        return None
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    spans = [n for n in ast.walk(tree) if isinstance(n, ast.Assert)
             and n.lineno <= line <= (n.end_lineno or n.lineno)]
    return max(spans, key=lambda n: n.lineno) if spans else None


def overlap_case(n: int, size: int, overlap: int) -> str:
    """The kind of a lesson-3 case ``(n, size, overlap)``, the first that applies."""
    if not 0 <= overlap < size:
        return "an overlap outside 0 <= overlap < size (it must raise ValueError)"
    if n == 0:
        return "empty input (n = 0)"
    if n <= size:
        return "a document that fits in one chunk"
    if overlap == size - 1:
        return "overlap at its limit (size - 1)"
    if (n - size) % (size - overlap) == 0:
        return "an exact fit (the last chunk ends exactly at n)"
    if overlap == 0:
        return "no overlap"
    if n >= 100 * size:
        return "a long document"
    return "a document whose last chunk is shorter than the others"


# lesson -> a function naming the case from the positional inputs an f-string message shows
BY_INPUTS = {"03-overlap": overlap_case}


def _inputs(text: str) -> tuple | None:
    """``"1000, 250, 100"`` -> (1000, 250, 100); ``"5 units, 2, 1"`` -> (5, 2, 1); else None."""
    text = re.sub(r"\b(\d+) units\b", r"\1", text)
    try:
        value = ast.literal_eval(f"({text},)")
    except (ValueError, SyntaxError):
        return None
    if len(value) == 1 and isinstance(value[0], tuple):
        value = value[0]
    return value


def _label(message: ast.JoinedStr, evaluated: str) -> str:
    """The value of the f-string's case label (a name in LABELS) in the evaluated message:
    ``f"merge_hits: {label}"`` evaluated as ``"merge_hits: touching spans"`` -> "touching spans"."""
    pattern, group = "", None
    for part in message.values:
        if isinstance(part, ast.Constant):
            pattern += re.escape(str(part.value))
        elif isinstance(part.value, ast.Name) and part.value.id in LABELS and group is None:
            pattern, group = pattern + "(?P<label>.+?)", part.value.id
        else:
            pattern += ".*?"
    found = re.fullmatch(pattern, evaluated, re.S) if group else None
    return found.group("label") if found else ""


def _from_fstring(message: ast.JoinedStr, evaluated: str | None, lesson: str) -> str:
    """The case an f-string message names, without the inputs it holds."""
    label = _label(message, evaluated) if evaluated else ""
    if label:
        return label
    namer = BY_INPUTS.get(lesson)
    call = CALL.match(evaluated.strip()) if evaluated else None
    if namer and call:
        args = _inputs(call.group(2))
        if args and all(type(a) is int for a in args[-3:]) and len(args) >= 3:
            return namer(*args[-3:])
    words = " ".join(p.value for p in message.values if isinstance(p, ast.Constant))
    if "must raise ValueError" in words:
        return "arguments that must raise ValueError"
    tail = message.values[-1] if message.values else None  # "... is wrong (it must return x)"
    note = re.search(r"\(([a-z][a-z ]+)\)$", tail.value) if isinstance(tail, ast.Constant) \
        else None
    return note.group(1) if note else ""


def kind_of_failure(source: str, error: dict, lesson: str) -> str:
    """The case a failing test cell names: its assertion message when it is a plain string,
    else what ``_from_fstring`` can say; ``""`` when the cell names none."""
    node = failing_assert(source, failing_line(error.get("traceback", [])))
    if node is None or node.msg is None:
        return ""
    if isinstance(node.msg, ast.Constant) and isinstance(node.msg.value, str):
        return node.msg.value
    if isinstance(node.msg, ast.JoinedStr):
        evaluated = error.get("evalue") if error.get("ename") == "AssertionError" else None
        return _from_fstring(node.msg, evaluated, lesson)
    return ""
