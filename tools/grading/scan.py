"""Static review of a submission: what in its answer cells a person should look at.

Scans, with ``ast``, the code cells that will run as the student wrote them: answer (solution)
cells and any ordinary cell the student added or changed (locked cells are restored by
nbgrader, so their edits are reported as changes, not scanned). Flags, for manual review:
- ``chunklib``: any route to the course library, which holds the reference version of every
  exercise function, the quiz answers and the self-check registries. One rule, not a list of
  names: every reference to chunklib is flagged, with the route named (an import from any of
  its modules, a module name in a string for ``importlib``/``__import__``/``sys.modules``, an
  import whose name is computed, ``sys.modules`` itself, ``getattr`` on a chunklib object, a
  name the notebook or its tests imported from chunklib). Only the learner tools pass:
  ``check`` from ``chunklib.course.selfcheck`` and ``quiz_widget`` from
  ``chunklib.widgets.quiz``, which every
  lesson's own cells use, and ``grade_me`` from ``chunklib.course.grade`` (self-grading), called
  plainly (a call in a loop, which can search for an answer, and any attribute of them are
  flagged);
- ``builtins``: patches or shadows builtins at module level;
- ``test-helpers``: rebinds or reads the hidden tests' helpers (``_same``, ``_alone``,
  ``_r_*``, ...) or patches chunklib (``chunklib.course.selfcheck.check = ...``);
- ``exit``: ``os._exit``, ``sys.exit``, signals, ``ctypes``: ways to stop or crash the kernel;
- ``interpreter``: frames, ``get_ipython``, ``gc``, trace hooks, threads: ways to reach the tests;
- ``always-equal``: an ``__eq__`` that returns True whatever it is given;
- ``io``: files, subprocesses, network.
Also lists locked cells the student edited (restored) or deleted (added back).

Leaves out: code assembled at run time and then run (``eval``/``exec`` and ``getattr`` with
computed names are flagged, not followed); the grade itself (a flag asks for a review).
Example: ``scan_source("import os\\nos._exit(0)", helpers=set())`` -> ``[("exit", "os._exit", 2)]``.
"""

from __future__ import annotations

import ast
import builtins
import functools
import re

from IPython.core.inputtransformer2 import TransformerManager

BUILTIN_NAMES = set(dir(builtins)) - {"__name__", "__doc__"}
# the learner tools a lesson's own cells import: a plain call of one is not a route to an answer
LEARNER_TOOLS = {"chunklib.course.selfcheck.check", "chunklib.widgets.quiz.quiz_widget",
                 "chunklib.course.grade.grade_me"}
CHUNKLIB_NAME = re.compile(r"chunklib(\.\w+)*")
DYNAMIC_IMPORTS = {"importlib.import_module", "__import__", "importlib.__import__",
                   "builtins.__import__", "importlib.util.find_spec", "pkgutil.resolve_name",
                   "runpy.run_module"}
EXIT_CALLS = {"os._exit", "os.kill", "os.killpg", "os.abort", "sys.exit", "exit", "quit",
              "signal.signal", "signal.alarm", "signal.pthread_kill", "os.fork"}
EXIT_MODULES = {"ctypes", "faulthandler", "resource", "signal"}
INTERP_CALLS = {"sys._getframe", "sys.settrace", "sys.setprofile", "get_ipython", "globals",
                "locals", "vars", "eval", "exec", "compile", "importlib.reload", "setattr",
                "sys.displayhook", "sys.excepthook", "threading.settrace", "__import__"}
INTERP_MODULES = {"inspect", "gc", "threading", "_thread", "atexit", "traceback", "types",
                  "importlib", "builtins", "IPython", "ipykernel", "nbgrader", "nbclient"}
INTERP_ATTRS = {"__code__", "__globals__", "__closure__", "__builtins__", "f_locals",
                "f_globals", "f_back", "f_lineno", "tb_frame", "gi_frame", "__subclasses__",
                "__dict__", "modules"}
INTERP_NAMES = {"In", "Out", "_ih", "_oh", "_i", "_ii", "__builtins__", "__builtin__"}
IO_CALLS = {"open", "os.system", "os.popen", "os.remove", "os.unlink", "os.chmod",
            "os.listdir", "os.scandir", "os.walk", "io.open"}
IO_MODULES = {"subprocess", "socket", "urllib", "http", "requests", "shutil", "pty", "sqlite3",
              "ftplib", "smtplib", "pathlib", "glob", "tempfile"}


