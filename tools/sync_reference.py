"""Copy the chapter reference (chunklib/course/reference.md) into every source notebook.

Run: ``.venv/bin/python tools/sync_reference.py``, then ``python3 course.py release``.
The cell tagged ``chapter-reference`` is replaced; tests/test_notebooks.py fails while a copy
differs from the source.
"""

from pathlib import Path

import nbformat

from chunklib.course import chapter_reference

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    text = chapter_reference().strip("\n")
    for path in sorted((ROOT / "notebooks").glob("*/*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        cells = [c for c in nb.cells if "chapter-reference" in c.metadata.get("tags", [])]
        if len(cells) != 1:
            raise SystemExit(f"{path}: expected one cell tagged chapter-reference")
        if cells[0].source != text:
            cells[0].source = text
            nbformat.write(nb, path)
            print("updated", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
