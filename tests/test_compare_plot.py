"""The lesson-2 comparison (chunklib.compare_plot) while nbgrader autogrades: the numbers and
the table as always, no plot, and matplotlib never imported. (The comparison's content is
tested in tests/test_widgets_boundaries.py.)"""

import os
import subprocess
import sys

from chunklib.boundaries import compare_strategies
from chunklib.compare_plot import compare, compare_sizes
from chunklib.widgets.boundaries import load_passage


def test_autograde_keeps_the_numbers_and_the_table_but_draws_no_plot(monkeypatch):
    drawn = compare(size=300)
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    c = compare(size=300)
    assert c.png == b"" and drawn.png[:4] == b"\x89PNG"
    assert c.stats == drawn.stats == compare_strategies(load_passage(), 300)
    assert str(c) == str(drawn) and c.table() == drawn.table()
    assert c.alt_text() == drawn.alt_text()
    page = c._repr_html_()
    assert "<img" not in page and "not drawn while nbgrader runs" in page
    assert drawn.table()._repr_html_() in page
    assert str(compare_sizes(sizes=[100, 400])).count("\n") == 4


def test_importing_and_autograding_never_import_matplotlib():
    code = ("import sys; from chunklib.compare_plot import compare, compare_sizes; "
            "c = compare(size=300); t = compare_sizes(); "
            "print(c.png == b'', 'matplotlib' in sys.modules)")
    env = {**os.environ, "NBGRADER_EXECUTION": "autograde"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["True", "False"]
    env.pop("NBGRADER_EXECUTION")
    code = "import sys, chunklib.compare_plot; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
