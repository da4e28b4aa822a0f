"""Tests for chunklib.elements: exact spans from markdown-it line maps, heading paths, tables."""

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib.course.fixture import load_sources
from chunklib.elements import (
    TableRow,
    heading_paths,
    line_bounds,
    parse_elements,
    sha256_hex,
    table_row_chunks,
)

# ---------------------------------------------------------------- line_bounds


@pytest.mark.parametrize("text, expected", [
    ("", [(0, 0)]),
    ("abc", [(0, 3)]),
    ("abc\n", [(0, 3), (4, 4)]),
    ("a\r\nbc\rd", [(0, 1), (3, 5), (6, 7)]),
    ("a\n\r\nb", [(0, 1), (2, 2), (4, 5)]),
    ("a\r\rb", [(0, 1), (2, 2), (3, 4)]),
    ("a\u2028b\x0cc", [(0, 5)]),  # not line ends for CommonMark (str.splitlines disagrees)
])
def test_line_bounds_examples(text, expected):
    assert line_bounds(text) == expected


@given(st.text(alphabet="ab \r\n\t\u2028"))
def test_line_bounds_gaps_are_line_ends(text):
    bounds = line_bounds(text)
    assert bounds[0][0] == 0 and bounds[-1][1] == len(text)
    for (_, end), (start, _) in zip(bounds, bounds[1:], strict=False):
        assert text[end:start] in ("\n", "\r", "\r\n")
    assert all("\n" not in text[s:e] and "\r" not in text[s:e] for s, e in bounds)


def test_line_bounds_rejects_bytes():
    with pytest.raises(TypeError, match="text"):
        line_bounds(b"abc")


# ---------------------------------------------------------------- parse_elements, by hand

SAMPLE = ("# Guide\r\n\r\nIntro line one\r\nline two\r\n\r\n## Steps\r\n\r\n1. first\r\n"
          "2. second\r\n\r\n```bash\r\nrun it\r\n```\r\n\r\n| Env | Replicas |\r\n| --- | --- |\r\n"
          "| prod | 4 |\r\n\r\n> quoted\r\n\r\n---\r\n\r\nlast words")


def test_sample_with_crlf_and_no_final_newline():
    got = [(e.kind, e.start, e.end, e.heading_path, e.level) for e in parse_elements(SAMPLE)]
    assert got == [
        ("heading", 0, 7, ("Guide",), 1),
        ("paragraph", 11, 35, ("Guide",), 0),
        ("heading", 39, 47, ("Guide", "Steps"), 2),
        ("list", 51, 70, ("Guide", "Steps"), 0),
        ("code", 74, 94, ("Guide", "Steps"), 0),
        ("table", 98, 145, ("Guide", "Steps"), 0),
        ("other", 149, 157, ("Guide", "Steps"), 0),
        ("paragraph", 168, 178, ("Guide", "Steps"), 0),
    ]
    for e in parse_elements(SAMPLE):
        assert e.text == SAMPLE[e.start:e.end]
    assert SAMPLE[11:35] == "Intro line one\r\nline two" and SAMPLE[168:178] == "last words"


def test_sample_table_rows_and_cells():
    (table,) = [e for e in parse_elements(SAMPLE) if e.kind == "table"]
    assert table.header == TableRow(98, 116, ("Env", "Replicas"), ((100, 103), (106, 114)))
    (row,) = table.rows
    assert row.cells == ("prod", "4")
    assert SAMPLE[row.start:row.end] == "| prod | 4 |"
    assert [SAMPLE[s:e] for s, e in row.cell_spans] == ["prod", "4"]
    assert SAMPLE[slice(*row.cells_span)] == "prod | 4"


@pytest.mark.parametrize("text, kinds", [
    ("", []),
    ("\n\n  \n", []),
    ("plain", ["paragraph"]),
    ("Title\n=====\n\nbody", ["heading", "paragraph"]),
    ("    indented code\n", ["code"]),
    ("<div>\nhi\n</div>\n", ["other"]),
    ("- a\n\n  continued\n\n\n- b\n\n\n", ["list"]),
    ("***\n", []),
    ("[ref]: https://example.org\n\ntext", ["paragraph"]),
])
def test_kinds(text, kinds):
    elements = parse_elements(text)
    assert [e.kind for e in elements] == kinds
    for e in elements:
        assert e.text == text[e.start:e.end] and e.text == e.text.strip(" \t\r\n")


