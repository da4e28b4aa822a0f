"""The instructor's pipeline (tools/grade.py) end to end, and what it relies on.

- Every Part 2 function of every lesson has a wrong solution in tests/wrong/ (a lesson without
  its wrong solutions fails here).
- collect: nbgrader's layout and ``<student>/<notebook>``, in a folder or a zip; misnamed,
  missing and unreadable notebooks; no path leaves the archive.
- export: the score in grades.csv is net of nbgrader's late penalty.
- scan: what the review flags, and no reference solution is ever flagged.
- The documented commands on two sample students of every lesson (the reference solution and
  a wrong solution, in the two layouts collect accepts, in one zip): release, collect,
  autograde in the sandbox, feedback without hidden tests, the grade tables; the autograde
  seconds per student are printed.
- nbgrader's exchange on this machine: two students who are real, different users fetch,
  submit and fetch feedback; the instructor releases, collects and grades.
"""

from __future__ import annotations

import csv
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import nbformat
import pytest

from tests.nbgrading import (
    NBGRADER,
    REPO,
    env,
    lesson_notebook,
    lessons,
    max_scores,
    new_course,
    part2_functions,
    require_sandbox,
    set_cells,
    wrong_module,
)
from tools.grading import cli, collect, export, pipeline, sandbox, scan

LESSONS = lessons()


# ---------------------------------------------------------------- wrong solutions cover Part 2
@pytest.mark.parametrize("lesson", LESSONS)
def test_every_part2_function_has_a_wrong_solution(lesson):
    source = nbformat.read(lesson_notebook(lesson), as_version=4)
    try:
        wrong = wrong_module(lesson).WRONG
    except ModuleNotFoundError:
        pytest.fail(f"{lesson} has no tests/wrong/l{lesson.replace('-', '_', 1)}.py")
    grade_ids = {c.metadata.get("nbgrader", {}).get("grade_id") for c in source.cells}
    for name, (cells, lost) in wrong.items():
        assert set(cells) <= grade_ids, f"{name} replaces cells the lesson does not have"
        assert lost and lost <= set(max_scores(source)), f"{name} must lose graded cells"
    uncovered = [fn for fn in part2_functions(source)
                 if not any(fn in cells and lost & {f"test_{fn}_examples", f"test_{fn}_hidden"}
                            for cells, lost in wrong.values())]
    assert part2_functions(source), f"{lesson} has no Part 2 functions"
    assert not uncovered, f"{lesson}: no wrong solution for {uncovered}"


# ---------------------------------------------------------------- collect
@pytest.fixture
def course(tmp_path):
    return pipeline.Course(new_course(tmp_path, ["03-overlap"]))


def _nb_bytes(lesson="03-overlap") -> bytes:
    return lesson_notebook(lesson).read_bytes()


def test_collect_folder_layouts_and_repairs(course, tmp_path):
    inbox = tmp_path / "inbox"
    for rel in ("alice/03-overlap/overlap.ipynb", "bob/overlap.ipynb",
                "carol/03-overlap/overlap (1).ipynb", "dave/03-overlap/.ipynb_checkpoints/x.ipynb",
                "erin/03-overlap/a.ipynb", "erin/03-overlap/b.ipynb"):
        (inbox / rel).parent.mkdir(parents=True, exist_ok=True)
        (inbox / rel).write_bytes(_nb_bytes())
    (inbox / "frank/03-overlap/overlap.ipynb").parent.mkdir(parents=True)
    (inbox / "frank/03-overlap/overlap.ipynb").write_text("{not json")
    (inbox / "gina/03-overlap").mkdir(parents=True)
    done, notes = collect.collect(course, inbox)
    assert sorted(done) == ["alice/03-overlap", "bob/03-overlap", "carol/03-overlap",
                            "dave/03-overlap", "gina/03-overlap"]
    sub = course.root / "submitted"
    for student in ("alice", "bob", "carol"):
        assert (sub / student / "03-overlap" / "overlap.ipynb").read_bytes() == _nb_bytes()
    assert not any((sub / "dave" / "03-overlap").iterdir())  # checkpoints are not submissions
    assert not any((sub / "gina" / "03-overlap").iterdir())
    text = "\n".join(notes)
    assert "carol/03-overlap: took overlap (1).ipynb as overlap.ipynb" in text
    assert "erin/03-overlap: skipped, 2 notebooks" in text
    assert "frank/03-overlap: skipped" in text and not (sub / "frank").exists()


