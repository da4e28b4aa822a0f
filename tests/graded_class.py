"""One real `nbgrader autograde` of a whole simulated class per lesson, shared by the tests.

Per lesson, in one throwaway course folder and ONE autograde run: the solution, the blank
release, six grid students (one per kind of Part 1 answer: right; the right value as a float,
as numpy numbers, as a string (a text answer in the other case, a space before it); a wrong
value; None), the right one also writing its Part 2 functions in the forms of ``FORMS`` in turn
(Part 1 and Part 2 cells are graded apart), and
every wrong solution of ``tests/wrong/lNN_*.py`` (and a noisy but right one where the lesson has
it, and its ``VARIANTS``: right functions written another way than the reference, each losing
nothing). Wrong solutions share a notebook where ``can_share`` shows that none can change what
another's lost test cells see (different cells, different lost cells, no name of one read by
the other's code or tests, nothing changed outside their own names); a pack of them goes into
a grid student's notebook where it can share it with that student's Part 1 answers, else into
one of its own. Each wrong solution's points are then checked on every cell but those its
notebook-mates may lose (``member``): the same points as graded alone. 54 notebooks for the six
lessons instead of 135.
tests/test_autograde.py, test_grading_agreement.py, test_notebooks.py (the release nbgrader
generated) and test_selfgrade.py (the self-grader's report on every wrong solution) read the
same run: their tests of one lesson are one xdist group (tests/conftest.py), so one worker
builds it once.

Leaves out: assertions; the tests decide what a score should be.
"""

from __future__ import annotations

import ast
import fcntl
import importlib
import os
import pickle
import re
import symtable
from pathlib import Path

import nbformat
import numpy as np
from nbgrader.converters import GenerateFeedback

from tests.nbgrading import (
    lesson_notebook,
    max_scores,
    nbgrader,
    new_course,
    part2_functions,
    scores,
    set_cells,
    submit,
    wrong_module,
)
from tools import sync_hidden
from tools.grading import pipeline

KINDS = ("right", "float", "numpy", "string", "wrong", "none")

#: Seconds each cell of a graded class may run (nbgrader's ``Execute.timeout``, given to its
#: autograde on the command line). The slowest honest cell of any lesson takes about 0.2 s;
#: lesson 3's ``sign_slip_loops_forever`` spins in its two test cells until the timeout
#: interrupts it, 20 s of a core under the course's 10 s. The course's own value
#: (nbgrader_config.py) is checked through nbgrader in tests/test_nbgrader_config.py.
CELL_TIMEOUT = 3


def _leaves(value, leaf):
    """``value`` with ``leaf`` applied to every number, bool and string inside it."""
    if isinstance(value, (list, tuple)):
        return type(value)(_leaves(v, leaf) for v in value)
    return leaf(value)


def _as_float(x):
    return float(x) if isinstance(x, (int, float)) else x


def _as_numpy(x):
    if isinstance(x, bool):
        return np.bool_(x)
    return {int: np.int64, float: np.float64, str: np.str_}[type(x)](x)


def _wrong(x):
    """A value of the same shape and type that differs from ``x``."""
    if isinstance(x, (list, tuple)):
        return type(x)([_wrong(x[0]), *x[1:]]) if x else type(x)(["?"])
    if isinstance(x, bool):
        return not x
    return x + ("?" if isinstance(x, str) else 1)


def variant(kind: str, expected):
    """The answer a student of ``kind`` gives when ``expected`` is right."""
    return {"right": lambda: expected, "float": lambda: _leaves(expected, _as_float),
            "numpy": lambda: _leaves(expected, _as_numpy), "string": lambda: (
                f" {expected.swapcase()}" if isinstance(expected, str) else str(expected)),
            "wrong": lambda: _wrong(expected), "none": lambda: None}[kind]()


def part1_items(nb) -> list[tuple[str, str, str]]:
    """(check key, answer variable, test grade id) of every Part 1 item of a notebook."""
    items = []
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        call = sync_hidden.CHECK_CALL.search(cell.source)
        if call and gid.startswith("test_") and cell.metadata["nbgrader"].get("grade"):
            items.append((f"{call.group(1)}.{call.group(2)}", call.group(3), gid))
    return items


def _expected(key: str):
    lesson, _, item = key.partition(".")
    return importlib.import_module(f"chunklib.course.{lesson}").CHECKS[item].expected()


# ---- every form of a correct function -------------------------------------------------

FORMS = ("keyword-only default", "functools.wraps", "functools.lru_cache", "own helper",
         "lambda", "callable object")
