"""Instant self-checks for hands-on answers: right or not yet, with a hint, never the answer.

Each lesson registers its checks in ``chunklib.course.<lesson>`` as ``Check`` objects whose
expected value is *computed* by chunklib when the check runs, so no answer is typed twice.
The grade comes from nbgrader's hidden tests, not from here; a self-check only helps.

Leaves out: hiding the answers from a determined reader. chunklib is installed on the
learner's machine, so the expected values can be computed by anyone; a self-check is a
learning aid, not an exam.

    >>> check("overlap.ex1_stride", 150)
    ✓ Right.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Check:
    """One hands-on answer: how to compute it and what to say when an answer is off.

    ``Check(lambda: 150, "The stride is C − O.")``
    """

    expected: Callable[[], object]
    hint: str
    tolerance: float = 0.0


def _registry(lesson: str) -> dict[str, Check]:
    module = importlib.import_module(f"chunklib.course.{lesson}")
    return module.CHECKS


def verdict(key: str, answer: object) -> tuple[bool | None, str]:
    """(True, message) when right, (False, hint) when not, (None, prompt) when unanswered.

    ``verdict("overlap.ex1_stride", 150)`` -> (True, '✓ Right.')
    """
    lesson, _, name = key.partition(".")
    checks = _registry(lesson)
    if name not in checks:
        raise ValueError(f"key: no self-check named {key!r}; known: {sorted(checks)}")
    item = checks[name]
    if answer is None or answer is Ellipsis:
        return None, "… No answer yet: replace None with your answer and run the cell again."
    expected = item.expected()
    if isinstance(expected, bool) or not isinstance(expected, (int, float)):
        ok = type(answer) is type(expected) and answer == expected
    elif isinstance(answer, bool) or not isinstance(answer, (int, float)):
        return False, f"✗ Not yet: the answer is a number, you gave {type(answer).__name__}."
    elif type(expected) is int and type(answer) is not int:
        # the hidden tests compare whole numbers as ints, so 7.0 must not be called right
        return False, ("✗ Not yet: the answer is a whole number, written as an int, you gave "
                       f"{type(answer).__name__}.")
    else:
        ok = math.isclose(answer, expected, rel_tol=item.tolerance, abs_tol=item.tolerance)
    return (True, "✓ Right.") if ok else (False, f"✗ Not yet. Hint: {item.hint}")


def check(key: str, answer: object) -> None:
    """Print the verdict for ``answer`` to the question ``key`` ("lesson.name").

    ``check("overlap.ex1_k", 6)`` prints ✗ Not yet. Hint: ...
    """
    print(verdict(key, answer)[1])
