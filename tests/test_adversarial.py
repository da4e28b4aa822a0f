"""Adversarial submissions, autograded by `tools/grade.py all` in its sandbox.

One throwaway course, lesson 3, one run of the whole pipeline over every case of
tests/adversarial/cases.py plus two spies, a victim and a sleeper (tests/adversarial/graded.py;
tests/test_parallel.py takes the same run as its two-jobs run). Each case must lose exactly the test
cells it names and keep every other point, finish with the expected status, and be reported
(run events and review flags). The spies prove the isolation: from their kernels they can
neither read the instructor's notebooks, the gradebook or another submission, nor write
anything that outlives their kernel; the same spy run without the sandbox can do all of it,
which shows the test would see a leak. The scan alone (no autograde, no sandbox) must list
every case, name each route a case takes to chunklib, and leave the honest solution alone.
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path

import nbformat
import pytest

from tests.adversarial import cases, graded, spy
from tests.nbgrading import (
    RELEASE,
    lesson_notebook,
    lessons,
    new_course,
    set_cells,
    submit,
)
from tools.grading import pipeline, scan

pytestmark = pytest.mark.slow
LESSON = cases.LESSON
SPIES = graded.SPIES
student_id = graded.student_id


@pytest.fixture(scope="module")
def run(adversarial_class):
    return adversarial_class


@pytest.mark.parametrize("case", cases.CASES, ids=lambda c: c.name)
def test_each_case_loses_exactly_its_cells(run, case):
    got = run["scores"][student_id(case)]
    want = {g: 0.0 if case.missing or g in case.lost else p for g, p in run["max"].items()}
    diff = {g: (got.get(g), want[g]) for g in want if got.get(g) != want[g]}
    assert not diff, f"{case.what}: (got, want) {diff}"


@pytest.mark.parametrize("case", cases.CASES, ids=lambda c: c.name)
def test_each_case_finishes_and_is_reported(run, case):
    sid = student_id(case)
    status = run["status"][f"{LESSON}/{sid}"]
    assert status["status"] == case.status
    events = {(e["event"], e["cell"]) for e in status["events"]}
    assert set(case.events) <= events, events
    if not case.events:  # nothing stopped the kernel of an honest or merely wrong submission
        assert not {e for e, _ in events} & {"kernel-died", "kernel-hung", "guard-failed"}
    listed = {r["category"] for r in run["review"] if r["student"] == sid}
    assert set(case.review) <= listed, listed
    manual = pipeline.scores(run["course"], LESSON)[sid][2]
    assert manual is False  # nothing is left waiting for a hand grade


def test_huge_output_is_cut_while_it_arrives(run):
    path = run["root"] / "autograded" / "huge-output" / LESSON / "overlap.ipynb"
    assert path.stat().st_size < 1_000_000


def test_feedback_of_every_case_hides_the_hidden_tests(run):
    pages = list((run["root"] / "feedback").glob(f"*/{LESSON}/*.html"))
    with_notebook = [c for c in cases.CASES if not c.missing]
    # the cases, the victim, the sleeper, the spies
    assert len(pages) == len(with_notebook) + 2 + len(SPIES)
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "BEGIN HIDDEN TESTS" not in text and "_r_starts" not in text, page


# ---------------------------------------------------------------- isolation
BLOCKED = ["read source notebook", "read repo notebook", "read gradebook",
           "read other submission", "list course", "open gradebook for writing",
           "create file in course", "chunklib writable", "site-packages writable",
           "secret in environment", "network", "see other kernels' /tmp"]


@pytest.mark.parametrize("name", SPIES)
def test_the_sandbox_blocks_every_escape(run, name):
    nb = nbformat.read(run["root"] / "autograded" / name / LESSON / "overlap.ipynb",
                       as_version=4)
    report = spy.report(nb)
    assert {k for k in BLOCKED if report[k] == "ok"} == set(), report
    assert report["leave a note in /tmp"] == "ok"  # its own /tmp works, and dies with it


def test_nothing_the_spies_did_outlived_their_kernels(run):
    assert not (run["root"] / "spy-was-here").exists()
    assert not list(Path("/tmp").glob(f"note-from-{run['token']}-*"))
    assert graded.tree_digest(run["root"] / "notebooks") == run["guarded"]["notebooks"]
    full = sum(run["max"].values())
    for name in (*SPIES, "victim"):  # the grades are nbgrader's alone
        assert sum(run["scores"][name].values()) == full


def test_without_the_sandbox_the_same_spy_gets_through(tmp_path):
    """The control: unconfined, the spy reads the instructor's files (so the test can fail)."""
    root = new_course(tmp_path, [LESSON])
    course = pipeline.Course(root)
    pipeline.release(course)
    source = nbformat.read(lesson_notebook(LESSON), as_version=4)
    submit(root, "victim", LESSON, source)
    token = secrets.token_hex(4)
    targets = graded.spy_targets(root)
    targets["chunklib_dir"] = targets["site_packages"] = str(tmp_path)  # probes only, anyway
    submit(root, "spy", LESSON, set_cells(source, {"ex1_stride": spy.spy_cell(
        targets, f"{token}-spy")}))
    try:
        results = pipeline.autograde(course, [LESSON], ["spy"], sandboxed=False,
                                     echo=lambda *_: None)
        assert results[0].status == "graded"
        report = spy.report(nbformat.read(root / "autograded" / "spy" / LESSON /
                                          "overlap.ipynb", as_version=4))
    finally:
        for note in Path("/tmp").glob(f"note-from-{token}-*"):
            note.unlink()
    for attempt in ("read source notebook", "read repo notebook", "read gradebook",
                    "read other submission", "open gradebook for writing",
                    "create file in course"):
        assert report[attempt] == "ok", (attempt, report)