def dotted(node: ast.AST) -> str:
    """``os.path.join`` for the expression ``os.path.join``; '' when not a plain dotted name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *reversed(parts)])
    return ""


def _top_level_bindings(tree: ast.Module):
    """(name, line) of every name bound at module level (not inside a def or class)."""
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name, node.lineno
            continue
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
                yield child.id, child.lineno
            elif isinstance(child, ast.alias):
                yield (child.asname or child.name).split(".")[0], node.lineno
            elif isinstance(child, ast.ListComp | ast.SetComp | ast.DictComp |
                            ast.GeneratorExp | ast.Lambda):
                continue  # their variables are local
            elif isinstance(child, ast.stmt | ast.expr | ast.excepthandler | ast.withitem):
                todo.append(child)


def _always_true(fn: ast.AST) -> bool:
    if isinstance(fn, ast.Lambda):
        return isinstance(fn.body, ast.Constant) and fn.body.value is True
    returns = [n for n in ast.walk(fn) if isinstance(n, ast.Return)]
    return bool(returns) and all(isinstance(r.value, ast.Constant) and r.value.value is True
                                 for r in returns)


@functools.lru_cache(maxsize=8192)
def parse(source: str) -> ast.Module:
    """Parse a cell as IPython would run it (magics and ``!`` lines become calls).

    Kept per source text (every caller only reads the tree): a class's submissions share most
    of their cells, and each scan reads the lesson's source notebook again, so one process
    reviewing a class parses each distinct cell once (IPython's transform is most of the cost).
    """
    return ast.parse(TransformerManager().transform_cell(source))


def _cell_tree(source: str) -> ast.Module | None:
    """The syntax tree of a cell with its hidden-test markers removed; None if it does not parse."""
    try:
        return parse(source.replace("### BEGIN HIDDEN TESTS", "")
                     .replace("### END HIDDEN TESTS", ""))
    except SyntaxError:
        return None

def _loops(tree: ast.Module) -> set[int]:
    """ids of the nodes inside a loop or a comprehension (where a call can search for answers)."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.For | ast.AsyncFor | ast.While | ast.ListComp | ast.SetComp |
                      ast.DictComp | ast.GeneratorExp):
            inside.update(id(n) for n in ast.walk(node) if n is not node)
    return inside


def _chunklib_routes(tree: ast.Module, aliases: dict[str, str], full, notebook: dict[str, str]):
    """(detail, line) of every route from a cell to chunklib; ``notebook`` maps the names the
    lesson's own cells import from chunklib to where they come from."""
    bound = {n for n, _ in _top_level_bindings(tree)} | {
        a.arg for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.Lambda |
                                                   ast.AsyncFunctionDef)
        for a in (*n.args.posonlyargs, *n.args.args, *n.args.kwonlyargs)}
    tools = {name for name, where in aliases.items() if where in LEARNER_TOOLS} | {
        name for name, where in notebook.items() if where in LEARNER_TOOLS and name not in bound}
    in_loop = _loops(tree)
    allowed_calls = set()  # the Name nodes of plain calls of a learner tool
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "chunklib":
                    yield f"imports {a.name}" + (f" as {a.asname}" if a.asname else ""), line
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "chunklib":
            names = [a.name for a in node.names
                     if f"{node.module}.{a.name}" not in LEARNER_TOOLS]
            if names:
                yield f"imports {', '.join(names)} from {node.module}", line
        elif isinstance(node, ast.Call):
            name = full(dotted(node.func))
            first = node.args[0] if node.args else None
            if name in DYNAMIC_IMPORTS or name.split(".")[-1] in ("import_module", "__import__"):
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    if first.value.split(".")[0] == "chunklib":
                        yield f"imports {first.value} by name with {name}()", line
                else:
                    yield f"imports a module whose name is computed, with {name}()", line
            elif name == "getattr" and first is not None:
                target = full(dotted(first))
                if target.split(".")[0] == "chunklib" or dotted(first) in tools:
                    yield f"calls getattr() on {target}, a chunklib object", line
                elif not (len(node.args) > 1 and isinstance(node.args[1], ast.Constant)):
                    yield "calls getattr() with a computed name (may reach chunklib)", line
            elif isinstance(node.func, ast.Name) and node.func.id in tools:
                if id(node) in in_loop:
                    yield f"calls {node.func.id}() in a loop (can search for an answer)", line
                allowed_calls.add(id(node.func))
        elif isinstance(node, ast.Attribute):
            name = full(dotted(node))
            if name == "sys.modules" or name.startswith("sys.modules."):
                yield "reads sys.modules (every loaded module, chunklib's included)", line
            elif isinstance(node.value, ast.Name) and node.value.id in tools:
                yield f"reads {node.value.id}.{node.attr}, inside chunklib", line
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                CHUNKLIB_NAME.fullmatch(node.value.strip()):
            yield f"names the module {node.value.strip()!r} in a string", line
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if full(node.id) == "sys.modules":
                yield f"reads sys.modules (as {node.id})", line
            elif node.id == "chunklib" and "chunklib" not in aliases and "chunklib" not in bound:
                yield "uses the name chunklib", line
            elif node.id in notebook and node.id not in bound and node.id not in aliases \
                    and notebook[node.id] not in LEARNER_TOOLS:
                yield f"uses {node.id}, which the notebook imported from " \
                      f"{notebook[node.id].rpartition('.')[0]}", line
    for node in ast.walk(tree):  # a learner tool passed on, stored or returned: not a plain call
        if isinstance(node, ast.Name) and node.id in tools and isinstance(node.ctx, ast.Load) \
                and id(node) not in allowed_calls and node.id not in bound - set(aliases):
            yield f"uses {node.id} other than by calling it", node.lineno


