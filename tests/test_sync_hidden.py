"""The hidden tests' helpers: one source (tools/hidden, chunklib.exact), every copy current,
``_alone`` right for every form of a correct answer, references equal to chunklib."""

from __future__ import annotations

import ast
import importlib
import itertools
import re

import nbformat
import pytest

from chunklib import access, evaluation, exact, identity, intervals, units, windows
from chunklib.course import selfcheck
from chunklib.elements import heading_paths, table_row_chunks
from tests.nbgrading import lesson_notebook, lessons
from tools import sync_hidden

LESSONS = lessons()


def grade_id(cell) -> str:
    return cell.metadata.get("nbgrader", {}).get("grade_id", "")


def part1_cells(nb):
    return [c for c in nb.cells if grade_id(c).startswith("test_")
            and not grade_id(c).startswith("test_q")
            and not grade_id(c).endswith(("_examples", "_hidden"))]


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_generated_block_is_current(lesson):
    nb = nbformat.read(lesson_notebook(lesson), as_version=4)
    assert sync_hidden.synced(nb, lesson)[1] == 0, "run: .venv/bin/python tools/sync_hidden.py"


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_test_cell_holds_one_generated_block_and_no_copied_helper(lesson):
    nb = nbformat.read(lesson_notebook(lesson), as_version=4)
    cells = [c for c in nb.cells if grade_id(c).startswith("test_")
             and not grade_id(c).startswith("test_q")]
    assert len(cells) >= 12
    for cell in cells:
        hidden = sync_hidden.HIDDEN.search(cell.source).group(2)
        assert hidden.count(sync_hidden.BEGIN) == 1 == hidden.count(sync_hidden.END), grade_id(cell)
        outside = cell.source.replace(hidden, "")
        own = hidden.split(sync_hidden.END, 1)[1]
        for name in ("_same", "_alone", "_raises", "_REFS", "_r_"):
            assert not re.search(rf"^(def )?{name}\w*\b( =|\()", own + outside, re.M), (
                grade_id(cell), name)


@pytest.mark.parametrize("lesson", LESSONS)
def test_part1_literals_equal_what_the_checks_compute(lesson):
    """Each Part 1 hidden test compares with a literal, and that literal is the value the
    lesson's self-check computes with chunklib (and the solution cell's value)."""
    nb = nbformat.read(lesson_notebook(lesson), as_version=4)
    solutions = {grade_id(c): c.source for c in nb.cells
                 if c.metadata.get("nbgrader", {}).get("solution")}
    cells = part1_cells(nb)
    assert len(cells) >= 7
    for cell in cells:
        key, item, answer = sync_hidden.CHECK_CALL.search(cell.source).groups()
        asserts = [n for n in ast.walk(ast.parse(cell.source)) if isinstance(n, ast.Assert)]
        (test,) = asserts
        if isinstance(test.test, ast.BoolOp):  # a text answer: its case and spaces do not count
            kind, compare = test.test.values
            assert ast.unparse(kind) == f"type({answer}) is str"
            assert ast.unparse(compare.left) == f"{answer}.strip().casefold()"
            literal = ast.literal_eval(compare.comparators[0])
            assert isinstance(literal, str) and literal == literal.casefold()
            checks = importlib.import_module(f"chunklib.course.{key}").CHECKS
            assert checks[item].expected().casefold() == literal, item
        else:
            assert ast.unparse(test.test.func) == "_same"
            assert ast.unparse(test.test.args[0]) == answer
            literal = ast.literal_eval(test.test.args[1])
            checks = importlib.import_module(f"chunklib.course.{key}").CHECKS
            computed = checks[item].expected()
            assert exact.same(literal, computed) and exact.same(computed, literal), item
        namespace: dict = {}
        exec(solutions[answer].replace("### BEGIN SOLUTION", "").replace("### END SOLUTION", ""),
             namespace)
        assert selfcheck.answer_matches(namespace[answer], literal), item


