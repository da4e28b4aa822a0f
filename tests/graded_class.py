"""One real `nbgrader autograde` of a whole simulated class per lesson, shared by the tests.

Per lesson, in one throwaway course folder and ONE autograde run: the solution, the blank
release, every wrong solution of ``tests/wrong/lNN_*.py`` (and a noisy but right one where the
lesson has it), and six grid students (one per kind of Part 1 answer: right; the right value as
a float, as numpy numbers, as a string; a wrong value; None), the right one also writing its
Part 2 functions in the forms of ``FORMS`` in turn (Part 1 and Part 2 cells are graded apart).
tests/test_autograde.py, test_grading_agreement.py, test_notebooks.py (the release nbgrader
generated) and test_selfgrade.py (the self-grader's report on every wrong solution) read the
same run: their tests of one lesson are one xdist group (tests/conftest.py), so one worker
builds it once.

Leaves out: assertions; the tests decide what a score should be.
"""

from __future__ import annotations

import fcntl
import importlib
import os
import pickle
import re
from pathlib import Path

import nbformat
import numpy as np

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

KINDS = ("right", "float", "numpy", "string", "wrong", "none")


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
            "numpy": lambda: _leaves(expected, _as_numpy), "string": lambda: str(expected),
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
    nbgrader("generate_assignment", lesson, "--force", cwd=course)
    source = nbformat.read(lesson_notebook(lesson), as_version=4)
    blank = nbformat.read(lesson_notebook(lesson, course / "release"), as_version=4)
    wrong = wrong_module(lesson)
    submit(course, "solution", lesson, source)
    submit(course, "blank", lesson, blank)
    for name, (cells, _lost) in wrong.WRONG.items():
        submit(course, f"wrong-{name}".replace("_", "-"), lesson, set_cells(source, cells))
    noisy = getattr(wrong, "NOISY_BUT_RIGHT", None)
    if noisy:
        submit(course, "noisy", lesson, set_cells(source, noisy))
    items = part1_items(source)
    solutions = {c.metadata["nbgrader"]["grade_id"]: c.source for c in source.cells
                 if c.metadata.get("nbgrader", {}).get("solution")}
    forms = forms_of(part2_functions(source), first=int(lesson[:2]) - 1)
    grid = {}
    for kind in KINDS:
        cells = {}
        for key, answer, _gid in items:
            value = variant(kind, _expected(key))
            grid[kind, key] = value
            cells[answer] = f"import numpy as np\n\n{answer} = {value!r}\n"
        if kind == "right":  # the right student also writes every function in another form
            cells |= {name: in_form(solutions[name], name, form) for name, form in forms.items()}
        submit(course, f"grid-{kind}", lesson, set_cells(source, cells))
    proc = nbgrader("autograde", lesson, "--create", "--force", cwd=course)
    if lesson == "03-overlap":
        nbgrader("generate_feedback", lesson, "--force", "--student", "wrong-range-bug",
                 cwd=course, check=False)
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
            "items": items, "grid": grid, "forms": forms, "printed": printed}