def test_setext_heading_span_includes_underline():
    (heading, _) = parse_elements("Title\r\n-----\r\n\r\nbody")
    assert (heading.text, heading.level, heading.heading_path) == ("Title\r\n-----", 2, ("Title",))


def test_atx_closing_hashes_are_not_in_the_title():
    (heading,) = parse_elements("  ## Deploy ##  \n")
    assert heading.text == "## Deploy ##" and heading.heading_path == ("Deploy",)


def test_table_row_cell_cases():
    text = "| A | B | C |\n|---|:-:|---|\n|  a \\| b |   | c|\n| x |\n"
    (table,) = parse_elements(text)
    wide, short = table.rows
    assert wide.cells == ("a | b", "", "c")
    assert [text[s:e] for s, e in wide.cell_spans] == ["a \\| b", "", "c"]
    assert short.cells == ("x", "", "")
    assert short.cell_spans[1:] == ((short.end, short.end),) * 2


def test_empty_text_and_type_error():
    assert parse_elements("") == []
    with pytest.raises(TypeError, match="text"):
        parse_elements(None)


# ---------------------------------------------------------------- parse_elements, generated

WORDS = st.lists(st.text(alphabet="abcdefgh", min_size=1, max_size=5), min_size=1, max_size=4)
LIST_MARKERS = ["-", "*", "+", "1.", "1)"]


def _block(kind, draw, may_indent):
    """A block as (kind, lines, first_line_indent, info) with info for headings and tables.
    No indent right after a list: an indented line there continues the list item."""
    if kind == "heading":
        level, title = draw(st.integers(1, 6)), " ".join(draw(WORDS))
        closing = draw(st.sampled_from(["", " #", " ###"]))
        indent = draw(st.integers(0, 3)) if may_indent else 0
        return kind, [" " * indent + "#" * level + " " + title + closing], indent, (level, title)
    if kind == "setext":
        title, level = " ".join(draw(WORDS)), draw(st.sampled_from([1, 2]))
        return "heading", [title, "=" * 3 if level == 1 else "-" * 3], 0, (level, title)
    if kind == "paragraph":
        lines = [" ".join(draw(WORDS)) for _ in range(draw(st.integers(1, 3)))]
        indent = draw(st.integers(0, 3)) if may_indent else 0
        return kind, [" " * indent + lines[0]] + lines[1:], indent, None
    if kind == "code":
        fence = draw(st.sampled_from(["```", "~~~"]))
        body = [draw(st.sampled_from(["", " ".join(draw(WORDS))]))
                for _ in range(draw(st.integers(0, 3)))]
        return kind, [fence + draw(st.sampled_from(["", "bash"]))] + body + [fence], 0, None
    if kind == "quote":
        return "other", ["> " + " ".join(draw(WORDS))], 0, None
    if kind == "table":
        n = draw(st.integers(1, 3))
        header = [" ".join(draw(WORDS)) for _ in range(n)]
        cell = st.lists(st.sampled_from(["ab", "c", "\\|", "de f"]), max_size=3).map(" ".join)
        rows = [draw(st.lists(cell, min_size=1, max_size=n))
                for _ in range(draw(st.integers(0, 3)))]
        pads = st.integers(0, 2)
        lines, info = [], []
        for cells in [header, ["---"] * n] + rows:
            line, spans = "|", []
            for c in cells:
                pad = " " * draw(pads)
                line += pad
                spans.append((len(line), len(line) + len(c)))
                line += c + pad + "|"
            lines.append(line)
            info.append((cells, spans))
        return kind, lines, 0, [info[0]] + info[2:]
    raise AssertionError(kind)


