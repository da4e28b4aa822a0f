"""Lesson widgets: one function per lesson builds a whole explorer, e.g.
``chunklib.widgets.overlap.overlap_explorer()``. Shared pieces: ``explorer``, ``rows``.

Leaves out: anything that needs a live kernel to test; every explorer updates from plain
attribute changes (``slider.value = 300``), so pytest drives it headless.
"""
