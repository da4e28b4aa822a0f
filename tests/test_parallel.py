"""Autograding many submissions at once gives the serial answer: ``tools/grade.py autograde
--jobs N`` on this machine and ``--scheduler`` on a Dask cluster; a run resumes by content hash
and reports its progress.

One small class of lesson 3 (the reference solution, a submission whose kernel dies, one that
loops forever, one with a wrong answer and its test cells rewritten to pass, and a correct one
that sleeps in an answer cell) is autograded from the same release with ``--jobs 1`` (the
serial path, in this process) and on a Dask ``LocalCluster`` of two worker processes on
loopback; the ``--jobs 2`` run (two grading processes) is the adversarial class's
(tests/adversarial/graded.py: the same five students among its others, graded once for both
files). Only the grading process writes gradebook.db. Every cell's score, comment and
manual-grading flag, every run event and every review item of the five must agree. On Dask,
the worker running the sleeping submission is killed in the middle of it: the scheduler sends
it to the other worker and it is recorded once; the submission that loops forever costs its
own timeouts only (other submissions finish while it runs).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import nbformat
import pytest

from tests.adversarial import cases, graded
from tests.nbgrading import (
    REPO,
    lesson_notebook,
    new_course,
    require_sandbox,
    submit,
)
from tools.grading import cli, export, pipeline, progress

LESSON = graded.LESSON
TIMEOUT = graded.TIMEOUT  # seconds per cell: ample for every honest cell, short for the loop
ADVERSARIAL = ("os_exit", "infinite_loop", "edited_tests")
SLEEPER = graded.SLEEPER  # correct, but sleeps 2 s in an answer cell: Dask kills its worker
REFERENCE = "victim"  # the reference solution, as the adversarial class names it


def make_class(root) -> list[str]:
    """Place the class's submissions in ``root``; return the student ids."""
    source = nbformat.read(lesson_notebook(LESSON), as_version=4)
    submit(root, REFERENCE, LESSON, source)
    for name in ADVERSARIAL:
        case = next(c for c in cases.CASES if c.name == name)
        submit(root, name.replace("_", "-"), LESSON, cases.build(case, source))
    submit(root, SLEEPER, LESSON, graded.sleeper(source))
    return sorted(p.name for p in (root / "submitted").iterdir())


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
        "review": sorted(json.dumps(i, sort_keys=True) for i in export.review_items(course)
                         if mine(i["student"])),
        "autograded": sorted(str(p.relative_to(course.root / "autograded"))
                             for p in (course.root / "autograded").rglob("*")
                             if p.is_file() and mine(p.relative_to(course.root / "autograded")
                                                     .parts[0])),
    }


@pytest.fixture(scope="module")
def runs(tmp_path_factory, adversarial_class):
    require_sandbox()
    tmp = tmp_path_factory.mktemp("parallel")
    first = new_course(tmp, [LESSON])
    assert cli.main(["release", "--course", str(first)]) == 0
    students = make_class(first)
    third = tmp / "course-dask"
    shutil.copytree(first, third)  # the same release and gradebook, no grades yet
    assert cli.main(["autograde", "--course", str(first), "--jobs", "1",
                     "--timeout", TIMEOUT]) == 0
    return {"students": students, "serial": pipeline.Course(first),
            "parallel": adversarial_class["course"], "dask": _dask_run(pipeline.Course(third))}


def _kill_when_running(client, key_prefix: str, done: threading.Event, killed: dict) -> None:
    """Kill the worker process that holds the task whose key starts with ``key_prefix``."""
    while not done.is_set():
        for addr, keys in client.processing().items():
            if any(str(k).startswith(key_prefix) for k in keys):
                time.sleep(1.0)  # inside the task: its kernel is starting or running
                pid = client.run(os.getpid, workers=[addr])[addr]
                os.kill(pid, signal.SIGKILL)
                killed.update(addr=addr, pid=pid)
                return
        time.sleep(0.05)


def _dask_run(course: pipeline.Course) -> dict:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        return {}
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), saved) if p)
    try:
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          host="127.0.0.1", dashboard_address=None) as cluster, \
                Client(cluster) as client:
            done, killed, order = threading.Event(), {}, []
            spy = threading.Thread(target=_kill_when_running, args=(
                client, f"autograde-{LESSON}-{SLEEPER}-", done, killed))
            spy.start()
            try:
                results = pipeline.autograde(course, [LESSON], scheduler=client,
                                             timeout=int(TIMEOUT), echo=order.append)
            finally:
                done.set()
                spy.join()
    finally:
        if saved is None:
            os.environ.pop("PYTHONPATH")
        else:
            os.environ["PYTHONPATH"] = saved
    return {"course": course, "results": results, "killed": killed, "order": order}


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
def test_two_jobs_give_the_serial_answer(runs):
    serial = outcome(runs["serial"])
    parallel = outcome(runs["parallel"], runs["students"])
    assert set(serial["scores"]) == set(runs["students"])
    assert differences(serial, parallel) == {}


@pytest.mark.slow
def test_the_class_is_graded_as_its_cases_say(runs):
    scores = {s: v for s, v in pipeline.scores(runs["parallel"], LESSON).items()
              if s in runs["students"]}
    top = scores[REFERENCE][1]
    assert {s for s, (got, _, _) in scores.items() if got < top} == \
        set(runs["students"]) - {REFERENCE, SLEEPER}  # each wrong or hostile one loses points
    status = pipeline.load_status(runs["parallel"])
    events = {s: {e["event"] for e in status[f"{LESSON}/{s}"]["events"]} for s in scores}
    assert events["os-exit"] == {"kernel-died"} and events["infinite-loop"] == {"timeout"}


@pytest.mark.slow
def test_each_submission_is_recorded_once(runs):
    course = runs["parallel"]
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
def test_the_dask_cluster_gives_the_serial_answer(runs, dask_run):
    assert differences(outcome(runs["serial"]), outcome(dask_run["course"])) == {}


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
