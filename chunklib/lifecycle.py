"""Planning an incremental update: which chunks to keep, re-embed, re-index, add or tombstone.

Compares the chunks of the published revision with the candidate chunks of a new one by
``chunk_id``: a changed retrieval hash means a new vector (re-embed); an unchanged hash with a
changed ACL means a new index entry but the same vector (re-index); ids that vanish get
tombstones so that deletion reaches the index, caches and backups (lesson 5).

Leaves out: executing the plan (the lesson-5 index does it in a shadow generation and switches
the published pointer atomically).

    >>> plan_update([], [{"chunk_id": "a", "retrieval_sha256": "r", "acl": ["g"]}])["add"]
    ['a']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

ACTIONS = ("keep", "reembed", "reindex", "add", "tombstone")


def _by_id(name: str, chunks: Iterable[Mapping]) -> dict[str, Mapping]:
    out: dict[str, Mapping] = {}
    for chunk in chunks:
        cid = chunk["chunk_id"]
        if cid in out:
            raise ValueError(f"{name} holds chunk_id {cid!r} twice")
        out[cid] = chunk
    return out


def _acl(chunk: Mapping):
    acl = chunk.get("acl")
    return None if acl is None else frozenset(acl)


def plan_update(old_chunks: Iterable[Mapping], new_chunks: Iterable[Mapping]) -> dict[str, list]:
    """``{"keep", "reembed", "reindex", "add", "tombstone"}`` -> sorted chunk ids.

    Same id, retrieval hash and ACL: keep; same id, retrieval hash changed: reembed (whatever
    the ACL did); same id and hash, ACL changed: reindex; only new: add; only old: tombstone.
    ``plan_update([{"chunk_id": "a", "retrieval_sha256": "r", "acl": ["g"]}], [])["tombstone"]``
    -> ['a']
    """
    old, new = _by_id("old_chunks", old_chunks), _by_id("new_chunks", new_chunks)
    plan: dict[str, list] = {action: [] for action in ACTIONS}
    for cid, chunk in new.items():
        before = old.get(cid)
        if before is None:
            plan["add"].append(cid)
        elif before["retrieval_sha256"] != chunk["retrieval_sha256"]:
            plan["reembed"].append(cid)
        elif _acl(before) != _acl(chunk):
            plan["reindex"].append(cid)
        else:
            plan["keep"].append(cid)
    plan["tombstone"] = [cid for cid in old if cid not in new]
    return {action: sorted(ids) for action, ids in plan.items()}
