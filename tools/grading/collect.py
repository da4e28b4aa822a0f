"""Collect a folder or a zip of submissions into submitted/<student>/<lesson>/<notebook>.ipynb.

Accepted layouts (inside the folder or zip, under any single wrapping folder):
``<student>/<lesson>/<anything>.ipynb`` (nbgrader's own layout) and
``<student>/<notebook>.ipynb`` (the lesson is known from the notebook's name, e.g.
``overlap.ipynb`` -> ``03-overlap``). A lesson folder holding one notebook under another name
(``overlap (1).ipynb``, ``Untitled.ipynb``) is taken and renamed, and said so; a lesson folder
without a notebook is kept as a submission with its notebook missing (scored 0 and reported).
Every notebook must parse; ``.ipynb_checkpoints`` and ``__MACOSX`` are ignored.

Leaves out: LMS-specific file names; nbgrader's exchange (``nbgrader collect`` fills
submitted/ itself).
Example: ``collect(course, Path("week3.zip"))`` -> ``["alice/03-overlap", ...]`` plus notes.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path, PurePosixPath

import nbformat

from .pipeline import Course

STUDENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")
MAX_BYTES = 20 << 20  # a notebook larger than this is refused
IGNORED = {".ipynb_checkpoints", "__MACOSX"}


def _entries(source: Path) -> dict[PurePosixPath, object]:
    """Relative path -> a way to read it (a Path, or (zipfile, member)), folders included."""
    out: dict[PurePosixPath, object] = {}
    if source.is_dir():
        for path in source.rglob("*"):
            if not path.is_symlink():
                out[PurePosixPath(path.relative_to(source).as_posix())] = path
    else:
        zf = zipfile.ZipFile(source)
        for info in zf.infolist():
            rel = PurePosixPath(info.filename.rstrip("/"))
            if rel.is_absolute() or ".." in rel.parts:
                continue  # no path leaves the archive
            out[rel] = (zf, info)
            for parent in list(rel.parents)[:-1]:
                out.setdefault(parent, None)
    return {p: v for p, v in out.items() if not IGNORED & set(p.parts)}


def _read(handle) -> bytes:
    if isinstance(handle, Path):
        if handle.stat().st_size > MAX_BYTES:
            raise ValueError("larger than 20 MB")
        return handle.read_bytes()
    zf, info = handle
    if info.file_size > MAX_BYTES:
        raise ValueError("larger than 20 MB")
    return zf.read(info)


def _is_dir(handle) -> bool:
    return handle is None or (isinstance(handle, Path) and handle.is_dir()) or (
        isinstance(handle, tuple) and handle[1].is_dir())


def collect(course: Course, source: Path) -> tuple[list[str], list[str]]:
    """Copy every submission found in ``source`` into the course; return (done, notes)."""
    lessons = course.lessons()
    names = [course.notebook(lesson).name for lesson in lessons]
    by_name = {n: lesson for n, lesson in zip(names, lessons) if names.count(n) == 1}
    entries = _entries(Path(source))
    dirs = {p for p, h in entries.items() if _is_dir(h)}
    notebooks = {p: h for p, h in entries.items() if p.suffix == ".ipynb" and not _is_dir(h)}
    found: dict[tuple[str, str], list[PurePosixPath]] = {}
    empty_lessons: set[tuple[str, str]] = set()
    for path in notebooks:
        if path.parent.name in lessons:
            found.setdefault((path.parent.parent.name, path.parent.name), []).append(path)
        elif path.name in by_name:
            found.setdefault((path.parent.name, by_name[path.name]), []).append(path)
    for folder in dirs:
        if folder.name in lessons and not any(p.parent == folder for p in notebooks):
            empty_lessons.add((folder.parent.name, folder.name))
    done, notes = [], []
    for (student, lesson), paths in sorted(found.items()):
        expected = course.notebook(lesson).name
        key = f"{student}/{lesson}"
        if not STUDENT_ID.match(student):
            notes.append(f"{key}: skipped, {student!r} is not a usable student id")
            continue
        exact = [p for p in paths if p.name == expected]
        if not exact and len(paths) > 1:
            notes.append(f"{key}: skipped, {len(paths)} notebooks and none named {expected}")
            continue
        chosen = (exact or paths)[0]
        try:
            data = _read(notebooks[chosen])
            nbformat.validate(nbformat.reads(data.decode("utf-8"), as_version=4))
        except Exception as exc:  # noqa: BLE001 (anything unreadable is reported, not fatal)
            notes.append(f"{key}: skipped, {chosen.name} is not a readable notebook ({exc})")
            continue
        folder = course.root / "submitted" / student / lesson
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        (folder / expected).write_bytes(data)
        if chosen.name != expected:
            notes.append(f"{key}: took {chosen.name} as {expected}")
        done.append(key)
    for student, lesson in sorted(empty_lessons - set(found)):
        if STUDENT_ID.match(student):
            folder = course.root / "submitted" / student / lesson
            if folder.exists():
                shutil.rmtree(folder)
            folder.mkdir(parents=True)
            notes.append(f"{student}/{lesson}: no notebook; recorded as missing")
            done.append(f"{student}/{lesson}")
    return done, notes
