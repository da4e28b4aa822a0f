"""The grade table and the review report of a course folder.

``exports/grades.csv``: one row per student and lesson (every student the gradebook knows,
every lesson, ``not submitted`` when there is nothing), with the score, the maximum, the
autograde status and seconds, whether anything still needs grading by hand, how many
review items the submission has, and how late it came (seconds after the due date and the
points nbgrader's late penalty took off). ``exports/grades-by-student.csv``: the same
scores, one row per student, one column per lesson, and the total.
``exports/review.csv`` and ``exports/review.md``: every submission a person should look at, and
why: static flags (``scan.py``), edited or deleted test cells, kernel restarts, timeouts,
truncated output, a missing notebook, a failed run.

Scores are net of nbgrader's late penalty (none unless ``LateSubmissionPlugin`` sets one).
Leaves out: LMS-specific formats (``nbgrader export`` writes nbgrader's own table).
Example: ``write_grades(Course(Path(".")))`` -> ``Path("exports/grades.csv")``.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import nbformat

from . import pipeline, scan

EVENT_TEXT = {
    "timeout": "a cell ran past the time limit (interrupted)",
    "kernel-died": "the kernel died in this cell (exit or crash); re-run without it",
    "kernel-hung": "this cell ignored the interrupt; kernel restarted, re-run without it",
    "guard-failed": "the kernel was tampered with; this test was not run (0)",
    "output-truncated": "huge output, truncated",
}
MANUAL_TEXT = ("nbgrader waits for a hand grade (a score given in the formgrader, then autograded "
               "again?): look at it in the formgrader")


def review_items(course: pipeline.Course, lessons: list[str] | None = None) -> list[dict]:
    """Everything to review, one dict per item: lesson, student, kind, category, cell, detail."""
    status = pipeline.load_status(course)
    items = []
    for lesson in lessons or course.lessons():
        source = nbformat.read(course.notebook(lesson), as_version=4)
        release_path = course.root / "release" / lesson / course.notebook(lesson).name
        release = nbformat.read(release_path, as_version=4) if release_path.exists() else None
        manual = {s for s, (_score, _top, needs) in pipeline.scores(course, lesson).items()
                  if needs}
        for student in course.students(lesson):
            row = {"lesson": lesson, "student": student}
            st = status.get(f"{lesson}/{student}", {})
            if st.get("status") in ("missing notebook", "failed"):
                items.append({**row, "kind": "status", "category": st["status"], "cell": "",
                              "detail": st.get("error", "")})
            if student in manual:
                items.append({**row, "kind": "status", "category": "needs manual grade",
                              "cell": "", "detail": MANUAL_TEXT})
            for ev in st.get("events", []):
                items.append({**row, "kind": "event", "category": ev["event"],
                              "cell": ev["cell"], "detail": EVENT_TEXT.get(ev["event"], "")})
            path = course.root / "submitted" / student / lesson / course.notebook(lesson).name
            if not path.exists() or release is None:
                continue
            try:
                nb = nbformat.read(path, as_version=4)
            except Exception as exc:  # noqa: BLE001 (an unreadable notebook is itself a finding)
                items.append({**row, "kind": "status", "category": "unreadable", "cell": "",
                              "detail": str(exc)[:200]})
                continue
            items += [{**row, **item} for item in scan.scan_notebook(nb, release, source)]
    return items


def write_review(course: pipeline.Course, items: list[dict]) -> Path:
    out = course.exports
    out.mkdir(parents=True, exist_ok=True)
    fields = ["lesson", "student", "kind", "category", "cell", "detail"]
    with open(out / "review.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields)
        writer.writeheader()
        writer.writerows(items)
    by_sub = defaultdict(list)
    for item in items:
        by_sub[(item["lesson"], item["student"])].append(item)
    lines = ["# Submissions to review", "",
             f"{len(by_sub)} submission(s) with {len(items)} item(s). Flags come from a static "
             "scan of the cells students wrote; events from the autograde run. A flag is a "
             "reason to look, not a verdict.", ""]
    for (lesson, student), its in sorted(by_sub.items()):
        lines.append(f"## {student} · {lesson}")
        lines += [f"- **{i['category']}** ({i['kind']}) {i['cell']}: {i['detail']}" for i in its]
        lines.append("")
    (out / "review.md").write_text("\n".join(lines), encoding="utf-8")
    return out / "review.md"


def grade_rows(course: pipeline.Course, items: list[dict] | None = None) -> list[dict]:
    status = pipeline.load_status(course)
    items = review_items(course) if items is None else items
    counts = defaultdict(int)
    for item in items:
        counts[(item["lesson"], item["student"])] += 1
    lessons = course.lessons()
    table = {lesson: pipeline.scores(course, lesson) for lesson in lessons}
    late = {lesson: pipeline.lateness(course, lesson) for lesson in lessons}
    with course.gradebook() as gb:
        students = sorted({s.id for s in gb.students} | {s for t in table.values() for s in t})
        maxima = {}
        for lesson in lessons:
            try:
                maxima[lesson] = float(gb.find_assignment(lesson).max_score)
            except pipeline.MissingEntry:
                maxima[lesson] = 0.0
    rows = []
    for student in students:
        for lesson in lessons:
            st = status.get(f"{lesson}/{student}", {})
            score, top, manual = table[lesson].get(student, (0.0, maxima[lesson], False))
            seconds_late, penalty = late[lesson].get(student, (0.0, 0.0))
            rows.append({
                "student": student, "lesson": lesson, "score": round(score, 2),
                "max_score": round(top, 2),
                "status": st.get("status") or ("graded" if student in table[lesson]
                                               else "not submitted"),
                "needs_manual_grade": manual, "review_items": counts[(lesson, student)],
                "autograde_seconds": st.get("seconds", ""),
                "seconds_late": round(seconds_late, 1), "late_penalty": round(penalty, 2),
            })
    return rows


def write_grades(course: pipeline.Course, items: list[dict] | None = None) -> Path:
    rows = grade_rows(course, items)
    out = course.exports
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "grades.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]) if rows else ["student"])
        writer.writeheader()
        writer.writerows(rows)
    lessons = course.lessons()
    wide = defaultdict(dict)
    for row in rows:
        wide[row["student"]][row["lesson"]] = row["score"]
    with open(out / "grades-by-student.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["student", *lessons, "total"])
        for student, by_lesson in sorted(wide.items()):
            total = round(sum(by_lesson.get(lesson, 0.0) for lesson in lessons), 2)
            writer.writerow([student, *(by_lesson.get(lesson, 0.0) for lesson in lessons), total])
    return out / "grades.csv"
