"""The instructor's pipeline on one course folder: release, autograde in a sandbox, feedback.

Runs nbgrader's own converters in this process (no CLI start-up per call) with the course's
``nbgrader_config.py`` plus what grading needs on top of it: deleted test cells added back,
``GuardedExecute`` instead of ``Execute``, and each kernel in the bubblewrap sandbox. Every
submission is autograded on its own (timed), so one that fails never costs another its grade;
what happened to it goes to ``exports/status.json`` and ``exports/logs/``.

Leaves out: the exchange (``nbgrader release_assignment``/``collect`` do that, see
docs/instructor.md) and manual grading (nbgrader's formgrader).
Example: ``autograde(Course(Path(".")), ["03-overlap"])`` -> one result per submission.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import logging
import os
import shutil
import sys
import tempfile
import time
import traceback
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path

from nbconvert.preprocessors import ClearMetadataPreprocessor
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.converters import Autograde, GenerateAssignment, GenerateFeedback
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import (
    AssignLatePenalties,
    CheckCellMetadata,
    ClearOutput,
    DeduplicateIds,
    IgnorePattern,
    LimitOutput,
    OverwriteKernelspec,
    SaveAutoGrades,
)
from sqlalchemy.exc import SAWarning
from traitlets.config import Config
from traitlets.config.loader import PyFileConfigLoader

from . import execute, sandbox


class _SchemaCheckedOnce:
    """nbgrader checks each cell's nbgrader metadata with ``jsonschema.validate(meta, schema)``,
    which first checks the schema itself against jsonschema's meta-schema: about 0.1 s per pass
    over a lesson notebook (two passes per autograded notebook), for the same schema every time.
    This ``validate`` checks each schema once per process, then validates every cell as
    ``jsonschema.validate`` does (the same validator class, the same error: ``best_match``)."""

    def __init__(self):
        import jsonschema

        self.jsonschema, self.validators = jsonschema, {}

    def validate(self, instance, schema):
        known = self.validators.get(id(schema))
        if known is None or known[0] is not schema:  # a schema is checked when first seen
            cls = self.jsonschema.validators.validator_for(schema)
            cls.check_schema(schema)
            known = self.validators[id(schema)] = (schema, cls(schema))
        error = self.jsonschema.exceptions.best_match(known[1].iter_errors(instance))
        if error is not None:
            raise error


def _check_each_schema_once() -> None:
    """Give nbgrader's metadata validation ``_SchemaCheckedOnce`` (nbgrader reads
    ``jsonschema.validate`` through its module's ``jsonschema`` name at every call)."""
    from nbgrader.nbgraderformat import common

    if not isinstance(common.jsonschema, _SchemaCheckedOnce):
        common.jsonschema = _SchemaCheckedOnce()


_check_each_schema_once()


@dataclass
class Course:
    """A course folder: nbgrader_config.py, notebooks/, release/, submitted/, gradebook.db."""

    root: Path

    def __post_init__(self):
        self.root = Path(self.root).resolve()
        scripts = str(Path(sys.executable).parent)  # nbgrader runs `alembic` from PATH
        if scripts not in os.environ.get("PATH", "").split(os.pathsep):
            os.environ["PATH"] = scripts + os.pathsep + os.environ.get("PATH", "")

    def lessons(self) -> list[str]:
        src = self.root / "notebooks"
        return sorted(p.name for p in src.iterdir() if p.is_dir() and any(p.glob("*.ipynb")))

    def notebook(self, lesson: str, folder: str = "notebooks") -> Path:
        (path,) = sorted((self.root / folder / lesson).glob("*.ipynb"))
        return path

    @property
    def exports(self) -> Path:
        return self.root / "exports"

    @property
    def db_url(self) -> str:
        return f"sqlite:///{self.root / 'gradebook.db'}"

    def students(self, lesson: str) -> list[str]:
        sub = self.root / "submitted"
        return sorted(p.name for p in sub.iterdir() if (p / lesson).is_dir()) if sub.is_dir() \
            else []

    def config(self, **extra) -> Config:
        cfg = Config()
        if (self.root / "nbgrader_config.py").exists():
            cfg.merge(PyFileConfigLoader("nbgrader_config.py", path=str(self.root)).load_config())
        cfg.CourseDirectory.root = str(self.root)
        cfg.merge(Config(extra))
        return cfg

    def gradebook(self) -> Gradebook:
        cid = self.config().CourseDirectory.get("course_id", "")
        return Gradebook(self.db_url, cid)


