"""Access control applied before any scoring: ``authorized`` and ``search`` (lesson 5).

Fail-closed: a chunk whose ACL is missing (``None``) or empty is never shown to anyone, and a
chunk of another tenant is never even scored. ``search`` filters first and passes only the
chunks a subject may read to the scoring function, so a scorer cannot leak what it never sees
(the lesson's hidden tests check this with a scorer that records its calls).

Leaves out: deny rules, inheritance and per-user grants; a group list per chunk (OR
semantics) is the whole model here, as in the course's seed.

    >>> authorized(["sre"], {"sre", "employees"})
    True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from chunklib.validate import require_int

_TERM = re.compile(r"\w+")


def authorized(chunk_acl: Iterable[str] | None, subject_groups: Iterable[str] | None) -> bool:
    """True when the chunk's ACL and the subject's groups share a group; a missing (None) or
    empty ACL, or no groups, is False.

    ``authorized(None, ["sre"])`` -> False
    """
    if not chunk_acl or not subject_groups:
        return False
    if isinstance(chunk_acl, str) or isinstance(subject_groups, str):
        raise TypeError("chunk_acl and subject_groups must be collections of group names, "
                        "not single strings")
    return not set(chunk_acl).isdisjoint(subject_groups)


def term_overlap(query: str, chunk: Mapping) -> int:
    """The default score: how many distinct lowercase ``\\w+`` query terms occur in the chunk's
    ``retrieval_text``.

    ``term_overlap("Replica count", {"retrieval_text": "replica count: 4"})`` -> 2
    """
    terms = set(_TERM.findall(query.lower()))
    return len(terms & set(_TERM.findall(chunk["retrieval_text"].lower())))


def search(chunks: Iterable[Mapping], query: str, tenant_id: str, groups: Iterable[str], k: int,
           score: Callable[[str, Mapping], float] | None = None) -> list[tuple[str, float]]:
    """Top ``k`` ``(chunk_id, score)`` among the chunks of ``tenant_id`` that ``groups`` may read.

    Filtering comes first: ``score(query, chunk)`` is called only for authorized chunks of the
    tenant. Zero scores are dropped; ties are broken by ``chunk_id``.
    ``search([{"chunk_id": "a", "tenant_id": "t", "acl": ["g"], "retrieval_text": "x"}],
    "x", "t", ["g"], 5)`` -> [('a', 1)]
    """
    k = require_int("k", k, minimum=0)
    if not isinstance(query, str):
        raise TypeError(f"query must be a str, got {type(query).__name__}")
    groups = set(groups or ())
    score = score or term_overlap
    scored = []
    for chunk in chunks:
        if chunk["tenant_id"] != tenant_id or not authorized(chunk.get("acl"), groups):
            continue
        value = score(query, chunk)
        if value > 0:
            scored.append((chunk["chunk_id"], value))
    scored.sort(key=lambda pair: (-pair[1], pair[0]))
    return scored[:k]
