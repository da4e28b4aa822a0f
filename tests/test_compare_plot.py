"""The lesson-2 comparison (chunklib.widgets.compare_plot) while nbgrader autogrades: the numbers
and
the table as always, no plot, and matplotlib never imported. (The comparison's content is
tested in tests/test_widgets_boundaries.py.)"""


from chunklib.course.comparison import compare_sizes, compare_strategies
from chunklib.course.passages import load_passage
from chunklib.widgets.compare_plot import compare


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