#: functions whose arguments are all hashable (lru_cache needs that)
HASHABLE = {"unit_spans", "fixed_windows", "stride", "chunk_starts", "n_chunks",
            "chunk_lengths", "stored_positions", "duplication_factor", "sha256_hex",
            "chunk_id", "index_entry_id"}


def in_form(source: str, name: str, form: str) -> str:
    """The solution cell ``source`` of function ``name`` rewritten into ``form``."""
    source = re.sub(r"^ *### (BEGIN|END) SOLUTION\n", "", source, flags=re.M)
    if form == "keyword-only default":
        head = re.search(rf"def {name}\((.*?)\):", source, re.S)
        return (source[:head.end(1)] + ", *, _unused=None" + source[head.end(1):]
                + f"\nassert {name}.__kwdefaults__ == {{'_unused': None}}\n")
    impl = f"_{name}_steps"
    source = re.sub(rf"\bdef {name}\(", f"def {impl}(", source, count=1)
    call = f"{impl}(*args, **kwargs)"
    return source + "\n" + {
        "functools.wraps": "import functools\n\n\ndef _passthrough(fn):\n"
                           "    @functools.wraps(fn)\n    def inner(*args, **kwargs):\n"
                           "        return fn(*args, **kwargs)\n    return inner\n\n\n"
                           f"{name} = _passthrough({impl})\n",
        "functools.lru_cache": f"import functools\n\n{name} = functools.lru_cache({impl})\n",
        "own helper": f"\ndef {name}(*args, **kwargs):\n    return {call}\n",
        "lambda": f"{name} = lambda *args, **kwargs: {call}  # noqa: E731\n",
        "callable object": f"\nclass _{name.title()}:\n    def __call__(self, *args, **kwargs):\n"
                           f"        return {call}\n\n\n{name} = _{name.title()}()\n",
    }[form]


def forms_of(functions: list[str], first: int = 0) -> dict[str, str]:
    """Function -> form, the forms in turn from ``FORMS[first]`` (lru_cache only where the
    arguments are hashable)."""
    out, turn = {}, first
    for name in functions:
        form = FORMS[turn % len(FORMS)]
        if form == "functools.lru_cache" and name not in HASHABLE:
            form = FORMS[(turn + 1) % len(FORMS)]
            turn += 1
        out[name] = form
        turn += 1
    return out


# ---- several wrong solutions in one notebook ------------------------------------------

def _python(source: str) -> str:
    """A cell's code as the kernel runs it (IPython magics become ``get_ipython()`` calls)."""
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager().transform_cell(source)


def _names(source: str) -> tuple[set[str], set[str], set[str]]:
    """(names bound at the top level, names read at the top level, global names read inside
    its functions and classes) of a cell's code."""
    table = symtable.symtable(_python(source), "cell", "exec")
    bound = {s.get_name() for s in table.get_symbols() if s.is_assigned() or s.is_imported()}
    top = {s.get_name() for s in table.get_symbols() if s.is_referenced()}
    inner: set[str] = set()
    todo = list(table.get_children())
    while todo:
        child = todo.pop()
        todo += child.get_children()
        for s in child.get_symbols():
            if s.is_global() or s.is_declared_global():
                inner |= {s.get_name()} if s.is_referenced() else set()
                bound |= {s.get_name()} if s.is_declared_global() and s.is_assigned() else set()
    return bound, top, inner


def _reaches_out(source: str) -> bool:
    """True when a cell changes something that is not a name of its own: an attribute or item
    of an object it did not make inside a function, ``global``, ``setattr``, ``exec``."""
    source = _python(source)
    table, local = symtable.symtable(source, "cell", "exec"), set()
    todo = list(table.get_children())
    while todo:
        child = todo.pop()
        todo += child.get_children()
        local |= {s.get_name() for s in child.get_symbols() if s.is_local() or s.is_parameter()}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, ast.Store):
            root = node
            while isinstance(root, (ast.Attribute, ast.Subscript)):
                root = root.value
            if not (isinstance(root, ast.Name) and root.id in local):
                return True
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            return True
        if isinstance(node, ast.Name) and node.id in {"setattr", "exec", "eval", "globals",
                                                      "__builtins__", "builtins"}:
            return True
    return False