@pytest.mark.parametrize("lesson", LESSONS)
def test_each_part1_hidden_test_grades_as_its_self_check_says(lesson):
    """Run every Part 1 hidden test cell (the generated block and its assert) on answers of every
    kind: it passes exactly where ``selfcheck.verdict`` says "✓ Right." (a fast twin of the
    graded classes' agreement test, which runs the cells in nbgrader)."""
    import numpy as np

    nb = nbformat.read(lesson_notebook(lesson), as_version=4)
    for cell in part1_cells(nb):
        key, item, answer = sync_hidden.CHECK_CALL.search(cell.source).groups()
        code = sync_hidden.HIDDEN.search(cell.source).group(2)
        expected = importlib.import_module(f"chunklib.course.{key}").CHECKS[item].expected()
        tries = [expected, None, [expected], (expected,)]
        if isinstance(expected, str):
            tries += [f" {expected.swapcase()}\n", expected + ".", expected * 2, np.str_(expected),
                      expected.encode(), "x", ""]
        else:
            tries += [str(expected), np.asarray(expected).tolist() if np.ndim(expected) else
                      np.float64(expected) if isinstance(expected, float) else expected]
        for value in tries:
            try:
                exec(code, {answer: value})
                graded = True
            except AssertionError:
                graded = False
            said = selfcheck.verdict(f"{key}.{item}", value)[0] is True
            assert graded == said, (lesson, item, value, graded, said)
        with pytest.raises(AssertionError):  # the cell can fail at all
            exec(code, {answer: "not it" if not isinstance(expected, str) else "x"})


def test_the_generated_same_is_the_rule_of_chunklib_exact():
    namespace: dict = {}
    exec(sync_hidden.same_source(), namespace)
    values = [6, 6.0, True, 1, 0, False, "6", None, 0.6, 0.6 + 1e-12, 0.6 + 1e-6, [1], (1,),
              [("c4", 1)], [("c4", 1.0)], {"a": [1]}, {"a": (1,)}, {"b": [1]}, []]
    for a, b in itertools.product(values, repeat=2):
        assert namespace["_same"](a, b) == exact.same(a, b), (a, b)


# Every form of a correct n_chunks (lesson 3), each beside a wrong chunk_starts it builds on.
FORMS = {
    "keyword-only default": """
def n_chunks(n, size, overlap, *, start=0):
    return len(chunk_starts(n - start, size, overlap))
""",
    "functools.wraps": """
import functools
def logged(fn):
    @functools.wraps(fn)
    def inner(*args, **kwargs):
        return fn(*args, **kwargs)
    return inner
@logged
def n_chunks(n, size, overlap):
    return len(chunk_starts(n, size, overlap))
""",
    "functools.lru_cache": """
import functools
@functools.lru_cache(maxsize=None)
def n_chunks(n, size, overlap):
    return len(chunk_starts(n, size, overlap))
""",
    "own helper": """
def _count(xs):
    return len(xs)
def n_chunks(n, size, overlap):
    return _count(chunk_starts(n, size=size, overlap=overlap))
""",
    "lambda": "n_chunks = lambda n, size, overlap: len(chunk_starts(n, size, overlap))",
    "callable object": """
class _Counter:
    def __call__(self, n, size, overlap):
        return len(chunk_starts(n, size, overlap))
n_chunks = _Counter()
""",
}
WRONG_STARTS = "def chunk_starts(n, size, overlap):\n    return list(range(0, n, size - overlap))\n"


@pytest.mark.parametrize("form", sorted(FORMS))
def test_alone_runs_every_form_with_the_reference_siblings(form):
    namespace: dict = {}
    exec(sync_hidden.part2_block("03-overlap"), namespace)
    exec(WRONG_STARTS + FORMS[form], namespace)
    mine = namespace["chunk_starts"]
    f = namespace["_alone"](namespace["n_chunks"], "n_chunks")
    assert f(1000, 250, 100) == 6 and f(1000, 200, 50) == 7 and f(0, 200, 50) == 0
    assert namespace["chunk_starts"] is mine, "the learner's chunk_starts is put back"
    assert namespace["n_chunks"](1000, 250, 100) == 7, "alone, the wrong chunk_starts shows"
    g = namespace["_alone"](f, "n_chunks")  # a wrapped function is not wrapped twice
    assert g._alone_of is f._alone_of and g(1000, 250, 100) == 6


def test_alone_puts_the_learners_names_back_after_an_error():
    namespace: dict = {}
    exec(sync_hidden.part2_block("03-overlap"), namespace)
    exec("def n_chunks(n, size, overlap):\n    raise KeyError(chunk_starts)\n", namespace)
    with pytest.raises(KeyError):
        namespace["_alone"](namespace["n_chunks"], "n_chunks")(1, 1, 0)
    assert "chunk_starts" not in namespace and "stride" not in namespace


def test_raises_tells_value_errors_from_other_errors():
    namespace: dict = {}
    exec(sync_hidden.part2_block("02-boundaries"), namespace)
    assert namespace["_raises"](int, "x") and not namespace["_raises"](int, "1")
    assert not namespace["_raises"](len, 1)


