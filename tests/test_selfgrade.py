"""Self-grading (``python3 course.py grade``, ``chunklib.course.grade.grade_me``) end to end.

Fast: the kinds of case named from assertion messages, a case named (and no expected value)
by every hidden assert, unsaved-edit detection, lesson names, a learner copy that says
self-grading needs the full course.
Read from each lesson's graded class (tests/graded_class.py, no run of its own): the report on
every wrong solution confined to one function names that function only and shows no hidden
test.
Autograde round trips of the self-grader itself (about 40 s on one core): the reference
solution of lesson 3 scores full marks with the right message and leaves the notebook
untouched; ``grade_me()`` in a kernel whose notebook has unsaved edits grades the saved file
and says so; a cell that hangs costs one cell's timeout (graded without the sandbox, as on
Binder); the command itself on lesson 3 with one bug in seven functions.
"""

from __future__ import annotations

import ast
import html
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

import course
from chunklib.course import grade as grade_me_module
from tests.graded_class import graded_class, member
from tests.nbgrading import (
    REPO,
    lesson_notebook,
    lessons,
    max_scores,
    require_sandbox,
    set_cells,
    wrong_module,
)
from tools.grading import cases, selfgrade

LESSONS = lessons()


# ---------------------------------------------------------------- naming the case (fast)
@pytest.mark.parametrize(("args", "kind"), [
    ((0, 200, 50), "empty input"),
    ((150, 200, 50), "fits in one chunk"),
    ((1000, 250, 100), "exact fit"),
    ((1000, 200, 199), "overlap at its limit"),
    ((1001, 200, 0), "no overlap"),
    ((1000, 200, 200), "must raise ValueError"),
    ((1000, 200, -1), "must raise ValueError"),
    ((1000, 200, 50), "last chunk is shorter"),
])
def test_overlap_cases_are_named(args, kind):
    assert kind in cases.overlap_case(*args)


CELL = '''\
f = _alone(chunk_starts, "chunk_starts")
assert _same(f(0, 200, 50), []), "empty input"
for args, want in named.items():
    assert _same(f(*args), want), f"chunk_starts{args} is wrong"
for args in bad:
    assert _raises(f, *args), f"chunk_starts{args} must raise ValueError"
assert _same(f(3, 2, 1), [0, 1])
'''


def _error(line: int, ename: str = "AssertionError", evalue: str = "") -> dict:
    # as nbclient stores it: ANSI colours around "Cell In[n], line k"
    return {"ename": ename, "evalue": evalue, "traceback": [
        "\x1b[31m----\x1b[39m",
        f"\x1b[36mCell\x1b[39m\x1b[36m \x1b[39m\x1b[32mIn[12]\x1b[39m\x1b[32m, line {line}\x1b[39m",
        "\x1b[36mCell In[4], line 3\x1b[39m"]}


@pytest.mark.parametrize(("line", "ename", "evalue", "kind"), [
    (2, "AssertionError", "empty input", "empty input"),  # a literal message is the kind
    (2, "ZeroDivisionError", "division by zero", "empty input"),  # raised inside that assert
    (4, "AssertionError", "chunk_starts(1000, 250, 100) is wrong", "exact fit"),
    (4, "TypeError", "boom", ""),  # an f-string's inputs are unknown when the function raised
    (6, "AssertionError", "chunk_starts(1000, 200, 200) must raise ValueError", "ValueError"),
    (7, "AssertionError", "", ""),  # no message: no kind
    (1, "NameError", "name 'chunk_starts' is not defined", ""),
])
def test_kind_of_failure_reads_the_failing_assert(line, ename, evalue, kind):
    got = cases.kind_of_failure(CELL, _error(line, ename, evalue), "03-overlap")
    assert (kind in got) if kind else got == ""


def test_a_case_label_in_an_fstring_message_is_the_kind():
    cell = ("for label, args, want in named:\n"
            "    assert _same(f(*args), want), f\"merge_hits of {args} is wrong: {label}\"\n")
    error = _error(2, evalue="merge_hits of (1, 2) is wrong: spans that only touch")
    assert cases.kind_of_failure(cell, error, "06-evaluation") == "spans that only touch"


def test_an_fstring_message_never_shows_its_inputs():
    got = cases.kind_of_failure(CELL, _error(4, evalue="chunk_starts(7, 5, 2) is wrong"),
                                "01-units")  # no lesson-1 namer: only literal words remain
    assert "7" not in got and "chunk_starts" not in got


