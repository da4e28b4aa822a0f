"""Real `nbgrader autograde` round trips for every lesson.

Per lesson, in the lesson's one autograde run (tests/graded_class.py): the solution scores
full marks, the blank release scores 0, every wrong solution of ``tests/wrong/lNN_*.py`` loses
exactly the points of the cells it names (and keeps every other point), correct work that
writes to stderr keeps its points, and feedback shows no hidden test.
"""

from __future__ import annotations

import json

import nbformat
import pytest

from tests.graded_class import graded_class
from tests.nbgrading import lesson_notebook, lessons

pytestmark = pytest.mark.slow


# one xdist group per lesson (tests/conftest.py): each lesson's class is autograded once, on one
# worker, in parallel with the other lessons; the run is shared with test_grading_agreement.py
@pytest.fixture(scope="module", params=lessons())
def graded(request, tmp_path_factory):
    return graded_class(request.param, tmp_path_factory)


def test_solution_scores_full_marks(graded):
    assert graded["scores"]["solution"] == graded["max"], graded["log"][-3000:]


def test_blank_release_scores_zero(graded):
    got = graded["scores"]["blank"]
    assert set(got) == set(graded["max"])
    assert sum(got.values()) == 0, {k: v for k, v in got.items() if v}


def test_each_lesson_has_enough_wrong_solutions(graded):
    assert len(graded["wrong"].WRONG) >= 5


def test_wrong_solutions_lose_exactly_their_points(graded):
    failures = []
    for name, (_cells, lost) in graded["wrong"].WRONG.items():
        got = graded["scores"][f"wrong-{name}".replace("_", "-")]
        want = {gid: (0.0 if gid in lost else pts) for gid, pts in graded["max"].items()}
        if got != want:
            diff = {g: (got.get(g), want[g]) for g in want if got.get(g) != want[g]}
            failures.append(f"{name}: (got, want) {diff}")
    assert not failures, "\n".join(failures)


def test_stderr_beside_a_correct_answer_costs_nothing(graded):
    if not getattr(graded["wrong"], "NOISY_BUT_RIGHT", None):
        pytest.skip("this lesson has no noisy submission")
    assert graded["scores"]["noisy"] == graded["max"]


def test_feedback_hides_hidden_tests(graded):
    if graded["lesson"] != "03-overlap":
        pytest.skip("feedback is checked on lesson 3")
    (html,) = (graded["course"] / "feedback" / "wrong-range-bug").rglob("*.html")
    text = html.read_text(encoding="utf-8")
    assert "chunk_starts" in text and "AssertionError" in text
    for secret in ("BEGIN HIDDEN TESTS", "_r_starts", "_alone(", "[0, 150, 300, 450, 600, 750]"):
        assert secret not in text, secret


def test_explorers_are_not_drawn_while_autograding(graded):
    """nbgrader sets NBGRADER_EXECUTION in the kernel: explorers and pictures are skipped, so an
    autograde pays only for what it grades (the solution still scores full marks above)."""
    notebook = lesson_notebook(graded["lesson"], graded["course"] / "autograded" / "solution")
    outputs = [o for c in nbformat.read(notebook, as_version=4).cells
               if c.cell_type == "code" for o in c.get("outputs", [])]
    text = json.dumps(outputs)
    assert "is not drawn while nbgrader runs this notebook" in text
    assert "image/png" not in text and '"format": "png"' not in text
