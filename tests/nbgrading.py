"""Test helpers: run real nbgrader on a throwaway copy of the course.

Leaves out: assertions; the tests decide what a score should be.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
RELEASE = REPO / "release"


def lessons() -> list[str]:
    """Assignment ids, in reading order: ['03-overlap', ...]."""
    return sorted(p.name for p in NOTEBOOKS.iterdir() if p.is_dir() and any(p.glob("*.ipynb")))


def lesson_notebook(lesson: str, root: Path = NOTEBOOKS) -> Path:
    """The single notebook of a lesson folder."""
    (path,) = sorted((root / lesson).glob("*.ipynb"))
    return path


def exported_since_change(path: Path) -> bool:
    """True when ``path``, written by ``python3 course.py export`` (tools/export_html.py), is
    newer than everything that export depends on: release/, chunklib/ and the tool itself."""
    files = [*RELEASE.rglob("*"), *(REPO / "chunklib").rglob("*"),
             REPO / "tools" / "export_html.py"]
    newest = max(f.stat().st_mtime for f in files if f.is_file() and "__pycache__" not in f.parts)
    return path.is_file() and path.stat().st_mtime >= newest


def env() -> dict[str, str]:
    """The environment for nbgrader: this interpreter's scripts first on PATH."""
    e = dict(os.environ)
    e["PATH"] = str(Path(sys.executable).parent) + os.pathsep + e.get("PATH", "")
    e.pop("JUPYTER_CONFIG_DIR", None)
    return e


#: ``python -m nbgrader`` with the three savings of the instructor's pipeline, none of which
#: changes what nbgrader does: importing ``tools.grading`` leaves out jsonschema's optional IRI
#: format checker (about 2.5 s), importing ``tools.grading.pipeline`` checks nbgrader's metadata
#: schema once instead of once per cell (about 0.2 s per autograded notebook), and
#: ``pipeline.alembic_in_process`` stamps a new gradebook without the ``alembic heads`` process
#: (4-6 s); each is explained where it is defined.
NBGRADER = f"""
import sys
sys.path.insert(0, {str(REPO)!r})
import tools.grading
from tools.grading.pipeline import alembic_in_process
from nbgrader.apps.nbgraderapp import main
with alembic_in_process():
    sys.exit(main())
"""


def nbgrader(*args: str, cwd: Path, check: bool = True) -> subprocess.CompletedProcess:
    """Run one nbgrader command in ``cwd`` and return the finished process."""
    proc = subprocess.run([sys.executable, "-c", NBGRADER, *args], cwd=cwd, env=env(),
                          capture_output=True, text=True, timeout=900)
    if check and proc.returncode != 0:
        raise AssertionError(f"nbgrader {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}")
    return proc


def new_course(tmp: Path, lesson_ids: list[str]) -> Path:
    """A course folder holding the config and the source notebooks of ``lesson_ids``."""
    course = tmp / "course"
    course.mkdir()
    shutil.copy(REPO / "nbgrader_config.py", course)
    for lesson in lesson_ids:
        shutil.copytree(NOTEBOOKS / lesson, course / "notebooks" / lesson)
    return course


def set_cells(nb, replacements: dict[str, str]):
    """A copy of ``nb`` with the cells of the given grade ids given new sources."""
    nb = nbformat.from_dict(nb)
    seen = set()
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if gid in replacements:
            cell.source = replacements[gid]
            seen.add(gid)
    missing = set(replacements) - seen
    if missing:
        raise KeyError(f"no cells with grade ids {sorted(missing)}")
    return nb


def submit(course: Path, student: str, lesson: str, nb) -> None:
    """Place ``nb`` as ``student``'s submission of ``lesson``."""
    name = lesson_notebook(lesson).name
    folder = course / "submitted" / student / lesson
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / name)


def scores(course: Path, lesson: str) -> dict[str, dict[str, float]]:
    """student -> grade_id -> score, read from the gradebook after autograde."""
    from nbgrader.api import Gradebook

    out: dict[str, dict[str, float]] = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for sub in gb.assignment_submissions(lesson):
            out[sub.student_id] = {
                g.name: g.score for nb in sub.notebooks for g in nb.grades
                if g.cell.max_score > 0
            }
    return out


def max_scores(nb) -> dict[str, float]:
    """grade_id -> points of every graded cell of a source notebook."""
    return {c.metadata["nbgrader"]["grade_id"]: float(c.metadata["nbgrader"]["points"])
            for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")}


def wrong_module(lesson: str):
    """The wrong solutions of a lesson: ``tests/wrong/l03_overlap.py`` for '03-overlap'."""
    import importlib

    number, slug = lesson.split("-", 1)
    return importlib.import_module(f"tests.wrong.l{number}_{slug.replace('-', '_')}")


def part2_functions(nb) -> list[str]:
    """Grade ids of the answer cells that have both an examples and a hidden test cell."""
    ids = {c.metadata.get("nbgrader", {}).get("grade_id") for c in nb.cells}
    return [gid for c in nb.cells
            if (gid := c.metadata.get("nbgrader", {}).get("grade_id"))
            and c.metadata["nbgrader"].get("solution")
            and {f"test_{gid}_examples", f"test_{gid}_hidden"} <= ids]


def require_sandbox() -> None:
    """Skip unless the autograde sandbox (bubblewrap) works here; in CI (CI set) fail instead."""
    import pytest

    from tools.grading.sandbox import probe

    why = probe()
    if why:
        if os.environ.get("CI"):
            pytest.fail(f"the autograde sandbox is missing in CI (.ci/run installs it): {why}")
        pytest.skip(f"the autograde sandbox cannot run here: {why}")
