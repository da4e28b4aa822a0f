"""The self-check and real `nbgrader autograde` agree, and every form of a correct function scores.

Per lesson, one throwaway course and one autograde of seven students:
- six grid students, one per kind of answer (right; the right value as a float, as numpy
  numbers, as a string; a wrong value; None), each giving that kind of answer to every Part 1
  item. For every item and kind, "✓ Right." from the self-check (printed in the autograded
  notebook, and ``selfcheck.verdict`` here) goes with the point, anything else with 0;
- one student whose Part 2 functions take the forms of ``FORMS`` in turn (keyword-only
  default, functools.wraps, functools.lru_cache, a helper of their own, a lambda, a callable
  object) scores full marks.
"""

from __future__ import annotations

import importlib
import re

import nbformat
import numpy as np
import pytest

from chunklib import selfcheck
from chunklib.exact import same
from tests.nbgrading import (
    lesson_notebook,
    lessons,
    max_scores,
    nbgrader,
    new_course,
    part2_functions,
    scores,
    set_cells,
    submit,
)
from tools import sync_hidden

pytestmark = pytest.mark.slow

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


@pytest.fixture(scope="module", params=[
    pytest.param(lesson, marks=pytest.mark.xdist_group(lesson)) for lesson in lessons()])
def graded(request, tmp_path_factory):
    """Autograde the six grid students and the forms student of one lesson."""
    lesson = request.param
    course = new_course(tmp_path_factory.mktemp(f"agree-{lesson}"), [lesson])
    nbgrader("generate_assignment", lesson, "--force", cwd=course)
    source = nbformat.read(lesson_notebook(lesson), as_version=4)
    items = part1_items(source)
    grid = {}
    for kind in KINDS:
        cells = {}
        for key, answer, _gid in items:
            value = variant(kind, _expected(key))
            grid[kind, key] = value
            cells[answer] = f"import numpy as np\n\n{answer} = {value!r}\n"
        submit(course, f"grid-{kind}", lesson, set_cells(source, cells))
    solutions = {c.metadata["nbgrader"]["grade_id"]: c.source for c in source.cells
                 if c.metadata.get("nbgrader", {}).get("solution")}
    forms = forms_of(part2_functions(source), first=int(lesson[:2]) - 1)
    submit(course, "forms", lesson, set_cells(
        source, {name: in_form(solutions[name], name, form) for name, form in forms.items()}))
    nbgrader("autograde", lesson, "--create", "--force", cwd=course)
    printed = {}
    for kind in KINDS:
        nb = nbformat.read(lesson_notebook(lesson, course / "autograded" / f"grid-{kind}"),
                           as_version=4)
        for cell in nb.cells:
            gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
            printed[kind, gid] = "".join(o.get("text", "") for o in cell.get("outputs", [])
                                         if o.get("output_type") == "stream")
    return {"lesson": lesson, "items": items, "grid": grid, "forms": forms,
            "scores": scores(course, lesson), "max": max_scores(source), "printed": printed}


def test_the_grid_covers_every_kind_of_answer(graded):
    distinct = {kind for (kind, key), value in graded["grid"].items()
                if kind == "right" or not same(value, _expected(key))}
    assert distinct == set(KINDS)
    assert len(graded["items"]) >= 7


def test_self_check_and_autograde_agree_on_every_answer(graded):
    disagreements = []
    for kind in KINDS:
        got = graded["scores"][f"grid-{kind}"]
        for key, _answer, gid in graded["items"]:
            value = graded["grid"][kind, key]
            point = got[gid] == graded["max"][gid]
            said_right = selfcheck.verdict(key, value)[0] is True
            printed = graded["printed"][kind, gid].strip()
            shown_right = printed.startswith("✓ Right.")
            if not (point == said_right == shown_right) or not printed:
                disagreements.append(f"{kind} {key}={value!r}: point {point}, verdict "
                                     f"{said_right}, printed {printed!r}")
            if kind == "right" and not point:
                disagreements.append(f"the right answer to {key} loses its point")
    assert not disagreements, "\n".join(disagreements)


def test_every_form_of_a_correct_function_scores_full_marks(graded):
    assert len(set(graded["forms"].values())) >= min(4, len(graded["forms"]))
    got = graded["scores"]["forms"]
    lost = {gid: (got[gid], pts) for gid, pts in graded["max"].items() if got[gid] != pts}
    assert not lost, (graded["forms"], lost)
