"""A submission that tries, from its kernel, to read the instructor's files and change grades.

``spy_cell(targets)`` is the source of an answer cell: it answers correctly, then tries every
attempt below and prints one line, ``SPY-REPORT {json}``, mapping each attempt to "ok" or the
error it met. Writes to the repository are only probed with ``os.access`` (nothing is written
there even when unconfined); writes inside the throwaway course are real attempts.

Leaves out: attacks on the test process itself (the kernel only ever sees its own sandbox).
Example: ``spy_cell({"course": "/tmp/c", ...})`` -> ``'ex1_stride = 150\\n...'``.
"""

from __future__ import annotations

import json
import textwrap

REPORT = "SPY-REPORT "


def spy_cell(targets: dict[str, str], student: str) -> str:
    """An answer cell for ``ex1_stride`` that tries to escape; ``targets`` are absolute paths:
    course, source_notebook, repo_notebook, gradebook, other_submission, chunklib_dir,
    site_packages."""
    code = f'''
    ex1_stride = 150
    import json as _json, os as _os, socket as _socket
    _T = _json.loads({json.dumps(json.dumps(targets))})
    _r = {{}}
    def _try(name, fn):
        try:
            fn()
            _r[name] = "ok"
        except BaseException as exc:  # noqa
            _r[name] = type(exc).__name__
    def _read(path):
        with open(path, "rb") as fh:
            fh.read(64)
    def _writable(path):
        if not _os.access(path, _os.W_OK):
            raise PermissionError(path)
    _try("read source notebook", lambda: _read(_T["source_notebook"]))
    _try("read repo notebook", lambda: _read(_T["repo_notebook"]))
    _try("read gradebook", lambda: _read(_T["gradebook"]))
    _try("read other submission", lambda: _read(_T["other_submission"]))
    _try("list course", lambda: _os.listdir(_T["course"]))
    _try("open gradebook for writing", lambda: open(_T["gradebook"], "ab").close())
    _try("create file in course", lambda: open(_os.path.join(_T["course"], "spy-was-here"),
                                               "w").close())
    _try("chunklib writable", lambda: _writable(_T["chunklib_dir"]))
    _try("site-packages writable", lambda: _writable(_T["site_packages"]))
    _try("secret in environment", lambda: _os.environ["GRADER_SECRET_TOKEN"])
    _try("network", lambda: _socket.create_connection(("1.1.1.1", 53), timeout=2).close())
    _try("see other kernels' /tmp", lambda: [_ for _ in _os.listdir("/tmp")
                                             if _.startswith("note-from-")][0])
    _try("leave a note in /tmp", lambda: open("/tmp/note-from-{student}", "w").close())
    print("{REPORT}" + _json.dumps(_r, sort_keys=True))
    '''
    return textwrap.dedent(code)


def report(nb) -> dict[str, str]:
    """The spy's report, read from the outputs of an autograded notebook."""
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            for line in out.get("text", "").splitlines():
                if line.startswith(REPORT):
                    return json.loads(line[len(REPORT):])
    raise LookupError("no spy report in the notebook")
