"""Instant self-checks for hands-on answers: right or not yet, with a hint, never the answer;
and ``expect``, the check of a Part 2 function's visible examples.

Each lesson registers its checks in ``chunklib.course.<lesson>`` as ``Check`` objects whose
expected value is *computed* by chunklib when the check runs, so no answer is typed twice.
The grade comes from nbgrader's hidden tests, not from here, but both compare with the one
rule, ``answer_matches``: ``chunklib.exact.same`` (types included), except that a text answer
(a letter, a word) counts whatever its case and surrounding spaces, as the quiz's letters do.
So "Right" here always means the point there, and a Part 2 example cell that passes here passes
in the grader too (``expect``: ``same`` alone).

Leaves out: hiding the answers from a determined reader. chunklib is installed on the
learner's machine, so the expected values can be computed by anyone; a self-check is a
learning aid, not an exam.

    >>> check("overlap.ex1_stride", 150)
    ✓ Right.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from chunklib.exact import same, type_advice


@dataclass(frozen=True)
class Check:
    """One hands-on answer: how to compute it and what to say when an answer is off.

    ``Check(lambda: 150, "The stride is C − O.")``
    """

    expected: Callable[[], object]
    hint: str


def _registry(lesson: str) -> dict[str, Check]:
    module = importlib.import_module(f"chunklib.course.{lesson}")
    return module.CHECKS


def answer_matches(answer: object, expected: object) -> bool:
    """The rule of a hands-on answer: ``same``, but text (a plain ``str``) ignores case and
    surrounding spaces, as the quiz's letters do.

    ``answer_matches(" b", "B")`` -> True
    """
    if isinstance(expected, str):
        return type(answer) is str and answer.strip().casefold() == expected.casefold()
    return same(answer, expected)


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
    if answer_matches(answer, expected):
        return True, "✓ Right."
    advice = type_advice(answer, expected)
    if advice:
        advice = advice[0].upper() + advice[1:]
        return False, f"✗ Not yet: the value is right, but not its type. {advice}."
    return False, f"✗ Not yet. Hint: {item.hint}"


def check(key: str, answer: object) -> None:
    """Print the verdict for ``answer`` to the question ``key`` ("lesson.name").

    ``check("overlap.ex1_k", 6)`` prints ✗ Not yet. Hint: ...
    """
    print(verdict(key, answer)[1])


def expect(result: object, expected: object) -> None:
    """Raise AssertionError, saying what is off, unless ``result`` is ``expected`` by the
    grader's rule (``same``: types included); the visible examples of Part 2 use it.

    ``expect(6.0, 6)`` -> AssertionError: ✗ The value is right, but not its type: write 6, not 6.0.
    """
    if same(result, expected):
        return
    advice = type_advice(result, expected)
    if advice:
        raise AssertionError(f"✗ The value is right, but not its type: {advice}.")
    if hasattr(result, "__next__") and isinstance(expected, (list, tuple)):
        raise AssertionError("✗ Not yet: this example gives an iterator (a generator, map, zip "
                             f"...): return {type(expected).__name__}(...) of it")
    shown = repr(result)
    shown = shown if len(shown) <= 300 else shown[:300] + " ..."
    raise AssertionError(f"✗ Not yet: this example gives {shown}")
