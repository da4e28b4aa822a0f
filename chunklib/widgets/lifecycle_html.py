"""The lesson-5 lifecycle explorer's text views of one built edit: the summary rows that
describe its update report, and the change table (one row per chunk whose index entry is
re-embedded, re-indexed, added or tombstoned).

Leaves out: what readers see and find (the explorer, ``chunklib.widgets.lifecycle``, knows
the published generation), the plot (``chunklib.widgets.lifecycle_plot``).

    >>> change_table({"keep": ["3f2a"]}, base={}, new={})
    '<p>Every index entry is kept: nothing to re-embed or re-index.</p>'

The other examples take one edit as the explorer builds it: the course fixture published as
generation 1, then an unrelated source added as shadow generation 2.

    >>> from chunklib.widgets.lifecycle import LifecycleExplorer
    >>> e = LifecycleExplorer("add an unrelated source")
    >>> report, base = e.report, e.fixture_chunks
    >>> new = {c.chunk_id: c for c in e.index.chunks(2)}
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chunklib.lifecycle import UpdateReport


def report_rows(report: UpdateReport) -> list[tuple[str, str]]:
    """What the summary says of a built edit, as (label, value) pairs: its generation, plan,
    new ids, entries and vectors, chunks refused.

    ``report_rows(report)[:3]`` -> [('shadow', 'generation 2'),
    ('plan', 'keep 59, reembed 0, reindex 0, add 2, tombstone 0'), ('chunk ids', '2 new, 0 gone')]
    """
    plan = report.plan
    return [("shadow", f"generation {report.generation}"),
            ("plan", ", ".join(f"{a} {len(ids)}" for a, ids in plan.items())),
            ("chunk ids", f"{len(plan['add'])} new, "  # a refused chunk keeps its id
                          f"{len(set(plan['tombstone']) - set(report.refused))} gone"),
            ("index entries", f"{sum(len(plan[a]) for a in ('reembed', 'reindex', 'add'))}"
                              " new"),
            ("embedded", f"{report.embedded} of {report.entries} chunks (embedder calls)"),
            ("refused, ACL missing", str(len(report.refused)))]


def change_table(plan: dict, base: dict, new: dict) -> str:
    """The change table of ``plan`` as HTML; ``base`` and ``new`` map chunk ids to the chunks
    of generation 1 and of the shadow (a tombstoned chunk is found in ``base``).

    ``change_table(report.plan, base, new)``
    -> "<table role='table' ...><tr><td>add</td><td>1</td><td>Onboarding notes
    &gt; First week</td><td><code>...</code></td><td>Pair with a teammate ...</table>"
    """
    lines = []
    for action, ids in plan.items():
        if action == "keep":
            continue
        for cid in ids:
            c = new.get(cid) or base[cid]
            lines.append(f"<tr><td>{action}</td><td>{c.ordinal}</td><td>"
                         f"{html.escape(' > '.join(c.heading_path[-2:]))}</td><td><code>"
                         f"{cid[:12]}</code></td><td>{html.escape(c.text[:50])}</td></tr>")
    if not lines:
        return "<p>Every index entry is kept: nothing to re-embed or re-index.</p>"
    head = "".join(f"<th style='text-align:left'>{h}</th>" for h in
                   ("action", "ordinal", "section", "chunk_id", "text"))
    return ("<table role='table' aria-label='chunks whose index entry changes'>"
            f"<tr>{head}</tr>{''.join(lines)}</table>")
