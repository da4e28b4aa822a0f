"""The instructor's wait: autograde seconds per lesson per student, against an empty notebook.

Per lesson, in a throwaway course folder (``tests.nbgrading.new_course``: the course's own
``nbgrader_config.py`` and the lesson's source notebook) plus an assignment ``00-empty``
whose notebook has no cells: both are generated, every student submits the lesson's solution
(the source notebook: every cell runs, every test passes) and an empty notebook, and
nbgrader's own Python API (``NbGraderAPI.autograde``, what ``nbgrader autograde`` runs for
each submission of a batch) grades them one student at a time, alternating empty and lesson,
in one process. Beside them, the lesson's *floor*: the source notebook with every code cell's
code replaced by ``pass`` and its nbgrader metadata kept, so nbgrader executes, overwrites and
records the same cells and nothing is computed. The ratio is the median of the per-student
ratios; the median seconds are
what one more student costs in a batch. The 3-second start of the ``nbgrader`` command
itself, paid once per batch, is left out of both.

Leaves out: generate_feedback and export (seconds per batch, not per student).

    benchmarks/.venv/bin/python benchmarks/instructor.py --json /tmp/instructor.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

EMPTY = "00-empty"
FLOOR = "00-floor"


def floor_notebook(source):
    """``source`` with every code cell's code replaced by ``pass``, nbgrader metadata kept: the
    same cells for nbgrader to execute, overwrite and record, and nothing to compute."""
    import copy

    nb = copy.deepcopy(source)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.source = "pass"
            cell.outputs, cell.execution_count = [], None
    return nb


def api_for(course: Path):
    """An NbGraderAPI for ``course`` with the course's nbgrader_config.py loaded."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    config.CourseDirectory.root = str(course)
    return NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)


def _ok(result: dict, what: str) -> None:
    if not result.get("success"):
        tail = (result.get("error") or result.get("log") or "")[-800:]
        raise RuntimeError(f"{what} failed: {tail}")


def autograde_waits(students: int = 3, only: str | None = None) -> dict:
    import nbformat
    from learner import lessons

    from tests.nbgrading import new_course, submit

    out = []
    for path in lessons():
        lesson = path.parent.name
        if only and only not in lesson:
            continue
        print(f"  autograde {lesson} ...", end=" ", flush=True)
        source = nbformat.read(path, as_version=4)
        empty = nbformat.v4.new_notebook(metadata=source.metadata)
        cwd = os.getcwd()
        try:
            with tempfile.TemporaryDirectory() as tmp:
                course = new_course(Path(tmp), [lesson])
                floor = floor_notebook(source)
                for name, nb in ((EMPTY, empty), (FLOOR, floor)):
                    (course / "notebooks" / name).mkdir(parents=True)
                    nbformat.write(nb, course / "notebooks" / name / path.name)
                os.chdir(course)
                api = api_for(course)
                for assignment in (EMPTY, FLOOR, lesson):
                    _ok(api.generate_assignment(assignment), f"generate_assignment {assignment}")
                names = [f"student-{i}" for i in range(students + 1)]  # the first: warm-up
                for name in names:
                    submit(course, name, lesson, source)
                    for assignment, nb in ((EMPTY, empty), (FLOOR, floor)):
                        folder = course / "submitted" / name / assignment
                        folder.mkdir(parents=True, exist_ok=True)
                        nbformat.write(nb, folder / path.name)
                pairs, floors = [], []
                for i, name in enumerate(names):
                    start = time.perf_counter()
                    _ok(api.autograde(EMPTY, name), f"autograde {EMPTY} {name}")
                    t_empty = time.perf_counter() - start
                    start = time.perf_counter()
                    _ok(api.autograde(FLOOR, name), f"autograde {FLOOR} {name}")
                    t_floor = time.perf_counter() - start
                    start = time.perf_counter()
                    _ok(api.autograde(lesson, name), f"autograde {lesson} {name}")
                    t_lesson = time.perf_counter() - start
                    if i:  # the first pair warms imports and the disk cache
                        pairs.append((t_empty, t_lesson))
                        floors.append(t_floor / t_empty)
                score = _score(course, lesson, names[-1])
                os.chdir(cwd)
        except Exception as err:
            os.chdir(cwd)
            out.append({"lesson": lesson, "status": f"failed: {type(err).__name__}: "
                        f"{str(err)[:300]}"})
            print(out[-1]["status"], flush=True)
            continue
        row = {"lesson": lesson, "status": "ok", "students": len(pairs),
               "empty_median": statistics.median(p[0] for p in pairs),
               "lesson_median": statistics.median(p[1] for p in pairs),
               "ratio": statistics.median(p[1] / p[0] for p in pairs), "score": score,
               "floor_ratio": statistics.median(floors),
               "pairs": [[round(e, 3), round(t, 3)] for e, t in pairs]}
        out.append(row)
        print(f"{row['lesson_median']:.2f} s per student vs empty {row['empty_median']:.2f} s "
              f"({row['ratio']:.2f}x), solution scored {score}", flush=True)
    return {"autograde": out}


def _score(course: Path, lesson: str, student: str) -> str:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        sub = gb.find_submission(lesson, student)
        return f"{sub.score:g} of {sub.max_score:g}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="the instructor's wait")
    parser.add_argument("--json", type=Path, required=True)
    parser.add_argument("--students", type=int, default=3)
    parser.add_argument("--only", help="only lessons whose folder name contains this")
    args = parser.parse_args(argv)
    os.environ.setdefault("MPLBACKEND", "Agg")
    # nbgrader 0.9.6 with SQLAlchemy 2.1 warns about its own session use on every submission.
    warnings.filterwarnings("ignore", message="Object of type <Submitted")
    # nbgrader runs `alembic` from PATH: this interpreter's scripts first, as the CLI would.
    os.environ["PATH"] = str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"]
    args.json.write_text(json.dumps(autograde_waits(args.students, args.only), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