@dataclass
class Result:
    """What happened to one submission of one lesson."""

    lesson: str
    student: str
    status: str  # graded | missing notebook | failed
    seconds: float = 0.0
    events: list = field(default_factory=list)
    error: str = ""
    hash: str = ""  # submission_hash when it was autograded


def run(converter, cfg: Config, assignment: str, student: str = "*", log: Path | None = None,
        **traits) -> bool:
    """Run one nbgrader converter; True if it succeeded. Its log goes to ``log``."""
    coursedir = CourseDirectory(config=cfg)
    coursedir.assignment_id, coursedir.student_id = assignment, student
    app = converter(coursedir=coursedir, config=cfg)
    for key, value in traits.items():
        setattr(app, key, value)
    buf = io.StringIO()
    handler = logging.StreamHandler(buf)
    handler.setFormatter(logging.Formatter("[%(levelname)s] %(message)s"))
    logger, level, propagate = app.log, app.log.level, app.log.propagate
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    ok = True
    try:
        with warnings.catch_warnings():  # nbgrader's SQLAlchemy use warns on new submissions
            warnings.simplefilter("ignore", SAWarning)
            app.start()
    except Exception:  # nbgrader raises NbGraderException after logging the details
        ok = False
        buf.write(traceback.format_exc())
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
        logger.propagate = propagate
    if log:
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(buf.getvalue(), encoding="utf-8")
    return ok


@contextlib.contextmanager
def alembic_in_process():
    """nbgrader stamps a new gradebook with the head of its alembic migrations by running the
    ``alembic heads`` command, a second Python start that imports nbgrader again (4-6 s); read
    the head in this process instead, with the same alembic code (``ScriptDirectory``) from the
    same migration scripts, so the gradebook records the same version. Falls back to nbgrader's
    own way if that fails."""
    import nbgrader
    import nbgrader.api as api

    original = api.get_alembic_version

    def head() -> str:
        try:
            from alembic.script import ScriptDirectory

            found = ScriptDirectory(str(Path(nbgrader.__file__).parent / "alembic")
                                    ).get_current_head()
        except Exception:  # noqa: BLE001 (any failure: nbgrader's own way)
            found = None
        return found or original()

    api.get_alembic_version = head
    try:
        yield
    finally:
        api.get_alembic_version = original


def release(course: Course, lessons: list[str] | None = None) -> list[str]:
    """Regenerate release/<lesson>/ from notebooks/ and register each lesson in gradebook.db."""
    cfg = course.config()
    done = []
    with alembic_in_process():  # a new gradebook.db: stamped without the alembic process
        for lesson in lessons or course.lessons():
            if not run(GenerateAssignment, cfg, lesson, log=course.exports / "logs" / lesson /
                       "release.log", force=True):
                raise SystemExit(f"release of {lesson} failed: see exports/logs/{lesson}/"
                                 "release.log")
            done.append(lesson)
    return done


@contextlib.contextmanager
def kernel_sandbox(enabled: bool = True, log: Path | None = None):
    """Config for GuardedExecute: sandboxed kernels when ``enabled`` (bubblewrap required)."""
    if not enabled:
        yield {}
        return
    why = sandbox.probe()
    if why:
        raise SystemExit(f"cannot sandbox student code: {why}.\nInstall it, or pass "
                         "--no-sandbox to run student code with your own rights (not advised).")
    # a short path: a unix socket path may not exceed 107 bytes
    tmp = Path(tempfile.mkdtemp(prefix="cg-", dir="/tmp" if Path("/tmp").is_dir() else None))
    runtime, ipc = tmp / "rt", tmp / "ipc"
    runtime.mkdir(mode=0o700)
    ipc.mkdir()
    ipc.chmod(0o1733)  # the kernel (uid 65534) may create its sockets, not list others
    name = sandbox.kernelspec(tmp, stderr=log)
    saved = {k: os.environ.get(k) for k in ("JUPYTER_PATH", "JUPYTER_RUNTIME_DIR")}
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        p for p in (str(tmp / "share" / "jupyter"), saved["JUPYTER_PATH"]) if p)
    os.environ["JUPYTER_RUNTIME_DIR"] = str(runtime)
    try:
        yield {"kernel_name": name, "ipc_dir": str(ipc)}
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        shutil.rmtree(tmp, ignore_errors=True)


