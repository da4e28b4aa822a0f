"""Wrong student solutions, one module per lesson (``l03_overlap.py`` for ``03-overlap``).

Each module defines ``WRONG``: name -> (cell replacements by grade id, grade ids that must
score 0). Every other graded cell of such a submission must keep its full points.
"""
