"""Self-grading: a learner's own release notebook, autograded against the hidden tests, in words.

    python3 course.py grade 03-overlap    # one lesson (also 03, 3 or overlap)
    python3 course.py grade               # every lesson with answers that changed since graded
    from chunklib.course.grade import grade_me; grade_me()   # the same, from a lesson's notebook

Per lesson: a copy of the notebook as last saved (the file itself is only read) is autograded
in a temporary course folder that holds ``nbgrader_config.py`` and the lesson's source notebook
(its hidden tests), with the instructor pipeline's settings (``pipeline.grading_config``: the
guarded executor, deleted test cells added back) and its sandbox when bubblewrap works here.
The folder's gradebook is generated once per version of the source notebook and kept in
``build/selfgrade/``. The report gives the points of every exercise and, for each that lost
points, the function or To-do, and the kind of case that fails (``cases.py``); it never shows a
hidden test's code or expected values. nbgrader's feedback page (hidden tests removed by
``nbgrader_config.py``) is written beside the notebook as ``<name>.feedback.html``, and a
one-screen progress table of all lessons is kept in ``build/selfgrade/progress.json``.

Leaves out: the open notebook's unsaved state, which a grader cannot read; from a notebook,
``grade_me`` passes the code this kernel ran after the last save, and cells of it missing
from the saved file are reported as unsaved edits.
Example: ``grade("03-overlap", notebook=path).score`` -> 35.0 when ``path`` holds the reference
solution, and its ``render`` says "Everything passes, hidden edge cases included."
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import nbformat
from nbgrader.converters import Autograde, GenerateAssignment, GenerateFeedback

from . import cases, execute, pipeline, sandbox

ROOT = Path(__file__).resolve().parents[2]
STATE = ROOT / "build" / "selfgrade"
STUDENT = "me"
NOT_WRITTEN = "NotImplementedError()"  # nbgrader's stub in a blank answer cell


@dataclass
class Exercise:
    """The graded cells of one exercise: a Part 2 function, a To-do or a question."""

    name: str
    part: str  # "Part 1" | "Part 2" | "Questions"
    points: float = 0.0
    max_points: float = 0.0
    problems: list[str] = field(default_factory=list)


@dataclass
class Report:
    lesson: str
    title: str
    notebook: str
    saved: float
    score: float
    max_score: float
    exercises: list[Exercise]
    unsaved: int | None = None  # cells run after the last save and missing from it (kernel)
    feedback: str = ""
    seconds: float = 0.0
    sandbox: str = ""  # why student code ran unconfined ("" when sandboxed)
    events: list = field(default_factory=list)
    sha256: str = ""

    @property
    def to_fix(self) -> list[Exercise]:
        return [e for e in self.exercises if e.points < e.max_points]


# ---------------------------------------------------------------- lessons and notebooks
def lessons(root: Path = ROOT) -> list[str]:
    return sorted(p.name for p in (root / "notebooks").iterdir() if p.is_dir())


def find_lesson(name: str, root: Path = ROOT) -> str:
    """``"3"``, ``"03"``, ``"overlap"`` or ``"03-overlap"`` -> ``"03-overlap"``."""
    for lesson in lessons(root):
        number, slug = lesson.split("-", 1)
        if name in (lesson, number, slug) or (name.isdigit() and int(name) == int(number)):
            return lesson
    raise SystemExit(f"no lesson {name!r}: choose one of {', '.join(lessons(root))}")


def release_notebook(lesson: str, root: Path = ROOT) -> Path:
    name = pipeline.Course(root).notebook(lesson).name
    return root / "release" / lesson / name


def lesson_title(nb) -> str:
    """``"# Lesson 3 of 6 · Overlap"`` in the first cell -> ``"Lesson 3, Overlap"``."""
    first = nb.cells[0].source.splitlines()[0].lstrip("# ") if nb.cells else ""
    head, _, topic = first.partition(" · ")
    return f"{head.split(' of ')[0]}, {topic}" if topic else first


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ---------------------------------------------------------------- the temporary course
def cached_course(lesson: str, root: Path = ROOT) -> Path:
    """A course folder with ``lesson`` generated and registered in its gradebook, made once per
    version of the source notebook and of ``nbgrader_config.py``."""
    source = pipeline.Course(root).notebook(lesson)
    config = root / "nbgrader_config.py"
    key = _sha(source.read_bytes() + config.read_bytes() + lesson.encode())[:16]
    ready = STATE / "courses" / f"{lesson}-{key}"
    if (ready / "gradebook.db").exists():
        return ready
    ready.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"{lesson}-", dir=ready.parent))
    shutil.copy2(config, work / "nbgrader_config.py")
    (work / "notebooks" / lesson).mkdir(parents=True)
    shutil.copy2(source, work / "notebooks" / lesson / source.name)
    for extra in source.parent.iterdir():  # the lesson's data files, if any
        if extra != source and not extra.name.startswith("."):
            copy = shutil.copytree if extra.is_dir() else shutil.copy2
            copy(extra, work / "notebooks" / lesson / extra.name)
    course = pipeline.Course(work)
    with pipeline.alembic_in_process():
        made = pipeline.run(GenerateAssignment, course.config(), lesson, force=True,
                            log=work / "generate.log")
    if not made:
        raise SystemExit(f"could not prepare {lesson} for grading: see {work / 'generate.log'}")
    try:
        work.rename(ready)
    except OSError:  # another grade made it first
        shutil.rmtree(work, ignore_errors=True)
    return ready


# ---------------------------------------------------------------- unsaved edits
def _normal(code: str) -> str:
    return "\n".join(line.rstrip() for line in code.strip().splitlines())


def unsaved_cells(nb, executed: dict[int, str]) -> int:
    """How many cells this kernel ran after the notebook was last saved whose code the saved
    file does not hold. ``executed`` maps execution counts to the code run (IPython's ``In``);
    the saved file records the count of every cell run before it was saved."""
    from IPython.core.inputtransformer2 import TransformerManager

    transform = TransformerManager().transform_cell
    code = [c for c in nb.cells if c.cell_type == "code"]
    saved = {_normal(transform(c.source)) for c in code} | {_normal(c.source) for c in code}
    last = max((c.get("execution_count") or 0 for c in code), default=0)
    after = {_normal(src) for k, src in executed.items() if int(k) > last}
    return len({src for src in after if src and src not in saved and "grade_me" not in src})


# ---------------------------------------------------------------- grading
def _errors(cell) -> list[dict]:
    return [dict(o) for o in cell.get("outputs", []) if o.get("output_type") == "error"]


def _problem(gid: str, cell, answer, blank, lesson: str) -> str:
    """In words, why the graded cell ``gid`` lost its points."""
    errors = _errors(cell)
    if answer is not None and blank is not None and _normal(answer.source) == _normal(
            blank.source):
        return "not written yet" if gid.endswith(("_examples", "_hidden")) else \
            "not answered yet"
    answer_errors = _errors(answer) if answer is not None else []
    if answer_errors and answer_errors[0].get("ename") != "CellTimeoutError":
        return f"its own cell stops with {answer_errors[0].get('ename')} when it runs"
    if not errors:
        return "not right yet"
    error = errors[0]
    ename = error.get("ename", "")
    if ename == execute.TIMEOUT_ENAME:
        return "ran past the time limit (an endless loop?)"
    if ename == "KernelStopped":
        return "stopped the Python kernel (an exit or a crash)"
    if ename == "GraderGuardError":
        return "changed the kernel so the checks could not run"
    if not gid.endswith(("_examples", "_hidden")):  # a To-do or a question
        return "not right yet" if ename == "AssertionError" else f"its check stops with {ename}"
    kind = cases.kind_of_failure(cell.source, error, lesson)
    examples = gid.endswith("_examples")
    if kind in cases.TYPE_MESSAGES:
        return "right values of the wrong type (a tuple where a list is expected, or the like)"
    if ename == "AssertionError":
        said = str(error.get("evalue", ""))  # an examples cell's own expect(): visible lines
        if examples and said.startswith(cases.TYPE_ONLY):
            return "right values of the wrong type: " + said[len(cases.TYPE_ONLY):].strip(" .")
        if examples:
            return "an example in the notebook fails (run its cell to see which)"
        return f"fails a hidden edge case: {kind}" if kind else "fails a hidden edge case"
    where = " on an example" if examples else (
        f" on a hidden edge case: {kind}" if kind else " on a hidden edge case")
    return f"raises {ename}{where}"


def exercises(source, graded, release, scores: dict, lesson: str) -> list[Exercise]:
    """One Exercise per function, To-do and question, in the notebook's order."""
    def by_id(nb):
        return {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in nb.cells}

    mine, blank, cells = by_id(graded), by_id(release), by_id(source)
    out: dict[str, Exercise] = {}
    for cell in source.cells:
        meta = cell.metadata.get("nbgrader", {})
        gid = meta.get("grade_id", "")
        if not meta.get("grade") or meta.get("solution") or gid not in scores:
            continue
        item = gid.removeprefix("test_")
        if item.endswith(("_examples", "_hidden")):
            item = item.rsplit("_", 1)[0]
            name, part = item, "Part 2"
        elif item.startswith("q") and item[1:].isdigit():
            name, part = f"question {item[1:]}", "Questions"
        else:
            todo = re.search(r"# To do (\d+)", cells.get(item, cell).source)
            name, part = (f"to do {todo.group(1)}" if todo else item), "Part 1"
        ex = out.setdefault(name, Exercise(name, part))
        points, top = scores[gid]
        ex.points += points
        ex.max_points += top
        if points < top:
            why = _problem(gid, mine.get(gid, cell), mine.get(item), blank.get(item), lesson)
            if why not in ex.problems:
                ex.problems.append(why)
    return list(out.values())


def _scores(course: pipeline.Course, lesson: str, notebook: str) -> dict[str, tuple]:
    with course.gradebook() as gb:
        sub = gb.find_submission_notebook(notebook, lesson, STUDENT)
        return {g.name: (float(g.score), float(g.max_score)) for g in sub.grades
                if g.max_score}


def grade(lesson: str, *, notebook: Path | None = None, executed: dict | None = None,
          timeout: int | None = None, feedback: bool = True, root: Path = ROOT,
          on_report=None, sandboxed: bool = True) -> Report:
    """Autograde the saved ``notebook`` (default: the lesson's release notebook) and report.

    ``on_report(report)`` is called as soon as the grades are known, before the feedback page
    is written (the page then goes into ``report.feedback``).
    """
    start = time.monotonic()
    notebook = Path(notebook or release_notebook(lesson, root))
    if not notebook.exists():
        raise SystemExit(f"{notebook} is missing: nothing to grade")
    data = notebook.read_bytes()  # the learner's file is only read, once
    saved = notebook.stat().st_mtime
    try:
        mine = nbformat.reads(data.decode("utf-8"), as_version=4)
    except Exception as exc:  # noqa: BLE001 (any unreadable file gets the same answer)
        raise SystemExit(f"{notebook} is not a notebook nbgrader can read ({exc}); open it "
                         "in JupyterLab and save it again") from None
    cache = cached_course(lesson, root)
    tmp = Path(tempfile.mkdtemp(prefix="selfgrade-"))
    try:
        work = tmp / "course"
        shutil.copytree(cache, work)
        course = pipeline.Course(work)
        name = course.notebook(lesson).name
        (work / "submitted" / STUDENT / lesson).mkdir(parents=True)
        (work / "submitted" / STUDENT / lesson / name).write_bytes(data)
        why = sandbox.probe() if sandboxed else "turned off with --no-sandbox"
        with pipeline.kernel_sandbox(not why, work / "kernels.log") as box:
            cfg = pipeline.grading_config(course, box, timeout)
            ok = pipeline.run(Autograde, cfg, lesson, STUDENT, force=True, create_student=True,
                              log=work / "autograde.log")
        events = execute.EVENTS.pop((STUDENT, lesson), [])
        if not ok:
            log = (work / "autograde.log").read_text(encoding="utf-8")[-1500:]
            raise SystemExit(f"{lesson}: the notebook could not be graded:\n{log}")
        source = nbformat.read(course.notebook(lesson), as_version=4)
        graded = nbformat.read(work / "autograded" / STUDENT / lesson / name, as_version=4)
        blank = nbformat.read(work / "release" / lesson / name, as_version=4)
        scores = _scores(course, lesson, Path(name).stem)
        report = Report(
            lesson=lesson, title=lesson_title(source), notebook=str(notebook), saved=saved,
            score=sum(s for s, _ in scores.values()),
            max_score=sum(t for _, t in scores.values()),
            exercises=exercises(source, graded, blank, scores, lesson),
            unsaved=None if executed is None else unsaved_cells(mine, executed),
            seconds=round(time.monotonic() - start, 1), sandbox=why or "", events=events,
            sha256=_sha(data))
        if on_report:
            on_report(report)
        if feedback:
            pipeline.run(GenerateFeedback, course.config(), lesson, STUDENT, force=True,
                         log=work / "feedback.log")
            made = work / "feedback" / STUDENT / lesson / (Path(name).stem + ".html")
            if made.exists():
                target = notebook.with_name(notebook.stem + ".feedback.html")
                shutil.copyfile(made, target)
                report.feedback = str(target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return report


# ---------------------------------------------------------------- what the learner reads
def _points(x: float) -> str:
    return f"{x:g}"


def _when(stamp: float, now: float | None = None) -> str:
    """``"18:31, 3 min ago"`` (the date too when it is not today)."""
    now = time.time() if now is None else now
    at = datetime.fromtimestamp(stamp)
    clock = at.strftime("%H:%M") if at.date() == datetime.fromtimestamp(now).date() \
        else at.strftime("%Y-%m-%d %H:%M")
    minutes = int(max(0, now - stamp) // 60)
    ago = "just now" if minutes < 1 else (f"{minutes} min ago" if minutes < 120
                                          else f"{minutes // 60} hours ago")
    return f"{clock}, {ago}"


def _rel(path: str, root: Path = ROOT) -> str:
    try:
        return str(Path(path).resolve().relative_to(root))
    except ValueError:
        return path


def render(report: Report, root: Path = ROOT) -> str:
    """The report of one lesson, as printed."""
    lines = [f"{report.title}: {_points(report.score)} of {_points(report.max_score)} points",
             f"  graded {_rel(report.notebook, root)} as last saved ({_when(report.saved)})"]
    if report.unsaved:
        lines.append(f"  NOTE: {report.unsaved} cell(s) you ran are not in the saved file: "
                     "the notebook has unsaved edits, and this grade is for the saved file. "
                     "Save it (Ctrl+S) and grade again to include them.")
    elif report.unsaved is None:
        lines.append("  (unsaved edits in an open notebook are not seen: save it first)")
    for part in ("Part 1", "Part 2", "Questions"):
        items = [e for e in report.exercises if e.part == part]
        if not items:
            continue
        got, top = sum(e.points for e in items), sum(e.max_points for e in items)
        lines.append(f"  {part}: {_points(got)} of {_points(top)}")
        blank = [e for e in items if e.problems in (["not answered yet"], ["not written yet"])]
        if len(blank) > 1:  # one line for all the blank ones
            lines.append(textwrap.fill(f"{blank[0].problems[0]}: "
                                       + ", ".join(e.name for e in blank), width=96,
                                       initial_indent="    -- ", subsequent_indent=" " * 7))
        for e in items:
            if (part != "Part 2" and e.points == e.max_points) or (len(blank) > 1
                                                                    and e in blank):
                continue
            mark = "ok" if e.points == e.max_points else "--"
            what = "; ".join(e.problems)
            lines.append(f"    {mark} {e.name:<20} {_points(e.points)} of "
                         f"{_points(e.max_points)}" + (f"  {what}" if what else ""))
    fix = report.to_fix
    if not fix:
        lines.append("  Everything passes, hidden edge cases included.")
    else:
        first = fix[0]
        lines.append(f"  Next to fix: {first.name} ({'; '.join(first.problems)})"
                     + (f", then {len(fix) - 1} more" if len(fix) > 1 else ""))
    if report.events:
        kinds = sorted({e["event"] for e in report.events})
        lines.append(f"  While grading: {', '.join(kinds)} (see the feedback page)")
    if report.feedback:
        lines.append(f"  Feedback page: {_rel(report.feedback, root)}")
    if report.sandbox:
        lines.append(f"  (your code ran without the grading sandbox: {report.sandbox})")
    lines.append(f"  Graded in {report.seconds:.1f} s.")
    return "\n".join(lines)


def load_progress() -> dict:
    path = STATE / "progress.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def save_progress(report: Report) -> None:
    progress = load_progress()
    progress[report.lesson] = {
        "score": report.score, "max_score": report.max_score, "graded": time.time(),
        "sha256": report.sha256, "to_fix": [e.name for e in report.to_fix]}
    STATE.mkdir(parents=True, exist_ok=True)
    (STATE / "progress.json").write_text(json.dumps(progress, indent=1), encoding="utf-8")


def progress_table(root: Path = ROOT) -> str:
    """One line per lesson: the last self-grade, whether the notebook changed since, what to
    fix."""
    progress = load_progress()
    lines = ["Your progress", f"  {'lesson':<16} {'points':>7}  {'graded':<28} to fix"]
    changed_any = False
    for lesson in lessons(root):
        nb = release_notebook(lesson, root)
        row = progress.get(lesson)
        if not row:
            lines.append(f"  {lesson:<16} {'-':>7}  not graded yet")
            continue
        changed = nb.exists() and _sha(nb.read_bytes()) != row["sha256"]
        changed_any |= changed
        when = _when(row["graded"]) + (" *" if changed else "")
        fix = ", ".join(row["to_fix"][:3]) + (" ..." if len(row["to_fix"]) > 3 else "")
        points = f"{_points(row['score'])}/{_points(row['max_score'])}"
        lines.append(f"  {lesson:<16} {points:>7}  {when:<28} {fix or '-'}")
    if changed_any:
        lines.append("  * the notebook changed after this grade")
    return "\n".join(lines)


def answered(notebook: Path) -> bool:
    """Whether any answer cell of a release notebook differs from nbgrader's blank."""
    nb = nbformat.read(notebook, as_version=4)
    return any(c.metadata.get("nbgrader", {}).get("solution") and NOT_WRITTEN not in c.source
               for c in nb.cells)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 course.py grade", description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("lessons", nargs="*", help="lessons to grade (default: every lesson whose "
                   "answers changed since it was last graded)")
    p.add_argument("--executed", type=Path, help=argparse.SUPPRESS)  # from grade_me: JSON
    p.add_argument("--timeout", type=int, default=None, help="seconds per cell")
    p.add_argument("--no-feedback", action="store_true", help="skip the HTML feedback page")
    p.add_argument("--no-sandbox", action="store_true",
                   help="run the notebook without the grading sandbox (as where bubblewrap "
                   "cannot run, e.g. Binder)")
    opts = p.parse_args(argv)
    executed = json.loads(opts.executed.read_text()) if opts.executed else None
    if opts.lessons:
        chosen = [find_lesson(name) for name in opts.lessons]
    else:
        progress = load_progress()
        chosen = [lesson for lesson in lessons() if (nb := release_notebook(lesson)).exists()
                  and answered(nb)
                  and _sha(nb.read_bytes()) != progress.get(lesson, {}).get("sha256")]
        if not chosen:
            print("Nothing new to grade: no lesson's saved notebook has answers that changed "
                  "since its last grade.\nTo grade a lesson anyway, name it: "
                  "python3 course.py grade 03-overlap\n")
    for lesson in chosen:
        print(f"Grading {lesson} ...", flush=True)
        report = grade(lesson, executed=executed, timeout=opts.timeout,
                       feedback=not opts.no_feedback, sandboxed=not opts.no_sandbox,
                       on_report=lambda r: print(render(r), flush=True))
        save_progress(report)
        if report.feedback:
            print(f"  Feedback page: {_rel(report.feedback)}")
        print(flush=True)
    print(progress_table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
