"""Render every lesson's quiz and write it into the package and into the lesson's notebook.

``chunklib.course.<lesson>.QUIZ`` holds templates: every number is a ``str.format`` field
(``{stop_complete}``; literal braces doubled) filled from the lesson's ``figures()``. The
rendered quiz goes to ``chunklib/data/quiz/<lesson>.json`` (read by ``chunklib.course.quiz``:
``explain``, the widget), and the Markdown cell with grade id ``quiz_q<N>`` gets question N's
``markdown(N)``. Run ``.venv/bin/python tools/sync_quiz.py``, then ``python3 course.py release``;
tests/test_quiz_render.py fails while a file or a cell differs from its render.

Leaves out: the answer and check cells (their letters are literals in the hidden tests).
"""

import importlib
import json
from pathlib import Path

import nbformat

from chunklib.course.quiz import Question

ROOT = Path(__file__).resolve().parents[1]
QUIZ_DIR = ROOT / "chunklib" / "data" / "quiz"


def lesson_of(path: Path) -> str:
    """The lesson module of a notebook: ``notebooks/03-overlap/overlap.ipynb`` -> 'overlap'."""
    return path.parent.name.split("-", 1)[1]


def rendered(lesson: str) -> list[Question]:
    """The quiz templates of ``lesson``, filled with its ``figures()`` (seconds for lesson 6)."""
    module = importlib.import_module(f"chunklib.course.{lesson}")
    figures = module.figures()
    return [question.render(figures) for question in module.QUIZ]


def dump(quiz: list[Question]) -> str:
    """The JSON text of a rendered quiz, as committed in ``chunklib/data/quiz/``."""
    return json.dumps([q.as_dict() for q in quiz], ensure_ascii=False, indent=1) + "\n"


def quiz_file(lesson: str) -> Path:
    return QUIZ_DIR / f"{lesson}.json"


def sync(path: Path) -> bool:
    """Write the quiz of the notebook at ``path`` into its JSON file and its cells; True when
    either changed."""
    lesson = lesson_of(path)
    quiz = rendered(lesson)
    changed = False
    text = dump(quiz)
    target = quiz_file(lesson)
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        QUIZ_DIR.mkdir(exist_ok=True)
        target.write_text(text, encoding="utf-8")
        changed = True
    nb = nbformat.read(path, as_version=4)
    cells = {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in nb.cells}
    cells_changed = False
    for number, question in enumerate(quiz, start=1):
        cell = cells.get(f"quiz_q{number}")
        if cell is None:
            raise SystemExit(f"{path}: no cell with grade id quiz_q{number}")
        if cell.source != question.markdown(number):
            cell.source = question.markdown(number)
            cells_changed = True
    if cells_changed:
        nbformat.write(nb, path)
    return changed or cells_changed


def main() -> None:
    for path in sorted((ROOT / "notebooks").glob("*/*.ipynb")):
        if sync(path):
            print("updated", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
