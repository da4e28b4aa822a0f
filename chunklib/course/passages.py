"""The course's sample texts: lesson 1's runbook excerpt and lesson 2's passage.

Leaves out: the course fixture of lessons 4-6 (``chunklib.course.fixture``) and your own
documents (``chunklib.corpus``).

    >>> load_passage().count("\\n\\n") + 1
    6
"""

from importlib import resources


def load_passage() -> str:
    """Lesson 2's text: a ~400-word passage in six paragraphs, written for chunklib; the
    boundaries explorer and the comparison of fixed windows with recursive splitting use it.

    ``load_passage()[:20]`` -> 'The seed library on '
    """
    return (resources.files("chunklib") / "data" / "boundaries_passage.txt").read_text("utf-8")


def sample_passage() -> str:
    """Lesson 1's text: an operations runbook excerpt written for the course.

    Line endings are normalised to ``"\\n"`` so counts do not change on a Windows checkout.
    ``len(sample_passage())`` -> 5757
    """
    raw = resources.files("chunklib").joinpath("data", "runbook.txt").read_text(encoding="utf-8")
    return raw.replace("\r\n", "\n")