@st.composite
def documents(draw):
    """Markdown built block by block, with every expected span computed while building."""
    kinds = draw(st.lists(st.sampled_from(
        ["heading", "setext", "paragraph", "code", "quote", "table", "list"]), max_size=7))
    lines, owners, expected, n_lists = [], [], [], 0
    for b, kind in enumerate(kinds):
        if kind == "list":  # a different marker each time, or two lists would merge into one
            marker = LIST_MARKERS[n_lists % len(LIST_MARKERS)]
            n_lists += 1
            items = [marker + " " + " ".join(draw(WORDS)) for _ in range(draw(st.integers(1, 3)))]
            block = ("list", items, 0, None)
        else:
            block = _block(kind, draw, may_indent=not expected or expected[-1][0] != "list")
        if lines:
            lines.append("")
            owners.append(None)
        expected.append(block)
        lines += block[1]
        owners += [b] * len(block[1])
    lines += [""] * draw(st.integers(0, 2))
    owners += [None] * (len(lines) - len(owners))
    breaks = [draw(st.sampled_from(["\n", "\r\n", "\r"])) for _ in lines[1:]]
    for i in range(1, len(breaks)):  # "\r" then "\n" around an empty line would read as one "\r\n"
        if breaks[i - 1] == "\r" and lines[i] == "" and breaks[i].startswith("\n"):
            breaks[i] = "\r"
    text, starts = "", []
    for i, line in enumerate(lines):
        starts.append(len(text))
        text += line + (breaks[i] if i < len(breaks) else "")
    return text, lines, owners, starts, expected


@given(documents())
def test_generated_documents_parse_to_exact_spans(doc):
    text, lines, owners, starts, expected = doc
    elements = parse_elements(text)
    assert [e.kind for e in elements] == [b[0] for b in expected]
    for b, (el, block) in enumerate(zip(elements, expected, strict=True)):
        kind, block_lines, indent, info = block
        first = owners.index(b)
        last = first + len(block_lines) - 1
        assert (el.start, el.end) == (starts[first] + indent, starts[last] + len(lines[last]))
        assert el.text == text[el.start:el.end]
        if kind == "heading":
            assert (el.level, el.heading_path[-1]) == info
        if el.kind == "table":
            for row, line_no, (cells, spans) in zip(
                    (el.header,) + el.rows, [first] + list(range(first + 2, last + 1)), info,
                    strict=True):
                base = starts[line_no]
                assert (row.start, row.end) == (base, base + len(lines[line_no]))
                n = len(el.header.cells)
                assert row.cells == tuple(c.replace("\\|", "|").strip() for c in cells) + (
                    ("",) * (n - len(cells)))
                for (s, e), cell in zip(row.cell_spans, row.cells, strict=True):
                    assert text[s:e].replace("\\|", "|") == cell
                for (s, e), (gs, ge), c in zip(row.cell_spans, spans, cells, strict=False):
                    if c.strip():
                        assert (s, e) == (base + gs, base + ge)
    for a, b in zip(elements, elements[1:], strict=False):
        assert a.end < b.start


@given(st.text(alphabet="a1 #|-*>`~=\t\r\n\x00\u2028\\", max_size=120))
def test_any_text_gives_ordered_tight_spans(text):
    elements = parse_elements(text)
    for e in elements:
        assert e.kind in ("heading", "paragraph", "list", "table", "code", "other")
        assert e.text == text[e.start:e.end] and e.start < e.end
        assert text[e.start] not in " \t\r\n" and text[e.end - 1] not in " \t\r\n"
        for row in ((e.header,) if e.header else ()) + e.rows:
            assert e.start <= row.start <= row.end <= e.end
            assert all(row.start <= s <= t <= row.end for s, t in row.cell_spans)
    for a, b in zip(elements, elements[1:], strict=False):
        assert a.end < b.start


@pytest.mark.parametrize("source", load_sources(), ids=lambda s: s.source_id)
def test_fixture_elements_reproduce_their_text(source):
    text = source.text
    elements = parse_elements(text)
    assert elements
    for e in elements:
        assert e.text == text[e.start:e.end]
        for row in ((e.header,) if e.header else ()) + e.rows:
            assert [text[s:t] for s, t in row.cell_spans] == list(row.cells)
            assert text[row.start:row.end].startswith("|")


# ---------------------------------------------------------------- heading_paths


@pytest.mark.parametrize("headings, expected", [
    ([], []),
    ([(1, "Guide"), (2, "Setup"), (2, "Deploy")],
     [("Guide",), ("Guide", "Setup"), ("Guide", "Deploy")]),
    ([(1, "FAQ"), (3, "How long?"), (3, "Who?")],  # a skipped level leaves no gap
     [("FAQ",), ("FAQ", "How long?"), ("FAQ", "Who?")]),
    ([(1, "A"), (3, "C"), (2, "B"), (3, "D")], [("A",), ("A", "C"), ("A", "B"), ("A", "B", "D")]),
    ([(2, "Start"), (3, "Sub"), (1, "Top"), (2, "Next")],
     [("Start",), ("Start", "Sub"), ("Top",), ("Top", "Next")]),
    ([(1, "A"), (2, "B"), (3, "C"), (1, "D")], [("A",), ("A", "B"), ("A", "B", "C"), ("D",)]),
    ([(1, "Same"), (1, "Same")], [("Same",), ("Same",)]),
    ([(1, "")], [("",)]),
])
def test_heading_paths_examples(headings, expected):
    result = heading_paths(headings)
    assert result == expected
    assert type(result) is list and all(type(p) is tuple for p in result)