GENERATED_END = "# --- end of generated block ---"
CALL_MESSAGE = re.compile(r"^\w+\(.*\) is wrong$")  # a lesson-3 message named from its inputs


def _hidden_asserts(source: str):
    """The ``assert`` statements of a test cell's hidden part below the generated block."""
    hidden, lines = False, set()
    for number, line in enumerate(source.split("\n"), start=1):
        hidden = {"### BEGIN HIDDEN TESTS": True, "### END HIDDEN TESTS": False}.get(
            line.strip(), hidden)
        if hidden:
            lines.add(number)
    before = source.rpartition(GENERATED_END)[0]
    skip = before.count("\n") if before else 0
    body = source[len(before):]
    for node in ast.walk(ast.parse(body)):
        if isinstance(node, ast.Assert) and node.lineno + skip in lines:
            yield node


def _expected_literals(node: ast.Assert) -> set[str]:
    """The digit runs of every number and string literal in the assert's condition."""
    found = set()
    for part in ast.walk(node.test):
        if isinstance(part, ast.Constant) and not isinstance(part.value, bool):
            if isinstance(part.value, (int, float, str)):
                found |= set(re.findall(r"\d+", str(part.value)))
    return found


def message_problem(node: ast.Assert, lesson: str) -> str:
    """Why a hidden assert's message does not name its kind of case in words, or ""."""
    msg = node.msg
    if isinstance(msg, ast.Constant) and isinstance(msg.value, str):
        if re.search(r"\w\(|==|\[", msg.value):
            return f"message {msg.value!r} holds code"
        if not re.search(r"[a-z]{3}", msg.value):
            return f"message {msg.value!r} names no case"
        leaked = set(re.findall(r"\d+", msg.value)) & _expected_literals(node)
        return f"message {msg.value!r} holds the expected {sorted(leaked)}" if leaked else ""
    if isinstance(msg, ast.JoinedStr):
        if any(isinstance(p, ast.FormattedValue) and isinstance(p.value, ast.Name)
               and p.value.id in cases.LABELS for p in msg.values):
            return ""  # the label of a table of named cases
        text = "".join(p.value if isinstance(p, ast.Constant) else "(x)" for p in msg.values)
        if lesson in cases.BY_INPUTS and CALL_MESSAGE.match(text.replace("(x)(x)", "(x)")):
            return ""  # named from its inputs (cases.overlap_case)
        return f"f-string message {ast.unparse(msg)} names no case"
    return "no message" if msg is None else f"message {ast.unparse(msg)} is not a string"


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_hidden_assert_names_its_case_without_its_values(lesson):
    nb = nbformat.read(lesson_notebook(lesson), as_version=4)
    problems, count = [], 0
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if not (grade_id.startswith("test_") and grade_id.endswith(("_hidden", "_examples"))):
            continue
        for node in _hidden_asserts(cell.source):
            count += 1
            if problem := message_problem(node, lesson):
                problems.append(f"{grade_id} line {node.lineno}: {problem}")
    assert count and not problems, problems


@pytest.mark.parametrize("code, problem", [
    ("assert f(1) == [7]\n", "no message"),
    ("assert f(1) == [7], 'a text of 7 units'\n", "holds the expected ['7']"),
    ("assert f(1) == 'x7y', 'case 7'\n", "holds the expected ['7']"),
    ("assert f(1) == [7], 'f(1) == [7]'\n", "holds code"),
    ("assert f(1) == [7], '...'\n", "names no case"),
    ("assert f(a) == w, f'f({a}) is wrong'\n", "names no case"),
    ("assert f(1) == [7], 'a text of 2 units'\n", ""),
    ("assert f(a) == w, f'f: {label}'\n", ""),
])
def test_the_message_check_sees_a_missing_case_or_a_leaked_value(code, problem):
    node = ast.parse(code).body[0]
    got = message_problem(node, "01-units")
    assert (problem in got) if problem else got == "", got
    assert message_problem(ast.parse("assert f(a) == w, f'chunk_starts{a} is wrong'\n").body[0],
                           "03-overlap") == ""


