"""The self-check and real `nbgrader autograde` agree, and every form of a correct function scores.

Per lesson, the students below, autograded in the lesson's one run (tests/graded_class.py):
- six grid students, one per kind of answer (right; the right value as a float, as numpy
  numbers, as a string (a text answer in the other case, a space before it); a wrong value;
  None), each giving that kind of answer to every Part 1
  item. For every item and kind, "✓ Right." from the self-check (printed in the autograded
  notebook, and ``selfcheck.verdict`` here) goes with the point, anything else with 0;
- the grid's right student also writes its Part 2 functions in the forms of ``FORMS`` in turn
  (keyword-only default, functools.wraps, functools.lru_cache, a helper of their own, a lambda,
  a callable object) and scores full marks.
- an examples cell loses its point only on a line the learner's copy has too (its visible
  examples check with the grader's rule, ``selfcheck.expect``), so "the examples pass" in the
  learner's notebook always means the point;
- every correct function written another way (``VARIANTS`` of tests/wrong/lNN_*.py: another
  algorithm, a result built in another order or container and then converted, the standard
  library instead of a given helper) scores full marks, in whichever notebook the class packs it.
Some other grid students also carry wrong Part 2 functions (tests/test_autograde.py checks
their points); ``graded_class.can_share`` shows that those cannot reach a Part 1 item.
"""

from __future__ import annotations

import nbformat
import pytest

from chunklib.course import selfcheck
from chunklib.exact import same
from tests.graded_class import KINDS, _expected, graded_class, member
from tests.nbgrading import lesson_notebook, lessons
from tools.grading import cases

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=lessons())
def graded(request, tmp_path_factory):
    return graded_class(request.param, tmp_path_factory)


def test_the_grid_covers_every_kind_of_answer(graded):
    distinct = {kind for (kind, key), value in graded["grid"].items()
                if kind == "right" or not same(value, _expected(key))}
    assert distinct == set(KINDS)
    assert len(graded["items"]) >= 7


def test_self_check_and_autograde_agree_on_every_answer(graded):
    disagreements = []
    for kind in KINDS:
        got = graded["scores"][f"grid-{kind}"]
        for key, _answer, gid in graded["items"]:
            value = graded["grid"][kind, key]
            point = got[gid] == graded["max"][gid]
            said_right = selfcheck.verdict(key, value)[0] is True
            printed = graded["printed"][kind, gid].strip()
            shown_right = printed.startswith("✓ Right.")
            if not (point == said_right == shown_right) or not printed:
                disagreements.append(f"{kind} {key}={value!r}: point {point}, verdict "
                                     f"{said_right}, printed {printed!r}")
            if kind == "right" and not point:
                disagreements.append(f"the right answer to {key} loses its point")
    assert not disagreements, "\n".join(disagreements)


def test_every_form_of_a_correct_function_scores_full_marks(graded):
    assert len(set(graded["forms"].values())) >= min(4, len(graded["forms"]))
    got = graded["scores"]["grid-right"]
    lost = {gid: (got[gid], pts) for gid, pts in graded["max"].items() if got[gid] != pts}
    assert not lost, (graded["forms"], lost)


def test_every_correct_function_written_another_way_scores_full_marks(graded):
    variants = getattr(graded["wrong"], "VARIANTS", {})
    assert len(variants) >= 4
    lost = {}
    for name, cells in variants.items():
        student, mates = member(graded, f"variant {name}")
        got = graded["scores"][student]
        mine = {gid for fn in cells for gid in (f"test_{fn}_examples", f"test_{fn}_hidden")}
        assert mine <= set(graded["max"]) and not mine & mates, (name, mates)
        lost |= {(name, gid): got[gid] for gid in mine if got[gid] != graded["max"][gid]}
    assert not lost, lost


def hidden_lines(source: str) -> set[int]:
    """The line numbers of a test cell that nbgrader removes from the learner's copy."""
    lines, inside = set(), False
    for number, line in enumerate(source.splitlines(), 1):
        inside = inside or "### BEGIN HIDDEN TESTS" in line
        if inside:
            lines.add(number)
        inside = inside and "### END HIDDEN TESTS" not in line
    return lines


def test_an_examples_cell_loses_its_point_only_where_the_learner_sees_it_fail(graded):
    """No examples cell of any student in the class loses its point on a hidden comparison
    (an AssertionError on a line the learner's copy lacks): a name error or a crash on a hidden
    line would stop the learner's copy on its first visible example too."""
    checked, unseen = 0, []
    for student, got in graded["scores"].items():
        lost = {gid for gid, pts in got.items()
                if gid.endswith("_examples") and pts < graded["max"][gid]}
        if not lost:
            continue
        notebook = lesson_notebook(graded["lesson"], graded["course"] / "autograded" / student)
        for cell in nbformat.read(notebook, as_version=4).cells:
            gid = cell.metadata.get("nbgrader", {}).get("grade_id")
            errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
            if gid in lost and errors:
                line = cases.failing_line(errors[0].get("traceback", []))
                checked += 1
                hidden = line in hidden_lines(cell.source)
                if hidden and errors[0].get("ename") == "AssertionError":
                    unseen.append(f"{student} {gid}: {errors[0].get('evalue', '')[:80]}")
    assert checked >= 3
    assert not unseen, "the grader took these points on a line the learner does not see:\n" + (
        "\n".join(unseen))
