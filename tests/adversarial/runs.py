"""The three gradings of lesson 3's sandbox tests, run side by side: the adversarial class with
``--jobs 2`` (``graded.py``, in a process of its own) while this process grades five of its
students serially (``--jobs 1``) and on a Dask ``LocalCluster``, for tests/test_parallel.py.

The three runs spend most of their time waiting, not computing: cell timeouts, a kernel that
ignores the interrupt, kernel restarts, a sleeping answer, a Dask worker killed on purpose.
One after the other they held one pytest worker for about 175 s at about half a core; side by side
they take about the time of the longest, and the tests that read only the serial and Dask runs
(or none) run while the adversarial class is still being graded (tests/conftest.py orders the
tests that read it last). Each run is the same as when it ran alone: its own course folder,
its own processes, its own gradebook.

Leaves out: assertions (tests/test_adversarial.py, tests/test_parallel.py).
Example: ``side_by_side(tmp)["students"]`` ->
``['edited-tests', 'infinite-loop', 'os-exit', 'sleeper', 'victim']``.
"""

from __future__ import annotations

import os
import shutil
import signal
import threading
import time
from pathlib import Path

import nbformat

from tests.adversarial import cases, graded
from tests.nbgrading import REPO, lesson_notebook, new_course, submit
from tools.grading import cli, pipeline

LESSON = graded.LESSON
TIMEOUT = graded.TIMEOUT  # seconds per cell: ample for every honest cell, short for the loop
ADVERSARIAL = ("os_exit", "infinite_loop", "edited_tests")
SLEEPER = graded.SLEEPER  # correct, but sleeps 1 s in an answer cell: Dask kills its worker
REFERENCE = "victim"  # the reference solution, as the adversarial class names it


def side_by_side(tmp: Path) -> dict:
    """Start the adversarial class's run, then grade test_parallel's serial and Dask runs while
    it goes on; its result is ``["adversarial"].result()``, which waits for it."""
    (tmp / "adversarial").mkdir()
    (tmp / "parallel").mkdir()
    adversarial = graded.start(tmp / "adversarial")
    try:
        mine = serial_and_dask(tmp / "parallel")
    except BaseException:
        adversarial.stop()
        raise
    return {**mine, "adversarial": adversarial}


def make_class(root) -> list[str]:
    """Place the class's submissions in ``root``; return the student ids."""
    source = nbformat.read(lesson_notebook(LESSON), as_version=4)
    submit(root, REFERENCE, LESSON, source)
    for name in ADVERSARIAL:
        case = next(c for c in cases.CASES if c.name == name)
        submit(root, name.replace("_", "-"), LESSON, cases.build(case, source))
    submit(root, SLEEPER, LESSON, graded.sleeper(source))
    return sorted(p.name for p in (root / "submitted").iterdir())


def serial_and_dask(tmp: Path) -> dict:
    """One release of the five students, graded with ``--jobs 1`` and on Dask."""
    first = new_course(tmp, [LESSON])
    assert cli.main(["release", "--course", str(first)]) == 0
    students = make_class(first)
    third = tmp / "course-dask"
    shutil.copytree(first, third)  # the same release and gradebook, no grades yet
    assert cli.main(["autograde", "--course", str(first), "--jobs", "1",
                     "--timeout", TIMEOUT]) == 0
    return {"students": students, "serial": pipeline.Course(first),
            "dask": dask_run(pipeline.Course(third))}


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


def dask_run(course: pipeline.Course) -> dict:
    """Grade ``course`` on a two-worker ``LocalCluster``, killing the worker that holds the
    sleeping submission; {} when dask.distributed is not installed."""
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