def test_collect_zip_keeps_every_path_inside_the_course(course, tmp_path):
    archive = tmp_path / "week.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("export/alice/03-overlap/overlap.ipynb", _nb_bytes())
        zf.writestr("../../evil/03-overlap/overlap.ipynb", _nb_bytes())
        zf.writestr("/abs/03-overlap/overlap.ipynb", _nb_bytes())
        zf.writestr("__MACOSX/alice/03-overlap/overlap.ipynb", b"junk")
        zf.writestr("bad id!/overlap.ipynb", _nb_bytes())
    done, notes = collect.collect(course, archive)
    assert done == ["alice/03-overlap"]
    assert "not a usable student id" in "\n".join(notes)
    assert not (tmp_path / "evil").exists() and not Path("/abs").exists()


# ---------------------------------------------------------------- export
def _one_cell_lesson(gb, **assignment):
    """Lesson 3 in the gradebook as one notebook with one 2-point test cell."""
    gb.add_assignment("03-overlap", **assignment)
    gb.add_notebook("overlap", "03-overlap")
    gb.add_grade_cell("test_q1", "overlap", "03-overlap", max_score=2, cell_type="code")


def test_export_takes_off_the_late_penalty(course):
    """grades.csv gives the score net of nbgrader's late penalty, as `nbgrader export` does (the
    gradebook keeps a submission's score and its penalty apart), and how late it came."""
    with pipeline.alembic_in_process(), course.gradebook() as gb:
        _one_cell_lesson(gb, duedate="2026-12-01 12:00:00")
        for student, penalty in (("erin", 2.0), ("frank", 0.5), ("gina", 0.0)):
            gb.add_student(student)
            (notebook,) = gb.add_submission("03-overlap", student,
                                            timestamp="2026-12-02 12:00:00").notebooks
            notebook.grades[0].auto_score = 2.0
            notebook.late_submission_penalty = penalty
        gb.db.commit()
    rows = export.grade_rows(course, items=[])
    assert {r["student"]: r["score"] for r in rows} == {"erin": 0.0, "frank": 1.5, "gina": 2.0}
    assert {r["max_score"] for r in rows} == {2.0}
    assert {r["student"]: r["late_penalty"] for r in rows} == {"erin": 2.0, "frank": 0.5,
                                                               "gina": 0.0}
    assert {r["seconds_late"] for r in rows} == {86400.0}  # a day after the due date


def test_a_submission_waiting_for_a_hand_grade_is_listed_for_review(course):
    """A score changed in the formgrader and then autograded again is left for a hand grade
    (nbgrader's needs_manual_grade): review.md lists it, not only a column of grades.csv."""
    with pipeline.alembic_in_process(), course.gradebook() as gb:
        _one_cell_lesson(gb)
        for student, needs in (("hana", True), ("ivan", False)):
            gb.add_student(student)
            (notebook,) = gb.add_submission("03-overlap", student).notebooks
            notebook.grades[0].auto_score = 2.0
            notebook.grades[0].manual_score = 1.0 if needs else None
            notebook.grades[0].needs_manual_grade = needs
            (course.root / "submitted" / student / "03-overlap").mkdir(parents=True)
        gb.db.commit()
    items = export.review_items(course, ["03-overlap"])
    assert [(i["student"], i["category"]) for i in items] == [("hana", "needs manual grade")]
    assert "formgrader" in items[0]["detail"]


# ---------------------------------------------------------------- scan
@pytest.mark.parametrize(("code", "category"), [
    ("from chunklib.windows import chunk_starts", "chunklib"),
    ("import chunklib\nf = chunklib.windows.stride", "chunklib"),
    ("import builtins\nbuiltins.len = lambda x: 0", "builtins"),
    ("type = lambda x: object", "builtins"),
    ("_same = lambda a, b: True", "test-helpers"),
    ("import chunklib.course.selfcheck\nchunklib.course.selfcheck.check = print", "test-helpers"),
    ("import os\nos._exit(0)", "exit"),
    ("from os import _exit as leave\nleave(0)", "exit"),
    ("import importlib\nm = importlib.import_module('chunklib.windows')", "chunklib"),
    ("import sys\nsys.exit()", "exit"),
    ("import sys\nx = sys._getframe(1).f_locals", "interpreter"),
    ("get_ipython().showtraceback = None", "interpreter"),
    ("!cat /etc/passwd", "interpreter"),
    ("class A:\n    def __eq__(self, o):\n        return True", "always-equal"),
    ("import subprocess", "io"),
    ("def f(:", "syntax"),
])
def test_scan_flags(code, category):
    found = scan.scan_source(code, helpers={"_same", "check"})
    assert category in {c for c, _, _ in found}, found


