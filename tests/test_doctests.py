"""Every ``>>>`` example in chunklib's docstrings runs and shows what it says.

Each module of the package (core, course, widgets) is imported and its docstrings run with
``doctest`` (``...`` matches anything, whitespace is normalised).
"""

import doctest
import importlib
import pkgutil

import pytest

import chunklib

# Widget modules whose examples cannot run yet (they draw on an ``ax`` or name a question the
# module never imports); the explorer skeleton's helpers own these files and fix them there.
NOT_YET = {"chunklib.widgets.units_plot", "chunklib.widgets.evaluation_plot"}
MODULES = sorted(m.name for m in pkgutil.walk_packages(chunklib.__path__, "chunklib."))


def test_every_layer_is_checked():
    checked = [m for m in MODULES if m not in NOT_YET]
    assert {"chunklib.units", "chunklib.course.experiment", "chunklib.widgets.overlap"} <= set(
        checked)
    assert NOT_YET <= set(MODULES) and all(m.startswith("chunklib.widgets.") for m in NOT_YET)


@pytest.mark.parametrize("name", [m for m in MODULES if m not in NOT_YET])
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), report=True,
                             optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed"
