"""Record a submission a worker autograded: its files into autograded/, its grades into
gradebook.db. Only the instructor's process calls this, one submission at a time.

The gradebook is written exactly as nbgrader's own autograde writes it: the database part of
``Autograde.init_assignment`` (the student, the submission and its timestamp), then nbgrader's
``SaveAutoGrades`` and ``AssignLatePenalties`` preprocessors on the autograded notebook, against
the course's gradebook (so a grade already changed by hand is flagged for review, as nbgrader
does, and a late penalty uses the course's due date).

Leaves out: running anything (``worker.py``) and scheduling (``parallel.py``).
Example: ``record(course, cfg, worker.grade(bundle, task))`` -> True if it was graded.
"""

from __future__ import annotations

import shutil
import warnings

import nbformat
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import AssignLatePenalties, SaveAutoGrades
from sqlalchemy.exc import SAWarning
from traitlets.config import Config

from . import pipeline


def record(course: pipeline.Course, cfg: Config, payload: dict) -> bool:
    """Write one worker's result into the course; True if the submission was graded."""
    lesson, student = payload["lesson"], payload["student"]
    log = course.exports / "logs" / lesson / f"{student}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text(payload.get("log", ""), encoding="utf-8")
    dest = course.root / "autograded" / student / lesson
    if dest.exists():
        shutil.rmtree(dest)
    submitted = course.root / "submitted" / student / lesson
    timestamp = CourseDirectory(config=cfg).get_existing_timestamp(str(submitted))
    with warnings.catch_warnings():  # nbgrader's SQLAlchemy use warns on new submissions
        warnings.simplefilter("ignore", SAWarning)
        with course.gradebook() as gb:
            gb.update_or_create_student(student)
            if timestamp:
                gb.update_or_create_submission(lesson, student, timestamp=timestamp)
            else:
                gb.update_or_create_submission(lesson, student)
            known = {nb.name for nb in gb.find_assignment(lesson).notebooks}
        if not payload["ok"]:
            return False
        for rel, data in payload["files"].items():
            path = dest / rel
            if dest.resolve() not in path.resolve().parents:
                raise ValueError(f"a file name leaves its folder: {rel!r}")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        for path in sorted(dest.glob("*.ipynb")):
            if path.stem not in known:
                continue
            nb = nbformat.read(path, as_version=nbformat.NO_CONVERT)
            resources = {"nbgrader": {"notebook": path.stem, "assignment": lesson,
                                      "student": student, "db_url": course.db_url}}
            for step in (SaveAutoGrades, AssignLatePenalties):
                nb, resources = step(config=cfg).preprocess(nb, resources)
    return True