# ---------------------------------------------------------------- the scan alone (no autograde)
def _scan(case: cases.Case) -> list[dict]:
    source = nbformat.read(lesson_notebook(LESSON), as_version=4)
    release = nbformat.read(lesson_notebook(LESSON, RELEASE), as_version=4)
    return scan.scan_notebook(cases.build(case, source), release, source)


@pytest.mark.parametrize("case", [c for c in cases.CASES if not c.missing], ids=lambda c: c.name)
def test_the_scan_lists_each_case_and_names_its_route(case):
    items = _scan(case)
    assert set(case.review) <= {i["category"] for i in items}, items
    routes = " ".join(i["detail"] for i in items if i["category"] == "chunklib")
    assert all(word in routes for word in case.routes), (case.routes, routes)
    if "chunklib" not in case.review:  # only the cases that reach chunklib are flagged for it
        assert not routes, routes


def test_the_scan_leaves_the_honest_solution_alone():
    assert _scan(cases.Case("honest", "the reference solution")) == []


# One snippet per route to a reference version or an answer (lesson-independent).
ROUTES = {
    "from chunklib.widgets.boundaries import recursive_split": "chunklib.widgets.boundaries",
    "from chunklib import windows\nf = windows.stride": "from chunklib",
    "import chunklib.windows as w": "imports chunklib.windows as w",
    "import importlib\nm = importlib.import_module('chunklib.windows')": "import_module",
    "from importlib import import_module as im\nm = im('chunk' + 'lib')": "computed",
    "m = __import__('chunklib.windows')": "__import__",
    "import sys\nm = sys.modules.get('chunklib.windows')": "sys.modules",
    "from sys import modules\nm = modules['x']": "sys.modules",
    "import chunklib\nf = getattr(chunklib.windows, 'str' + 'ide')": "getattr",
    "name = 'chunklib.windows'": "'chunklib.windows' in a string",
    "from chunklib.course.quiz import questions\nq1 = questions('overlap')[0].answer": "questions",
    "from chunklib.course.units import QUIZ": "QUIZ",
    "from chunklib.course.units import CHECKS": "CHECKS",
    "from chunklib.course.selfcheck import verdict": "verdict",
    "from chunklib.course.selfcheck import check\ng = check.__globals__": "check.__globals__",
    "from chunklib.course.selfcheck import check\nspy = [check]": "other than by calling it",
    "from chunklib.course.selfcheck import check\nx = [check('u.ex1', i) for i in range(9)]":
        "loop",
    "from chunklib.course.grade import grade_me\nfor _ in range(3):\n    grade_me()": "loop",
    "from chunklib.course.grade import grade_me\ng = grade_me": "other than by calling it",
    "import chunklib.course.grade\nchunklib.course.grade.grade_me()":
        "imports chunklib.course.grade",
    "f = explain": "explain, which the notebook imported from chunklib.course.quiz",
}


@pytest.mark.parametrize("code", ROUTES, ids=range(len(ROUTES)))
def test_the_scan_flags_every_route_to_chunklib(code):
    found = scan.scan_source(code, helpers={"_same"},
                             notebook={"explain": "chunklib.course.quiz.explain"})
    routes = " ".join(detail for category, detail, _ in found if category == "chunklib")
    assert ROUTES[code] in routes, found


@pytest.mark.parametrize("code", [
    "from chunklib.course.selfcheck import check\ncheck('overlap.ex1_stride', 150)",
    "quiz_widget('overlap')",
    "from chunklib.course.grade import grade_me\ngrade_me()",
    "from chunklib.course.grade import grade_me\ngrade_me('03-overlap')",
    "def span_iou(r, e):\n    return union_length(e) / 2",  # a helper the intro offers
    "import math\nclass Box:\n    size = 3\nprint(getattr(Box, 'size'), math.ceil(2.5))",
    "note = 'see chunklib for the reference'",
])
def test_the_scan_leaves_the_learner_tools_and_plain_code_alone(code):
    notebook = {"quiz_widget": "chunklib.widgets.quiz.quiz_widget"}
    assert scan.scan_source(code, helpers={"_same", "check"}, notebook=notebook) == []


def test_offered_helpers_are_read_from_the_part2_introduction():
    nb = nbformat.read(lesson_notebook("06-evaluation"), as_version=4)
    assert {"union", "union_length", "total_length", "intersection_length"} <= (
        scan.given_helpers(nb))
    assert "union_length" not in scan.notebook_imports(nb)
    assert "summarize" in scan.notebook_imports(nb)


@pytest.mark.parametrize("lesson", lessons())
def test_every_part2_introduction_says_what_answers_may_use(lesson):
    nb = nbformat.read(lesson_notebook(lesson), as_version=4)
    intro = [c.source for c in nb.cells
             if c.metadata.get("nbgrader", {}).get("grade_id") == "part2_intro"]
    assert len(intro) == 1, lesson
    rule = re.search(r"\*\*What your answers may use:\*\*(.*?)(\n\n|$)", intro[0], re.S)
    assert rule, lesson
    text = " ".join(rule[1].split())
    assert "Python's standard library" in text and "from `chunklib`" in text, text
    assert "flags it" in text, text  # and what happens when an answer uses chunklib
