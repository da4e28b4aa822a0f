"""Adversarial submissions of lesson 3, each with the outcome autograde must give it.

Each case changes a copy of the solution notebook (so every cell it does not touch keeps its
points) and lists the test cells that must score 0, the run events and review items that must
be reported, and the status. Grade ids are lesson 3's (tests/wrong/l03_overlap.py names the
same cells).

Leaves out: the sandbox proof (``spy.py``) and ordinary mistakes (``tests/wrong/``).
Example: ``CASES[0].name`` -> ``"infinite_loop"``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

LESSON = "03-overlap"


@dataclass(frozen=True)
class Case:
    name: str
    what: str
    cells: dict = field(default_factory=dict)  # grade_id -> new source
    lost: frozenset = frozenset()               # test cells that must score 0 (all others full)
    delete: frozenset = frozenset()             # grade ids whose cells the student deleted
    points: dict = field(default_factory=dict)  # grade_id -> points the student wrote in
    events: frozenset = frozenset()             # (event, cell) autograde must report
    review: frozenset = frozenset()             # review categories that must be listed
    routes: tuple = ()                          # what the chunklib flags must name
    status: str = "graded"
    missing: bool = False                       # no notebook at all


def _both(fn: str) -> frozenset:
    return frozenset({f"test_{fn}_examples", f"test_{fn}_hidden"})


RANGE_BUG = '''
def chunk_starts(n, size, overlap):
    return list(range(0, n, stride(size, overlap)))
'''

SEARCH = '''
import contextlib
import io
for guess in range(5000):
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        check("overlap.ex1_stored", guess)
    if "Right" in said.getvalue():
        ex1_stored = guess
        break
'''

CASES = [
    Case("infinite_loop", "a loop that never ends: each of its test cells times out",
         {"chunk_lengths": "def chunk_lengths(n, size, overlap):\n    while True:\n"
                           "        pass\n"},
         _both("chunk_lengths"),
         events=frozenset({("timeout", "test_chunk_lengths_examples"),
                           ("timeout", "test_chunk_lengths_hidden")})),
    # it sleeps rather than spins: the grader sees the same (no reply, the interrupt ignored),
    # and a spinning kernel would take a core from the other tests for its 20-odd seconds
    Case("ignores_interrupt", "a loop that ignores SIGINT: the kernel is restarted without it",
         {"stride": "import signal\nimport time\n\ndef stride(size, overlap):\n"
                    "    signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                    "    while True:\n        time.sleep(1)\n"},
         _both("stride"),
         events=frozenset({("kernel-hung", "test_stride_examples"),
                           ("kernel-hung", "test_stride_hidden")}),
         review=frozenset({"exit"})),
    Case("os_exit", "os._exit inside the function: the kernel dies in each of its test cells",
         {"n_chunks": "import os\n\ndef n_chunks(n, size, overlap):\n    os._exit(3)\n"},
         _both("n_chunks"),
         events=frozenset({("kernel-died", "test_n_chunks_examples"),
                           ("kernel-died", "test_n_chunks_hidden")}),
         review=frozenset({"exit"})),
    Case("segfault", "a crash (NULL read through ctypes) in the answer cell itself",
         {"duplication_factor": "import ctypes\nctypes.string_at(0)\n\n"
                                "def duplication_factor(n, size, overlap):\n    return 1.0\n"},
         _both("duplication_factor"),
         events=frozenset({("kernel-died", "duplication_factor")}),
         review=frozenset({"exit"})),
    Case("edited_tests", "the range bug, with its test cells rewritten to pass and 100 points",
         {"chunk_starts": RANGE_BUG, "test_chunk_starts_examples": "print('all good')",
          "test_chunk_starts_hidden": "pass"},
         _both("chunk_starts"),  # the examples include 1000/250/100, which the bug gets wrong
         points={"test_chunk_starts_hidden": 100},
         review=frozenset({"edited-test"})),
    Case("deleted_tests", "the range bug with its hidden test cell deleted, and a deleted "
         "test cell of a correct function",
         {"chunk_starts": RANGE_BUG},
         _both("chunk_starts"),
         delete=frozenset({"test_chunk_starts_hidden", "test_stride_hidden"}),
         review=frozenset({"deleted-test"})),
    Case("deleted_answer_and_tests", "the answer cell of n_chunks and both its test cells deleted",
         {}, _both("n_chunks"),
         delete=frozenset({"n_chunks", "test_n_chunks_examples", "test_n_chunks_hidden"}),
         review=frozenset({"deleted-test"})),
    Case("patches_builtins", "always-equal result, with type/isinstance shadowed and "
         "builtins.all patched so the exact comparison accepts it",
         {"stored_positions": '''
import builtins
class Anything(int):
    def __eq__(self, other):
        return True
    __hash__ = int.__hash__
type = lambda obj: object
isinstance = lambda obj, cls: True
builtins.all = lambda items: True
def stored_positions(n, size, overlap):
    return Anything(0)
'''}, _both("stored_positions"), review=frozenset({"builtins", "always-equal"})),
    Case("patches_chunklib", "wrong hand answers, with chunklib's self-check and quiz patched "
         "to say right and the hidden tests' _same rebound",
         {"ex1_stride": '''
import chunklib.course.quiz
import chunklib.course.selfcheck
chunklib.course.selfcheck.check = lambda *args, **kwargs: print("Right!")
chunklib.course.quiz.explain = lambda *args, **kwargs: print("Right!")
ex1_stride = 7
''', "q1": 'q1 = "A"', "chunk_lengths": '''
_same = lambda a, b: True
def chunk_lengths(n, size, overlap):
    return []
'''}, frozenset({"test_ex1_stride", "test_q1"}) | _both("chunk_lengths"),
         review=frozenset({"test-helpers", "chunklib"}), routes=("chunklib.course.quiz",)),
    Case("always_equal_list", "returns a list whose __eq__ always says True",
         {"chunk_with_overlap": '''
class Chunks(list):
    def __eq__(self, other):
        return True
    __hash__ = None
def chunk_with_overlap(units, size, overlap):
    return Chunks()
'''}, _both("chunk_with_overlap"), review=frozenset({"always-equal"})),
    Case("hides_errors", "wrong answer, with IPython's traceback display and custom "
         "exception handler turned off so failing tests show no error",
         {"chunk_lengths": '''
ip = get_ipython()
ip.showtraceback = lambda *args, **kwargs: None
ip.set_custom_exc((BaseException,), lambda *args, **kwargs: None)
def chunk_lengths(n, size, overlap):
    return [0]
'''}, _both("chunk_lengths"), review=frozenset({"interpreter"})),
    Case("fake_partial_credit", "wrong answer that emits an execute_result of 1 first (nbgrader "
         "would read it as 1 point of partial credit and ignore the error)",
         {"stride": '''
import sys
def stride(size, overlap):
    sys.displayhook(1)
    return -1
'''}, _both("stride"), review=frozenset({"interpreter"})),
    Case("huge_output", "a correct answer that prints 5 MB in one line and 20 000 lines, then "
         "a line and a warning on stderr at every call",
         {"stride": '''
import sys, warnings
print("x" * 5_000_000)
for i in range(20_000):
    print(i)
def stride(size, overlap):
    warnings.warn("stride() was called")
    print("debug: stride", size, overlap, "y" * 2000, file=sys.stderr)
    if not 0 <= overlap < size:
        raise ValueError("overlap must satisfy 0 <= overlap < size")
    print("stride called with", size, overlap, "y" * 2000)
    return size - overlap
'''}, frozenset(), events=frozenset({("output-truncated", "stride")})),
    Case("imports_solution", "takes chunk_starts from chunklib (full marks, flagged)",
         {"chunk_starts": "from chunklib.windows import chunk_starts\n"}, frozenset(),
         review=frozenset({"chunklib"}), routes=("chunklib.windows",)),
    # every route to a reference version or an answer in chunklib: full marks, each flagged
    Case("reexport", "takes n_chunks from another chunklib module that imports it",
         {"n_chunks": "from chunklib.course.overlap import n_chunks\n"}, frozenset(),
         review=frozenset({"chunklib"}), routes=("chunklib.course.overlap",)),
    Case("importlib", "takes chunk_starts through importlib.import_module",
         {"chunk_starts": "import importlib\n\nchunk_starts = importlib.import_module("
                          "'chunklib.windows').chunk_starts\n"}, frozenset(),
         review=frozenset({"chunklib"}), routes=("import_module",)),
    Case("dunder_import", "takes stride through __import__, with a name built at run time",
         {"stride": "stride = __import__('.'.join(['chunk' + 'lib', 'windows']), "
                    "fromlist=['stride']).stride\n"}, frozenset(),
         review=frozenset({"chunklib"}), routes=("__import__",)),
    Case("sys_modules", "calls duplication_factor from the loaded module, via sys.modules",
         {"duplication_factor": "import sys\n\ndef duplication_factor(n, size, overlap):\n"
                                "    mod = sys.modules['chunklib.' + 'windows']\n"
                                "    return mod.duplication_factor(n, size, overlap)\n"},
         frozenset(), review=frozenset({"chunklib"}), routes=("sys.modules",)),
    Case("getattr_on_explorer", "reaches chunklib.windows through getattr on the explorer "
         "function the notebook imported",
         {"stored_positions": "_w = getattr(overlap_explorer, '__glob' + 'als__')['windows']\n"
                              "\ndef stored_positions(n, size, overlap):\n"
                              "    return getattr(_w, 'stored_positions')(n, size, overlap)\n"},
         frozenset(), review=frozenset({"chunklib"}), routes=("overlap_explorer", "getattr")),
    Case("reads_quiz_answers", "copies the right letters out of the lesson's QUIZ and out of "
         "chunklib.course.quiz",
         {"q1": "from chunklib.course.overlap import QUIZ\nq1 = QUIZ[0].answer\n",
          "q2": "from chunklib.course import quiz\nq2 = quiz.questions('overlap')[1].answer\n"},
         frozenset(), review=frozenset({"chunklib"}), routes=("QUIZ", "quiz")),
    Case("reads_checks", "copies Part 1 answers out of the self-check registry",
         {"ex1_k": "from chunklib.course.overlap import CHECKS\n"
                   "ex1_k = CHECKS['ex1_k'].expected()\n",
          "ex1_last": "from chunklib.course.selfcheck import _registry\n"
                      "ex1_last = _registry('overlap')['ex1_last'].expected()\n"},
         frozenset(), review=frozenset({"chunklib"}), routes=("CHECKS", "_registry")),
    Case("searches_with_check", "finds a Part 1 answer by calling the self-check in a loop",
         {"ex1_stored": SEARCH}, frozenset(), review=frozenset({"chunklib"}),
         routes=("in a loop",)),
    Case("missing_notebook", "a submission folder without the notebook", missing=True,
         status="missing notebook"),
]


def build(case: Case, source):
    """The submitted notebook of ``case``, from the lesson's source notebook (None if missing)."""
    import nbformat

    if case.missing:
        return None
    nb = nbformat.from_dict(source)
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        gid = meta.get("grade_id")
        if gid in case.cells:
            cell.source = case.cells[gid]
        if gid in case.points:
            meta["points"] = case.points[gid]
    nb.cells = [c for c in nb.cells
                if c.metadata.get("nbgrader", {}).get("grade_id") not in case.delete]
    return nb
