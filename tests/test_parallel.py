"""Autograding many submissions at once gives the serial answer: ``tools/grade.py autograde
--jobs N`` on this machine and ``--scheduler`` on a Dask cluster; a run resumes by content hash
and reports its progress.

One small class of lesson 3 (the reference solution, a submission whose kernel dies, one that
loops forever, one with a wrong answer and its test cells rewritten to pass, and a correct one
that sleeps in an answer cell) is autograded from the same release with ``--jobs 1`` (the
serial path, in this process) and on a Dask ``LocalCluster`` of two worker processes on
loopback; the ``--jobs 2`` run (two grading processes) is the adversarial class's
(tests/adversarial/graded.py: the same five students among its others, graded once for both
files, in a process of its own while this one grades the other two: tests/adversarial/runs.py).
Only the grading process writes gradebook.db. Every cell's score, comment and
manual-grading flag, every run event and every review item of the five must agree. On Dask,
the worker running the sleeping submission is killed in the middle of it: the scheduler sends
it to the other worker and it is recorded once; the submission that loops forever costs its
own timeouts only (other submissions finish while it runs).
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys

import nbformat
import pytest

from tests.adversarial.runs import LESSON, REFERENCE, SLEEPER, TIMEOUT
from tests.nbgrading import REPO, lesson_notebook, submit
from tools.grading import cli, export, pipeline, progress


def gradebook_rows(course: pipeline.Course) -> dict:
    """(student, cell) -> (auto score, manual score, needs manual grading, auto comment)."""
    rows = {}
    with course.gradebook() as gb:
        for sub in gb.assignment_submissions(LESSON):
            for nb in sub.notebooks:
                for g in nb.grades:
                    rows[(sub.student_id, "grade", g.name)] = (
                        g.auto_score, g.manual_score, g.needs_manual_grade)
                for c in nb.comments:
                    rows[(sub.student_id, "comment", c.name)] = c.auto_comment
    return rows


def listing(course: pipeline.Course, students: list[str] | None) -> pipeline.Course:
    """``course`` listing only ``students`` (all when None): ``export.review_items`` scans each
    listed submission, and each one's items are its own, so the other students need no scan."""
    if students is None:
        return course
    view = copy.copy(course)
    view.students = lambda lesson: [s for s in course.students(lesson) if s in students]
    return view


def outcome(course: pipeline.Course, students: list[str] | None = None) -> dict:
    """What a run gave ``students`` (default: everyone) in ``course``."""
    def mine(student: str) -> bool:
        return students is None or student in students

    status = pipeline.load_status(course)
    return {
        "gradebook": {k: v for k, v in gradebook_rows(course).items() if mine(k[0])},
        "scores": {k: v for k, v in pipeline.scores(course, LESSON).items() if mine(k)},
        "status": {k: (v["status"], sorted(map(json.dumps, v["events"])), v["hash"])
                   for k, v in status.items() if mine(k.split("/")[1])},
        "review": sorted(json.dumps(i, sort_keys=True)
                         for i in export.review_items(listing(course, students))
                         if mine(i["student"])),
        "autograded": sorted(str(p.relative_to(course.root / "autograded"))
                             for p in (course.root / "autograded").rglob("*")
                             if p.is_file() and mine(p.relative_to(course.root / "autograded")
                                                     .parts[0])),
    }


@pytest.fixture(scope="module")
def runs(sandbox_runs):
    """The serial and Dask runs, graded side by side with the adversarial class's
    (tests/adversarial/runs.py)."""
    return {"students": sandbox_runs["students"], "serial": sandbox_runs["serial"],
            "dask": sandbox_runs["dask"]}


@pytest.fixture(scope="module")
def parallel(adversarial_class):
    """The two-jobs run: the adversarial class's course, once it is graded."""
    return adversarial_class["course"]


@pytest.fixture(scope="module")
def serial(runs):
    """What the serial run gave, the answer the others are compared with."""
    return outcome(runs["serial"])


@pytest.fixture
def dask_run(runs):
    if not runs["dask"]:
        pytest.skip("dask.distributed is not installed (requirements-instructor.txt)")
    return runs["dask"]


def differences(one: dict, other: dict) -> dict:
    """What two outcomes disagree on, per part: {part: [(item, one's, other's), ...]}."""
    out = {}
    for part in one:
        a, b = one[part], other[part]
        if isinstance(a, dict):
            diff = [(k, a.get(k), b.get(k)) for k in sorted(set(a) | set(b), key=str)
                    if a.get(k) != b.get(k)]
        else:
            diff = [(k, k in a, k in b) for k in sorted(set(a) ^ set(b))]
        if diff:
            out[part] = diff
    return out


@pytest.mark.slow
def test_two_jobs_give_the_serial_answer(runs, serial, parallel):
    assert set(serial["scores"]) == set(runs["students"])
    assert differences(serial, outcome(parallel, runs["students"])) == {}


