"""One run of the instructor's whole pipeline (``tools/grade.py all --jobs 2``, in its sandbox)
over lesson 3's adversarial class, shared by tests/test_adversarial.py and tests/test_parallel.py.

The class: every case of ``cases.py``, two spies (``spy.py``) with their victim (the reference
solution), and a correct submission that sleeps in an answer cell. test_adversarial.py checks
what each case costs and that the sandbox held; test_parallel.py takes this run as its
two-jobs run and compares it with a serial and a Dask run of five of these students. Both
files are one xdist group (tests/conftest.py), so one worker grades the class once.

Leaves out: assertions.
"""

from __future__ import annotations

import csv
import hashlib
import os
import pickle
import secrets
import subprocess
import sys
import sysconfig
from pathlib import Path

import nbformat

import chunklib
from tests.adversarial import cases, spy
from tests.nbgrading import REPO, env, lesson_notebook, max_scores, new_course, scores, set_cells
from tools.grading import cli, pipeline

LESSON = cases.LESSON
SPIES = ("spy-a", "spy-b")
# seconds per cell: ample for every honest cell (the slowest took 0.3 s in the sandbox, with the
# machine's load at 3) and the sleeper's, short for the loops (the spinning one holds a core
# until it: in each of the three runs of tests/adversarial/runs.py, twice); the course's own
# 10 s is tests/test_nbgrader_config.py's
TIMEOUT = "3"
SLEEPER = "sleeper"  # correct, but sleeps 1 s in an answer cell: the Dask test kills its worker


def student_id(case: cases.Case) -> str:
    return case.name.replace("_", "-")


def sleeper(source):
    """The reference solution with a 1-second sleep in its first answer (``stride``): its
    Dask task (a kernel started in the sandbox, every cell run) lasts well past the 1 s after
    which ``runs._kill_when_running`` kills the worker that holds it."""
    answer = next(c.source for c in source.cells
                  if c.metadata.get("nbgrader", {}).get("grade_id") == "stride")
    return set_cells(source, {"stride": f"import time\ntime.sleep(1)\n{answer}"})


def tree_digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            h.update(str(path.relative_to(folder)).encode() + path.read_bytes())
    return h.hexdigest()


def spy_targets(root: Path) -> dict[str, str]:
    return {"course": str(root),
            "source_notebook": str(lesson_notebook(LESSON, root / "notebooks")),
            "repo_notebook": str(lesson_notebook(LESSON)),
            "gradebook": str(root / "gradebook.db"),
            "other_submission": str(root / "submitted" / "victim" / LESSON / "overlap.ipynb"),
            "chunklib_dir": str(Path(chunklib.__file__).parent),
            "site_packages": sysconfig.get_paths()["purelib"]}


def graded_run(tmp: Path) -> dict:
    """Grade the class with ``tools/grade.py all --jobs 2`` in a course under ``tmp``."""
    root = new_course(tmp, [LESSON])
    source = nbformat.read(lesson_notebook(LESSON), as_version=4)
    inbox = tmp / "inbox"
    for case in cases.CASES:
        folder = inbox / student_id(case) / LESSON
        folder.mkdir(parents=True)
        nb = cases.build(case, source)
        if nb is not None:
            nbformat.write(nb, folder / "overlap.ipynb")
    token = secrets.token_hex(4)
    for name, nb in (("victim", source), (SLEEPER, sleeper(source))):
        (inbox / name / LESSON).mkdir(parents=True)
        nbformat.write(nb, inbox / name / LESSON / "overlap.ipynb")
    for name in SPIES:
        (inbox / name / LESSON).mkdir(parents=True)
        nbformat.write(set_cells(source, {"ex1_stride": spy.spy_cell(
            spy_targets(root), f"{token}-{name}")}), inbox / name / LESSON / "overlap.ipynb")
    guarded = {"notebooks": tree_digest(root / "notebooks")}
    os.environ["GRADER_SECRET_TOKEN"] = "s3cr3t"
    try:
        assert cli.main(["all", str(inbox), "--course", str(root), "--timeout", TIMEOUT,
                         "--jobs", "2"]) == 0
    finally:
        os.environ.pop("GRADER_SECRET_TOKEN")
    course = pipeline.Course(root)
    with open(course.exports / "review.csv", newline="", encoding="utf-8") as fh:
        review = list(csv.DictReader(fh))
    return {"course": course, "root": root, "scores": scores(root, LESSON),
            "status": pipeline.load_status(course), "review": review, "token": token,
            "max": max_scores(source), "guarded": guarded, "source": source}


class Started:
    """``graded_run(tmp)`` in a process of its own: ``result()`` waits for it and returns what
    it returned; ``stop()`` ends it. Its output goes to ``tmp/run.log``."""

    CODE = ("import pickle, sys\nfrom pathlib import Path\nimport tools.grading\n"
            "from tests.adversarial.graded import graded_run\n"
            "Path(sys.argv[2]).write_bytes(pickle.dumps(graded_run(Path(sys.argv[1]))))\n")

    def __init__(self, tmp: Path):
        self.out, self.log = tmp / "run.pickle", tmp / "run.log"
        with open(self.log, "w") as log:
            self.proc = subprocess.Popen([sys.executable, "-c", self.CODE, str(tmp), str(self.out)],
                                         cwd=REPO, env=env(), stdout=log,
                                         stderr=subprocess.STDOUT)

    def result(self) -> dict:
        rc = self.proc.wait(timeout=900)
        assert rc == 0, f"the adversarial class's run failed ({rc}):\n" + \
            self.log.read_text(errors="replace")[-4000:]
        return pickle.loads(self.out.read_bytes())

    def stop(self) -> None:
        """End the run if it is still going (nothing read its result)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def start(tmp: Path) -> Started:
    """Start grading the class in a course under ``tmp`` (``graded_run``) in another process."""
    return Started(tmp)
