"""Every docstring example in chunklib runs and shows what it says.

Two forms are checked, in every module of the package (core, course, widgets):

- ``>>>`` examples, with ``doctest`` (``...`` matches anything, whitespace is normalised);
- one-line examples, ``EXPR`` between double backquotes, then ``->`` and the value it shows,
  up to the end of the paragraph: ``EXPR`` is evaluated in the module's namespace, plus the
  names the module docstring's ``>>>`` examples define (so a module can build one small
  document and let every one-line example use it), and its ``repr`` (or, if it raises,
  ``ErrorType: message``) must match the value the same way ``doctest`` matches output.
"""

import doctest
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import chunklib

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
ONE_LINE = re.compile(r"``((?:[^`]|`(?!`))+)``\s*->\s*((?:(?!\n\s*\n).)+)", re.S)
MODULES = sorted(m.name for m in pkgutil.walk_packages(chunklib.__path__, "chunklib."))


def docstrings(module):
    """The module's docstring, then those of everything it defines (class members too)."""
    yield module.__doc__ or ""
    for obj in vars(module).values():
        if getattr(obj, "__module__", None) != module.__name__:
            continue
        yield inspect.getdoc(obj) or ""
        if inspect.isclass(obj):
            for member in vars(obj).values():
                target = member.fget if isinstance(member, property) else member
                if callable(target):
                    yield inspect.getdoc(target) or ""


def one_line_examples(module) -> list[tuple[str, str]]:
    return [(" ".join(expr.split()), " ".join(want.split()))
            for doc in docstrings(module) for expr, want in ONE_LINE.findall(doc)]


def example_namespace(module) -> dict:
    """The module's names and those its module docstring's ``>>>`` examples bind."""
    test = doctest.DocTestParser().get_doctest(module.__doc__ or "", dict(vars(module)),
                                               module.__name__, None, 0)
    doctest.DocTestRunner(optionflags=FLAGS).run(test, out=lambda _text: None, clear_globs=False)
    return test.globs


def shows(expr: str, want: str, namespace: dict) -> tuple[bool, str]:
    try:
        got = repr(eval(expr, dict(namespace)))
    except Exception as error:  # an example may show the error a bad argument raises
        got = f"{type(error).__name__}: {error}"
    return doctest.OutputChecker().check_output(want + "\n", got + "\n", FLAGS), got


def test_every_layer_is_checked_and_the_one_line_check_can_fail():
    assert {"chunklib.units", "chunklib.course.experiment", "chunklib.widgets.overlap"} <= set(
        MODULES)
    assert ONE_LINE.findall("``f(1)`` -> [(0, 1)]\n\nprose") == [("f(1)", "[(0, 1)]")]
    assert shows("1 + 1", "2", {}) == (True, "2")
    assert not shows("1 + 1", "3", {})[0] and not shows("x", "1", {})[0]
    assert shows("int('a')", "ValueError: invalid literal ...", {})[0]


@pytest.fixture(autouse=True)
def at_the_repository_root(monkeypatch):
    """Some examples read the course's files by relative path (``chunklib.corpus``)."""
    monkeypatch.chdir(Path(chunklib.__file__).parent.parent)


@pytest.mark.parametrize("name", MODULES)
def test_doctest_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), report=True, optionflags=FLAGS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed"


@pytest.mark.parametrize("name", MODULES)
def test_one_line_examples_show_their_value(name):
    module = importlib.import_module(name)
    namespace = example_namespace(module)
    wrong = []
    for expr, want in one_line_examples(module):
        ok, got = shows(expr, want, namespace)
        if not ok:
            wrong.append(f"``{expr}`` -> {want}\n    but it gives {got}")
    assert not wrong, "\n".join(wrong)
