"""Per-lesson content that code needs: self-check definitions, figures and quiz templates.

One module per lesson (``overlap`` for lesson 3, ...), plus ``reference.md``, the chapter
reference that every lesson shows word for word (``tools/sync_reference.py`` copies it into
the notebooks; a test proves every copy is current), and ``quiz/<lesson>.json``, each lesson's
quiz rendered with its figures by ``tools/sync_quiz.py`` (what ``chunklib.course.quiz`` reads).

Leaves out: lesson prose, which lives in the notebooks.
"""

from importlib.resources import files

#: Points of each Part 2 grade cell, examples and hidden tests, in every lesson (COURSE.md's
#: grading standard); tests/test_prose.py checks the notebooks' grade cells against them.
POINTS = {"examples": 1, "hidden": 2}


def chapter_reference() -> str:
    """The chapter reference Markdown, the single source every lesson shows.

    ``chapter_reference().splitlines()[0]`` -> '## Chapter reference: math, worked example, code'
    """
    return files("chunklib.course").joinpath("reference.md").read_text(encoding="utf-8")
