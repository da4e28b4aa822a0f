"""Autograding many submissions at once gives the serial answer: ``tools/grade.py autograde
--jobs N`` on this machine and ``--scheduler`` on a Dask cluster; a run resumes by content hash
and reports its progress.

One small class of lesson 3 (the reference solution, a submission whose kernel dies, one that
loops forever, one with a wrong answer and its test cells rewritten to pass, and a correct one
that sleeps in an answer cell) is autograded three times from the same release: with ``--jobs 1``
(the serial path, in this process), with ``--jobs 2`` (two grading processes) and on a Dask
``LocalCluster`` of two worker processes on loopback. Only this process writes gradebook.db.
Every cell's score, comment and manual-grading flag, every run event and every review item
must agree. On Dask, the worker running the sleeping submission is killed in the middle of it:
the scheduler sends it to the other worker and it is recorded once; the submission that loops
forever costs its own timeouts only (other submissions finish while it runs).
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

from tests.adversarial import cases
from tests.nbgrading import (
    REPO,
    lesson_notebook,
    new_course,
    require_sandbox,
    set_cells,
    submit,
)
from tools.grading import cli, export, pipeline, progress

LESSON = "03-overlap"
TIMEOUT = "5"  # seconds per cell: ample for every honest cell, short for the loop
ADVERSARIAL = ("os_exit", "infinite_loop", "edited_tests")
SLEEPER = "sleeper"  # correct, but sleeps 2 s in an answer cell: the Dask test kills its worker


def make_class(root) -> list[str]:
    """Place the class's submissions in ``root``; return the student ids."""
    source = nbformat.read(lesson_notebook(LESSON), as_version=4)
    submit(root, "alice", LESSON, source)
    for name in ADVERSARIAL:
        case = next(c for c in cases.CASES if c.name == name)
        submit(root, name.replace("_", "-"), LESSON, cases.build(case, source))
    answer = next(c.source for c in source.cells
                  if c.metadata.get("nbgrader", {}).get("grade_id") == "stride")
    submit(root, SLEEPER, LESSON, set_cells(source, {"stride": f"import time\ntime.sleep(2)\n"
                                                     f"{answer}"}))
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


def outcome(course: pipeline.Course) -> dict:
    status = pipeline.load_status(course)
    return {
        "gradebook": gradebook_rows(course),
        "scores": pipeline.scores(course, LESSON),
        "status": {k: (v["status"], sorted(map(json.dumps, v["events"])), v["hash"])
                   for k, v in status.items()},
        "review": sorted(json.dumps(i, sort_keys=True) for i in export.review_items(course)),
        "autograded": sorted(str(p.relative_to(course.root / "autograded"))
                             for p in (course.root / "autograded").rglob("*") if p.is_file()),
    }


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    require_sandbox()
    tmp = tmp_path_factory.mktemp("parallel")
    first = new_course(tmp, [LESSON])
    assert cli.main(["release", "--course", str(first)]) == 0
    students = make_class(first)
    second, third = tmp / "course-jobs2", tmp / "course-dask"
    shutil.copytree(first, second)  # the same release and gradebook, no grades yet
    shutil.copytree(first, third)
    out = {"students": students}
    for name, root, jobs in (("serial", first, "1"), ("parallel", second, "2")):
        assert cli.main(["autograde", "--course", str(root), "--jobs", jobs,
                         "--timeout", TIMEOUT]) == 0
        out[name] = pipeline.Course(root)
    out["dask"] = _dask_run(pipeline.Course(third))
    return out


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
    serial, parallel = outcome(runs["serial"]), outcome(runs["parallel"])
    assert set(serial["scores"]) == set(runs["students"])
    assert differences(serial, parallel) == {}


@pytest.mark.slow
def test_the_class_is_graded_as_its_cases_say(runs):
    scores = pipeline.scores(runs["parallel"], LESSON)
    top = scores["alice"][1]
    assert {s for s, (got, _, _) in scores.items() if got < top} == \
        set(runs["students"]) - {"alice", SLEEPER}  # each wrong or hostile one loses points
    status = pipeline.load_status(runs["parallel"])
    events = {s: {e["event"] for e in status[f"{LESSON}/{s}"]["events"]} for s in scores}
    assert events["os-exit"] == {"kernel-died"} and events["infinite-loop"] == {"timeout"}


@pytest.mark.slow
def test_each_submission_is_recorded_once(runs):
    with runs["parallel"].gradebook() as gb:
        subs = [s.student_id for s in gb.assignment_submissions(LESSON)]
    assert sorted(subs) == runs["students"]


@pytest.mark.slow
def test_a_second_run_skips_what_is_unchanged_and_force_grades_again(runs, capsys):
    course = runs["parallel"]
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
    assert scores["edited-tests"] == scores["alice"]
    capsys.readouterr()
    assert cli.main(["autograde", "--course", str(course.root), "--jobs", "1", "--student",
                     "alice", "--force"]) == 0
    said = capsys.readouterr().out
    assert f"{LESSON} alice: graded" in said and "unchanged" not in said


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
