"""The lesson-1 text views: the passage chunk by chunk, and one chunk between its neighbours.

Both show the chunks on the plot's two alternating backgrounds, ``¦`` and the chunk number
where a chunk begins (``✂`` when that boundary cuts a sentence) and ``⊘`` where
all-MiniLM-L6-v2 stops reading a chunk, the unread rest striped, so they read without colour.

Leaves out: the explorer (``chunklib.widgets.units``), which works out the chunks, the cut
boundaries and what the model reads, and the plot (``chunklib.widgets.units_plot``).

    >>> text_view_html("a b", [(0, 1), (2, 3)], 0, set())[:5]
    '<div '
"""

from __future__ import annotations

import html

from chunklib.widgets.units_plot import CHUNK_STYLES

BACKGROUNDS = tuple(colour for colour, _ in CHUNK_STYLES)
STRIPES = "repeating-linear-gradient(135deg,#CFCFCF 0 3px,#FFFFFF 3px 6px)"


def _mark(glyph: str, what: str) -> str:
    """A separator glyph with its meaning for screen readers and as a tooltip."""
    return (f"<span class='sep' title='{what}' aria-label='{what}' "
            f"style='color:#000;font-weight:bold'>{glyph}</span>")


def _boundary(k: int, cut: set[int]) -> str:
    """The mark before chunk ``k`` (0-based, k >= 1): ``¦`` or ``✂`` and the chunk's number."""
    if k in cut:
        return _mark(f"✂{k + 1}", f"chunk {k + 1} starts inside a sentence")
    return _mark(f"¦{k + 1}", f"chunk {k + 1} starts")


def _piece(text: str, start: int, end: int, read_end: int | None, style: str) -> str:
    """``text[start:end]`` on ``style``; from ``read_end`` on, a ``⊘`` and a striped background."""
    if read_end is None or read_end >= end:
        return f"<span style='{style}'>{html.escape(text[start:end])}</span>"
    stop = max(read_end, start)
    return (f"<span style='{style}'>{html.escape(text[start:stop])}</span>"
            + _mark("⊘", "all-MiniLM-L6-v2 stops reading this chunk here")
            + f"<span title='not read by all-MiniLM-L6-v2' style='background:{STRIPES};"
              f"color:#000'>{html.escape(text[stop:end])}</span>")


def text_view_html(text: str, char_windows: list[tuple[int, int]], current: int | None,
                   cut: set[int], read_ends: list[int] | None = None) -> str:
    """The text with every chunk on an alternating background, a ``¦`` and the chunk number
    before each chunk after the first (``✂`` where the boundary cuts a sentence), the current
    chunk in bold and underlined and, when ``read_ends`` is given, a ``⊘`` where the embedding
    model stops reading a chunk, its unread rest striped. Without the marks and tags this is
    ``text`` exactly: a character split between two chunks' tokens is shown once, in the first.

    ``text_view_html("a b", [(0, 1), (2, 3)], 0, set())``
    -> "<div ...>...'chunk 1 (current)'...>a</span>...>¦2</span>...>b</span></span></div>"
    """
    out, pos = [], 0
    for k, (start, end) in enumerate(char_windows):
        start = max(start, pos)
        out.append(html.escape(text[pos:start]))
        if k:
            out.append(_boundary(k, cut))
        style = f"background:{BACKGROUNDS[k % 2]};color:#000"
        label = f"chunk {k + 1}"
        if k == current:
            style += ";font-weight:bold;text-decoration:underline 2px"
            label += " (current)"
        read_end = None if read_ends is None else read_ends[k]
        out.append(f"<span title='{label}'>{_piece(text, start, max(end, start), read_end, style)}"
                   "</span>")
        pos = max(pos, end)
    out.append(html.escape(text[pos:]))
    return ("<div style='white-space:pre-wrap;max-height:24em;overflow-y:auto;"
            "border:1px solid #898989;padding:0.5em;font-size:0.9em;line-height:1.6'>"
            + "".join(out) + "</div>")


def chunk_view_html(text: str, char_windows: list[tuple[int, int]], k: int, cut: set[int],
                    read_end: int | None = None, context: int = 60) -> str:
    """Chunk ``k``'s exact text in a box, with up to ``context`` characters of the text on each
    side in grey, the boundary marks between them and the ``⊘`` where the model stops reading.

    ``chunk_view_html("ab cd", [(0, 2), (3, 5)], 1, set())``
    -> "<div ...>...>ab </span>...>¦2</span><span style='color:#000'>cd</span>...>▕</span>...</div>"
    """
    start, end = char_windows[k]
    grey = "color:#595959;font-style:italic"
    before = ("…" if start > context else "") + html.escape(text[max(0, start - context):start])
    after = html.escape(text[end:end + context]) + ("…" if end + context < len(text) else "")
    left = _boundary(k, cut) if k else _mark("▏", "start of the text")
    right = _boundary(k + 1, cut) if k + 1 < len(char_windows) else _mark("▕", "end of the text")
    body = _piece(text, start, end, read_end, "color:#000")
    return ("<div style='white-space:pre-wrap;border:1px solid #898989;padding:0.4em;"
            f"max-height:12em;overflow-y:auto;line-height:1.6'><span style='{grey}'>{before}"
            f"</span>{left}{body}{right}<span style='{grey}'>{after}</span></div>")
