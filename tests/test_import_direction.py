"""The layers of chunklib, checked: imports run one way only (issue 16, section 1).

The core (``chunklib/*.py``: the algorithms the lessons teach) never imports
``chunklib.course``, ``chunklib.widgets``, matplotlib or ipywidgets; ``chunklib/course/``
(course data and lesson content) may import the core, never widgets, matplotlib or ipywidgets;
``chunklib/widgets/`` may import both. Every ``import`` statement counts, including those
inside functions (a lazy import is still an arrow), read from each module's syntax tree; a
subprocess then imports every core module and checks that neither drawing library was loaded.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import chunklib

PACKAGE = Path(chunklib.__file__).parent
DRAWING = ("matplotlib", "ipywidgets")
FORBIDDEN = {
    "core": ("chunklib.course", "chunklib.widgets", *DRAWING),
    "course": ("chunklib.widgets", *DRAWING),
}


def layer(path: Path) -> str:
    """'core', 'course' or 'widgets' for a module file of the package."""
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else "core"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(("chunklib", *(p for p in parts if p != "__init__")))


def imports_in(source: str, package: str) -> list[tuple[int, str]]:
    """Every module an ``import`` or ``from ... import`` in ``source`` names, with its line;
    ``from chunklib import course`` gives ``chunklib.course``; relative imports are resolved
    against ``package``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            out.append((node.lineno, base))
            out += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return out


def imported_names(path: Path) -> list[tuple[int, str]]:
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    return imports_in(path.read_text(encoding="utf-8"), package)


def banned(kind: str, names: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The imports among ``names`` that a module of layer ``kind`` must not make."""
    return [(line, name) for line, name in names
            if any(name == b or name.startswith(b + ".") for b in FORBIDDEN.get(kind, ()))]


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_the_layers_hold_modules():
    layers = {layer(p) for p in MODULES}
    assert layers == {"core", "course", "widgets"}


@pytest.mark.parametrize("path", [p for p in MODULES if layer(p) != "widgets"],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_import_runs_the_wrong_way(path):
    assert [f"line {line}: {name}" for line, name in banned(layer(path), imported_names(path))
            ] == []


def test_the_check_sees_lazy_relative_and_aliased_imports():
    assert layer(PACKAGE / "x.py") == "core" and layer(PACKAGE / "course" / "x.py") == "course"
    source = ("import numpy as np\nfrom chunklib.units import unit_spans\n"
              "def f():\n    from chunklib import widgets\n"
              "    import matplotlib.pyplot as plt\n    from ..widgets import units\n")
    names = imports_in(source, "chunklib.course")
    assert [name for _, name in banned("core", names)] == [
        "chunklib.widgets", "matplotlib.pyplot", "chunklib.widgets", "chunklib.widgets.units"]
    assert [line for line, _ in banned("course", names)] == [4, 5, 6, 6]
    assert banned("widgets", names) == []
    assert banned("core", imports_in("import chunklib.coursework", "chunklib")) == []


def drawing_libraries_loaded(modules: list[str]) -> str:
    code = (f"import importlib, sys\nfor m in {modules!r}:\n    importlib.import_module(m)\n"
            f"print(sorted(d for d in {DRAWING!r} if d in sys.modules))")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.mark.parametrize("kind", ["core", "course"])
def test_importing_a_layer_loads_no_drawing_library(kind):
    modules = [module_name(p) for p in MODULES if layer(p) == kind]
    assert len(modules) > 5
    assert drawing_libraries_loaded(modules) == "[]"
    assert drawing_libraries_loaded(["chunklib.widgets.rows", "ipywidgets"]) != "[]"