def test_unsaved_cells_counts_code_run_after_the_last_save_and_not_in_the_file():
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("x = 1", execution_count=3),
        nbformat.v4.new_code_cell("%time y = 2", execution_count=4)])
    assert selfgrade.unsaved_cells(nb, {}) == 0
    # run before the save (count <= 4), or saved as run (magics as IPython ran them): nothing
    ran = {1: "x = 0", 3: "x = 1", 5: "get_ipython().run_line_magic('time', 'y = 2')\n"}
    assert selfgrade.unsaved_cells(nb, ran) == 0
    ran |= {6: "x = 2  ", 7: "x = 2", 8: "from chunklib.course.grade import grade_me\ngrade_me()"}
    assert selfgrade.unsaved_cells(nb, ran) == 1


@pytest.mark.parametrize("name", ["3", "03", "overlap", "03-overlap"])
def test_find_lesson(name):
    assert selfgrade.find_lesson(name) == "03-overlap"


def test_grade_me_finds_its_course_and_lesson():
    folder = REPO / "release" / "03-overlap"
    assert grade_me_module.course_root(folder) == REPO
    assert grade_me_module.lesson_of(folder) == "03-overlap"
    assert grade_me_module.lesson_of(REPO / "notebooks" / "03-overlap") is None


def test_a_learner_copy_says_self_grading_needs_the_full_course(tmp_path):
    dest = course.learner_copy(tmp_path / "copy")
    proc = subprocess.run([sys.executable, str(dest / "course.py"), "grade", "03-overlap"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "Self-grading needs the full course" in proc.stdout
    assert not (dest / "build").exists()


# ---------------------------------------------------------------- autograde round trips
def _answers(lesson: str) -> dict[str, str]:
    source = nbformat.read(lesson_notebook(lesson), as_version=4)
    return {c.metadata["nbgrader"]["grade_id"]: c.source for c in source.cells
            if c.metadata.get("nbgrader", {}).get("solution")}


def _learner_notebook(lesson: str, folder: Path, changes: dict[str, str] | None = None,
                      keep_blank: tuple[str, ...] = ()) -> Path:
    """The release notebook with the reference answers (and ``changes``) written in, saved to
    ``folder``: what a learner's saved work looks like."""
    release = nbformat.read(lesson_notebook(lesson, REPO / "release"), as_version=4)
    answers = {k: v for k, v in _answers(lesson).items() if k not in keep_blank}
    path = folder / lesson / lesson_notebook(lesson).name
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(set_cells(release, {**answers, **(changes or {})}), path)
    return path


def one_function_wrongs(lesson: str) -> list[tuple[str, str, set[str]]]:
    """(name, function, lost cells) of every wrong solution of the lesson that changes one Part 2
    function and loses only that function's cells."""
    picks = []
    for name, (cells, lost) in wrong_module(lesson).WRONG.items():
        (fn,) = cells if len(cells) == 1 else (None,)
        if fn and lost <= {f"test_{fn}_examples", f"test_{fn}_hidden"}:
            picks.append((name, fn, lost))
    return picks


def _hidden_secrets(lesson: str) -> set[str]:
    """Expected values and code that only the hidden tests hold (long literal lines)."""
    nb = nbformat.read(lesson_notebook(lesson), as_version=4)
    shown = "\n".join(c.source for c in nbformat.read(
        lesson_notebook(lesson, REPO / "release"), as_version=4).cells)
    out = set()
    for cell in nb.cells:
        for block in re.findall(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS",
                                cell.source, re.S):
            out |= {line.strip() for line in block.splitlines()
                    if len(line.strip()) >= 25 and line.strip() not in shown}
    return out


@pytest.fixture(scope="module")
def state(tmp_path_factory):
    """selfgrade's cache and progress in a folder of the tests' own, not build/ of the repo."""
    require_sandbox()
    folder = tmp_path_factory.mktemp("selfgrade-state")
    saved = selfgrade.STATE
    selfgrade.STATE = folder
    yield folder
    selfgrade.STATE = saved


@pytest.fixture(scope="module")
def reference(state, tmp_path_factory):
    path = _learner_notebook("03-overlap", tmp_path_factory.mktemp("ref"))
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    report = selfgrade.grade("03-overlap", notebook=path)
    return {"path": path, "before": before, "report": report}


@pytest.mark.slow
def test_reference_solution_gets_full_marks_and_says_so(reference):
    report = reference["report"]
    top = sum(max_scores(nbformat.read(lesson_notebook("03-overlap"), as_version=4)).values())
    assert report.score == report.max_score == top
    assert report.to_fix == [] and not report.events
    text = selfgrade.render(report)
    assert text.startswith(f"Lesson 3, Overlap: {top:g} of {top:g} points")
    assert "Everything passes, hidden edge cases included." in text
    assert "as last saved" in text and "unsaved edits in an open notebook are not seen" in text


@pytest.mark.slow
def test_grading_never_changes_the_notebook_and_writes_feedback_beside_it(reference):
    path = reference["path"]
    assert (path.read_bytes(), path.stat().st_mtime_ns) == reference["before"]
    page = path.with_name("overlap.feedback.html")
    assert reference["report"].feedback == str(page) and page.exists()
    text = html.unescape(page.read_text(encoding="utf-8"))
    assert "BEGIN HIDDEN TESTS" not in text and "chunk_starts" in text
    assert not [s for s in _hidden_secrets("03-overlap") if s in text]


@pytest.fixture(scope="module", params=LESSONS)
def graded(request, tmp_path_factory):
    return graded_class(request.param, tmp_path_factory)


def class_report(graded, student: str, mates: set[str] = frozenset()) -> selfgrade.Report:
    """The self-grader's report on ``student``'s notebook as the lesson's graded class autograded
    it (tests/graded_class.py): ``selfgrade.grade`` builds it the same way from its own run.
    The test cells in ``mates`` (lost by the other wrong solutions in the same notebook, which
    ``graded_class.can_share`` shows cannot reach them) count as passed, as they would alone."""
    lesson, course = graded["lesson"], graded["course"]
    source = nbformat.read(lesson_notebook(lesson), as_version=4)
    mine = nbformat.read(lesson_notebook(lesson, course / "autograded" / student), as_version=4)
    blank = nbformat.read(lesson_notebook(lesson, course / "release"), as_version=4)
    scores = {gid: (top if gid in mates else graded["scores"][student][gid], top)
              for gid, top in graded["max"].items()}
    return selfgrade.Report(
        lesson, selfgrade.lesson_title(source), str(lesson_notebook(lesson)), time.time(),
        sum(s for s, _ in scores.values()), sum(graded["max"].values()),
        selfgrade.exercises(source, mine, blank, scores, lesson))


@pytest.mark.slow
def test_a_wrong_solution_names_its_own_function_and_only_that(graded):
    """Every wrong solution that breaks one function, as autograded in the lesson's class: the
    report names that function alone, as the next to fix, and shows no hidden test. (Through
    ``selfgrade.grade`` itself: the reference and ``course.py grade`` tests below.)"""
    lesson = graded["lesson"]
    picks = one_function_wrongs(lesson)
    assert picks, f"{lesson} has no wrong solution confined to one function"
    secrets = _hidden_secrets(lesson)
    assert set(TYPE_WRONGS) & set(wrong_module(lesson).WRONG) <= {name for name, *_ in picks}
    for name, fn, _lost in picks:
        report = class_report(graded, *member(graded, name))
        assert [e.name for e in report.to_fix] == [fn], name
        text = selfgrade.render(report)
        assert f"Next to fix: {fn} (" in text, name
        flagged = [line.split()[1] for line in text.splitlines() if line.strip().startswith("--")]
        assert flagged == [fn], (name, flagged)
        leaked = [s for s in secrets if s in text]
        assert not leaked, (name, leaked[:2])
        if name == "range_bug":  # the done-when case of lesson 3: it fails on an exact fit,
            assert "fails a hidden edge case: an exact fit" in text  # a visible example too
            assert "an example in the notebook fails" in text
        if name in TYPE_WRONGS:  # a right value of the wrong type, as its examples cell says
            assert f"right values of the wrong type: {TYPE_WRONGS[name]}" in text, text


#: wrong solutions whose only fault is a type, and the advice their report must give
TYPE_WRONGS = {"numpy_count": "write a plain int, e.g. int(x), not a numpy int64",
               "int_for_one_chunk": "write 1.0, not 1", "recall_int_zero": "write 0.0, not 0"}


def _course_copy(root: Path) -> Path:
    """A copy of the course as a learner clones it (no .venv, no build/)."""
    for name in ("notebooks", "tools", "release"):
        shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns(
            "__pycache__", "*.feedback.html"))
    for name in ("course.py", "nbgrader_config.py"):
        shutil.copy2(REPO / name, root / name)
    return root


@pytest.mark.slow
def test_grade_me_in_a_notebook_grades_the_saved_file_and_names_unsaved_edits(
        state, reference, tmp_path, kernel_config):
    root = _course_copy(tmp_path / "course")
    shutil.copytree(state / "courses", root / "build" / "selfgrade" / "courses")  # warm cache
    saved = _learner_notebook("03-overlap", root / "release", keep_blank=("stride",))
    before = saved.read_bytes()
    # the open notebook: stride written and run, never saved; then the one-call grade
    open_nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(_answers("03-overlap")["stride"]),
        nbformat.v4.new_code_cell("from chunklib.course.grade import grade_me\n"
                                  "status = grade_me()\n"
                                  "assert status == 0")])
    NotebookClient(open_nb, timeout=300, config=kernel_config, resources={
        "metadata": {"path": str(saved.parent)}}).execute()
    out = "".join(o.get("text", "") for o in open_nb.cells[1].outputs)
    assert saved.read_bytes() == before
    assert "Lesson 3, Overlap: 32 of 35 points" in out, out
    assert re.search(r"-- stride\s+0 of 3\s+not written yet", out), out
    assert "1 cell(s) you ran are not in the saved file" in out, out
    assert "this grade is for the saved file" in out


