"""Many submissions at once: local processes (``--jobs N``) or a Dask cluster (``--scheduler``).

Each submission is one task (``worker.grade``) that returns its autograded files and log; the
results come back here in the order they finish and the caller records them one at a time, so
only this process writes gradebook.db. A bounded number of tasks is in flight (twice the
workers), so a class of any size costs little memory here.

Local jobs are processes started with ``spawn`` (nothing of this process's kernels or database
connections is inherited); if one dies, the submissions it held are sent again once, then
reported as failed. On Dask, a task whose worker dies is sent to another worker by the
scheduler (Dask's ``allowed-failures``, 3 by default) and reported as failed after that; a task
is submitted once under a key of its own, so a retried task is never recorded twice.

Leaves out: recording (``record.py``) and the progress display (``progress.py``).
Example: ``for payload in local(course, [("03-overlap", "alice")], jobs=2): ...``
"""

from __future__ import annotations

import multiprocessing
import os
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from . import pipeline, worker


def default_jobs() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def failed(lesson: str, student: str, why: str) -> dict:
    """The payload of a task that returned nothing."""
    return {"lesson": lesson, "student": student, "ok": False, "seconds": 0.0, "events": [],
            "log": why + "\n", "files": {}, "error": why}


def local(course: pipeline.Course, todo: list[tuple[str, str]], jobs: int,
          timeout: int | None = None, sandboxed: bool = True) -> Iterator[dict]:
    """Grade ``todo`` ((lesson, student) pairs) in ``jobs`` processes; yield each payload."""
    bundles = {lesson: worker.bundle(course, lesson) for lesson in sorted({les for les, _ in todo})}
    ctx = multiprocessing.get_context("spawn")
    queue, tries = list(reversed(todo)), Counter()
    while queue:
        with ProcessPoolExecutor(jobs, mp_context=ctx, initializer=worker.install,
                                 initargs=(bundles,)) as pool:
            running: dict = {}
            broken = False
            while (queue and not broken) or running:
                while queue and not broken and len(running) < 2 * jobs:
                    lesson, student = queue.pop()
                    job = worker.task(course, lesson, student, timeout, sandboxed)
                    running[pool.submit(worker.grade_here, job)] = (lesson, student)
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for fut in done:
                    lesson, student = running.pop(fut)
                    try:
                        yield fut.result()
                    except BrokenProcessPool:
                        broken = True
                        tries[(lesson, student)] += 1
                        if tries[(lesson, student)] < 2:
                            queue.append((lesson, student))
                        else:
                            yield failed(lesson, student, "the grading process died twice")
                    except Exception as exc:  # noqa: BLE001 (reported, the others go on)
                        yield failed(lesson, student, f"the grading process failed: {exc!r}")


def dask(course: pipeline.Course, todo: list[tuple[str, str]], scheduler: str,
         timeout: int | None = None, sandboxed: bool = True, keys: dict | None = None
         ) -> Iterator[dict]:
    """Grade ``todo`` on the Dask cluster at ``scheduler`` (``tcp://HOST:8786``, or a
    ``distributed.Client``); yield each payload as it arrives. ``keys`` may give each
    submission a task key (by default ``autograde-LESSON-STUDENT``)."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise SystemExit("--scheduler needs dask.distributed: pip install -r "
                         "requirements-instructor.txt") from None
    client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
    try:
        lessons = sorted({les for les, _ in todo})
        # on every worker: a worker that dies must not take the only copy with it
        shared = {lesson: client.scatter(worker.bundle(course, lesson), hash=False,
                                         broadcast=True) for lesson in lessons}
        queue = list(reversed(todo))
        owner: dict = {}

        def submit():
            lesson, student = queue.pop()
            key = (keys or {}).get((lesson, student)) or f"autograde-{lesson}-{student}"
            fut = client.submit(worker.grade, shared[lesson],
                                worker.task(course, lesson, student, timeout, sandboxed),
                                key=key, pure=False)
            owner[fut.key] = (lesson, student)
            return fut

        def window() -> int:
            return max(4, 2 * sum(client.nthreads().values()))

        pending = as_completed([submit() for _ in range(min(len(queue), window()))])
        for fut in pending:
            lesson, student = owner.pop(fut.key)
            try:
                yield fut.result()
            except Exception as exc:  # noqa: BLE001 (KilledWorker and the like: reported)
                yield failed(lesson, student, f"the Dask task failed: {type(exc).__name__}: "
                             f"{exc}")
            finally:
                fut.release()
            while queue and pending.count() < window():
                pending.add(submit())
    finally:
        if client is not scheduler:
            client.close()
