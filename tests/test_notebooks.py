"""Every lesson notebook: clean source, anatomy, quiz and reference from chunklib, a current and
clean release.

Iterates over notebooks/*/, so a new lesson is covered without touching this file. That a
lesson runs top to bottom is shown by the runs that need it anyway: the solution scores full
marks in its graded class (tests/test_autograde.py: every graded cell, hidden tests included,
with the explorers skipped as nbgrader runs it), and the browser test runs the finished lesson
in JupyterLab (tests/test_browser.py: every cell, no error and no stderr, the explorers drawn).
"""

from __future__ import annotations

import json
import re

import nbformat
import pytest

from chunklib.course import chapter_reference
from tests.graded_class import graded_class
from tests.nbgrading import NOTEBOOKS, RELEASE, REPO, lesson_notebook, lessons

LESSONS = lessons()


def test_there_are_lessons():
    assert "03-overlap" in LESSONS


@pytest.mark.parametrize("lesson", LESSONS)
def test_source_has_no_outputs_or_execution_counts(lesson):
    raw = json.loads(lesson_notebook(lesson).read_text(encoding="utf-8"))
    for cell in raw["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None


@pytest.mark.parametrize("lesson", LESSONS)
def test_lesson_anatomy(lesson):
    nb = nbformat.read(lesson_notebook(lesson), as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    number = int(lesson.split("-")[0])
    assert re.search(rf"^# Lesson {number} of 6 · ", nb.cells[0].source, re.M)
    assert "**Objective:**" in nb.cells[0].source and "*Length function" in nb.cells[0].source
    for heading in ("## The idea", "### Predict first", "## Chapter context",
                    "## Try it yourself · Part 1", "## Try it yourself · Part 2",
                    "## Check your understanding", "## Chapter reference"):
        assert heading in text, heading


@pytest.mark.parametrize("lesson", LESSONS)
def test_chapter_reference_is_the_single_source(lesson):
    nb = nbformat.read(lesson_notebook(lesson), as_version=4)
    cells = [c for c in nb.cells if "chapter-reference" in c.metadata.get("tags", [])]
    assert len(cells) == 1
    assert cells[0].source == chapter_reference().strip("\n"), "run tools/sync_reference.py"


def test_chapter_reference_code_runs_and_states_chunklib_figures():
    from chunklib import windows as w

    text = chapter_reference()
    (code,) = re.findall(r"```python\n(.*?)```", text, re.S)
    exec(compile(code, "reference.md", "exec"), {})  # its asserts pin the figures
    assert f"$K = 1 + \\lceil 800 / 150 \\rceil = {w.n_chunks(1000, 200, 50)}$" in text
    assert f"$6 \\times 200 + 100 = {w.stored_positions(1000, 200, 50)}$" in text
    assert f"$K = 1 + \\lceil 750 / 150 \\rceil = {w.n_chunks(1000, 250, 100)}$" in text


@pytest.mark.parametrize("lesson", LESSONS)
def test_quiz_markdown_matches_chunklib(lesson):
    from chunklib.course.quiz import questions

    nb = nbformat.read(lesson_notebook(lesson), as_version=4)
    module = lesson.split("-", 1)[1].replace("-", "_")
    md = [c.source for c in nb.cells if c.cell_type == "markdown"]
    for i, q in enumerate(questions(module), start=1):
        assert q.markdown(i) in md, f"question {i} differs from chunklib.course.{module}"


@pytest.fixture(scope="module", params=LESSONS)
def graded(request, tmp_path_factory):
    return graded_class(request.param, tmp_path_factory)


@pytest.mark.slow
def test_release_is_current_and_clean(graded):
    """release/LESSON is what nbgrader generates from notebooks/LESSON today: the lesson's graded
    class generated it (tests/graded_class.py); ``course.py release`` writes the same files."""
    lesson = graded["lesson"]
    fresh = graded["course"] / "release" / lesson
    committed = sorted(p.relative_to(RELEASE) for p in (RELEASE / lesson).rglob("*")
                       if p.is_file())
    generated = sorted(lesson / p.relative_to(fresh) for p in fresh.rglob("*") if p.is_file())
    assert committed == generated, "run: python3 course.py release"
    for rel in generated:
        assert (RELEASE / rel).read_bytes() == (fresh.parent / rel).read_bytes(), (
            f"release/{rel} is stale: run python3 course.py release")


def test_release_holds_only_the_lesson_notebooks():
    """The instructor's sources beside a notebook (prose templates) stay out of the release."""
    files = sorted(str(p.relative_to(RELEASE)) for p in RELEASE.rglob("*") if p.is_file())
    assert files == sorted(str(lesson_notebook(lesson, RELEASE).relative_to(RELEASE))
                           for lesson in LESSONS)


@pytest.mark.parametrize("lesson", LESSONS)
def test_release_holds_no_solution_and_no_hidden_test(lesson):
    text = lesson_notebook(lesson, RELEASE).read_text(encoding="utf-8")
    for marker in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS",
                   "_alone(", "_r_starts"):
        assert marker not in text, marker
    source = nbformat.read(lesson_notebook(lesson), as_version=4)
    pattern = r"### BEGIN SOLUTION\n(.*?)### END SOLUTION"
    public = "\n".join(re.sub(pattern, "", c.source, flags=re.S) for c in source.cells)
    for cell in source.cells:
        for block in re.findall(pattern, cell.source, re.S):
            for line in block.strip().splitlines():
                # a distinctive solution line that the lesson does not show elsewhere
                if len(line.strip()) > 12 and line not in public:
                    assert json.dumps(line)[1:-1] not in text, line


def test_notebooks_are_named_in_reading_order():
    for lesson in LESSONS:
        assert re.fullmatch(r"0[1-6]-[a-z-]+", lesson)
    assert (REPO / "notebooks") == NOTEBOOKS