@pytest.mark.slow
def test_the_class_is_graded_as_its_cases_say(runs, parallel):
    scores = {s: v for s, v in pipeline.scores(parallel, LESSON).items()
              if s in runs["students"]}
    top = scores[REFERENCE][1]
    assert {s for s, (got, _, _) in scores.items() if got < top} == \
        set(runs["students"]) - {REFERENCE, SLEEPER}  # each wrong or hostile one loses points
    status = pipeline.load_status(parallel)
    events = {s: {e["event"] for e in status[f"{LESSON}/{s}"]["events"]} for s in scores}
    assert events["os-exit"] == {"kernel-died"} and events["infinite-loop"] == {"timeout"}


@pytest.mark.slow
def test_each_submission_is_recorded_once(runs, parallel):
    course = parallel
    with course.gradebook() as gb:
        subs = [s.student_id for s in gb.assignment_submissions(LESSON)]
    assert len(subs) == len(set(subs)) and set(runs["students"]) <= set(subs)
    assert set(subs) == {p.name for p in (course.root / "submitted").iterdir()}


@pytest.mark.slow
def test_a_second_run_skips_what_is_unchanged_and_force_grades_again(runs, tmp_path, capsys):
    course = pipeline.Course(shutil.copytree(runs["serial"].root, tmp_path / "course"))
    before = outcome(course)
    capsys.readouterr()
    assert cli.main(["autograde", "--course", str(course.root), "--jobs", "2"]) == 0
    said = capsys.readouterr().out
    assert f"{len(runs['students'])} submission(s) already graded and unchanged" in said
    assert outcome(course) == before
    # a changed notebook is graded again, alone; --force grades again what has not changed
    source = nbformat.read(lesson_notebook(LESSON), as_version=4)
    submit(course.root, "edited-tests", LESSON, source)
    results = pipeline.autograde(course, [LESSON], jobs=1, resume=True, echo=lambda *_: None,
                                 timeout=int(TIMEOUT))
    assert [(r.student, r.status) for r in results] == [("edited-tests", "graded")]
    scores = pipeline.scores(course, LESSON)
    assert scores["edited-tests"] == scores[REFERENCE]
    capsys.readouterr()
    assert cli.main(["autograde", "--course", str(course.root), "--jobs", "1", "--student",
                     REFERENCE, "--force"]) == 0
    said = capsys.readouterr().out
    assert f"{LESSON} {REFERENCE}: graded" in said and "unchanged" not in said


@pytest.mark.slow
def test_status_shows_the_last_run(runs, capsys):
    assert cli.main(["status", "--course", str(runs["serial"].root)]) == 0
    text = capsys.readouterr().out
    n = len(runs["students"])
    assert "autograde finished" in text and f"{n}/{n} done, 0 failed" in text


def test_status_of_a_run_whose_process_is_gone(tmp_path):
    path = tmp_path / "progress.json"
    tracker = progress.Tracker(path, total=10, echo=lambda *_: None)
    tracker.add("one done")
    tracker._save(force=True)
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    data = json.loads(path.read_text())
    data["pid"] = int(gone)
    path.write_text(json.dumps(data))
    text = "\n".join(progress.status(path))
    assert "stopped (its process is gone" in text and "1/10 done, 0 failed" in text


def test_the_progress_line_counts_and_estimates():
    assert progress.bar(12, 1, 40, 30.0) == (
        "[#######.................] 12/40 done, 1 failed, 0:30 elapsed, about 1:10 left")
    assert progress.bar(40, 0, 40, 3725.0).endswith("40/40 done, 0 failed, 1:02:05 elapsed")


def test_dask_is_an_instructor_requirement_only():
    learner = (REPO / "requirements.txt").read_text()
    assert "dask" not in learner and "distributed" not in learner
    instructor = (REPO / "requirements-instructor.txt").read_text()
    assert "distributed==" in instructor and "dask==" in instructor
    assert "-r requirements-instructor.txt" in (REPO / "requirements-dev.txt").read_text()


@pytest.mark.slow
def test_the_dask_cluster_gives_the_serial_answer(serial, dask_run):
    assert differences(serial, outcome(dask_run["course"])) == {}


@pytest.mark.slow
def test_a_killed_dask_worker_loses_nothing_and_counts_nothing_twice(runs, dask_run):
    assert dask_run["killed"], "the sleeping submission was never seen running"
    assert sorted(r.student for r in dask_run["results"]) == runs["students"]
    assert {r.status for r in dask_run["results"]} == {"graded"}
    with dask_run["course"].gradebook() as gb:
        assert sorted(s.student_id for s in gb.assignment_submissions(LESSON)) == \
            runs["students"]


@pytest.mark.slow
def test_a_hanging_submission_holds_up_only_itself_on_dask(dask_run):
    hang = next(r for r in dask_run["results"] if r.student == "infinite-loop")
    assert hang.seconds >= 2 * int(TIMEOUT)  # its two test cells ran into the time limit
    lines = [line for line in dask_run["order"] if line.startswith(f"{LESSON} ")]
    first_hang = next(i for i, line in enumerate(lines) if "infinite-loop" in line)
    assert first_hang > 0, "nothing finished while it ran"