class Notebook:
    """What the packing rule reads of a source notebook: each graded test cell's names, the
    lesson code cells (neither answer nor test), and the names ``_alone`` swaps for the
    reference versions while a test calls the learner's function."""

    def __init__(self, nb):
        self.tests, self.lesson_cells, self.refs = {}, [], set()
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("grade") and not meta.get("solution"):
                bound, top, inner = _names(cell.source)
                # the test cell's own helpers (``_same``, ``_mine``, ...) are set before use
                self.tests[meta["grade_id"]] = (top | inner) - {n for n in bound
                                                                if n.startswith("_")}
                for refs in re.findall(r"^_REFS = \{(.*?)\}", cell.source, re.M | re.S):
                    self.refs |= set(re.findall(r"[\"'](\w+)[\"']\s*:", refs))
            elif not meta.get("solution"):
                self.lesson_cells.append(_names(cell.source))

    def tainted(self, bound: set[str]) -> set[str]:
        """``bound`` and every name a lesson code cell binds from a name already tainted."""
        out, grew = set(bound), True
        while grew:
            grew = False
            for cell_bound, top, inner in self.lesson_cells:
                if (top | inner) & out and not cell_bound <= out:
                    out |= cell_bound
                    grew = True
        return out


def member_names(cells: dict[str, str]) -> tuple[set[str], set[str], set[str]]:
    """(bound, read at the top level, read inside functions) of all of a submission's cells."""
    bound, top, inner = set(), set(), set()
    for source in cells.values():
        b, t, i = _names(source)
        bound, top, inner = bound | b, top | t, inner | i
    return bound, top, inner


def reaches(nb: Notebook, a: tuple[dict, set], b: tuple[dict, set]) -> set[str]:
    """The names through which wrong solution ``a`` (cells, lost) could change what ``b``'s
    lost test cells see: ``a``'s names (and what lesson cells compute from them) that ``b``'s
    lost test cells read, that ``b``'s own code reads at its top level, or reads inside its
    functions and ``_alone`` does not swap for a reference version; empty when none."""
    bound_a = member_names(a[0])[0]
    bound_b, top_b, inner_b = member_names(b[0])
    seen = set().union(*(nb.tests[gid] for gid in b[1])) if b[1] else set()
    return nb.tainted(bound_a) & (seen | top_b | (inner_b - nb.refs) | bound_b)


def can_share(nb: Notebook, a: tuple[dict, set], b: tuple[dict, set]) -> bool:
    """Two submissions can be one notebook when they change different cells, lose different
    test cells, neither reaches out of its own names, and neither can reach the other."""
    return (not set(a[0]) & set(b[0]) and not a[1] & b[1]
            and not any(_reaches_out(s) for s in [*a[0].values(), *b[0].values()])
            and not reaches(nb, a, b) and not reaches(nb, b, a))


def right_members(wrong) -> dict[str, tuple[dict, set]]:
    """The right solutions of a ``tests/wrong`` module, each losing nothing: its noisy one
    ("noisy") and each of its ``VARIANTS`` ("variant <name>")."""
    out = {"noisy": (wrong.NOISY_BUT_RIGHT, set())} if getattr(wrong, "NOISY_BUT_RIGHT",
                                                                 None) else {}
    return out | {f"variant {name}": (cells, set())
                  for name, cells in getattr(wrong, "VARIANTS", {}).items()}


def packs(lesson: str, source) -> list[dict[str, tuple[dict, set]]]:
    """The lesson's wrong solutions (and its right ones written another way, which lose
    nothing) put into as few notebooks as ``can_share`` allows, first fit in ``WRONG``'s
    order."""
    wrong, nb = wrong_module(lesson), Notebook(source)
    members = dict(wrong.WRONG) | right_members(wrong)
    out: list[dict] = []
    for name, member in members.items():
        home = next((p for p in out if all(can_share(nb, member, m) for m in p.values())), None)
        if home is None:
            out.append(home := {})
        home[name] = member
    return out


def pack_student(index: int) -> str:
    """The student id of pack ``index`` (from 0): 'pack-1', ..."""
    return f"pack-{index + 1}"


def member(graded: dict, name: str) -> tuple[str, set[str]]:
    """(student id of the notebook that holds wrong solution ``name``, the test cells that the
    other submissions in that notebook may lose) in a graded class."""
    (home,) = [h for h in graded["packs"] if name in h["lost"]]
    mates = set(home["also_lost"]).union(*(lost for other, lost in home["lost"].items()
                                           if other != name))
    return home["student"], mates


