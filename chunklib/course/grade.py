"""Grade your own lesson from one of its notebook cells: ``grade_me()``.

It runs the course's grader (``python3 course.py grade LESSON``, which lives outside chunklib
in ``tools/grading/selfgrade.py``) on the notebook as last saved, and prints its report: the
points of every exercise and, for each function that loses points, the kind of case that
fails. It passes the grader the code this kernel ran since the notebook was last saved, so the
report can say when the open notebook holds edits the saved file does not.

Leaves out: the grading itself, and any hidden test: a course without ``notebooks/`` (a
learner copy) cannot self-grade, and the grader says so.
Example: ``lesson_of(Path("release/03-overlap"))`` -> '03-overlap'
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def course_root(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` holding ``course.py`` and ``release/``."""
    for folder in [start, *start.parents]:
        if (folder / "course.py").is_file() and (folder / "release").is_dir():
            return folder
    return None


def lesson_of(folder: Path) -> str | None:
    """The lesson a notebook folder belongs to, its name (``release/03-overlap``: 03-overlap)."""
    folder = Path(folder)
    return folder.name if folder.parent.name == "release" else None


def executed_code() -> dict[int, str]:
    """Execution count -> the code this kernel ran (IPython's ``In``); {} outside IPython."""
    try:
        shell = get_ipython()  # noqa: F821 (defined inside IPython)
    except NameError:
        return {}
    inputs = shell.user_ns.get("In", [])
    return {k: code for k, code in enumerate(inputs) if k and code}


def grade_me(lesson: str | None = None) -> int:
    """Grade this lesson's saved notebook against the hidden tests and print the report.

    ``lesson`` defaults to the folder the kernel runs in (``release/03-overlap``).
    Returns the grader's exit status (0 when it graded).
    """
    if os.environ.get("NBGRADER_EXECUTION"):
        print("grade_me() does nothing while nbgrader runs this notebook.")
        return 0
    here = Path.cwd()
    root = course_root(here)
    lesson = lesson or lesson_of(here)
    if root is None or lesson is None:
        print("grade_me() runs in a lesson's notebook of the course (release/NN-name/), or "
              "with the lesson named: grade_me('03-overlap').")
        return 2
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(executed_code(), fh)
    with tempfile.TemporaryFile("w+") as errors:
        try:  # the report is shown line by line, as the grader prints it
            with subprocess.Popen([sys.executable, str(root / "course.py"), "grade", lesson,
                                   "--executed", fh.name], cwd=root, stdout=subprocess.PIPE,
                                  stderr=errors, text=True) as proc:
                for line in proc.stdout:
                    print(line, end="", flush=True)
        finally:
            os.unlink(fh.name)
        if proc.returncode:
            errors.seek(0)
            print(errors.read()[-2000:])
    return proc.returncode
