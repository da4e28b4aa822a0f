"""The lesson-4 structure explorer's HTML views: the source with every chunk's span marked, and
one chunk's heading path, ``text`` and ``retrieval_text`` side by side with both hashes.

Leaves out: the explorer and its controls (``chunklib.widgets.structure``), the plot and its
colours (``chunklib.widgets.structure_plot``; the repeated-text colour is shared from there)
and the summary table (``chunklib.widgets.common.summary_html``).

    >>> document_html("ab", [(0, 2)], 0)[:5]
    '<pre '
    >>> from chunklib.course.fixture import load_source
    >>> from chunklib.structure import structure_chunks
    >>> faq = structure_chunks(load_source("deploy-faq"))
"""

from __future__ import annotations

import html

from chunklib.records import ChunkRecord
from chunklib.widgets.structure_plot import REPEAT_COLOUR


def document_html(text: str, spans: list[tuple[int, int]], current: int | None,
                  window: tuple[int, int] | None = None) -> str:
    """``text`` (or the ``window`` part of it) with every chunk span marked, as HTML.

    ``document_html("ab cd", [(0, 2), (3, 5)], 1)``
    -> "<pre ...>ab</span>...<span ...;font-weight:bold' title='chunk 2'>cd</span></pre>"
    """
    lo, hi = window or (0, len(text))
    cuts = sorted({lo, hi, *(p for s, e in spans for p in (s, e) if lo < p < hi)})
    order = sorted(range(len(spans)), key=lambda i: spans[i][0])
    parts, active, nxt = ["…" if lo > 0 else ""], [], 0
    for a, b in zip(cuts, cuts[1:], strict=False):  # sweep: spans that cover [a, b)
        while nxt < len(order) and spans[order[nxt]][0] <= a:
            active.append(order[nxt])
            nxt += 1
        active = [i for i in active if spans[i][1] >= b]
        owners = sorted(active)
        piece = html.escape(text[a:b])
        if not owners:
            parts.append(f"<span style='color:#595959'>{piece}</span>")
            continue
        style = (f"background:{REPEAT_COLOUR};text-decoration:underline" if len(owners) > 1
                 else f"background:{'#cfe3f3' if owners[0] % 2 == 0 else '#a2c8ec'}")
        if current in owners:
            style += ";outline:2px solid black;font-weight:bold"
        label = ", ".join(f"chunk {i + 1}" for i in owners)
        parts.append(f"<span style='{style}' title='{label}'>{piece}</span>")
    parts.append("…" if hi < len(text) else "")
    return ("<pre role='document' aria-label='source text with chunk spans' style='white-space:"
            "pre-wrap;max-height:22em;overflow:auto;font-size:12px'>" + "".join(parts) + "</pre>")


def chunk_detail_html(c: ChunkRecord) -> str:
    """Chunk ``c``'s heading path, then its two texts side by side with their hashes, as HTML.

    ``chunk_detail_html(faq[0])`` -> "<div><b>heading path</b>: Harbor Deployment FAQ</div>..."
    """
    cell = "vertical-align:top;padding:0 1em 0 0;width:50%"
    pre = "white-space:pre-wrap;margin:0;font-size:12px"

    def column(title: str, text: str, name: str, digest: str) -> str:
        return (f"<td style='{cell}'><b>{title}</b><pre style='{pre}'>{html.escape(text)}"
                f"</pre><small>{name}: <code>{digest}</code></small></td>")

    same = "the same" if c.content_sha256 == c.retrieval_sha256 else "different"
    path = html.escape(" > ".join(c.heading_path) or "(none)")
    return (f"<div><b>heading path</b>: {path}</div>"
            "<table role='table' aria-label='the current chunk, two texts side by side' "
            "style='width:100%'><tr>"
            + column(f"text: the citable slice [{c.start}, {c.end})", c.text,
                     "content_sha256", c.content_sha256)
            + column("retrieval_text: what search and embeddings see", c.retrieval_text,
                     "retrieval_sha256", c.retrieval_sha256)
            + f"</tr></table><small>The two hashes are {same}. chunk_id "
              f"<code>{c.chunk_id[:16]}…</code>, element_id <code>{c.element_id[:16]}…"
              "</code></small>")
