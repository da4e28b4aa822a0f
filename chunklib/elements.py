"""Markdown parsed into elements with exact source spans and heading paths (lesson 4).

A real parser, markdown-it-py (CommonMark plus GFM tables), finds the blocks and reports each
one's line range (``token.map``). Lines are counted here exactly as the parser counts them
(``\\r\\n``, ``\\r`` and ``\\n`` each end a line; the last line may have no line end), so the
line range becomes a character span of the *original* text and every element's ``text`` is
``source[start:end]``. Spans are trimmed of the spaces, tabs and blank lines around a block.
Top-level blocks become elements of kind heading, paragraph, list, table, code, or "other"
(block quotes, raw HTML). A table also gives each row's span and each cell's span.

Leaves out: inline markup (links and emphasis stay as written), blocks nested in a list or quote
as separate elements (a list is one element), thematic breaks and link reference definitions
(they carry no text and get no element), front matter.

    >>> [e.kind for e in parse_elements("# Setup\\n\\nRun it.\\n")]
    ['heading', 'paragraph']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.common.utils import MD_TRIM_CHARS

from chunklib.identity import sha256_hex  # noqa: F401 (lesson 4 exercise, re-exported)

ELEMENT_KINDS = ("heading", "paragraph", "list", "table", "code", "other")
_KIND_OF_TOKEN = {
    "heading_open": "heading", "paragraph_open": "paragraph", "bullet_list_open": "list",
    "ordered_list_open": "list", "table_open": "table", "fence": "code", "code_block": "code",
    "blockquote_open": "other", "html_block": "other",
}
_LINE_END = re.compile(r"\r\n?|\n")  # the parser's own newline rule (markdown-it normalize)
_BLANK = " \t\r\n"
_PARSER = MarkdownIt("commonmark").enable("table")


@dataclass(frozen=True)
class TableRow:
    """One table row: its span (pipes included), its cells as the parser reads them, and the
    span of every cell in the source (empty ``(p, p)`` for a cell the row leaves out)."""

    start: int
    end: int
    cells: tuple[str, ...]
    cell_spans: tuple[tuple[int, int], ...]

    @property
    def cells_span(self) -> tuple[int, int]:
        """From the first cell's start to the last cell's end: ``production | 4 | SRE``."""
        return (self.cell_spans[0][0], self.cell_spans[-1][1])


@dataclass(frozen=True)
class Element:
    """A top-level block: ``kind``, half-open ``(start, end)`` span, ``text == source[start:end]``,
    the heading path it sits under (a heading's path ends with its own title), the heading
    ``level`` (0 for other kinds) and, for tables, the ``header`` row and body ``rows``."""

    kind: str
    start: int
    end: int
    text: str
    heading_path: tuple[str, ...]
    level: int = 0
    header: TableRow | None = None
    rows: tuple[TableRow, ...] = ()


def line_bounds(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every line without its line end, counted as markdown-it counts them.

    ``line_bounds("a\\r\\nbc\\rd")`` -> [(0, 1), (3, 5), (6, 7)]
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    bounds, start = [], 0
    for m in _LINE_END.finditer(text):
        bounds.append((start, m.start()))
        start = m.end()
    bounds.append((start, len(text)))
    return bounds


def _trimmed(text: str, start: int, end: int, chars: str) -> tuple[int, int]:
    """Move ``start`` right and ``end`` left past any of ``chars``."""
    while start < end and text[start] in chars:
        start += 1
    while end > start and text[end - 1] in chars:
        end -= 1
    return start, end


def _table_row(text: str, line: tuple[int, int], cells: list[str]) -> TableRow:
    """Spans of one row's cells, split on unescaped pipes exactly as markdown-it splits them."""
    start, end = _trimmed(text, line[0], line[1], MD_TRIM_CHARS)
    segments, seg_start, escaped = [], start, False
    for pos in range(start, end):
        if text[pos] == "|" and not escaped:
            segments.append((seg_start, pos))
            seg_start = pos + 1
        escaped = text[pos] == "\\"
    segments.append((seg_start, end))
    if segments[0][0] == segments[0][1]:  # a leading pipe leaves an empty first segment
        segments.pop(0)
    if segments and segments[-1][0] == segments[-1][1]:  # and a trailing pipe an empty last
        segments.pop()
    spans = [_trimmed(text, s, e, MD_TRIM_CHARS) for s, e in segments[: len(cells)]]
    spans += [(end, end)] * (len(cells) - len(spans))  # cells the row leaves out
    return TableRow(start, end, tuple(cells), tuple(spans))


def _table_rows(text, tokens, i, lines) -> tuple[TableRow | None, tuple[TableRow, ...]]:
    """Header and body rows of the table whose ``table_open`` token is ``tokens[i]``."""
    rows, cells, line = [], [], None
    for token in tokens[i + 1:]:
        if token.type == "table_close":
            break
        if token.type == "tr_open":
            cells, line = [], lines[token.map[0]]
        elif token.type == "inline":
            cells.append(token.content)
        elif token.type == "tr_close":
            rows.append(_table_row(text, line, cells))
    return (rows[0] if rows else None), tuple(rows[1:])


def parse_elements(text: str) -> list[Element]:
    """The top-level blocks of a Markdown text, in order, with exact spans and heading paths.

    ``parse_elements("# A\\n\\nx")[1]`` -> Element(kind='paragraph', start=5, end=6, text='x',
    heading_path=('A',), ...)
    """
    return list(_parse_elements(text))


@lru_cache(maxsize=32)  # the explorers chunk the same texts again and again; Element is frozen
def _parse_elements(text: str) -> tuple[Element, ...]:
    lines = line_bounds(text)
    tokens = _PARSER.parse(text)
    found = []  # (kind, start, end, level, title, header, rows)
    for i, token in enumerate(tokens):
        kind = _KIND_OF_TOKEN.get(token.type)
        if kind is None or token.level != 0 or token.map is None:
            continue
        first, stop = token.map
        start, end = _trimmed(text, lines[first][0], lines[stop - 1][1], _BLANK)
        level, title, header, rows = 0, "", None, ()
        if kind == "heading":
            level, title = int(token.tag[1:]), tokens[i + 1].content
        elif kind == "table":
            header, rows = _table_rows(text, tokens, i, lines)
        found.append((kind, start, end, level, title, header, rows))

    paths = iter(heading_paths([(f[3], f[4]) for f in found if f[0] == "heading"]))
    elements, path = [], ()
    for kind, start, end, level, _title, header, rows in found:
        if kind == "heading":
            path = next(paths)
        elements.append(Element(kind, start, end, text[start:end], path, level, header, rows))
    return tuple(elements)


def _str_items(name: str, value: object) -> list[str]:
    """``value`` as a list of strings; a bare string is refused (it would give characters)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeError(f"{name} must be a list of strings, got {type(value).__name__}")
    for j, item in enumerate(value):
        if not isinstance(item, str):
            raise TypeError(f"{name}[{j}] must be a str, got {type(item).__name__}")
    return list(value)


def heading_paths(headings: Sequence[tuple[int, str]]) -> list[tuple[str, ...]]:
    """For each ``(level, title)`` heading, in document order, the titles from the top down.

    The rule: a heading's parent is the nearest earlier heading with a *smaller* level, so a
    heading closes every open heading at its own level or deeper. A skipped level leaves no
    gap (``#`` then ``###`` gives a path of two titles), and a document that starts at ``##``
    simply has shorter paths. Lesson 4.
    ``heading_paths([(1, "Guide"), (2, "Setup"), (2, "Deploy")])``
    -> [('Guide',), ('Guide', 'Setup'), ('Guide', 'Deploy')]
    """
    if isinstance(headings, (str, bytes)) or not isinstance(headings, Sequence):
        raise TypeError(f"headings must be a list of (level, title), got {type(headings).__name__}")
    open_headings: list[tuple[int, str]] = []
    paths = []
    for i, item in enumerate(headings):
        if not isinstance(item, Sequence) or isinstance(item, str) or len(item) != 2:
            raise TypeError(f"headings[{i}] must be a (level, title) pair, got {item!r}")
        level, title = item
        if isinstance(level, bool) or not isinstance(level, int):
            raise TypeError(f"headings[{i}] level must be an int, got {level!r}")
        if level < 1:
            raise ValueError(f"headings[{i}] level must be >= 1, got {level}")
        if not isinstance(title, str):
            raise TypeError(f"headings[{i}] title must be a str, got {title!r}")
        while open_headings and open_headings[-1][0] >= level:
            open_headings.pop()
        open_headings.append((level, title))
        paths.append(tuple(t for _, t in open_headings))
    return paths


def table_row_chunks(
    header: Sequence[str], rows: Sequence[Sequence[str]], heading_path: Sequence[str]
) -> list[dict[str, str]]:
    """One chunk per table row: the row as ``text``, and as ``retrieval_text`` the row with
    the heading path and the table header in front, so a row still says what its numbers mean.

    Lesson 4. ``table_row_chunks(["Env", "Replicas"], [["prod", "4"]], ["Guide"])``
    -> [{'text': 'prod | 4',
    'retrieval_text': 'Heading path: Guide\\nTable header: Env | Replicas\\nprod | 4'}]
    """
    header = _str_items("header", header)
    path = _str_items("heading_path", heading_path)
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence):
        raise TypeError(f"rows must be a list of rows, got {type(rows).__name__}")
    context = f"Heading path: {' > '.join(path)}\nTable header: {' | '.join(header)}\n"
    chunks = []
    for i, row in enumerate(rows):
        line = " | ".join(_str_items(f"rows[{i}]", row))
        chunks.append({"text": line, "retrieval_text": context + line})
    return chunks
