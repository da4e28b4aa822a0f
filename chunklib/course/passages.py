"""The course's passages that are not part of a lesson's code: lesson 2's explorer text.

Leaves out: lesson 1's runbook (``chunklib.units.sample_passage``) and the course fixture
(``chunklib/data/fixture/``), which have their own loaders.

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
