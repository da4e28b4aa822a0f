#!/usr/bin/env python3
"""Self-grading's wait against a plain ``nbgrader autograde`` of the same notebook (on demand).

The notebook: lesson 3's release with the seven functions written and the range bug in
``chunk_starts`` (tests/wrong/l03_overlap.py), every other answer right. In a fresh copy of
the course (course.py, nbgrader_config.py, notebooks/, tools/, release/ with that notebook):

- ``plain``: ``nbgrader autograde 03-overlap --create --force`` on the notebook submitted as one
  student, in a course folder where ``nbgrader generate_assignment`` already ran (what plain
  nbgrader needs first; not timed);
- ``cold``: ``python course.py grade 3`` the first time (the gradebook is generated);
- ``warm``: the same command again (what every later grade costs);
- ``binder_cold``: a first run with ``--no-sandbox``, as on Binder, where bubblewrap cannot run.

Each is wall-clock seconds of the whole command, and (``*_report``) until the report names the
function to fix, before the feedback page is written; median of ``--repeat`` runs, run one
after the other on this machine; the load average is printed beside them, and the CPU seconds
(``*_cpu``: user + system of the command and its kernel), which a busy machine changes less.
Targets: the report within 1.25 x plain (plain nbgrader writes no feedback page), and the first
run's report in under 10 s.

    .venv/bin/python benchmarks/selfgrade.py --repeat 5
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

LESSON = "03-overlap"


def learner_notebook():
    """Lesson 3's release with the reference answers and the range bug in chunk_starts."""
    import nbformat

    from tests.nbgrading import lesson_notebook, set_cells, wrong_module

    source = nbformat.read(lesson_notebook(LESSON), as_version=4)
    answers = {c.metadata["nbgrader"]["grade_id"]: c.source for c in source.cells
               if c.metadata.get("nbgrader", {}).get("solution")}
    answers.update(wrong_module(LESSON).WRONG["range_bug"][0])
    release = nbformat.read(lesson_notebook(LESSON, REPO / "release"), as_version=4)
    return set_cells(release, answers)


def course_copy(root: Path, nb) -> Path:
    import nbformat

    for name in ("notebooks", "tools", "release"):
        shutil.copytree(REPO / name, root / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.feedback.html"))
    for name in ("course.py", "nbgrader_config.py"):
        shutil.copy2(REPO / name, root / name)
    nbformat.write(nb, root / "release" / LESSON / "overlap.ipynb")
    return root


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(argv: list[str], cwd: Path, mark: str | None = None) -> tuple[float, float]:
    """(seconds until a line of output holds ``mark``, seconds until the command ended); the
    CPU seconds of the command and its kernel go to ``timed.cpu``."""
    cpu = _children_cpu()
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep
               + os.environ.get("PATH", ""))
    start, seen, out = time.monotonic(), None, []
    with subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True) as proc:
        for line in proc.stdout:
            out.append(line)
            if mark and seen is None and mark in line:
                seen = time.monotonic() - start
    took = time.monotonic() - start
    timed.cpu = _children_cpu() - cpu
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)} failed:\n{''.join(out)[-3000:]}")
    if mark and seen is None:
        raise SystemExit(f"{' '.join(argv)}: no line with {mark!r}:\n{''.join(out)[-3000:]}")
    return (seen if mark else took), took


def one_round(nb, tmp: Path) -> dict[str, float]:
    import nbformat

    plain = course_copy(tmp / "plain", nb)
    nbgrader = [sys.executable, "-m", "nbgrader"]
    timed([*nbgrader, "generate_assignment", LESSON, "--force"], plain)
    folder = plain / "submitted" / "me" / LESSON
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / "overlap.ipynb")
    out = {"plain": timed([*nbgrader, "autograde", LESSON, "--create", "--force"], plain)[1]}
    out["plain_cpu"] = timed.cpu
    mine = course_copy(tmp / "self", nb)
    grade = [sys.executable, "course.py", "grade", "3"]
    for run in ("cold", "warm"):
        out[f"{run}_report"], out[run] = timed(grade, mine, mark="Next to fix: chunk_starts")
        out[f"{run}_cpu"] = timed.cpu
    binder = course_copy(tmp / "binder", nb)  # no sandbox, as on Binder
    out["binder_cold_report"], out["binder_cold"] = timed(
        [*grade, "--no-sandbox"], binder, mark="Next to fix: chunk_starts")
    out["binder_cold_cpu"] = timed.cpu
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", type=Path, help="also write the results here")
    opts = p.parse_args()
    nb = learner_notebook()
    runs = []
    for _ in range(opts.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            runs.append(one_round(nb, Path(tmp)))
    median = {k: round(statistics.median(r[k] for r in runs), 2) for k in runs[0]}
    result = {"median_seconds": median, "runs": runs,
              "warm_report_over_plain": round(median["warm_report"] / median["plain"], 2),
              "warm_over_plain": round(median["warm"] / median["plain"], 2),
              "warm_cpu_over_plain_cpu": round(median["warm_cpu"] / median["plain_cpu"], 2),
              "load_average": os.getloadavg(), "cpus": os.cpu_count()}
    print(json.dumps(result, indent=1))
    if opts.json:
        opts.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