@pytest.mark.parametrize("code", [
    "import math\ndef f(n):\n    return [min(n, 3) for type in range(2)]",
    "def chunk_starts(n, size, overlap):\n    starts = []\n    return starts",
    "from chunklib.course.selfcheck import check\ncheck('x', 1)",
    "class P:\n    def __eq__(self, other):\n        return self.x == other.x",
    "note = 'chunklib writes spans'\nprint(note)",
])
def test_scan_leaves_ordinary_code_alone(code):
    assert scan.scan_source(code, helpers={"_same", "check"}) == []


@pytest.mark.parametrize("lesson", LESSONS)
def test_reference_solution_and_release_are_not_flagged(lesson):
    source = nbformat.read(lesson_notebook(lesson), as_version=4)
    release = nbformat.read(lesson_notebook(lesson, REPO / "release"), as_version=4) \
        if (REPO / "release" / lesson).is_dir() else source
    assert scan.scan_notebook(source, release, source) == []


# ---------------------------------------------------------------- nbgrader's metadata check
@pytest.mark.parametrize("meta", [
    {"grade": True, "solution": False, "locked": True, "grade_id": "t", "points": 1,
     "schema_version": 3},
    {"grade": "yes", "solution": False, "locked": True, "grade_id": "t", "schema_version": 3},
    {"solution": False, "grade_id": "t", "schema_version": 3},
    {"grade": True, "solution": False, "locked": True, "grade_id": "t", "points": "one",
     "schema_version": 3},
])
def test_nbgrader_checks_metadata_as_jsonschema_validate_does(meta):
    """The pipeline (and the tests' nbgrader command, which imports it) checks nbgrader's schema
    once per process: every cell still gets jsonschema.validate's verdict and error."""
    import jsonschema
    from nbgrader.nbgraderformat import common
    from nbgrader.nbgraderformat.v3 import MetadataValidatorV3

    assert isinstance(common.jsonschema, pipeline._SchemaCheckedOnce)
    schema = MetadataValidatorV3().schema

    def verdict(validate):
        try:
            validate(meta, schema)
        except jsonschema.ValidationError as error:
            return error.message, list(error.path), error.validator
        return "valid"

    assert verdict(common.jsonschema.validate) == verdict(jsonschema.validate)
    with pytest.raises(jsonschema.SchemaError):  # the schema itself is still checked
        common.jsonschema.validate(meta, {"type": "no such type"})


# ---------------------------------------------------------------- the whole pipeline
SAMPLES = ("alice", "carol")  # the reference solution, a wrong solution (the blank release
# scoring 0 is tests/test_autograde.py's)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Run the documented commands, one by one, on a zip of 2 students x every lesson."""
    require_sandbox()
    tmp = tmp_path_factory.mktemp("instructor")
    root = new_course(tmp, LESSONS)
    assert cli.main(["release", "--course", str(root)]) == 0
    expected = {}
    archive = tmp / "submissions.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for lesson in LESSONS:
            source = nbformat.read(lesson_notebook(lesson), as_version=4)
            name = lesson_notebook(lesson).name
            cells, lost = next(iter(wrong_module(lesson).WRONG.values()))
            top = max_scores(source)
            zf.writestr(f"export/alice/{lesson}/{name}", nbformat.writes(source))
            zf.writestr(f"export/carol/{name}", nbformat.writes(set_cells(source, cells)))
            expected[("alice", lesson)] = sum(top.values())
            expected[("carol", lesson)] = sum(p for g, p in top.items() if g not in lost)
            expected[("max", lesson)] = sum(top.values())
    for step in (["collect", str(archive)], ["autograde"], ["feedback"], ["export"]):
        assert cli.main([*step, "--course", str(root)]) == 0, step
    course = pipeline.Course(root)
    status = pipeline.load_status(course)
    print("\nautograde seconds per student (all lessons):")
    for student in SAMPLES:
        per = [status[f"{lesson}/{student}"]["seconds"] for lesson in LESSONS]
        print(f"  {student}: {sum(per):.1f} s in all ({', '.join(f'{s:.1f}' for s in per)})")
    return {"course": course, "expected": expected, "status": status}


