"""Autograde throughput with ``--jobs 2`` against ``--jobs 1``, and memory per job (on demand).

Builds a class of simulated students from the wrong-solution library (``tests/wrong/``):
student ``i`` submits, for each lesson, the reference solution when ``i`` is a multiple of
the number of wrong solutions plus one, else the next wrong solution in turn (so the class
holds every mistake, the ones that loop until the time limit included). One release, copied
into two course folders; each is autograded by ``pipeline.autograde`` (what
``tools/grade.py autograde`` runs), sandboxed, once with one job and once with ``--jobs``.
While each run goes on, the resident memory of this process and of every process under it
(grading processes, kernel launchers, kernels) is sampled every 0.2 s; memory per job is the
peak of the processes under this one divided by the jobs. The load average is recorded before
and after each run: on a shared machine, run it when ``uptime`` shows a load under 1.5.

Leaves out: feedback and export (seconds per class, not per submission); Dask (same work per
submission; its scheduler adds milliseconds per task).

    .venv/bin/python benchmarks/parallel.py --students 40 --json benchmarks/parallel.json
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).absolute().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))


def rss_tree(root_pid: int) -> tuple[int, int]:
    """(resident bytes of ``root_pid``, resident bytes of all its descendants)."""
    parent, rss = {}, {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            parent[int(entry.name)] = int(fields[1])
            rss[int(entry.name)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    below, todo = set(), [root_pid]
    while todo:
        pid = todo.pop()
        kids = [p for p, pp in parent.items() if pp == pid]
        below.update(kids)
        todo += kids
    return rss.get(root_pid, 0), sum(rss.get(p, 0) for p in below)


class Sampler(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.stop, self.peak_self, self.peak_below = threading.Event(), 0, 0

    def run(self):
        while not self.stop.is_set():
            me, below = rss_tree(os.getpid())
            self.peak_self, self.peak_below = max(self.peak_self, me), max(self.peak_below, below)
            time.sleep(0.2)


def make_class(root: Path, lessons: list[str], n: int) -> int:
    import nbformat

    from tests.nbgrading import lesson_notebook, set_cells, submit, wrong_module

    count = 0
    for lesson in lessons:
        source = nbformat.read(lesson_notebook(lesson), as_version=4)
        wrong = list(wrong_module(lesson).WRONG.values())
        for i in range(n):
            k = i % (len(wrong) + 1)
            nb = source if k == 0 else set_cells(source, wrong[k - 1][0])
            submit(root, f"s{i:03d}", lesson, nb)
            count += 1
    return count


def measure(root: Path, jobs: int, timeout: int | None) -> dict:
    from tools.grading import pipeline

    course = pipeline.Course(root)
    load_before = os.getloadavg()
    sampler = Sampler()
    sampler.start()
    start = time.monotonic()
    results = pipeline.autograde(course, jobs=jobs, timeout=timeout, echo=lambda *_: None)
    wall = time.monotonic() - start
    sampler.stop.set()
    sampler.join()
    secs = [r.seconds for r in results if r.status == "graded"]
    by_lesson: dict[str, list[float]] = {}
    for r in results:
        by_lesson.setdefault(r.lesson, []).append(r.seconds)
    return {
        "jobs": jobs, "submissions": len(results), "wall_seconds": round(wall, 1),
        "failed": sum(r.status != "graded" for r in results),
        "submissions_per_minute": round(60 * len(results) / wall, 2),
        "wall_seconds_per_submission": round(wall / len(results), 2),
        "median_seconds_in_job": round(statistics.median(secs), 2) if secs else None,
        "mean_seconds_in_job_by_lesson": {k: round(statistics.mean(v), 2)
                                          for k, v in sorted(by_lesson.items())},
        "peak_rss_this_process_mb": round(sampler.peak_self / 2**20),
        "peak_rss_below_mb": round(sampler.peak_below / 2**20),
        "rss_per_job_mb": round(sampler.peak_below / jobs / 2**20),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--students", type=int, default=40)
    ap.add_argument("--lessons", default="03-overlap,06-evaluation",
                    help="comma-separated lesson ids, or 'all'")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=None, help="seconds per cell (course: 10)")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--keep", action="store_true", help="keep the two course folders")
    opts = ap.parse_args(argv)
    from tests.nbgrading import lessons as all_lessons
    from tests.nbgrading import new_course
    from tools.grading import cli, pipeline

    lessons = all_lessons() if opts.lessons == "all" else opts.lessons.split(",")
    tmp = Path(tempfile.mkdtemp(prefix="bench-par-"))
    try:
        one = new_course(tmp, lessons)
        assert cli.main(["release", "--course", str(one)]) == 0
        n = make_class(one, lessons, opts.students)
        two = tmp / "course-jobs"
        shutil.copytree(one, two)
        runs = [measure(one, 1, opts.timeout), measure(two, opts.jobs, opts.timeout)]
        differ = sorted(
            (lesson, student) for lesson in lessons
            for student, score in pipeline.scores(pipeline.Course(one), lesson).items()
            if pipeline.scores(pipeline.Course(two), lesson).get(student) != score)
    finally:
        if opts.keep:
            print("course folders kept in", tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    out = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "cores": os.cpu_count(), "students": opts.students, "lessons": lessons,
           "submissions": n, "runs": runs, "scores_that_differ": differ,
           "throughput_ratio": round(runs[1]["submissions_per_minute"]
                                     / runs[0]["submissions_per_minute"], 2)}
    print(json.dumps(out, indent=1))
    if opts.json:
        opts.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