def scan_source(source: str, helpers: set[str],
                notebook: dict[str, str] | None = None) -> list[tuple[str, str, int]]:
    """(category, detail, line) for everything in one cell a reviewer should see.

    ``helpers``: the names the hidden tests define or import; ``notebook``: the names the
    lesson's cells import from chunklib -> ``module.name`` (their use is a route to chunklib).
    """
    try:
        tree = parse(source)
    except SyntaxError as exc:
        return [("syntax", f"does not parse: {exc.msg}", exc.lineno or 0)]
    found: list[tuple[str, str, int]] = []
    chunklib_names: set[str] = set()
    aliases = {}  # local name -> what it was imported as: `import os as _os` -> {"_os": "os"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases.update({a.asname: a.name for a in node.names if a.asname})
        elif isinstance(node, ast.ImportFrom) and node.module:
            aliases.update({a.asname or a.name: f"{node.module}.{a.name}" for a in node.names})

    def full(name: str) -> str:
        head, _, rest = name.partition(".")
        return ".".join(p for p in (aliases.get(head, head), rest) if p)

    for detail, line in _chunklib_routes(tree, aliases, full, notebook or {}):
        found.append(("chunklib", detail, line))
    own = {n for n, _ in _top_level_bindings(tree)}
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import | ast.ImportFrom):
            mods = ([a.name for a in node.names] if isinstance(node, ast.Import)
                    else [node.module or ""])
            for mod in mods:
                top = mod.split(".")[0]
                if top == "chunklib":
                    chunklib_names.update((a.asname or a.name).split(".")[0] for a in node.names)
                elif top in EXIT_MODULES:
                    found.append(("exit", f"imports {mod}", line))
                elif top in INTERP_MODULES:
                    found.append(("interpreter" if top != "builtins" else "builtins",
                                  f"imports {mod}", line))
                elif top in IO_MODULES or mod in ("os.path",):
                    found.append(("io", f"imports {mod}", line))
        elif isinstance(node, ast.Call):
            name = full(dotted(node.func))
            if name in EXIT_CALLS:
                found.append(("exit", f"calls {name}()", line))
            elif name in INTERP_CALLS:
                found.append(("interpreter", f"calls {name}()", line))
            elif name in IO_CALLS:
                found.append(("io", f"calls {name}()", line))
        elif isinstance(node, ast.Attribute):
            if node.attr in INTERP_ATTRS:
                found.append(("interpreter", f"uses .{node.attr}", line))
            if isinstance(node.ctx, ast.Store | ast.Del):
                root = dotted(node).split(".")[0]
                if root in chunklib_names or root in helpers:
                    found.append(("test-helpers", f"patches {dotted(node)}", line))
                elif root in ("builtins", "__builtins__"):
                    found.append(("builtins", f"patches {dotted(node)}", line))
        elif isinstance(node, ast.Name) and node.id in INTERP_NAMES:
            found.append(("builtins" if "builtin" in node.id else "interpreter",
                          f"uses {node.id}", line))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and \
                node.id in helpers and node.id.startswith("_") and node.id not in own:
            found.append(("test-helpers", f"reads {node.id}, a name the hidden tests define",
                          line))
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__eq__" and \
                        _always_true(item):
                    found.append(("always-equal", f"class {node.name}: __eq__ always True", line))
                if isinstance(item, ast.Assign) and isinstance(item.value, ast.Lambda) and \
                        any(isinstance(t, ast.Name) and t.id == "__eq__" for t in item.targets) \
                        and _always_true(item.value):
                    found.append(("always-equal", f"class {node.name}: __eq__ always True", line))
    tools = {name for name, where in aliases.items() if where in LEARNER_TOOLS}
    for name, line in _top_level_bindings(tree):
        if name in helpers and name not in tools:
            found.append(("test-helpers", f"rebinds {name}, a name the hidden tests use", line))
        elif name in BUILTIN_NAMES:
            found.append(("builtins", f"shadows the built-in {name}", line))
    return sorted(set(found), key=lambda f: (f[2], f[0], f[1]))


