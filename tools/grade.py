#!/usr/bin/env python3
"""The instructor's command: release, collect, autograde (sandboxed), feedback, export.

    python3 tools/grade.py all submissions.zip      # the whole pipeline
    python3 tools/grade.py --help                   # each step on its own

Runs inside the course's .venv (re-executing itself there when started with another Python).
The steps live in tools/grading/; the workflow is described in docs/instructor.md.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV_PY = ROOT / ".venv" / "bin" / "python"

if __name__ == "__main__":
    sys.modules.setdefault("rfc3987_syntax", None)  # 2.5 s of start-up: tools/grading/__init__.py
    try:
        import nbgrader  # noqa: F401
    except ImportError:
        if VENV_PY.exists() and Path(sys.prefix).resolve() != VENV_PY.parents[1].resolve():
            os.execv(str(VENV_PY), [str(VENV_PY), *sys.argv])
        sys.exit("nbgrader is not installed: run `python3 course.py release` once to set up .venv")
    sys.path.insert(0, str(ROOT))
    from tools.grading.cli import main

    sys.exit(main())
