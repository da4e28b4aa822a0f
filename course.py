#!/usr/bin/env python3
"""Set up and run the Chunking Strategies course with nothing but Python 3.11.

    python3 course.py open      # set up .venv, then open the course in JupyterLab
    python3 course.py test      # set up .venv, then lint and run the whole test suite
    python3 course.py release   # regenerate release/ from notebooks/ with nbgrader
    python3 course.py release 03-overlap   # only that lesson
    python3 course.py export    # offline HTML of every release lesson in build/html/
    python3 course.py configure # learner settings into the running Python (Binder's postBuild)

Setup creates ``.venv`` beside this file and installs ``requirements.txt`` into it (again only
when requirements.txt or pyproject.toml changed). Everything else runs inside that venv.

Setup also installs the learner's JupyterLab settings from ``jupyter-settings/`` into the venv
(Binder's ``postBuild`` does the same with ``configure``), merged into what is there:
``overrides.json`` (start the kernel without asking, no news prompt, save widget state with the
notebook), ``page_config.json`` and ``jupyter_server_config.json`` (nbgrader's instructor and
exchange extensions off: a self-paced learner has no exchange, and their pages error).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
SETTINGS = ROOT / "jupyter-settings"
# a file of jupyter-settings/ -> where it goes under an environment's prefix (merged into it)
LEARNER_CONFIG = {
    "overrides.json": "share/jupyter/lab/settings/overrides.json",
    "page_config.json": "etc/jupyter/labconfig/page_config.json",
    "jupyter_server_config.json": "etc/jupyter/jupyter_server_config.json",
}


def _stamp() -> str:
    data = b"".join((ROOT / f).read_bytes() for f in ("requirements.txt", "pyproject.toml"))
    return hashlib.sha256(data + sys.version.encode()).hexdigest()


def setup() -> None:
    """Create the venv and install the pinned requirements (skipped when up to date)."""
    if sys.version_info[:2] < (3, 11):  # noqa: UP036 (run by any python3)
        sys.exit(f"Python 3.11 or newer is needed, this is {sys.version.split()[0]}")
    stamp_file = VENV / ".course-stamp"
    if not (stamp_file.exists() and stamp_file.read_text() == _stamp()):
        print(f"Setting up {VENV} (a few minutes the first time) ...", flush=True)
        if not PY.exists():
            venv.EnvBuilder(with_pip=True).create(VENV)
        pip = [str(PY), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
        subprocess.run([*pip, "--upgrade", "pip"], check=True, cwd=ROOT)
        subprocess.run([*pip, "-r", "requirements.txt"], check=True, cwd=ROOT)
        stamp_file.write_text(_stamp())
    configure(VENV)


def _merge(into: dict, new: dict) -> dict:
    """``into`` updated with ``new``, nested dicts merged key by key (a copy)."""
    out = dict(into)
    for key, value in new.items():
        old = out.get(key)
        both = isinstance(old, dict) and isinstance(value, dict)
        out[key] = _merge(old, value) if both else value
    return out


def configure(prefix: Path | str = sys.prefix) -> list[Path]:
    """Merge the learner's settings (``jupyter-settings/``) into the environment at ``prefix``.

    Idempotent; keeps every other setting already there. Returns the files it changed.
    """
    changed = []
    for name, rel in LEARNER_CONFIG.items():
        target = Path(prefix) / rel
        old = json.loads(target.read_text(encoding="utf-8")) if target.exists() else {}
        new = _merge(old, json.loads((SETTINGS / name).read_text(encoding="utf-8")))
        if new != old or not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(new, indent=2, sort_keys=True) + "\n", encoding="utf-8")
            changed.append(target)
    return changed


def run(*args: str) -> int:
    """Run a command with the venv's scripts first on PATH; return its exit code."""
    env = dict(os.environ, PATH=str(BIN) + os.pathsep + os.environ.get("PATH", ""))
    env["MPLBACKEND"] = "Agg"
    return subprocess.run(list(args), cwd=ROOT, env=env).returncode


def first_lesson() -> str:
    """The release notebook of the lowest-numbered lesson, e.g. release/01-units/units.ipynb."""
    return str(sorted((ROOT / "release").glob("*/*.ipynb"))[0].relative_to(ROOT))


def cmd_open() -> int:
    return run(str(BIN / "jupyter"), "lab", first_lesson())


def cmd_export(*only: str) -> int:
    """Executed, offline HTML of the release lessons (widgets from saved state) in build/html/."""
    return run(str(PY), str(ROOT / "tools" / "export_html.py"), *only)


def cmd_configure(prefix: str = sys.prefix) -> int:
    for path in configure(prefix):
        print("configured", path)
    return 0


def cmd_test() -> int:
    rc = run(str(PY), "-m", "ruff", "check", ".")
    if rc:
        return rc
    return run(str(PY), "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-q")


def cmd_release(*only: str) -> int:
    """Regenerate release/ from notebooks/ (byte-identical when nothing changed)."""
    lessons = sorted(p.name for p in (ROOT / "notebooks").iterdir() if p.is_dir())
    unknown = set(only) - set(lessons)
    if unknown:
        sys.exit(f"no such lesson in notebooks/: {', '.join(sorted(unknown))}")
    with tempfile.TemporaryDirectory() as tmp:
        for lesson in only or lessons:
            rc = run(str(PY), "-m", "nbgrader", "generate_assignment", lesson, "--force",
                     "--no-db", "--CourseDirectory.release_directory=" + tmp, "--log-level=WARN")
            if rc:
                return rc
            shutil.rmtree(ROOT / "release" / lesson, ignore_errors=True)
            shutil.copytree(Path(tmp) / lesson, ROOT / "release" / lesson)
    if not only:  # drop releases whose source is gone
        for stale in (ROOT / "release").iterdir():
            if stale.name not in lessons:
                shutil.rmtree(stale)
    print("release/ regenerated for:", ", ".join(only or lessons))
    return 0


COMMANDS = {"open": cmd_open, "test": cmd_test, "release": cmd_release, "export": cmd_export,
            "configure": cmd_configure}
TAKE_ARGUMENTS = {"release", "export", "configure"}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS or (
            len(sys.argv) > 2 and sys.argv[1] not in TAKE_ARGUMENTS):
        sys.exit(__doc__)
    if sys.argv[1] != "configure":  # configure runs in the Python that will serve JupyterLab
        setup()
    sys.exit(COMMANDS[sys.argv[1]](*sys.argv[2:]))
