"""Argument checks shared by every chunklib function.

Each check raises ``TypeError`` for a value of the wrong type and ``ValueError`` for a value
out of range, and both messages name the argument, so a learner sees *which* input was wrong.
``bool`` is rejected where an int is needed (``True`` is an ``int`` in Python, never a size).

Leaves out: coercion. Nothing here turns ``"200"`` or ``200.0`` into ``200``; callers pass ints.

    >>> require_int("size", 200, minimum=1)
    200
"""

from __future__ import annotations

import numbers


def require_int(name: str, value: object, *, minimum: int | None = None) -> int:
    """Return ``value`` if it is an int (not a bool) and at least ``minimum``.

    ``require_int("n", -1, minimum=0)`` -> ValueError: n must be >= 0, got -1
    """
    if type(value) is not int:  # a plain int skips the slower abstract-class check
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
        value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return value


def require_text(text: object, name: str = "text") -> str:
    """Return ``text`` if it is a str.

    ``require_text(b"abc")`` -> TypeError: text must be a str, got bytes
    """
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a str, got {type(text).__name__}")
    return text


def require_window(size: object, overlap: object) -> tuple[int, int]:
    """Check a chunk size and an overlap together: ``0 <= overlap < size``.

    ``require_window(200, 200)`` -> ValueError: overlap must be smaller than size ...
    """
    size = require_int("size", size, minimum=1)
    overlap = require_int("overlap", overlap, minimum=0)
    if overlap >= size:
        raise ValueError(
            f"overlap must be smaller than size (got overlap={overlap}, size={size}): "
            "the stride size - overlap would not move forward"
        )
    return size, overlap


def require_spans(name: str, spans: object) -> list[tuple[int, int]]:
    """Check a list of half-open ``(start, end)`` int intervals with ``0 <= start <= end``.

    ``require_spans("spans", [(0, 3), (2, 5)])`` -> [(0, 3), (2, 5)]
    """
    if isinstance(spans, (str, bytes)) or not hasattr(spans, "__iter__"):
        raise TypeError(f"{name} must be a list of (start, end) pairs, got {type(spans).__name__}")
    out = []
    for i, span in enumerate(spans):
        if type(span) is tuple and len(span) == 2:  # the common case, checked inline
            start, end = span
            if type(start) is int and type(end) is int and 0 <= start <= end:
                out.append(span)
                continue
        try:
            start, end = span
        except (TypeError, ValueError):
            raise TypeError(f"{name}[{i}] must be a (start, end) pair, got {span!r}") from None
        start = require_int(f"{name}[{i}] start", start, minimum=0)
        end = require_int(f"{name}[{i}] end", end, minimum=0)
        if end < start:
            raise ValueError(f"{name}[{i}] ends before it starts: {span!r}")
        out.append((start, end))
    return out
