"""Write every lesson's generated prose into its source notebook.

A Markdown cell that states a number is generated: its text is the template
``notebooks/<NN-lesson>/prose/<name>.md`` (``str.format`` syntax, ``{k_ex1}``, ``{ratio:.3f}``,
literal braces doubled), rendered with ``chunklib.course.<lesson>.figures()``, and the cell
carries the tag ``prose:<name>``. Run ``.venv/bin/python tools/sync_prose.py``, then
``python3 course.py release``. tests/test_prose.py fails while a cell differs from its render.

Leaves out: the quiz cells (``tools/sync_quiz.py``) and the chapter reference
(``tools/sync_reference.py``).
"""

import importlib
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
TAG = "prose:"


def prose_lessons() -> list[Path]:
    """The lesson folders that hold a ``prose/`` folder, in reading order."""
    return sorted(p.parent for p in (ROOT / "notebooks").glob("*/prose") if p.is_dir())


def figures_of(lesson: Path) -> dict[str, object]:
    """The figures of a lesson folder: ``02-boundaries`` -> ``chunklib.course.boundaries``."""
    module = importlib.import_module("chunklib.course." + lesson.name.split("-", 1)[1])
    return module.figures()


def templates(lesson: Path) -> dict[str, str]:
    """Template name -> template text, for every ``prose/*.md`` of a lesson folder."""
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted((lesson / "prose").glob("*.md"))}


def render(template: str, figures: dict[str, object]) -> str:
    """A template filled with the figures, without surrounding blank lines.

    ``render("K = {k}, ratio {r:.2f}, a set {{}}\\n", {"k": 7, "r": 1.3})``
    -> 'K = 7, ratio 1.30, a set {}'
    """
    return template.format(**figures).strip("\n")


def notebook_of(lesson: Path) -> Path:
    (path,) = lesson.glob("*.ipynb")
    return path


def tagged_cells(nb) -> dict[str, object]:
    """Template name -> the cell tagged ``prose:<name>``; a name tagged twice is an error."""
    cells = {}
    for cell in nb.cells:
        for tag in cell.metadata.get("tags", []):
            if tag.startswith(TAG):
                name = tag[len(TAG):]
                if name in cells:
                    raise ValueError(f"two cells are tagged {tag}")
                cells[name] = cell
    return cells


def sync(lesson: Path) -> bool:
    """Render every template of a lesson into its tagged cell; True when the notebook changed."""
    path = notebook_of(lesson)
    nb = nbformat.read(path, as_version=4)
    cells, texts, figures = tagged_cells(nb), templates(lesson), figures_of(lesson)
    if set(cells) != set(texts):
        raise SystemExit(f"{path}: tags without template {sorted(set(cells) - set(texts))}, "
                         f"templates without tagged cell {sorted(set(texts) - set(cells))}")
    changed = False
    for name, template in texts.items():
        text = render(template, figures)
        if cells[name].source != text:
            cells[name].source = text
            changed = True
    if changed:
        nbformat.write(nb, path)
    return changed


def main() -> None:
    for lesson in prose_lessons():
        if sync(lesson):
            print("updated", notebook_of(lesson).relative_to(ROOT))


if __name__ == "__main__":
    main()