def _csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.mark.slow
def test_release_has_neither_solutions_nor_hidden_tests(graded):
    for lesson in LESSONS:
        text = lesson_notebook(lesson, graded["course"].root / "release").read_text()
        assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text


@pytest.mark.slow
def test_grade_table_has_every_student_and_lesson(graded):
    rows = _csv(graded["course"].exports / "grades.csv")
    got = {(r["student"], r["lesson"]): r for r in rows}
    assert set(got) == {(s, lesson) for s in SAMPLES for lesson in LESSONS}
    for (student, lesson), row in got.items():
        assert float(row["score"]) == graded["expected"][(student, lesson)], (student, lesson)
        assert float(row["max_score"]) == graded["expected"][("max", lesson)]
        assert row["status"] == "graded" and row["needs_manual_grade"] == "False"
        assert float(row["autograde_seconds"]) > 0


@pytest.mark.slow
def test_grades_by_student_totals(graded):
    rows = {r["student"]: r for r in _csv(graded["course"].exports / "grades-by-student.csv")}
    for student in SAMPLES:
        total = sum(graded["expected"][(student, lesson)] for lesson in LESSONS)
        assert float(rows[student]["total"]) == pytest.approx(total)


def _hidden_lines(source) -> set[str]:
    """Distinctive lines that appear only inside hidden test blocks."""
    release_text = "\n".join(c.source for c in source.cells)
    lines = set()
    for cell in source.cells:
        for block in re.findall(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS",
                                cell.source, re.S):
            for line in block.splitlines():
                line = line.strip()
                if len(line) >= 25 and release_text.count(line) == 1:
                    lines.add(line)
    return lines


@pytest.mark.slow
def test_feedback_shows_no_hidden_test(graded):
    root = graded["course"].root
    for lesson in LESSONS:
        secrets = _hidden_lines(nbformat.read(lesson_notebook(lesson), as_version=4))
        assert secrets, lesson
        for student in SAMPLES:
            (page,) = (root / "feedback" / student / lesson).glob("*.html")
            text = html.unescape(page.read_text(encoding="utf-8"))
            assert "BEGIN HIDDEN TESTS" not in text
            leaked = [s for s in secrets if s in text]
            assert not leaked, (lesson, student, leaked[:3])


@pytest.mark.slow
def test_review_lists_nothing_for_the_reference_solution(graded):
    rows = _csv(graded["course"].exports / "review.csv")
    assert not [r for r in rows if r["student"] == "alice"]
    assert (graded["course"].exports / "review.md").read_text().startswith("# Submissions")


