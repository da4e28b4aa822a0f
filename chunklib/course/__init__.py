"""Per-lesson content that code needs: self-check definitions and quiz questions.

One module per lesson (``overlap`` for lesson 3, ...), plus ``reference.md``, the chapter
reference that every lesson shows word for word (``tools/sync_reference.py`` copies it into
the notebooks; a test proves every copy is current).

Leaves out: lesson prose, which lives in the notebooks.
"""

from importlib.resources import files

#: Points of a Part 2 function's examples cell and of its hidden-tests cell (the grading
#: contract; the lesson figures tests compare them with the notebooks' nbgrader metadata).
EXAMPLE_POINTS, HIDDEN_POINTS = 1, 2


def chapter_reference() -> str:
    """The chapter reference Markdown, the single source every lesson shows.

    ``chapter_reference().splitlines()[0]`` -> '## Chapter reference: math, worked example, code'
    """
    return files("chunklib.course").joinpath("reference.md").read_text(encoding="utf-8")