@pytest.mark.slow
def test_a_hanging_cell_costs_one_cell_timeout_also_without_the_sandbox(
        state, reference, tmp_path, monkeypatch):
    # Binder has no user namespaces: there the grader runs the kernel unconfined, and says so
    monkeypatch.setattr(selfgrade.sandbox, "probe", lambda: "no bubblewrap on this machine")
    timeout = 3
    hang = _answers("03-overlap")["stride"] + "\nwhile True:\n    pass\n"
    path = _learner_notebook("03-overlap", tmp_path, {"stride": hang})
    start = time.monotonic()
    report = selfgrade.grade("03-overlap", notebook=path, timeout=timeout, feedback=False)
    took = time.monotonic() - start
    assert [e["event"] for e in report.events] == ["timeout"]
    assert report.score == report.max_score  # the functions were defined before the loop
    text = selfgrade.render(report)
    assert "While grading: timeout" in text
    assert "without the grading sandbox: no bubblewrap on this machine" in text
    assert took < reference["report"].seconds + timeout + 4, took


@pytest.mark.slow
def test_course_py_grade_on_lesson_3_with_one_bug(state, tmp_path):
    """The command a learner runs: seven functions, one bug, score and the one function."""
    root = _course_copy(tmp_path / "course")
    bug = wrong_module("03-overlap").WRONG["range_bug"][0]
    _learner_notebook("03-overlap", root / "release", bug)
    start = time.monotonic()
    proc = subprocess.run([sys.executable, str(root / "course.py"), "grade", "3"], cwd=root,
                          capture_output=True, text=True, timeout=300)
    took = time.monotonic() - start
    print(f"\ncourse.py grade 3 (first run, gradebook generated): {took:.1f} s")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "Lesson 3, Overlap: 32 of 35 points" in out  # its examples show 1000/250/100 too
    assert ("Next to fix: chunk_starts (an example in the notebook fails (run its cell to see "
            "which); fails a hidden edge case: an exact fit") in out
    assert re.search(r"03-overlap\s+32/35\s+\d\d:\d\d, just now\s+chunk_starts", out)
    assert re.search(r"01-units\s+-\s+not graded yet", out)
    assert (root / "release" / "03-overlap" / "overlap.feedback.html").exists()
    progress = json.loads((root / "build" / "selfgrade" / "progress.json").read_text())
    assert progress["03-overlap"]["to_fix"] == ["chunk_starts"]


def test_render_fits_blank_work_on_few_lines():
    ex = [selfgrade.Exercise(f"to do {i}", "Part 1", 0, 1, ["not answered yet"])
          for i in range(1, 9)]
    ex += [selfgrade.Exercise("stride", "Part 2", 3, 3),
           selfgrade.Exercise("chunk_starts", "Part 2", 0, 3, ["not written yet"])]
    report = selfgrade.Report("03-overlap", "Lesson 3, Overlap", str(REPO / "x.ipynb"),
                              time.time() - 300, 3, 14, ex, unsaved=0)
    text = selfgrade.render(report)
    assert "    -- not answered yet: to do 1, to do 2," in text
    assert re.search(r"ok stride\s+3 of 3", text)
    assert re.search(r"-- chunk_starts\s+0 of 3\s+not written yet", text)
    assert "5 min ago" in text and "unsaved" not in text
    assert "Next to fix: to do 1 (not answered yet), then 8 more" in text
    assert max(len(line) for line in text.splitlines()) <= 100
