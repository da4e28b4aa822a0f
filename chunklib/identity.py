"""Content-derived identifiers: element ids, chunk ids and index-entry ids (lesson 5).

Every id is ``H(fields)``: SHA-256 over the fields' text joined by the unit separator
``\\x1f``, so ``("ab", "c")`` and ``("a", "bc")`` never collide; a field whose text holds
``\\x1f`` itself is refused (ValueError), so no two different lists of strings hash alike
(fields of other types hash as their ``str``: ``H([3]) == H(["3"])``). A chunk
id binds the source, the strategy version, the element (by its own content), the span
*relative to the element*, the content hash and the tenant; the ordinal is stored beside it
but is not part of it, so inserting an unrelated source, or a paragraph in another section, or
renaming a heading, leaves the ids of unchanged body chunks as they were. The index-entry id
adds what a vector and the permission filter depend on: the retrieval text's hash, the index
revision (which names the embedding model; ``chunklib.index.INDEX_REVISION``) and the ACL
snapshot.

Leaves out: storage (see the lesson-5 index) and a choice of which fields *your* identity
needs; this is the course's definition, stated in COURSE.md.

    >>> H(["a", 1])[:12]
    '839e11a421d3'
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from chunklib.validate import require_int, require_text

SEPARATOR = "\x1f"


def H(fields: Iterable[object]) -> str:  # noqa: N802 (the course's name for it)
    """Hex SHA-256 of the fields' ``str`` joined by ``\\x1f``.

    ``H(["a", 1]) == hashlib.sha256("a\\x1f1".encode()).hexdigest()`` -> True
    """
    if isinstance(fields, (str, bytes)):
        raise TypeError("fields must be a list or tuple of fields, not a single string")
    texts = [str(f) for f in fields]
    for i, text in enumerate(texts):
        if SEPARATOR in text:  # ("a\x1fb",) and ("a", "b") would hash alike
            raise ValueError(f"fields[{i}] contains the separator \\x1f; ids would collide")
    return hashlib.sha256(SEPARATOR.join(texts).encode("utf-8")).hexdigest()


def sha256_hex(text: str) -> str:
    """Hex SHA-256 of the UTF-8 bytes of ``text``.

    ``sha256_hex("")[:8]`` -> 'e3b0c442'
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def element_id(kind: str, text: str, occurrence: int = 0) -> str:
    """The id of an element from its own content: ``H(kind, text, occurrence)``, where
    ``occurrence`` counts the identical elements (same kind and text) before it in the source.

    ``element_id("paragraph", "Restart the pods.") != element_id("paragraph", "Restart.")`` -> True
    """
    for name, value in (("kind", kind), ("text", text)):
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    return H([kind, text, require_int("occurrence", occurrence, minimum=0)])


def chunk_id(source_id: str, strategy_version: str, element_id: str, start: int, end: int,
             content_sha256: str, tenant_id: str) -> str:
    """The chunk id: ``H`` of the seven fields, ``start, end`` relative to the element.

    ``len(chunk_id("guide", "v1", "e1", 0, 10, "c0ffee", "acme"))`` -> 64
    """
    for name, value in (("source_id", source_id), ("strategy_version", strategy_version),
                        ("element_id", element_id), ("content_sha256", content_sha256),
                        ("tenant_id", tenant_id)):
        require_text(value, name)
    start = require_int("start", start, minimum=0)
    end = require_int("end", end, minimum=start)
    return H([source_id, strategy_version, element_id, start, end, content_sha256, tenant_id])


def index_entry_id(chunk_id: str, retrieval_sha256: str, index_revision: str | int,
                   acl_snapshot_sha256: str) -> str:
    """The index-entry id: ``H(chunk_id, retrieval_sha256, index_revision, acl_snapshot_sha256)``.

    A new heading path (retrieval text), index revision or ACL gives a new entry even when the
    chunk id stays. ``index_entry_id("c", "r", 1, "a") != index_entry_id("c", "r", 2, "a")``
    -> True
    """
    for name, value in (("chunk_id", chunk_id), ("retrieval_sha256", retrieval_sha256),
                        ("acl_snapshot_sha256", acl_snapshot_sha256)):
        require_text(value, name)
    if isinstance(index_revision, bool) or not isinstance(index_revision, (str, int)):
        raise TypeError(f"index_revision must be a str or an int, got "
                        f"{type(index_revision).__name__}")
    return H([chunk_id, retrieval_sha256, index_revision, acl_snapshot_sha256])


def acl_snapshot_sha256(groups: Iterable[str] | None) -> str:
    """A hash of an ACL that ignores order and repeats; ``None`` (missing) hashes differently
    from an empty ACL, and both are refused by ``access.authorized`` anyway.

    ``acl_snapshot_sha256(["sre", "ops"]) == acl_snapshot_sha256(["ops", "sre", "ops"])`` -> True
    """
    if groups is None:
        return H(["acl", "missing"])
    if isinstance(groups, str):
        raise TypeError("groups must be a collection of group names, not a single string")
    return H(["acl", *sorted(set(groups))])


def access_snapshot_sha256(parts: Iterable[Iterable[str] | None]) -> str:
    """The ACL snapshot of a chunk whose ACLs all apply (``access.access_parts``): one part
    hashes as ``acl_snapshot_sha256`` of it, so a chunk within one section keeps its entry id;
    several parts hash their snapshots together, in a fixed order.

    ``access_snapshot_sha256([["sre"]]) == acl_snapshot_sha256(["sre"])`` -> True
    """
    snapshots = sorted({acl_snapshot_sha256(part) for part in parts})
    if not snapshots:
        raise ValueError("parts must hold at least one ACL")
    return snapshots[0] if len(snapshots) == 1 else H(["acl-parts", *snapshots])
