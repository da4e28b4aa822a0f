"""Write every lesson's quiz questions (``chunklib.course.<lesson>.QUIZ``) into its notebook.

The Markdown cell with grade id ``quiz_q<N>`` gets ``QUIZ[N - 1].markdown(N)``. Run
``.venv/bin/python tools/sync_quiz.py``, then ``python3 course.py release``;
tests/test_quiz_fairness.py fails while a cell differs from its question.

Leaves out: the answer and check cells (their letters are literals in the hidden tests).
"""

import importlib
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]


def sync(path: Path) -> bool:
    """Write the quiz of the notebook at ``path`` into its cells; True when it changed."""
    lesson = path.parent.name.split("-", 1)[1]
    quiz = importlib.import_module(f"chunklib.course.{lesson}").QUIZ
    nb = nbformat.read(path, as_version=4)
    cells = {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in nb.cells}
    changed = False
    for number, question in enumerate(quiz, start=1):
        cell = cells.get(f"quiz_q{number}")
        if cell is None:
            raise SystemExit(f"{path}: no cell with grade id quiz_q{number}")
        if cell.source != question.markdown(number):
            cell.source = question.markdown(number)
            changed = True
    if changed:
        nbformat.write(nb, path)
    return changed


def main() -> None:
    for path in sorted((ROOT / "notebooks").glob("*/*.ipynb")):
        if sync(path):
            print("updated", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