def _refs(lesson: str) -> dict:
    namespace: dict = {}
    exec(sync_hidden.part2_block(lesson), namespace)
    return namespace["_REFS"]


def test_lesson1_references_equal_chunklib():
    refs = _refs("01-units")
    text = "Tea is ready. Milk, café… 👩‍💻 and 日本語!"
    spans = units.unit_spans(text)
    assert refs["unit_spans"](text) == spans
    for n, size in itertools.product(range(8), range(1, 5)):
        assert refs["fixed_windows"](n, size) == units.fixed_windows(n, size)
    for window in [(0, 0), (0, 1), (2, 5), (0, len(spans))]:
        assert refs["window_text"](text, spans, window) == units.window_text(text, spans, window)
    sentences, wins = [(0, 13), (14, 40)], [(0, 10), (10, 20), (20, 45)]
    assert refs["cut_sentences"](sentences, wins) == units.cut_sentences(sentences, wins)


def test_lesson3_references_equal_chunklib():
    refs = _refs("03-overlap")
    for n, size in itertools.product(range(12), range(1, 6)):
        for overlap in range(size):
            for name in ("chunk_starts", "n_chunks", "chunk_lengths", "stored_positions",
                         "duplication_factor"):
                want = getattr(windows, name)(n, size, overlap)
                assert exact.same(refs[name](n, size, overlap), want), (name, n, size, overlap)
            assert refs["stride"](size, overlap) == windows.stride(size, overlap)


def test_lesson4_references_equal_chunklib():
    refs = _refs("04-structure")
    headings = [(1, "A"), (3, "C"), (2, "B"), (3, "D"), (1, "E")]
    assert refs["heading_paths"](headings) == heading_paths(headings)
    args = (["env", "replicas"], [["prod", "4"], ["staging", "2"]], ("Guide", "Matrix"))
    assert refs["table_row_chunks"](*args) == table_row_chunks(*args)
    assert refs["sha256_hex"]("café") == identity.sha256_hex("café")
    for spans in ([], [(0, 5)], [(0, 5), (3, 9)], [(2, 4), (0, 9), (8, 12)]):
        assert exact.same(refs["duplication_ratio"](spans, 12),
                          intervals.duplication_ratio(spans, 12))


def test_lesson5_references_equal_chunklib():
    refs = _refs("05-lifecycle")
    assert refs["H"](["a", 1, "b"]) == identity.H(["a", 1, "b"])
    for acl, groups in itertools.product([None, [], ["a"], ["a", "b"]], [[], ["a"], ["c"]]):
        assert refs["authorized"](acl, groups) == access.authorized(acl, groups)


def test_lesson6_references_equal_chunklib():
    refs = _refs("06-evaluation")
    spans = [(a, b) for a in range(4) for b in range(a + 1, 5)]
    for retrieved in ([], [(0, 2)], [(0, 2), (1, 4)], [(3, 4), (0, 1), (0, 1)]):
        for evidence in ([], [(1, 3)], [(0, 1), (2, 4)]):
            for name in ("span_recall", "span_precision", "span_iou"):
                want = getattr(evaluation, name)(retrieved, evidence)
                assert exact.same(refs[name](retrieved, evidence), want), name
        for ev in spans:
            assert refs["evidence_complete"](retrieved, ev) == evaluation.evidence_complete(
                retrieved, ev)


def test_lesson3_todo_scaffolds_state_what_chunklib_computes():
    nb = nbformat.read(lesson_notebook("03-overlap"), as_version=4)
    todo = {grade_id(c): c.source.splitlines()[0] for c in nb.cells
            if c.source.startswith("# To do")}
    step = windows.stride(200, 50)
    assert f"K = 1 + ceil((1000 − 200) / {step})" in todo["ex1_k"]
    starts = ", ".join(map(str, windows.chunk_starts(1000, 200, 50)))
    assert f"The chunks start at {starts}." in todo["ex1_last"]
    assert f"({windows.n_chunks(1000, 200, 50) - 1} full chunks of 200 plus" in todo["ex1_stored"]
    assert "K = 1 + ceil((1000 − 250) / stride)" in todo["ex2_k"]


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_todo_states_the_type_of_its_answer(lesson):
    nb = nbformat.read(lesson_notebook(lesson), as_version=4)
    todos = [c.source.splitlines()[0] for c in nb.cells if c.source.startswith("# To do")]
    assert len(todos) == len(part1_cells(nb))
    kinds = r"an int|a float|True or False|a (sorted )?list|a tuple|a string"
    for line in todos:
        assert re.search(rf"\(({kinds})\b[^)]*(\)|$)", line), line
