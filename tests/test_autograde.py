"""Real `nbgrader autograde` round trips for every lesson.

Per lesson, in the lesson's one autograde run (tests/graded_class.py): the solution scores
full marks, the blank release scores 0, every wrong solution of ``tests/wrong/lNN_*.py`` loses
exactly the points of the cells it names (and keeps every other point), correct work that
writes to stderr keeps its points, and feedback shows no hidden test.

Wrong solutions that cannot reach each other (``graded_class.can_share``: different cells,
different lost cells, no name of one read by the other's code or lost tests, nothing changed
outside their own names) share a notebook, some of them a grid student's; each one's points
are checked on every cell but those its notebook-mates may lose, which it cannot reach.
"""

from __future__ import annotations

import json

import nbformat
import pytest

from tests.graded_class import Notebook, can_share, graded_class, member, right_members
from tests.nbgrading import lesson_notebook, lessons, wrong_module

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
        student, mates = member(graded, name)
        got = graded["scores"][student]
        want = {gid: (0.0 if gid in lost else pts) for gid, pts in graded["max"].items()
                if gid not in mates}
        if {gid: got[gid] for gid in want} != want:
            diff = {g: (got.get(g), want[g]) for g in want if got.get(g) != want[g]}
            failures.append(f"{name} ({student}): (got, want) {diff}")
    assert not failures, "\n".join(failures)


def test_wrong_solutions_in_one_notebook_cannot_reach_each_other(graded):
    """Each wrong solution is graded once, in a notebook whose other submissions (the other
    wrong solutions; a grid student's Part 1 answers, which may lose every Part 1 item)
    ``can_share`` it; the class autogrades fewer notebooks than it has wrong solutions."""
    wrong, lesson = graded["wrong"], graded["lesson"]
    nb = Notebook(nbformat.read(lesson_notebook(lesson), as_version=4))
    members = dict(wrong.WRONG) | right_members(wrong)
    placed = [name for home in graded["packs"] for name in home["lost"]]
    assert sorted(placed) == sorted(members)
    for home in graded["packs"]:
        others = [members[name] for name in home["lost"]]
        if home["student"].startswith("grid-"):
            kind = home["student"].removeprefix("grid-")
            others.append((graded["grid_cells"][kind], home["also_lost"]))
        for i, a in enumerate(others):
            for b in others[i + 1:]:
                assert can_share(nb, a, b), (lesson, home["student"], a, b)
    assert len(graded["scores"]) < len(wrong.WRONG)


@pytest.mark.parametrize(("extra", "mate", "shares"), [
    ("", "hand_answers_off", True),
    ("", "last_chunk_full", True),
    ("\nq3 = 'A'\n", "hand_answers_off", False),  # binds the answer the mate's lost test reads
    ("\nchunk_lengths = None\n", "last_chunk_full", False),  # binds the mate's function
    ("\nimport math\nmath.ceil = round\n", "last_chunk_full", False),  # changes a module
])
def test_can_share_sees_a_name_one_wrong_solution_gives_another(extra, mate, shares):
    nb = Notebook(nbformat.read(lesson_notebook("03-overlap"), as_version=4))
    wrong = wrong_module("03-overlap").WRONG
    cells, lost = wrong["no_validation"]
    planted = ({"stride": cells["stride"] + extra}, lost)
    assert can_share(nb, planted, wrong[mate]) is shares
    assert can_share(nb, wrong[mate], planted) is shares


def test_stderr_beside_a_correct_answer_costs_nothing(graded):
    if not getattr(graded["wrong"], "NOISY_BUT_RIGHT", None):
        pytest.skip("this lesson has no noisy submission")
    student, mates = member(graded, "noisy")
    got = graded["scores"][student]
    assert {g: got[g] for g in graded["max"] if g not in mates} == {
        g: pts for g, pts in graded["max"].items() if g not in mates}


@pytest.mark.parametrize("graded", ["03-overlap"], indirect=True)  # its class has feedback
def test_feedback_hides_hidden_tests(graded):
    (html,) = (graded["course"] / "feedback" / member(graded, "range_bug")[0]).rglob("*.html")
    text = html.read_text(encoding="utf-8")
    assert "chunk_starts" in text and "AssertionError" in text
    # 1000/250/100, the case range_bug fails, is a visible example; 1000/200/100 is hidden only
    for secret in ("BEGIN HIDDEN TESTS", "_r_starts", "_alone(",
                   "[0, 100, 200, 300, 400, 500, 600, 700, 800]"):
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
