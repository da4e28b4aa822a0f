"""Generated prose (tools/sync_prose.py): every number a converted lesson's Markdown states comes
from its ``figures()``, and every tagged cell is current.

A template's literal text may hold a digit only inside a name on ``ALLOWED``; every other
Markdown cell of a converted lesson holds no digit outside those names, so a number typed by
hand into the prose fails here. Cells owned elsewhere (``EXEMPT_GRADE_IDS``) are left out.
"""

import importlib
import re
import string

import nbformat
import pytest

from tools import sync_prose

LESSONS = sync_prose.prose_lessons()
#: The converted lessons (all six).
CONVERTED = {"01-units", "02-boundaries", "03-overlap", "04-structure", "05-lifecycle",
             "06-evaluation"}

#: Digits that are names, not figures. Keep this list short and explicit.
ALLOWED = [
    r"Lessons? \d of 6",                          # "Lesson 3 of 6"
    r"[Ll]essons? \d(?:(?:, | and |–)\d)*",      # "lesson 4", "lessons 3 and 6"
    r"(?m)^\s*\d+\. ",                           # numbered-list markers
    r"To dos? \d+(?: to \d+)?", r"Part \d", r"Example \d", r"Question \d", r"\bq\d+\b",
    r"cl100k(?:_base)?", r"o200k(?:_base)?", r"(?:all-)?MiniLM-L6(?:-v2)?", r"UTF-8",
    r"U\+[0-9A-F]{4}", r"gpt-3\.5-turbo", r"\bgpt2\b", r"GPT-4", r"text-embedding-3",
    r"SHA-256", r"sha256", r"FTS5", r"\bsqlite3\b", r"(?i:bm25)", r"\\x1f", r"pgvector 0\.8",
    r"issue #\d+",                               # an issue number of another project
    r"et al\., [^,()]+, (?:19|20)\d\d",          # a paper's year: "Günther et al., Jina AI, 2024"
    r"\b[A-Z] [−+] 1\b", r"\b1 \+ ",              # the constant 1 of a formula: K − 1, O + 1
    r"`0(?:\.0)?`", r"when [^.;\n]{0,30}(?:is|=) 0\b(?!\.)",  # a zero return value and its case
]


def strip_allowed(text):
    for pattern in ALLOWED:
        text = re.sub(pattern, " ", text)
    return text


def literal_text(template):
    return "".join(literal for literal, *_ in string.Formatter().parse(template))


def quiz_fields(lesson):
    """The figure names the quiz templates of a lesson module (``QUIZ``) state."""
    texts = [s for q in importlib.import_module(f"chunklib.course.{lesson}").QUIZ
             for s in (q.prompt, *(x for pair in q.options.values() for x in pair))]
    return {field.split(".")[0].split("[")[0]
            for text in texts for _, field, _, _ in string.Formatter().parse(text) if field}


def exempt(cell):
    tags = cell.metadata.get("tags", [])
    grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
    return "chapter-reference" in tags or grade_id in EXEMPT_GRADE_IDS \
        or grade_id.startswith("quiz_q")


#: The quiz introduction (its `q1` is a name); quiz questions are generated from QUIZ (sync_quiz).
EXEMPT_GRADE_IDS = {"quiz_intro"}


def test_the_converted_lessons_have_prose():
    assert {lesson.name for lesson in LESSONS} >= CONVERTED


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.name)
def test_every_tagged_cell_is_its_render(lesson):
    nb = nbformat.read(sync_prose.notebook_of(lesson), as_version=4)
    cells, texts = sync_prose.tagged_cells(nb), sync_prose.templates(lesson)
    assert set(cells) == set(texts), "a template without its cell, or a tag without template"
    figures = sync_prose.figures_of(lesson)
    for name, template in texts.items():
        assert cells[name].cell_type == "markdown"
        assert cells[name].source == sync_prose.render(template, figures), \
            f"{lesson.name}/prose/{name}.md: run tools/sync_prose.py"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.name)
