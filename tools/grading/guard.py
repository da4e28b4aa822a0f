"""Kernel-side guard: undo a submission's patches to builtins and IPython before each test cell.

Test cells run in the same kernel as the student's code, so a student cell can shadow ``type``
or ``all`` (then ``_same`` accepts anything), replace ``builtins`` entries, or swap IPython's
traceback and run methods. Right after the kernel starts, before any student code, ``SETUP``
snapshots builtins, ``sys`` hooks and the shell's and kernel's methods. Before each test cell,
``before(names)`` puts them back and moves aside the student's globals that shadow a builtin the
test cell uses; ``after()`` returns those globals once the test cell is done.

Leaves out: a submission that rewrites the kernel before the guard runs, or keeps re-patching
from a thread, can still fool in-process tests. The review report flags every such pattern
(``scan.py``) and nbgrader itself still checks the execute reply's status.
Example: ``before_code(cell_source)`` -> ``'__import__("sys").modules["_nbgrader_guard"]...'``.
"""

from __future__ import annotations

import ast
import builtins
import functools

from IPython.core.inputtransformer2 import TransformerManager

MODULE = "_nbgrader_guard"

SETUP = r'''
def _nbgrader_guard_setup():
    import builtins, sys, threading, types
    shell = get_ipython()
    kernel = getattr(shell, "kernel", None)
    hooks = ("run_cell", "run_cell_async", "run_ast_nodes", "run_code", "showtraceback",
             "_showtraceback", "showsyntaxerror", "showindentationerror", "get_exception_only",
             "do_execute", "execute_request", "_publish_execute_input", "_publish_status")
    saved_builtins = dict(builtins.__dict__)
    saved_sys = {k: getattr(sys, k) for k in ("displayhook", "excepthook", "stdout", "stderr")}
    saved_cls = [(k, n, k.__dict__[n]) for obj in (shell, kernel) if obj is not None
                 for k in type(obj).__mro__ for n in hooks if n in k.__dict__]
    stash = {}

    def before(names):
        d = builtins.__dict__
        for key, value in saved_builtins.items():
            if d.get(key, stash) is not value:
                d[key] = value
        for klass, name, value in saved_cls:
            if klass.__dict__.get(name) is not value:
                setattr(klass, name, value)
        for obj in (shell, kernel):
            if obj is not None:
                for name in hooks:
                    obj.__dict__.pop(name, None)
        shell.custom_exceptions = ()
        for key, value in saved_sys.items():
            setattr(sys, key, value)
        sys.settrace(None)
        sys.setprofile(None)
        threading.settrace(None)
        threading.setprofile(None)
        ns = shell.user_ns
        for name in names:
            if name in ns and ns[name] is not saved_builtins.get(name):
                stash[name] = ns.pop(name)
        return "ok"

    def after():
        shell.user_ns.update(stash)
        stash.clear()
        return "ok"

    mod = types.ModuleType("_nbgrader_guard")
    mod.before, mod.after = before, after
    sys.modules["_nbgrader_guard"] = mod
_nbgrader_guard_setup()
del _nbgrader_guard_setup
'''

_MOD = f'__import__("sys").modules["{MODULE}"]'
AFTER = f"{_MOD}.after()"
_BUILTINS = set(dir(builtins))


def builtin_names(source: str) -> list[str]:
    """Builtin names a cell reads: ``builtin_names("assert type(x) is int")`` -> ['int', 'type']."""
    try:
        tree = ast.parse(TransformerManager().transform_cell(source))
    except SyntaxError:
        return []
    return sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in _BUILTINS})


@functools.lru_cache(maxsize=4096)
def before_code(source: str) -> str:
    """The silent code run before a test cell with ``source``.

    Kept per source text: a lesson's test cells are the same in every submission (nbgrader
    restores them from the source notebook), and reading a cell's names through IPython's
    transformer took about 10 ms, about 0.3 s of every graded notebook."""
    return f"{_MOD}.before({builtin_names(source)!r})"