def grading_config(course: Course, box: dict, timeout: int | None) -> Config:
    execute_cfg = dict(box)
    if timeout:
        execute_cfg["timeout"] = timeout
    return course.config(
        OverwriteCells={"add_missing_cells": True},
        GuardedExecute=execute_cfg,
        Autograde={"sanitize_preprocessors": [
            ClearOutput, DeduplicateIds, OverwriteKernelspec, execute.RestoreMissingCells,
            CheckCellMetadata], "autograde_preprocessors": [
            execute.GuardedExecute, IgnorePattern, ClearMetadataPreprocessor, LimitOutput,
            SaveAutoGrades, AssignLatePenalties, CheckCellMetadata]},
    )


def _zero_missing(course: Course, lesson: str, student: str) -> None:
    """Record a submission without its notebook: every cell 0, nothing left to grade by hand."""
    with course.gradebook() as gb, warnings.catch_warnings():
        warnings.simplefilter("ignore", SAWarning)
        gb.update_or_create_student(student)
        sub = gb.update_or_create_submission(lesson, student)
        for nb in sub.notebooks:
            for grade in nb.grades:
                grade.auto_score, grade.manual_score, grade.needs_manual_grade = 0, None, False
        gb.db.commit()


def submission_hash(course: Course, lesson: str, student: str) -> str:
    """sha256 of what a grade depends on: the submission folder's files and the lesson's source
    notebook (its tests). A resumed run skips a submission whose hash has not changed."""
    digest = hashlib.sha256(course.notebook(lesson).read_bytes())
    folder = course.root / "submitted" / student / lesson
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest.update(str(path.relative_to(folder)).encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _unchanged(course: Course, status: dict, lesson: str, student: str, digest: str) -> bool:
    st = status.get(f"{lesson}/{student}", {})
    return st.get("status") == "graded" and st.get("hash") == digest and \
        (course.root / "autograded" / student / lesson / course.notebook(lesson).name).exists()


def autograde(course: Course, lessons: list[str] | None = None,
              students: list[str] | None = None, *, sandboxed: bool = True,
              timeout: int | None = None, echo=print, jobs: int = 1,
              scheduler=None, resume: bool = False) -> list[Result]:
    """Autograde every collected submission (or the given ones).

    ``jobs`` submissions at once (each in its own process, sandbox and kernel), or each as a
    task on the Dask cluster ``scheduler``; either way only this process writes gradebook.db.
    With ``resume``, a submission already graded whose hash (``submission_hash``) has not
    changed is skipped. Returns what this run did, in the order it finished.
    """
    from . import parallel, progress, record  # they import this module

    results: list[Result] = []
    (course.exports / "logs").mkdir(parents=True, exist_ok=True)
    status = load_status(course) if resume else {}
    todo, hashes, skipped = [], {}, 0
    for lesson in lessons or course.lessons():
        expected = course.notebook(lesson).name
        for student in students or course.students(lesson):
            folder = course.root / "submitted" / student / lesson
            if not folder.is_dir():
                continue
            if not (folder / expected).exists():
                _zero_missing(course, lesson, student)
                results.append(Result(lesson, student, "missing notebook",
                                      error=f"no {expected} in {folder}"))
                echo(f"{lesson} {student}: missing notebook ({expected})")
                continue
            digest = submission_hash(course, lesson, student)
            if resume and _unchanged(course, status, lesson, student, digest):
                skipped += 1
                continue
            todo.append((lesson, student))
            hashes[(lesson, student)] = digest
    if skipped:
        echo(f"{skipped} submission(s) already graded and unchanged: skipped (--force "
             "grades them again)")
    how = (f"Dask scheduler {scheduler}" if scheduler is not None
           else f"{jobs} job(s)" if jobs > 1 else "serial")
    tracker = progress.Tracker(course.exports / "progress.json", len(todo), skipped, echo, how)
    last_save = time.monotonic()

    def finish(res: Result) -> None:
        nonlocal last_save
        res.hash = hashes[(res.lesson, res.student)]
        results.append(res)
        tracker.add(f"{res.lesson} {res.student}: {res.status} in {res.seconds:.1f} s"
                    + (f" ({len(res.events)} events)" if res.events else ""),
                    failed=res.status == "failed")
        if time.monotonic() - last_save > 10:  # an interrupted run keeps what it did
            _save_status(course, results)
            last_save = time.monotonic()

    finished = False
    try:
        if scheduler is None and jobs <= 1:
            with kernel_sandbox(sandboxed, course.exports / "logs" / "kernels.log") as box:
                cfg = grading_config(course, box, timeout)
                for lesson, student in todo:
                    start = time.monotonic()
                    ok = run(Autograde, cfg, lesson, student, force=True, create_student=True,
                             log=course.exports / "logs" / lesson / f"{student}.log")
                    events = execute.EVENTS.pop((student, lesson), [])
                    finish(Result(lesson, student, "graded" if ok else "failed",
                                  round(time.monotonic() - start, 2), events,
                                  "" if ok else f"see exports/logs/{lesson}/{student}.log"))
        else:
            if sandboxed and (why := sandbox.probe()):
                raise SystemExit(f"cannot sandbox student code: {why}.\nInstall it, or pass "
                                 "--no-sandbox to run student code with your own rights.")
            cfg = course.config()
            payloads = (parallel.local(course, todo, jobs, timeout, sandboxed)
                        if scheduler is None else
                        parallel.dask(course, todo, scheduler, timeout, sandboxed,
                                      keys={k: f"autograde-{k[0]}-{k[1]}-{h[:12]}"
                                            for k, h in hashes.items()}))
            for payload in payloads:
                ok = record.record(course, cfg, payload)
                lesson, student = payload["lesson"], payload["student"]
                finish(Result(lesson, student, "graded" if ok else "failed",
                              payload["seconds"], payload["events"],
                              "" if ok else payload.get("error")
                              or f"see exports/logs/{lesson}/{student}.log"))
        finished = True
    finally:
        tracker.close(finished)
        _save_status(course, results)
    return results


def _save_status(course: Course, results: list[Result]) -> None:
    path = course.exports / "status.json"
    status = json.loads(path.read_text()) if path.exists() else {}
    for res in results:
        status[f"{res.lesson}/{res.student}"] = asdict(res)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(status, indent=1, sort_keys=True))


