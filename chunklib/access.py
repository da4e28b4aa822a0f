"""Access control applied before any scoring: ``authorized``, ``readable`` and ``search``.

One ACL is an *any-of* group set: a subject may read it when they share a group with it
(``authorized``, lesson 5). A chunk that spans sections with different ACLs (a fixed window,
lesson 4) has *all of* its parts' ACLs: ``acl_parts`` holds them, and a subject may read the
chunk only when ``authorized`` holds for every part (``readable``). That is the rule "readable
only if every part of it is allowed", never the intersection of the parts' group lists: a
subject in ``employees`` and ``sre`` reads a window over an ``employees`` section and an
``sre`` section; a subject in one of them does not. A chunk within one section has one part,
its ``acl``, and ``acl_parts`` is None.

Fail-closed: a chunk whose ACL, or any part's ACL, is missing (``None``) or empty is never
shown to anyone, and a chunk of another tenant is never even scored. ``search`` filters first
and passes only the chunks a subject may read to the scoring function, so a scorer cannot leak
what it never sees (the lesson's hidden tests check this with a scorer that records its calls).

Leaves out: deny rules, inheritance and per-user grants; any-of group sets, combined by all-of
for mixed chunks, are the whole model here.

    >>> authorized(["sre"], {"sre", "employees"})
    True
    >>> readable({"acl": None, "acl_parts": (("employees",), ("sre",))}, {"employees", "sre"})
    True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache

from chunklib.validate import require_int

#: A term: a run of word characters, compared lowercased. The one definition of a term that
#: lesson 5's score, the SQLite index's bm25 query and the retrievers share.
TERM = re.compile(r"\w+")


@lru_cache(maxsize=1 << 14)
def term_set(text: str) -> frozenset[str]:
    """The distinct lowercase ``\\w+`` terms of ``text`` (cached: chunk texts repeat).

    ``sorted(term_set("Replica count: 4 replicas"))`` -> ['4', 'count', 'replica', 'replicas']
    """
    return frozenset(TERM.findall(text.lower()))


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
    if isinstance(subject_groups, (set, frozenset)):  # no copy: readable passes a set
        return not subject_groups.isdisjoint(chunk_acl)
    return not set(chunk_acl).isdisjoint(subject_groups)


def combine_acls(acls: Iterable[Iterable[str] | None]) -> tuple:
    """The parts of a chunk built from pieces with these ACLs: each distinct ACL once, as a
    sorted tuple of distinct groups (``None``, missing, kept), in a fixed order (missing first,
    then by groups). A chunk with one part has that ACL; with several, all of them apply.

    ``combine_acls([["sre"], ["employees"], ["sre"]])`` -> (('employees',), ('sre',))
    """
    if isinstance(acls, (str, bytes)):
        raise TypeError("acls must be a collection of ACLs, not a single string")
    parts = set()
    for acl in acls:
        if acl is not None and isinstance(acl, (str, bytes)):
            raise TypeError(f"each ACL must be a collection of group names or None, got {acl!r}")
        parts.add(None if acl is None else tuple(sorted(set(acl))))
    if not parts:
        raise ValueError("acls must hold at least one ACL (a chunk has at least one part)")
    return tuple(sorted(parts, key=lambda p: (p is not None, p or ())))


def access_parts(chunk: Mapping) -> tuple:
    """The ACLs that all apply to ``chunk``: its ``acl_parts`` when present (a mixed chunk),
    else its one ``acl``.

    ``access_parts({"acl": ["sre"]})`` -> (['sre'],)
    """
    parts = chunk.get("acl_parts")
    return (chunk.get("acl"),) if parts is None else tuple(parts)


def access_complete(chunk: Mapping) -> bool:
    """True when every part of ``chunk`` has an ACL with at least one group: only such a chunk
    may enter an index (lesson 5); the others are readable by nobody.

    ``access_complete({"acl": None, "acl_parts": [["employees"], None]})`` -> False
    """
    parts = access_parts(chunk)
    return bool(parts) and all(part is not None and len(part) > 0 for part in parts)


def readable(chunk: Mapping, subject_groups: Iterable[str] | None) -> bool:
    """True when the subject may read every part of ``chunk`` (``authorized`` for each of
    ``access_parts(chunk)``); a missing or empty part, or no parts, is False (fail-closed).

    ``readable({"acl": None, "acl_parts": [["employees"], ["sre"]]}, ["employees"])`` -> False
    """
    if isinstance(subject_groups, str):
        raise TypeError("subject_groups must be a collection of group names, not a single string")
    groups = (subject_groups if subject_groups is None
              or isinstance(subject_groups, (set, frozenset)) else set(subject_groups))
    if chunk.get("acl_parts") is None:  # one part, its acl: the common case, checked directly
        return authorized(chunk.get("acl"), groups)
    parts = access_parts(chunk)
    return bool(parts) and all(authorized(part, groups) for part in parts)


def term_overlap(query: str, chunk: Mapping) -> int:
    """The default score: how many distinct lowercase ``\\w+`` query terms occur in the chunk's
    ``retrieval_text``.

    ``term_overlap("Replica count", {"retrieval_text": "replica count: 4"})`` -> 2
    """
    return len(term_set(query) & term_set(chunk["retrieval_text"]))


def search(chunks: Iterable[Mapping], query: str, tenant_id: str, groups: Iterable[str], k: int,
           score: Callable[[str, Mapping], float] | None = None) -> list[tuple[str, float]]:
    """Top ``k`` ``(chunk_id, score)`` among the chunks of ``tenant_id`` that ``groups`` may read
    (``readable``: the one ``acl``, or every one of ``acl_parts`` for a mixed chunk).

    Filtering comes first: ``score(query, chunk)`` is called only for authorized chunks of the
    tenant. Only zero scores are dropped (and NaN, as the index's SQL does): a negative score
    (a cosine can be one) stays. Ties are broken by ``chunk_id``.
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
        if chunk["tenant_id"] != tenant_id or not readable(chunk, groups):
            continue
        value = score(query, chunk)
        if value > 0 or value < 0:  # a negative score (a cosine can be) is a hit; 0 or NaN is not
            scored.append((chunk["chunk_id"], value))
    scored.sort(key=lambda pair: (-pair[1], pair[0]))
    return scored[:k]