def _parent_by_search(headings, i):
    """Reference: the nearest earlier heading with a smaller level, found by looking back."""
    for j in range(i - 1, -1, -1):
        if headings[j][0] < headings[i][0]:
            return j
    return None


@given(st.lists(st.tuples(st.integers(1, 6), st.text(alphabet="ab", max_size=2)), max_size=30))
def test_heading_paths_properties(headings):
    paths = heading_paths(headings)
    assert len(paths) == len(headings)
    for i, (path, (level, title)) in enumerate(zip(paths, headings, strict=True)):
        assert path[-1] == title
        parent = _parent_by_search(headings, i)
        assert path[:-1] == (() if parent is None else paths[parent])
        assert len(path) <= level


@pytest.mark.parametrize("bad, error", [
    ("# A", TypeError), ([(1,)], TypeError), ([("1", "A")], TypeError), ([(True, "A")], TypeError),
    ([(0, "A")], ValueError), ([(1, None)], TypeError), (None, TypeError),
])
def test_heading_paths_rejects(bad, error):
    with pytest.raises(error, match="headings"):
        heading_paths(bad)


def test_element_heading_paths_agree_with_heading_paths():
    for source in load_sources():
        elements = parse_elements(source.text)
        headings = [e for e in elements if e.kind == "heading"]
        assert [e.heading_path for e in headings] == heading_paths(
            [(e.level, e.heading_path[-1]) for e in headings])


# ---------------------------------------------------------------- table_row_chunks


def test_table_row_chunks_seed_example():
    chunks = table_row_chunks(["Environment", "Replica count", "Approval"],
                              [["production", "4", "SRE"], ["staging", "2", "Release manager"]],
                              ("Deployment Guide", "Environment Matrix"))
    assert chunks == [
        {"text": "production | 4 | SRE",
         "retrieval_text": "Heading path: Deployment Guide > Environment Matrix\n"
                           "Table header: Environment | Replica count | Approval\n"
                           "production | 4 | SRE"},
        {"text": "staging | 2 | Release manager",
         "retrieval_text": "Heading path: Deployment Guide > Environment Matrix\n"
                           "Table header: Environment | Replica count | Approval\n"
                           "staging | 2 | Release manager"},
    ]
    assert type(chunks) is list and all(type(c) is dict for c in chunks)


@pytest.mark.parametrize("header, rows, path, expected", [
    (["A"], [], ["G"], []),
    ([], [[]], [], [{"text": "", "retrieval_text": "Heading path: \nTable header: \n"}]),
    (["A", "B"], [["x"]], ["G", "H"],
     [{"text": "x", "retrieval_text": "Heading path: G > H\nTable header: A | B\nx"}]),
])
def test_table_row_chunks_edges(header, rows, path, expected):
    assert table_row_chunks(header, rows, path) == expected


@pytest.mark.parametrize("args, name", [
    (("A | B", [["x"]], ["G"]), "header"),
    ((["A"], "x", ["G"]), "rows"),
    ((["A"], ["x"], ["G"]), r"rows\[0\]"),
    ((["A"], [[1]], ["G"]), r"rows\[0\]\[0\]"),
    ((["A"], [["x"]], "G"), "heading_path"),
])
def test_table_row_chunks_rejects(args, name):
    with pytest.raises(TypeError, match=name):
        table_row_chunks(*args)


# ---------------------------------------------------------------- sha256_hex


@pytest.mark.parametrize("text, expected", [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
])
def test_sha256_hex_known_values(text, expected):
    assert sha256_hex(text) == expected


@given(st.text())
def test_sha256_hex_is_sha256_of_utf8(text):
    assert sha256_hex(text) == hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_sha256_hex_rejects_bytes():
    with pytest.raises(TypeError, match="text"):
        sha256_hex(b"abc")
