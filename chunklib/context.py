"""After retrieval: merge neighbouring hits and pack the context window (lesson 6).

``merge_hits`` joins hits that overlap or touch, but only within the same source, revision and
ACL: two chunks with similar text from different sources, versions or permissions must never
be merged. Every group, a lone hit too, comes out as one dict with exactly the keys
``source_id, revision, acl, start, end, score, parts``: the union span, the highest score, and
the original hits in ``parts``, so each segment's provenance and score survive. ACLs compare
as sets of groups (``("oncall", "sre")`` equals ``["sre", "oncall"]``); a hit of a chunk that
mixes ACLs (``acl`` None, ``acl_parts`` set, lesson 4) merges only with hits of the same parts,
and its merged dict keeps ``acl_parts`` as an eighth key. ``pack_context`` fills a
budget greedily by score and returns the chosen hits in reading order, ``(source_id, revision,
start, end)``.

Leaves out: near-duplicate detection by text similarity (deliberately: it merges what must stay
apart) and token counting (lengths here are ``end - start`` in the spans' unit).

    >>> merge_hits([])
    []
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from chunklib.validate import require_int


def _acl_key(acl):
    return None if acl is None else tuple(sorted(acl))


def _access_key(hit: Mapping) -> tuple:
    """The hit's ACL, and its parts when it has several, in a comparable form."""
    parts = hit.get("acl_parts")
    return (_acl_key(hit["acl"]),
            None if parts is None else tuple(sorted({_acl_key(p) for p in parts},
                                                    key=lambda p: (p is not None, p or ()))))


def merge_hits(hits: Sequence[Mapping]) -> list[dict]:
    """Merge hits of equal ``source_id``, ``revision`` and ``acl`` that overlap or touch.

    Every output is ``{"source_id", "revision", "acl", "start", "end", "score", "parts"}``:
    the union span, the highest score, and the original hits sorted by ``(start, end)``; a hit
    with no neighbour comes out alone (``parts`` holds just it). Output sorted by
    ``(source_id, revision, start, end)``.
    ``[(m["start"], m["end"]) for m in merge_hits([{"source_id": "a", "revision": "1",
    "acl": ("g",), "start": s, "end": e, "score": 1} for s, e in [(0, 100), (80, 180)]])]``
    -> [(0, 180)]
    """
    groups: dict[tuple, list[Mapping]] = {}
    for hit in hits:
        key = (hit["source_id"], hit["revision"], _access_key(hit))
        groups.setdefault(key, []).append(hit)
    merged: list[dict] = []
    for group in groups.values():
        group = sorted(group, key=lambda h: (h["start"], h["end"]))
        current: dict | None = None
        for hit in group:
            if current is not None and hit["start"] <= current["end"]:
                current["end"] = max(current["end"], hit["end"])
                current["score"] = max(current["score"], hit["score"])
                current["parts"].append(hit)
                continue
            current = {"source_id": hit["source_id"], "revision": hit["revision"],
                       "acl": hit["acl"], "start": hit["start"], "end": hit["end"],
                       "score": hit["score"], "parts": [hit]}
            if hit.get("acl_parts") is not None:
                current["acl_parts"] = hit["acl_parts"]
            merged.append(current)
    merged.sort(key=lambda m: (m["source_id"], m["revision"], m["start"], m["end"]))
    return merged


def pack_context(hits: Sequence[Mapping], budget: int) -> list[Mapping]:
    """Take hits by score (highest first, ties by start), skip any that does not fit what is
    left of ``budget`` (length ``end - start``, in the spans' unit: characters in lesson 6),
    and return the chosen ones in reading order, sorted by ``(source_id, revision, start,
    end)``.

    ``[h["start"] for h in pack_context([{"source_id": "a", "revision": "1", "acl": ("g",),
    "start": s, "end": s + 60, "score": s} for s in (0, 100)], 100)]`` -> [100]
    """
    remaining = require_int("budget", budget, minimum=0)
    chosen = []
    for hit in sorted(hits, key=lambda h: (-h["score"], h["start"])):
        length = hit["end"] - hit["start"]
        if length <= remaining:
            chosen.append(hit)
            remaining -= length
    return sorted(chosen, key=lambda h: (h["source_id"], h["revision"], h["start"], h["end"]))
