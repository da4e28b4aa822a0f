"""The lesson-6 results the course ships (chunklib/data/lesson6-results.json and
lesson6-hits.npz, written by tools/build_results.py): current, equal to what chunklib computes
now, read by the lesson's functions, and never read when they were computed from other inputs."""

from pathlib import Path

import numpy as np
import pytest

from chunklib.course import experiment as ex
from chunklib.course.experiment import LESSON_STRATEGIES, Strategy, diagnose, summarize
from tools import build_results


def test_the_shipped_results_are_current():
    assert build_results.is_current(Path(str(ex.RESULTS))), "run tools/build_results.py"


@pytest.mark.slow
def test_the_shipped_file_is_what_chunklib_computes_now():
    # every row recomputed (summarize and diagnose with shipped=False) and written as the tool
    # writes it: equal text, so every count and every float is equal exactly
    assert build_results.results_text() == Path(str(ex.RESULTS)).read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_shipped_hits_are_what_chunklib_computes_now():
    fresh = ex.computed_hits(ex.explorer_strategies(), ex.K)
    with np.load(Path(str(ex.HITS))) as shipped:
        assert sorted(shipped.files) == sorted(fresh)
        for name in fresh:
            assert shipped[name].dtype == fresh[name].dtype
            assert np.array_equal(shipped[name], fresh[name]), name  # exact, scores included


@pytest.mark.parametrize("strategy", [Strategy("windows", 200), Strategy("windows", 1000, 500),
                                      Strategy("structure", 600), Strategy("parent-child", 400)],
                         ids=lambda s: s.label)
def test_outcomes_from_shipped_hits_equal_fresh_ones(strategy):
    chunking = Strategy("structure", strategy.size) if strategy.kind == "parent-child" \
        else strategy
    assert ex.shipped_hits(chunking, ex.K, ["dense", "lexical", "hybrid"]) is not None
    for retriever in ("dense", "lexical", "hybrid"):
        assert ex.evaluate(strategy, ex.K, retriever) == ex.evaluate(strategy, ex.K, retriever,
                                                                     shipped=False)


@pytest.mark.parametrize("retriever", ["dense", "lexical", "hybrid"])
def test_the_lessons_functions_read_them_and_they_agree_with_a_fresh_evaluation(retriever):
    for strategy in LESSON_STRATEGIES:
        assert (strategy, ex.K, retriever) in ex.shipped_results()
        assert summarize(strategy, ex.K, retriever) == summarize(strategy, ex.K, retriever,
                                                                 shipped=False)
        if strategy.kind != "parent-child":
            assert diagnose(strategy, ex.K, retriever) == diagnose(strategy, ex.K, retriever,
                                                                   shipped=False)
    window = Strategy("windows", 700, 150)  # one of the explorer's curves
    assert ex.index_duplication(window) == ex.shipped_results()[window, ex.K, retriever][
        0].index_duplication


def test_every_strategy_the_lesson_and_its_explorer_show_is_shipped():
    held = {key[:5] for key in map(tuple, build_results.wanted_keys())}
    for size in ex.SIZES:
        for strategy in [*(Strategy("windows", size, o) for o in ex.sweep_overlaps(size)),
                         Strategy("structure", size)]:
            for retriever in ("dense", "lexical", "hybrid"):
                assert (strategy.kind, size, strategy.overlap, 0, retriever) in held


def test_results_of_other_inputs_or_no_file_are_never_read(monkeypatch, tmp_path):
    readers = (ex.shipped_results, ex._hit_arrays)
    window = Strategy("windows", 400, 100)
    try:
        for reader in readers:
            reader.cache_clear()
        monkeypatch.setattr(ex, "inputs_sha256", lambda: "0" * 64)  # another fixture, say
        assert ex.shipped_results() == {} and ex.shipped_hits(window) is None
        assert not build_results.is_current(Path(str(ex.RESULTS)))
        for reader in readers:
            reader.cache_clear()
        monkeypatch.undo()
        monkeypatch.setattr(ex, "RESULTS", tmp_path / "missing.json")
        monkeypatch.setattr(ex, "HITS", tmp_path / "missing.npz")
        assert ex.shipped_results() == {} and ex.shipped_hits(window) is None
    finally:
        monkeypatch.undo()
        for reader in readers:
            reader.cache_clear()
    assert ex.shipped_results() and ex.shipped_hits(window)  # read again once inputs match


def test_the_hash_covers_the_questions(monkeypatch):
    before = ex.inputs_sha256()
    questions = ex.load_questions()
    monkeypatch.setattr(ex, "load_questions", lambda: questions[:-1])
    try:
        ex.inputs_sha256.cache_clear()
        assert ex.inputs_sha256() != before
    finally:
        monkeypatch.undo()
        ex.inputs_sha256.cache_clear()
    assert ex.inputs_sha256() == before


def test_shipped_false_reads_no_shipped_value(monkeypatch):
    window = Strategy("windows", 500, 100)
    planted = {window: 9.0}  # a shipped index duplication no fixture has
    caches = (ex.summarize, ex.index_duplication)
    try:
        for f in caches:
            f.cache_clear()
        monkeypatch.setattr(ex, "_shipped_duplication", lambda: planted)
        assert ex.index_duplication(window) == 9.0  # the shipped value is read by default
        fresh = summarize(window, ex.K, "dense", shipped=False)
        assert fresh.index_duplication == ex.index_duplication(window, shipped=False) < 1
    finally:
        monkeypatch.undo()
        for f in caches:
            f.cache_clear()
    assert fresh == summarize(window, ex.K, "dense")