def given_helpers(nb) -> set[str]:
    """The names the lesson's Part 2 introduction (grade id ``part2_intro``) offers as helpers:
    each word in backticks, alone or called (`` `union(spans)` ``)."""
    intro = "".join(c.source for c in nb.cells
                    if c.metadata.get("nbgrader", {}).get("grade_id") == "part2_intro")
    return set(re.findall(r"`(\w+)(?:\([^`]*\))?`", intro))


def notebook_imports(nb) -> dict[str, str]:
    """Every name the notebook's cells import from chunklib -> ``module.name``, except the
    helpers its Part 2 introduction offers (``given_helpers``)."""
    given = given_helpers(nb)
    names: dict[str, str] = {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        tree = _cell_tree(cell.source)
        if tree is None:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and \
                    (node.module or "").split(".")[0] == "chunklib":
                names.update({a.asname or a.name: f"{node.module}.{a.name}" for a in node.names
                              if (a.asname or a.name) not in given})
    return names


def test_helper_names(source_nb) -> set[str]:
    """Names the test cells define or import that a submission must not rebind."""
    names: set[str] = set()
    for cell in source_nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code" or not meta.get("grade") or meta.get("solution"):
            continue
        tree = _cell_tree(cell.source)
        if tree is None:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("chunklib"):
                names.update(a.asname or a.name for a in node.names)
        names.update(n for n, _ in _top_level_bindings(tree) if n.startswith("_"))
    return names


def scan_notebook(submitted, release, source) -> list[dict]:
    """Review items of one submitted notebook against the release and source notebooks.

    A locked cell counts as unchanged when it equals its release or its source version.
    """
    helpers = test_helper_names(source)
    imported = notebook_imports(source)
    meta = {c.metadata.get("nbgrader", {}).get("grade_id"): c.metadata.get("nbgrader", {})
            for c in release.cells if c.metadata.get("nbgrader", {}).get("grade_id")}
    locked: dict[str, set[str]] = {}
    for nb in (release, source):
        for c in nb.cells:
            gid = c.metadata.get("nbgrader", {}).get("grade_id")
            if gid in meta and meta[gid].get("locked") and not meta[gid].get("solution"):
                locked.setdefault(gid, set()).add(c.source)
    plain = {c.source for nb in (release, source) for c in nb.cells
             if not c.metadata.get("nbgrader", {}).get("grade_id")}
    items: list[dict] = []
    seen = set()
    for index, cell in enumerate(submitted.cells):
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        label = gid or f"cell {index + 1}"
        if gid in locked:
            seen.add(gid)
            if cell.source not in locked[gid]:
                items.append({"kind": "change", "category": "edited-test",
                              "cell": gid, "detail": "edited a locked cell (restored)"})
            continue
        if cell.cell_type != "code" or (gid is None and cell.source in plain):
            continue
        for category, detail, line in scan_source(cell.source, helpers, imported):
            items.append({"kind": "flag", "category": category, "cell": label,
                          "detail": f"line {line}: {detail}"})
    for gid in locked:
        if gid not in seen and meta[gid].get("grade"):
            items.append({"kind": "change", "category": "deleted-test", "cell": gid,
                          "detail": "deleted a test cell (added back and graded)"})
    return items