def load_status(course: Course) -> dict[str, dict]:
    path = course.exports / "status.json"
    return json.loads(path.read_text()) if path.exists() else {}


def feedback(course: Course, lessons: list[str] | None = None) -> list[Path]:
    """feedback/<student>/<lesson>/*.html for every autograded submission (no hidden tests)."""
    cfg = course.config()
    for lesson in lessons or course.lessons():
        if (course.root / "autograded").is_dir() and any(
                (course.root / "autograded").glob(f"*/{lesson}")):
            run(GenerateFeedback, cfg, lesson, log=course.exports / "logs" / lesson /
                "feedback.log", force=True)
    return sorted((course.root / "feedback").glob("*/*/*.html"))


def _per_student(course: Course, lesson: str, row) -> dict[str, tuple]:
    """student -> ``row(submission)`` for every submission of ``lesson`` in the gradebook."""
    with course.gradebook() as gb:
        try:
            subs = gb.assignment_submissions(lesson)
        except MissingEntry:
            return {}
        return {sub.student_id: row(sub) for sub in subs}


def scores(course: Course, lesson: str) -> dict[str, tuple[float, float, bool]]:
    """student -> (score, max score, needs manual grading) from the gradebook; the score net of
    nbgrader's late penalty, as ``nbgrader export`` gives it (the gradebook keeps the two apart)."""
    return _per_student(course, lesson, lambda sub: (
        max(0.0, float(sub.score) - float(sub.late_submission_penalty or 0.0)),
        float(sub.max_score), bool(sub.needs_manual_grade)))


def lateness(course: Course, lesson: str) -> dict[str, tuple[float, float]]:
    """student -> (seconds late, points taken off) from the gradebook: (0.0, 0.0) on time, and
    for a submission with no timestamp (nbgrader counts it on time)."""
    return _per_student(course, lesson, lambda sub: (float(sub.total_seconds_late or 0.0),
                                                     float(sub.late_submission_penalty or 0.0)))
