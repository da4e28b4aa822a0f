"""The helpers of the hidden tests, one source for every notebook copy.

``common.py`` holds what every lesson's hidden tests use (``_alone``, ``_raises``); ``lNN_*.py``
holds a lesson's ``_r_*`` reference versions and ``_REFS``. ``tools/sync_hidden.py`` writes
their text, after ``_same`` (generated from ``chunklib.exact.same``), into a marked block of
each hidden test cell; tests/test_sync_hidden.py fails while a copy is stale.

Leaves out: the tests themselves (their literal expected values stay in the notebooks).
"""