def graded_class(lesson: str, tmp_path_factory) -> dict:
    """What the tests read of ``lesson``'s one autograde run, built once per test session.

    pytest-xdist may send the tests of one lesson to both workers, so the run is shared through
    the session's temporary folder (common to the workers) under a file lock: the first worker
    grades, the other waits and reads its results.
    """
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    results = shared / f"class-{lesson}.pickle"
    with open(shared / f"class-{lesson}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not results.exists():
            data = _grade_class(lesson, shared / f"class-{lesson}")
            results.write_bytes(pickle.dumps(data))
        data = pickle.loads(results.read_bytes())
    return {**data, "wrong": wrong_module(lesson)}


def _grade_class(lesson: str, folder: Path) -> dict:
    """Autograde every kind of submission of ``lesson`` in ``folder``; picklable results."""
    folder.mkdir()
    course = new_course(folder, [lesson])
    # nbgrader's generate_assignment, run in this process as the instructor's release does it
    # (a new nbgrader process costs 1.5 s of imports); the release it writes is compared with
    # the committed one, which ``course.py release`` made with nbgrader's command
    pipeline.release(pipeline.Course(course), [lesson])
    source = nbformat.read(lesson_notebook(lesson), as_version=4)
    blank = nbformat.read(lesson_notebook(lesson, course / "release"), as_version=4)
    submit(course, "solution", lesson, source)
    submit(course, "blank", lesson, blank)
    items = part1_items(source)
    solutions = {c.metadata["nbgrader"]["grade_id"]: c.source for c in source.cells
                 if c.metadata.get("nbgrader", {}).get("solution")}
    forms = forms_of(part2_functions(source), first=int(lesson[:2]) - 1)
    grid, grid_cells = {}, {}
    for kind in KINDS:
        cells = {}
        for key, answer, _gid in items:
            value = variant(kind, _expected(key))
            grid[kind, key] = value
            cells[answer] = f"import numpy as np\n\n{answer} = {value!r}\n"
        grid_cells[kind] = dict(cells)
        if kind == "right":  # the right student also writes every function in another form
            cells |= {name: in_form(solutions[name], name, form) for name, form in forms.items()}
        grid_cells[kind + " submitted"] = cells
    # each pack of wrong solutions goes into a grid student's notebook where it can share it
    # (the grid student counts as one more wrong solution that may lose every Part 1 item)
    # or into a notebook of its own
    nb, part1 = Notebook(source), {gid for _key, _answer, gid in items}
    placed = []
    for pack in packs(lesson, source):
        host = next((kind for kind in KINDS[1:] if kind not in [k for k, _p in placed]
                     and all(can_share(nb, m, (grid_cells[kind], part1)) for m in pack.values())),
                    None)
        placed.append((host, pack))
    homes = []
    for index, (host, pack) in enumerate(placed):
        student = f"grid-{host}" if host else pack_student(index)
        homes.append({"student": student, "lost": {name: m[1] for name, m in pack.items()},
                      "also_lost": part1 if host else set()})
        if host:
            grid_cells[host + " submitted"] = grid_cells[host + " submitted"] | {
                gid: text for cells, _lost in pack.values() for gid, text in cells.items()}
        else:
            submit(course, student, lesson, set_cells(source, {
                gid: text for cells, _lost in pack.values() for gid, text in cells.items()}))
    for kind in KINDS:
        submit(course, f"grid-{kind}", lesson, set_cells(source, grid_cells[kind + " submitted"]))
    proc = nbgrader("autograde", lesson, "--create", "--force",
                    f"--Execute.timeout={CELL_TIMEOUT}", "--Execute.shutdown_kernel=immediate",
                    cwd=course)
    if lesson == "03-overlap":  # the feedback of the notebook that holds range_bug
        (home,) = [h for h in homes if "range_bug" in h["lost"]]
        pipeline.run(GenerateFeedback, pipeline.Course(course).config(), lesson,
                     home["student"], force=True)  # nbgrader's generate_feedback, in process
    printed = {}
    for kind in KINDS:
        nb = nbformat.read(lesson_notebook(lesson, course / "autograded" / f"grid-{kind}"),
                           as_version=4)
        for cell in nb.cells:
            gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
            printed[kind, gid] = "".join(o.get("text", "") for o in cell.get("outputs", [])
                                         if o.get("output_type") == "stream")
    return {"lesson": lesson, "course": course, "scores": scores(course, lesson),
            "max": max_scores(source), "log": proc.stdout + proc.stderr,
            "items": items, "grid": grid, "forms": forms, "printed": printed,
            "packs": homes, "grid_cells": {k: grid_cells[k] for k in KINDS}}
