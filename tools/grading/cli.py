"""Command line of the instructor's pipeline (run as ``python3 tools/grade.py COMMAND``).

Leaves out: the exchange commands, which are nbgrader's own (docs/instructor.md).
Example: ``main(["all", "submissions.zip"])`` -> 0 after release, collect, autograde, feedback,
export.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from . import collect, export, parallel, pipeline, progress

ROOT = Path(__file__).resolve().parents[2]

USAGE = """\
python3 tools/grade.py release                 regenerate release/, register lessons in gradebook.db
python3 tools/grade.py collect PATH            a folder or .zip of submissions -> submitted/
python3 tools/grade.py autograde [LESSON ...]  autograde every collected submission (sandboxed)
python3 tools/grade.py status                  how far the running (or last) autograde got
python3 tools/grade.py feedback [LESSON ...]   feedback/<student>/<lesson>/*.html, no hidden tests
python3 tools/grade.py export                  exports/grades.csv, grades-by-student.csv, review.md
python3 tools/grade.py all PATH                all five, in that order
Options: --course DIR (default: the repository), --no-sandbox, --timeout SECONDS,
--student ID (autograde only these; repeatable), --jobs N (submissions at once; default: the
cores), --scheduler tcp://HOST:8786 (a Dask cluster grades them), --force (grade again what is
already graded and unchanged). Exit status 1 when a submission could not be autograded (every
other one still is)."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tools/grade.py", description=USAGE,
                                usage="python3 tools/grade.py COMMAND [ARGS] [options]",
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("command", choices=["release", "collect", "autograde", "feedback", "export",
                                       "all", "status"])
    p.add_argument("args", nargs="*", help="PATH for collect/all, lessons otherwise")
    p.add_argument("--course", type=Path, default=ROOT, help="course folder")
    p.add_argument("--no-sandbox", action="store_true",
                   help="run student code unconfined (only where bubblewrap cannot run)")
    p.add_argument("--timeout", type=int, default=None, help="seconds per cell")
    p.add_argument("--student", action="append", default=None, help="autograde only this id")
    p.add_argument("--jobs", type=int, default=None,
                   help="submissions autograded at once (default: the number of cores)")
    p.add_argument("--scheduler", default=None,
                   help="address of a Dask scheduler (tcp://HOST:8786) whose workers autograde")
    p.add_argument("--force", action="store_true",
                   help="autograde again submissions already graded and unchanged")
    return p


def main(argv: list[str] | None = None) -> int:
    opts = _parser().parse_args(argv)
    course = pipeline.Course(opts.course)
    cmd, args = opts.command, opts.args
    if cmd == "status":
        print("\n".join(progress.status(course.exports / "progress.json")))
        return 0
    if opts.jobs is not None and opts.jobs < 1:
        print("--jobs needs a number of 1 or more")
        return 2
    lessons = None if cmd in ("collect", "all") else (args or None)
    unknown = set(lessons or []) - set(course.lessons())
    if unknown:
        print(f"no such lesson in {course.root / 'notebooks'}: {', '.join(sorted(unknown))}")
        return 2
    if cmd in ("collect", "all") and len(args) != 1:
        print(f"{cmd} needs one PATH (a folder or a .zip of submissions)")
        return 2
    t0, failed = time.monotonic(), []
    if cmd in ("release", "all"):
        print("released:", ", ".join(pipeline.release(course, lessons)))
    if cmd in ("collect", "all"):
        done, notes = collect.collect(course, Path(args[0]))
        print(f"collected {len(done)} submission(s) from {args[0]}")
        for note in notes:
            print("  note:", note)
    if cmd in ("autograde", "all"):
        jobs = opts.jobs or parallel.default_jobs()
        results = pipeline.autograde(course, lessons, opts.student, sandboxed=not opts.no_sandbox,
                                     timeout=opts.timeout, jobs=jobs, scheduler=opts.scheduler,
                                     resume=not opts.force)
        graded = [r for r in results if r.status == "graded"]
        failed = [f"{r.student}/{r.lesson}" for r in results if r.status == "failed"]
        if graded:
            secs = sorted(r.seconds for r in graded)
            print(f"autograded {len(graded)} of {len(results)} submission(s); seconds per "
                  f"submission: median {secs[len(secs) // 2]:.1f}, max {secs[-1]:.1f}")
    if cmd in ("feedback", "all"):
        print(f"feedback: {len(pipeline.feedback(course, lessons))} HTML file(s) in feedback/")
    if cmd in ("export", "all"):
        items = export.review_items(course)
        grades = export.write_grades(course, items)
        review = export.write_review(course, items)
        subs = {(i["lesson"], i["student"]) for i in items}
        print(f"grades: {grades}\nreview: {review} ({len(subs)} submission(s) to look at)")
    print(f"done in {time.monotonic() - t0:.1f} s")
    if failed:
        print(f"{len(failed)} submission(s) could not be autograded: {', '.join(failed)} "
              "(see exports/logs/ and exports/review.md)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
