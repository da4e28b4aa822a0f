"""The benchmark scripts import and run on tiny inputs (no timing assertions: speed is measured
by ``python3 benchmarks/run.py``, on demand, never here).

Peers that are not installed in the course's venv are reported as "not run", which is what a
missing peer must give; the benchmarks' own venv has them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCH))

import corpus  # noqa: E402
import peers  # noqa: E402
import report  # noqa: E402

TEXT = ("# Title\n\nOne sentence. Another sentence.\n\n" * 40 + "tail " * 300)


def test_docstring_document_is_markdown_in_source_order():
    source = ('"""Module doc."""\n\nclass A:\n    """Class A."""\n\n    def f(self):\n'
              '        """Method f."""\n\ndef g():\n    pass\n')
    assert corpus.docstring_document("pkg.mod", source) == (
        "# pkg.mod\n\nModule doc.\n\n## A\n\nClass A.\n\n## A.f\n\nMethod f.")
    assert corpus.docstring_document("x", "def (:") == ""


def test_corpus_build_is_deterministic_and_exact():
    first, labels = corpus.build(target_bytes=30_000, sources=())
    again, _ = corpus.build(target_bytes=30_000, sources=())
    assert first == again and len(first.encode("utf-8")) == 30_000
    assert labels[0] == "pydoc_data.topics (cut)"


@pytest.mark.parametrize("text", ["", "x" * 150, "x" * 200, "x" * 1000, "x" * 1001, TEXT])
def test_bare_span_loop_matches_chunklib(text):
    from chunklib.windows import text_windows

    assert peers.bare_spans(text) == text_windows(text, peers.SIZE, peers.OVERLAP)


def test_offset_check_catches_wrong_offsets():
    text = "abc abc abc"
    assert peers.check(text, [(0, 3, "abc"), (4, None, "abc")])["offsets"] == "yes (2 of 2)"
    assert peers.check(text, [(0, None, "abc"), (1, None, "abc")])["offsets"].startswith("no: 1")
    # the right text at the wrong place: str.find on repeated text finds an earlier copy
    assert peers.check(text, [(4, None, "abc"), (0, None, "abc")])["backwards"] == 1
    assert peers.check(text, [(None, None, "abc")])["offsets"] == "no offsets"
    assert peers.check(text, [(-1, None, "abc")])["exact"] is False


def test_peers_script_runs_and_reports_every_row(tmp_path):
    tiny = tmp_path / "tiny.md"
    tiny.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "peers.json"
    subprocess.run([sys.executable, str(BENCH / "peers.py"), "--corpus", str(tiny), "--json",
                    str(out), "--repeat", "1", "--tiny"], check=True, capture_output=True)
    rows = json.loads(out.read_text())["rows"]
    assert len(rows) == len(peers.cases(TEXT))
    for row in rows:
        assert row["status"] == "ok" or row["status"].startswith("not run: "), row
        if row["chunklib"]:
            assert row["status"] == "ok" and row["exact"], row


def test_learner_script_moves_a_slider(tmp_path):
    out = tmp_path / "learner.json"
    subprocess.run([sys.executable, str(BENCH / "learner.py"), "--json", str(out),
                    "--skip-notebooks", "--moves", "1", "--widgets", "overlap"],
                   check=True, capture_output=True)
    (row,) = json.loads(out.read_text())["sliders"]
    assert row["widget"] == "overlap.overlap_explorer" and row["status"] == "ok"


def test_report_judges_targets_on_ratios():
    data = {"date": "2026-01-01 00:00 UTC", "seconds": 1.0,
            "machine": {"cpu": "test", "cores": 2, "memory": "1 GiB", "os": "test",
                        "python": "3.11", "load_average": "0.10 0.10 0.10"},
            "versions": {"chunklib": "0.1.0"},
            "peers": {"rows": [
                {"group": "fixed", "name": report.FIXED_BASE, "status": "ok", "ratio": 1.0},
                {"group": "fixed", "name": report.CHUNKLIB_FIXED, "status": "ok", "ratio": 1.2},
                {"group": "fixed", "name": report.BARE_TEXTS, "status": "ok", "ratio": 5.0},
                {"group": "fixed", "name": report.CHUNKLIB_FIXED_TEXTS, "status": "ok",
                 "ratio": 5.5},
                {"group": "fixed", "name": report.CHONKIE, "status": "ok", "ratio": 500.0},
                {"group": "structure", "name": report.CHUNKLIB_SPLIT_TEXTS, "status": "ok",
                 "ratio": 1.1}]},
            "learner": {"sliders": [{"widget": "w", "status": "ok", "median": 0.02}]},
            "instructor": {"autograde": [{"lesson": "03", "status": "failed: x"}]}}
    met = {t["target"][:30]: t["met"] for t in report.targets(data)}
    assert list(met.values()) == [True, True, False, True, False]
    text = report.markdown(data)
    assert "## Targets" in text and "| **no** |" in text


def test_floors_keep_the_cells_and_compute_nothing():
    import instructor
    import learner
    import nbformat

    source = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Lesson"),
        nbformat.v4.new_code_cell("x = 1", metadata={"nbgrader": {"grade_id": "a", "points": 1,
                                                                  "grade": True}}),
        nbformat.v4.new_code_cell("assert x == 1")])
    floor = instructor.floor_notebook(source)
    assert [c.source for c in floor.cells] == ["# Lesson", "pass", "pass"]
    assert floor.cells[1].metadata == source.cells[1].metadata and source.cells[1].source == "x = 1"
    cells = learner.floor_notebook(source).cells
    assert [c.source for c in cells] == [learner.IMPORTS, "pass"]


def test_report_shows_floors_beside_the_ratios():
    data = {"learner": {"notebooks": [{"lesson": "03", "status": "ok", "ratio": 2.5,
                                       "floor_ratio": 2.1, "lesson_median": 1.6,
                                       "empty_median": 0.64, "code_cells": 50,
                                       "slowest_cells": []}]},
            "instructor": {"autograde": [{"lesson": "03", "status": "ok", "ratio": 2.0,
                                          "floor_ratio": 1.6, "lesson_median": 1.5,
                                          "empty_median": 0.75, "students": 3,
                                          "score": "34 of 34"}]}}
    details = [t["detail"] for t in report.targets(data) if "of its floor" not in t["target"]]
    assert "floor (same number of cells, explorer imports, nothing computed): 2.10×" in details[0]
    assert "floor (same cells and grades, nothing computed): 1.60×" in details[1]


def test_report_judges_run_all_against_its_floor():
    row = {"status": "ok", "ratio": 2.5, "floor_ratio": 2.1, "lesson_median": 1.6,
           "empty_median": 0.64, "code_cells": 50, "slowest_cells": [], "floor_median": 1.3,
           "cpu_lesson_median": 1.1, "cpu_floor_median": 0.9, "cpu_vs_floor": 1.22}
    data = {"learner": {"vector_cache": {"kind": "shipped with the course", "bytes": 6_055_306,
                                         "path": "chunklib/data/minilm-vectors.npz",
                                         "vectors": 3900, "dimension": 384},
                        "notebooks": [{**row, "lesson": "03", "vs_floor": 1.23},
                                      {**row, "lesson": "06", "vs_floor": 1.31},
                                      {"lesson": "07", "status": "failed: x"}]}}
    floor = {t["target"]: t for t in report.targets(data) if "of its floor" in t["target"]}
    assert [(t["measured"], t["met"]) for t in floor.values()] == [
        ("1.23×", True), ("1.31×", False), ("failed: x", False)]
    detail = floor["lesson 03: Run all within 1.25× of its floor"]["detail"]
    assert "1.60 s vs its floor 1.30 s" in detail and "kernel CPU 1.10 s vs 0.90 s" in detail
    assert "minilm-vectors.npz (shipped with the course, 6.1 MB, 3,900 vectors)" in detail


def test_learner_floor_table_says_met_or_not():
    import learner

    rows = learner.floor_table([
        {"lesson": "(imports only)", "status": "ok"},
        {"lesson": "01", "status": "ok", "lesson_median": 2.0, "floor_median": 1.7,
         "vs_floor": 1.18, "cpu_lesson_median": 1.2, "cpu_floor_median": 1.0,
         "cpu_vs_floor": 1.2},
        {"lesson": "06", "status": "ok", "lesson_median": 2.6, "floor_median": 1.7,
         "vs_floor": 1.53}])
    assert rows[2].startswith("| 01 | 2.00 s | 1.70 s | 1.18x | yes |")
    assert rows[3].startswith("| 06 | 2.60 s | 1.70 s | 1.53x | no |")
    assert len(rows) == 4


def test_learner_names_the_vector_cache_the_lessons_read():
    import learner

    cache = learner.vector_cache()
    assert cache["path"] == "chunklib/data/minilm-vectors.npz"
    assert cache["kind"] == "shipped with the course" and cache["dimension"] == 384
    assert cache["bytes"] > cache["vectors"] * 384 * 4 > 0  # float32 vectors and their keys


def test_learner_runs_what_a_learner_who_finished_the_lesson_has():
    import learner
    import nbformat

    grade = {"nbgrader": {"grade_id": "t", "points": 1, "grade": True, "solution": False,
                          "locked": True, "schema_version": 3}}
    answer = {"nbgrader": {"grade_id": "a", "grade": False, "solution": True, "locked": False,
                           "schema_version": 3}}
    source = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("x = 1", metadata=answer),
        nbformat.v4.new_code_cell("assert x == 1\n### BEGIN HIDDEN TESTS\nassert x > 0\n"
                                  "### END HIDDEN TESTS", metadata=grade),
        nbformat.v4.new_markdown_cell("Done.")])
    cells = learner.learner_notebook(source).cells
    assert [c.source for c in cells] == ["x = 1", "assert x == 1", "Done."]
    assert "BEGIN HIDDEN TESTS" in source.cells[1].source  # the source notebook is untouched


def test_learner_names_lesson_6s_shipped_results():
    import learner

    shipped = learner.shipped_results()
    assert shipped["path"] == "chunklib/data/lesson6-results.json" and shipped["current"]
    assert shipped["bytes"] > 0 and shipped["rows"] > 200
