"""One submission autograded away from the course folder: the task a job (``--jobs``) or a Dask
worker (``--scheduler``) runs, and the lesson bundle it needs.

A task carries one submission's files; the bundle carries the lesson's source folder, the
course's ``nbgrader_config.py`` and a gradebook holding only that lesson's cells. The worker
builds a private course folder from them, runs the same sandboxed autograde as a serial run
(``pipeline.run`` with ``pipeline.grading_config``) and returns the autograded files, the log
and the run's events. It never sees the course's ``gradebook.db``: the grades are recorded by
the instructor's process alone (``record.py``), one submission at a time.

Leaves out: scheduling (``parallel.py``) and recording (``record.py``).
Example: ``grade(bundle, Task("03-overlap", "alice", {"overlap.ipynb": data}))`` -> a dict with
``ok``, ``seconds``, ``events``, ``log`` and ``files``.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import socket
import sqlite3
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from nbgrader.converters import Autograde

from . import execute, pipeline

# nbgrader 0.9.6's tables that hold students' work (the rest defines the lessons)
STUDENT_TABLES = ("grade", "comment", "submitted_notebook", "submitted_assignment", "student")
_LOCK = threading.Lock()  # one submission at a time per process (the sandbox sets os.environ)
_BOXES: dict[bool, dict] = {}
_STACK = contextlib.ExitStack()
_BUNDLES: dict[str, Bundle] = {}


@dataclass(frozen=True)
class Bundle:
    """What every task of one lesson shares: made once per run, sent once to each worker."""

    lesson: str
    config: str                                  # the course's nbgrader_config.py ('' if none)
    files: dict = field(default_factory=dict)    # source lesson folder: relative path -> bytes
    gradebook: bytes = b""                       # a gradebook with this lesson's cells only


@dataclass(frozen=True)
class Task:
    """One submission: its folder's files (notebook, timestamp.txt, ...) and how to run it."""

    lesson: str
    student: str
    files: dict = field(default_factory=dict)    # relative path -> bytes
    timeout: int | None = None
    sandboxed: bool = True


def _folder_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.is_symlink()}


def _write_files(folder: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        path = folder / rel
        if folder.resolve() not in path.resolve().parents:
            raise ValueError(f"a file name leaves its folder: {rel!r}")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def template_gradebook(course: pipeline.Course, lesson: str) -> bytes:
    """A copy of the course's gradebook without its students (their submissions, grades and
    comments): the lessons' notebooks and cells only, in the course's order, which nbgrader's
    cell restoring follows. ``lesson`` must be in it (``tools/grade.py release``)."""
    with course.gradebook() as gb:
        gb.find_assignment(lesson)  # MissingEntry if the lesson was never released
    with tempfile.TemporaryDirectory(prefix="cg-book-") as tmp:
        path = Path(tmp) / "gradebook.db"
        src = sqlite3.connect(f"file:{course.root / 'gradebook.db'}?mode=ro", uri=True)
        dst = sqlite3.connect(path)
        try:
            src.backup(dst)
            dst.executescript("".join(f"DELETE FROM {table};" for table in STUDENT_TABLES))
            dst.commit()
            dst.execute("VACUUM")
        finally:
            src.close()
            dst.close()
        return path.read_bytes()


def bundle(course: pipeline.Course, lesson: str) -> Bundle:
    """The bundle of ``lesson`` (run ``release`` first: the gradebook must know the lesson)."""
    config = course.root / "nbgrader_config.py"
    source = course.notebook(lesson).parent
    return Bundle(lesson, config.read_text(encoding="utf-8") if config.exists() else "",
                  _folder_files(source), template_gradebook(course, lesson))


def task(course: pipeline.Course, lesson: str, student: str, timeout: int | None = None,
         sandboxed: bool = True) -> Task:
    folder = course.root / "submitted" / student / lesson
    return Task(lesson, student, _folder_files(folder), timeout, sandboxed)


def install(bundles: dict[str, Bundle]) -> None:
    """Keep the bundles in this process (a local job's start): ``grade_here`` then uses them."""
    _BUNDLES.update(bundles)


def grade_here(task: Task) -> dict:
    """``grade`` with the bundle this process was given by ``install``."""
    return grade(_BUNDLES[task.lesson], task)


def _box(sandboxed: bool) -> dict:
    """This process's sandbox (kernel spec, socket folder), made at its first task."""
    if sandboxed not in _BOXES:
        if not _BOXES:
            atexit.register(_STACK.close)
        _BOXES[sandboxed] = _STACK.enter_context(pipeline.kernel_sandbox(sandboxed))
    return _BOXES[sandboxed]


def grade(bundle: Bundle, task: Task) -> dict:
    """Autograde one submission in a private course folder; return what the recorder needs."""
    with _LOCK:
        tmp = Path(tempfile.mkdtemp(prefix="cg-task-"))
        try:
            return _grade(tmp / "course", bundle, task)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def _grade(root: Path, bundle: Bundle, task: Task) -> dict:
    lesson, student = task.lesson, task.student
    source = root / "notebooks" / lesson
    source.mkdir(parents=True)
    _write_files(source, bundle.files)
    if bundle.config:
        (root / "nbgrader_config.py").write_text(bundle.config, encoding="utf-8")
    (root / "gradebook.db").write_bytes(bundle.gradebook)
    submitted = root / "submitted" / student / lesson
    submitted.mkdir(parents=True)
    _write_files(submitted, task.files)
    course = pipeline.Course(root)
    box = _box(task.sandboxed)
    cfg = pipeline.grading_config(course, box, task.timeout)
    log = root.parent / "autograde.log"
    start = time.monotonic()
    ok = pipeline.run(Autograde, cfg, lesson, student, force=True, create_student=True, log=log)
    seconds = round(time.monotonic() - start, 2)
    events = execute.EVENTS.pop((student, lesson), [])
    out = root / "autograded" / student / lesson
    return {"lesson": lesson, "student": student, "ok": ok, "seconds": seconds,
            "events": events, "log": log.read_text(encoding="utf-8") if log.exists() else "",
            "files": _folder_files(out) if ok and out.is_dir() else {},
            "worker": f"{socket.gethostname()}:{os.getpid()}"}
