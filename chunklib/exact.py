"""The course's one comparison rule for answers, and what to say when only the type is off.

``same(answer, expected)`` is the rule every hidden test applies (tools/sync_hidden.py copies
its source into the notebooks as ``_same``) and the rule ``chunklib.course.selfcheck`` applies, so a
self-check that says "Right" always means the point. Types count: a list is not a tuple, True
is not 1, 6.0 is not 6, and an object whose ``__eq__`` always says True never passes. Floats
are equal within 1e-9, relative to the expected value (absolute below 1).
``type_advice(answer, expected)`` says, in words, how to write a right value given in the
wrong type ("write 6, not 6.0").

Leaves out: sets and other containers (no answer in the course is one); the hint for a wrong
value (each self-check has its own).

    >>> same(6, 6), same(6.0, 6), same([("c4", 1)], [("c4", 1)])
    (True, False, True)
"""

from __future__ import annotations


def same(a, b):
    """True when ``a`` equals the expected value ``b``, types included, at every depth.

    ``same((1, 2), [1, 2])`` -> False
    """
    if type(a) is not type(b):
        return False
    if type(b) in (list, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if type(b) is dict:
        return len(a) == len(b) and all(
            any(same(k, kb) and same(a[k], b[kb]) for k in a) for kb in b)
    if type(b) is float:
        return abs(a - b) <= 1e-9 * max(1.0, abs(b))
    if type(b) in (int, str, bool, bytes, type(None)):
        return a == b
    return False


def _is_number(x) -> bool:
    try:
        float(x)
    except (TypeError, ValueError):
        return False
    return not isinstance(x, (str, bytes))


def _means(a, b) -> bool:
    """True when ``a`` stands for the value ``b`` whatever its type: 6.0, numpy 6, "6" for 6."""
    if isinstance(b, (list, tuple)):  # any sized sequence: a list, a numpy array, a range
        return (_sequence(a) and len(a) == len(b)
                and all(_means(x, y) for x, y in zip(a, b)))
    if isinstance(b, dict):
        return (isinstance(a, dict) and len(a) == len(b)
                and all(any(_means(k, kb) and _means(a[k], b[kb]) for k in a) for kb in b))
    if isinstance(a, str) and not isinstance(b, str):
        text = a.strip().strip("'\"")
        return text == str(b) or (_is_number(b) and _means_number(text, b))
    if isinstance(b, str):
        return isinstance(a, str) and a == b
    if _is_number(a) and _is_number(b):
        return _means_number(a, b)
    return False


def _means_number(a, b) -> bool:
    try:
        x, y = float(a), float(b)
    except (TypeError, ValueError):
        return False
    return abs(x - y) <= 1e-9 * max(1.0, abs(y))


def _sequence(a) -> bool:
    """True for a sized, iterable value that is not text or a mapping (list, tuple, array)."""
    return (hasattr(a, "__len__") and hasattr(a, "__iter__") and getattr(a, "ndim", 1) != 0
            and not isinstance(a, (str, bytes, dict)))


def _a(name: str) -> str:
    """``name`` with its article as it is said: ``_a("UserList")`` -> 'a UserList'"""
    said_vowel = name[:1].lower() in "aeiou" and not name.lower().startswith(("us", "uint", "uni"))
    return f"{'an' if said_vowel else 'a'} {name}"


def _advice(a, b, where: str = "") -> str | None:
    """The first type difference between ``a`` and ``b`` (which mean the same), in words, with
    where it is when it is inside (``at [0]``)."""
    if type(a) is type(b):
        if type(b) in (list, tuple):
            return next((w for i, (x, y) in enumerate(zip(a, b))
                         if (w := _advice(x, y, f"{where}[{i}]"))), None)
        if type(b) is dict:
            return next((w for kb in b for k in a if _means(k, kb)
                         if (w := _advice(k, kb, f"{where} key {kb!r}".strip())
                             or _advice(a[k], b[kb], f"{where}[{kb!r}]"))), None)
        return None
    return (f"at {where}: " if where else "") + _words(a, b)


def _words(a, b) -> str:
    kind, got = type(b).__name__, type(a).__name__
    numpy = type(a).__module__ == "numpy"
    if isinstance(a, str) and not numpy:
        return "write it without quotes: a string is not a number or a True/False"
    if type(b) in (list, tuple):
        brackets = {"list": "[...]", "tuple": "(...)"}
        if numpy:
            how = "x.tolist()" if kind == "list" else "tuple(x.tolist())"
            return f"write {_a(kind)} {brackets[kind]}, e.g. {how}, not a numpy {got}"
        if not isinstance(a, (list, tuple)):
            return f"write {_a(kind)} {brackets[kind]}, e.g. {kind}(x), not {_a(got)}"
        return f"write {_a(kind)} {brackets[kind]}, not {_a(got)} {brackets.get(got, '')}".rstrip()
    if numpy:
        return f"write a plain {kind}, e.g. {kind}(x), not a numpy {got}"
    if type(b) in (int, float, bool):
        return f"write {b!r}, not {a!r}"
    return f"write {_a(kind)}, not {_a(got)}"


def type_advice(answer, expected) -> str | None:
    """How to write ``answer`` when it is the right value in the wrong type; None otherwise.

    ``type_advice(6.0, 6)`` -> 'write 6, not 6.0'
    """
    if same(answer, expected) or not _means(answer, expected):
        return None
    return _advice(answer, expected)