def test_every_figure_is_used_and_none_is_typed_by_hand(lesson):
    figures = sync_prose.figures_of(lesson)
    used = set()
    for name, template in sync_prose.templates(lesson).items():
        stray = re.findall(r"\d+", strip_allowed(literal_text(template)))
        assert stray == [], f"{lesson.name}/prose/{name}.md types {stray} by hand"
        used |= {field.split(".")[0].split("[")[0]
                 for _, field, _, _ in string.Formatter().parse(template) if field}
    assert used <= set(figures), "a template names a figure that figures() does not compute"
    used |= quiz_fields(lesson.name.split("-", 1)[1])
    assert set(figures) - used == set(), "figures() computes numbers no template states"


@pytest.mark.parametrize("lesson", sorted(CONVERTED))
def test_every_markdown_cell_with_a_number_is_generated(lesson):
    nb = nbformat.read(sync_prose.notebook_of(sync_prose.ROOT / "notebooks" / lesson),
                       as_version=4)
    typed = [cell.id for cell in nb.cells if cell.cell_type == "markdown" and not exempt(cell)
             and not any(t.startswith(sync_prose.TAG) for t in cell.metadata.get("tags", []))
             and re.search(r"\d", strip_allowed(cell.source))]
    assert typed == [], f"cells that state numbers by hand: {typed}"


def test_the_allowlist_lets_no_figure_through():
    assert re.findall(r"\d+", strip_allowed("Lesson 3 of 6, lessons 3 and 6, To do 1, q19, "
                                            "O + 1, K − 1, cl100k, MiniLM-L6-v2")) == []
    for figure in ("K = 7", "1300 positions", "30 % more", "stride 150", "0.80", "N = 1000"):
        assert re.findall(r"\d", strip_allowed(figure)), figure


def test_render_fills_fields_and_keeps_doubled_braces():
    assert sync_prose.render("{k} chunks, {r:.1f}×, {{braces}}\n", {"k": 7, "r": 1.3}) \
        == "7 chunks, 1.3×, {braces}"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.name)
def test_the_points_a_lesson_states_are_its_grade_cells(lesson):
    """A lesson whose prose states Part 2's points (``examples_points``, ``hidden_points``) states
    the points its grade cells carry."""
    from chunklib.course import POINTS

    figures = sync_prose.figures_of(lesson)
    if "examples_points" not in figures:
        pytest.skip("this lesson's prose states no points")
    nb = nbformat.read(sync_prose.notebook_of(lesson), as_version=4)
    points = {kind: {c.metadata["nbgrader"]["points"] for c in nb.cells
                     if re.fullmatch(rf"test_\w+_{kind}",
                                     c.metadata.get("nbgrader", {}).get("grade_id", ""))}
              for kind in POINTS}
    assert points == {kind: {p} for kind, p in POINTS.items()}
    assert (figures["examples_points"], figures["hidden_points"]) == tuple(POINTS.values())


@pytest.mark.parametrize("lesson", sorted(CONVERTED))
def test_the_count_of_part2_functions_is_the_notebooks(lesson):
    """"Write the four functions below" and the title's count: one word per Part 2 function,
    counted from the notebook's example cells (``test_<function>_examples``)."""
    from chunklib.course.words import WORDS

    nb = nbformat.read(sync_prose.notebook_of(sync_prose.ROOT / "notebooks" / lesson),
                       as_version=4)
    functions = [c for c in nb.cells if re.fullmatch(
        r"test_\w+_examples", c.metadata.get("nbgrader", {}).get("grade_id", ""))]
    text = " ".join(" ".join(c.source for c in nb.cells if c.cell_type == "markdown").split())
    stated = re.findall(r"\b(\w+) functions (?:below|are independent|you just|"
                        r"that turn|that compute)", text)
    assert stated and {word.lower() for word in stated} == {WORDS[len(functions)]}, \
        (lesson, stated, len(functions))