@pytest.mark.slow
def test_grade_py_reexecutes_itself_in_the_venv(tmp_path):
    python = shutil.which("python3") or sys.executable
    proc = subprocess.run([python, str(REPO / "tools" / "grade.py"), "--help"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "tools/grade.py all PATH" in proc.stdout


# ---------------------------------------------------------------- two students, one machine
USERS = {"alice": 20301, "bob": 20302}
COURSE_ID = "chunking-strategies"


def _closed_ancestors(path: str) -> list[Path]:
    return [a for a in reversed(Path(path).parents)
            if str(a) != "/" and not os.stat(a).st_mode & 0o001]


def _as_user(tmp: Path, user: str, *args: str) -> subprocess.CompletedProcess:
    """Run ``args`` as a real, unprivileged user (uid USERS[user]) with a home of its own.

    bwrap gives the process an /etc/passwd naming the two students and, when Python lives
    under a folder closed to others (e.g. /root/.pyenv), exposes just that Python; setpriv then
    drops root for the student's uid. File permissions in the exchange are the real ones.
    """
    uid, home = USERS[user], tmp / "home" / user
    argv = [sandbox.bwrap(), "--dev-bind", "/", "/", "--ro-bind", str(tmp / "passwd"),
            "/etc/passwd", "--ro-bind", str(tmp / "group"), "/etc/group"]
    for prefix in sorted({sys.base_prefix, sys.prefix}):
        closed = _closed_ancestors(prefix)
        if closed:
            top = closed[0]
            argv += ["--tmpfs", str(top)]
            for folder in reversed(Path(prefix).parents):
                if top in folder.parents:
                    argv += ["--perms", "0755", "--dir", str(folder)]
            argv += ["--ro-bind", prefix, prefix]
    argv += ["--chdir", str(home), "--", shutil.which("setpriv"), f"--reuid={uid}",
             f"--regid={uid}", "--clear-groups", "env", f"HOME={home}", f"USER={user}",
             f"PATH={Path(sys.executable).parent}:/usr/bin:/bin", *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def exchange(tmp_path_factory):
    """Release, fetch, submit, collect, autograde, feedback through nbgrader's exchange."""
    require_sandbox()
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("acting as two students needs root and setpriv")
    # not under pytest's temporary folder, which only root may enter: the students must
    # reach their homes and the exchange
    tmp = Path(tempfile.mkdtemp(prefix="exchange-", dir="/tmp"))
    tmp.chmod(0o711)
    try:
        yield _exchange_run(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _exchange_run(tmp: Path) -> dict:
    lesson = "03-overlap"
    root = new_course(tmp, [lesson])
    box = tmp / "exchange"
    common = [f"--Exchange.root={box}", f"--CourseDirectory.course_id={COURSE_ID}"]
    (tmp / "passwd").write_text("root:x:0:0:root:/root:/bin/sh\n" + "".join(
        f"{u}:x:{i}:{i}::{tmp}/home/{u}:/bin/sh\n" for u, i in USERS.items()))
    (tmp / "group").write_text("root:x:0:\n" + "".join(f"{u}:x:{i}:\n" for u, i in USERS.items()))

    def instructor(*args):
        proc = subprocess.run([sys.executable, "-c", NBGRADER, *args, *common], cwd=root,
                              env=env(), capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]

    def student(user, *args):
        proc = _as_user(tmp, user, sys.executable, "-c", NBGRADER, *args, *common)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]

    assert cli.main(["release", "--course", str(root)]) == 0
    instructor("release_assignment", lesson)
    source = nbformat.read(lesson_notebook(lesson), as_version=4)
    answers = {c.metadata["nbgrader"]["grade_id"]: c.source for c in source.cells
               if c.metadata.get("nbgrader", {}).get("solution")}
    range_bug = ("def chunk_starts(n, size, overlap):\n"
                 "    return list(range(0, n, size - overlap))\n")
    for user, uid in USERS.items():
        home = tmp / "home" / user
        home.mkdir(parents=True)
        os.chown(home, uid, uid)
        home.chmod(0o700)
        student(user, "fetch_assignment", lesson)
        path = home / lesson / lesson_notebook(lesson).name
        mine = dict(answers, **({"chunk_starts": range_bug} if user == "bob" else {}))
        nbformat.write(set_cells(nbformat.read(path, as_version=4), mine), path)
        os.chown(path, uid, uid)
        student(user, "submit", lesson)
    peek = _as_user(tmp, "bob", sys.executable, "-c",
                    f"import os; print(os.listdir({str(box / COURSE_ID / 'inbound')!r}))")
    instructor("collect", lesson)
    course = pipeline.Course(root)
    results = pipeline.autograde(course, [lesson])
    pipeline.feedback(course, [lesson])
    instructor("release_feedback", lesson)
    student("bob", "fetch_feedback", lesson)
    return {"course": course, "tmp": tmp, "results": results, "peek": peek, "lesson": lesson}


@pytest.mark.slow
def test_exchange_collects_both_students_with_timestamps(exchange):
    for user in USERS:
        folder = exchange["course"].root / "submitted" / user / exchange["lesson"]
        assert (folder / "overlap.ipynb").exists() and (folder / "timestamp.txt").exists()
    assert {r.student: r.status for r in exchange["results"]} == {u: "graded" for u in USERS}


@pytest.mark.slow
def test_exchange_grades_each_student_on_their_own_work(exchange):
    got = pipeline.scores(exchange["course"], exchange["lesson"])
    assert got["alice"] == (35.0, 35.0, False)
    assert got["bob"] == (32.0, 35.0, False)  # the range bug costs chunk_starts's cells only


@pytest.mark.slow
def test_a_student_cannot_list_the_inbound_folder(exchange):
    assert exchange["peek"].returncode != 0 and "PermissionError" in exchange["peek"].stderr


@pytest.mark.slow
def test_a_student_fetches_feedback_without_hidden_tests(exchange):
    pages = list((exchange["tmp"] / "home" / "bob" / exchange["lesson"]).rglob("*.html"))
    assert len(pages) == 1
    text = pages[0].read_text(encoding="utf-8")
    assert "BEGIN HIDDEN TESTS" not in text and "_r_starts" not in text
    assert "chunk_starts" in text
