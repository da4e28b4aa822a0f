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
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from nbgrader.api import Gradebook
from nbgrader.converters import Autograde

from . import execute, pipeline

CELL_KINDS = ("grade_cell", "solution_cell", "task_cell", "source_cell")
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
    """A gradebook holding only ``lesson``'s assignment, notebooks and cells (in the course's
    order, which nbgrader's cell restoring follows), and no student."""
    with tempfile.TemporaryDirectory(prefix="cg-book-") as tmp:
        path = Path(tmp) / "gradebook.db"
        course_id = course.config().CourseDirectory.get("course_id", "")
        with course.gradebook() as src, Gradebook(f"sqlite:///{path}", course_id) as dst:
            assignment = src.find_assignment(lesson)
            dst.update_or_create_assignment(lesson, duedate=assignment.duedate)
            for nb in assignment.notebooks:
                dst.update_or_create_notebook(nb.name, lesson)
                for kind in CELL_KINDS:
                    for cell in getattr(nb, kind + "s"):
                        info = {k: v for k, v in cell.to_dict().items()
                                if k not in ("id", "name", "notebook", "assignment")}
                        getattr(dst, f"update_or_create_{kind}")(cell.name, nb.name, lesson,
                                                                  **info)
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
