"""The chunk contract: one frozen, validated record per chunk with its minimum metadata (lesson 4).

Fields by group (``FIELD_GROUPS``), after seed 003's minimum set: identity (``chunk_id``,
``ordinal``, ``strategy_version``), source (``source_id``, ``revision``, ``start``, ``end``),
structure (``kind``, ``heading_path``, ``element_id``), security (``tenant_id``, ``acl``,
``acl_parts``), integrity (``content_sha256``, ``retrieval_sha256``), vectors
(``embedding_model``, ``embedding_revision``) and lifecycle (``index_revision``, ``tombstone``).
``text`` is the citable slice ``source[start:end]``; ``retrieval_text`` is what search and
embeddings see (heading path, table header added). Every field has exactly one type; ``None``
means "missing" or "not used" and is allowed only for ``acl``, ``acl_parts`` and the fields
filled in later (vectors, index revision). ``acl`` is one any-of ACL, a sorted tuple of distinct
groups, never a string. A chunk that spans sections with different ACLs (a fixed window) has no
single ACL: its ``acl`` is None and ``acl_parts`` holds every part's ACL (at least two, each a
sorted tuple or None for a missing one, in ``access.combine_acls`` order), all of which apply
(``access.readable``); a consumer that knows only ``acl`` refuses such a chunk, as it must. Ids
follow the COURSE.md appendix (lesson 5): ``chunk_id`` hashes the anchor element's id and the
span *relative to that element*, so inserting text elsewhere changes no other chunk's id.

Leaves out: storage (lesson 5's SQLite index), timestamps, language and classification fields,
embedding dimensions.

    >>> retrieval_context(("Deployment Guide", "Environment Matrix"), "production | 4 | SRE")
    'Heading path: Deployment Guide > Environment Matrix\\nproduction | 4 | SRE'

A record, as text and as a dict, and back (the examples of ``describe``, ``to_dict`` and
``from_dict``):

    >>> record = make_chunk("Keys rotate.", 0, 12, kind="paragraph", heading_path=("FAQ",),
    ...                     anchor_start=0, element_id="e1", ordinal=10, source_id="faq",
    ...                     revision="1", tenant_id="t", acl=("sre",), strategy_version="v1")
    >>> describe(record).splitlines()[1]
    '           ordinal            10'
    >>> to_dict(record)["acl"]
    ('sre',)
    >>> import json
    >>> from_dict(json.loads(json.dumps(to_dict(record)))) == record
    True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields
from typing import Any

from chunklib.access import combine_acls
from chunklib.elements import ELEMENT_KINDS
from chunklib.identity import chunk_id, sha256_hex
from chunklib.validate import require_int

CHUNK_KINDS = ELEMENT_KINDS + ("section", "window")  # section: elements of mixed kinds
_HEX64 = re.compile(r"[0-9a-f]{64}")
FIELD_GROUPS = {  # seed 003's minimum metadata set, then the two texts themselves
    "identity": ("chunk_id", "ordinal", "strategy_version"),
    "source": ("source_id", "revision", "start", "end"),
    "structure": ("kind", "heading_path", "element_id"),
    "security": ("tenant_id", "acl", "acl_parts"),
    "integrity": ("content_sha256", "retrieval_sha256"),
    "vectors": ("embedding_model", "embedding_revision"),
    "lifecycle": ("index_revision", "tombstone"),
    "texts": ("text", "retrieval_text"),
}


@dataclass(frozen=True)
class ChunkRecord:
    """One chunk and its metadata; ``__post_init__`` refuses any inconsistent record."""

    chunk_id: str
    ordinal: int
    source_id: str
    revision: str
    start: int
    end: int
    kind: str
    heading_path: tuple[str, ...]
    element_id: str
    tenant_id: str
    acl: tuple[str, ...] | None
    text: str
    retrieval_text: str
    content_sha256: str
    retrieval_sha256: str
    strategy_version: str
    embedding_model: str | None = None
    embedding_revision: str | None = None
    index_revision: str | None = None
    tombstone: bool = False
    acl_parts: tuple[tuple[str, ...] | None, ...] | None = None

    def __post_init__(self) -> None:
        for name in ("chunk_id", "source_id", "revision", "element_id", "tenant_id",
                     "strategy_version"):
            _require_str(name, getattr(self, name))
        for name in ("embedding_model", "embedding_revision", "index_revision"):
            if getattr(self, name) is not None:
                _require_str(name, getattr(self, name))
        for name in ("text", "retrieval_text"):
            if not isinstance(getattr(self, name), str):
                raise TypeError(f"{name} must be a str, got {type(getattr(self, name)).__name__}")
        require_int("ordinal", self.ordinal, minimum=0)
        require_int("start", self.start, minimum=0)
        require_int("end", self.end, minimum=self.start)
        if len(self.text) != self.end - self.start:
            raise ValueError(f"text has {len(self.text)} characters but the span "
                             f"({self.start}, {self.end}) has {self.end - self.start}")
        if self.kind not in CHUNK_KINDS:
            raise ValueError(f"kind must be one of {CHUNK_KINDS}, got {self.kind!r}")
        _require_str_tuple("heading_path", self.heading_path, allow_empty_items=True)
        if self.acl is not None:
            _require_acl("acl", self.acl)
        if self.acl_parts is not None:
            if not isinstance(self.acl_parts, tuple) or len(self.acl_parts) < 2:
                raise ValueError("acl_parts must be None or a tuple of at least two ACLs, got "
                                 f"{self.acl_parts!r}")
            for i, part in enumerate(self.acl_parts):
                if part is not None:
                    _require_acl(f"acl_parts[{i}]", part)
            if self.acl_parts != combine_acls(self.acl_parts):
                raise ValueError("acl_parts must hold distinct ACLs in combine_acls order, got "
                                 f"{self.acl_parts!r}")
            if self.acl is not None:
                raise ValueError("a chunk with acl_parts has no single acl: acl must be None")
        for name, text in (("content_sha256", self.text),
                           ("retrieval_sha256", self.retrieval_text)):
            value = getattr(self, name)
            if not isinstance(value, str) or not _HEX64.fullmatch(value):
                raise ValueError(f"{name} must be 64 lowercase hex digits, got {value!r}")
            if value != sha256_hex(text):
                raise ValueError(f"{name} does not match its text: rebuild the record")
        if not isinstance(self.tombstone, bool):
            raise TypeError(f"tombstone must be a bool, got {type(self.tombstone).__name__}")


def _require_str(name: str, value: object) -> None:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    if not value:
        raise ValueError(f"{name} must not be empty")


def _require_acl(name: str, value: object) -> None:
    _require_str_tuple(name, value)
    if list(value) != sorted(set(value)):
        raise ValueError(f"{name} must be sorted and without repeats, got {value!r}")


def _require_str_tuple(name: str, value: object, allow_empty_items: bool = False) -> None:
    if not isinstance(value, tuple):
        raise TypeError(f"{name} must be a tuple of str, got {type(value).__name__} {value!r}")
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise TypeError(f"{name}[{i}] must be a str, got {type(item).__name__}")
        if not item and not allow_empty_items:
            raise ValueError(f"{name}[{i}] must not be empty")


def normalize_acl(groups: object) -> tuple[str, ...] | None:
    """``None`` stays ``None`` (missing); a list of groups becomes a sorted tuple without repeats.

    ``normalize_acl(["sre", "oncall", "sre"])`` -> ('oncall', 'sre')
    """
    if groups is None:
        return None
    if isinstance(groups, (str, bytes)) or not hasattr(groups, "__iter__"):
        raise TypeError(f"acl must be a list of group names or None, got {groups!r}")
    acl = tuple(sorted(set(groups)))
    _require_str_tuple("acl", acl)
    return acl


def access_fields(acls: Iterable) -> tuple[tuple[str, ...] | None, tuple | None]:
    """``(acl, acl_parts)`` of a chunk whose pieces have these ACLs: one distinct ACL gives
    ``(that ACL, None)``; several give ``(None, all of them)``.

    ``access_fields([["sre"], ["employees"]])`` -> (None, (('employees',), ('sre',)))
    """
    parts = combine_acls(acls)
    return (parts[0], None) if len(parts) == 1 else (None, parts)


def retrieval_context(heading_path: tuple[str, ...], text: str) -> str:
    """``text`` with its heading path in front, the format ``table_row_chunks`` uses.

    ``retrieval_context(("Guide", "Rollback"), "Go.")`` -> 'Heading path: Guide > Rollback\\nGo.'
    """
    return f"Heading path: {' > '.join(heading_path)}\n{text}" if heading_path else text


def make_chunk(source_text: str, start: int, end: int, *, kind: str,
               heading_path: tuple[str, ...], anchor_start: int, element_id: str, ordinal: int,
               source_id: str, revision: str, tenant_id: str, acl: object,
               strategy_version: str, retrieval_text: str | None = None,
               acl_parts: tuple | None = None) -> ChunkRecord:
    """The factory: slices the text, adds the heading path (unless ``retrieval_text`` is given),
    computes both hashes and the chunk id. ``anchor_start`` is where the anchor element starts.
    A chunk that mixes ACLs passes ``acl=None`` and ``acl_parts`` (see ``access_fields``).

    The module docstring builds one.
    """
    require_int("anchor_start", anchor_start, minimum=0)
    text = source_text[start:end]
    if retrieval_text is None:
        retrieval_text = retrieval_context(tuple(heading_path), text)
    content_sha256 = sha256_hex(text)
    return ChunkRecord(
        chunk_id=chunk_id(source_id, strategy_version, element_id, start - anchor_start,
                          end - anchor_start, content_sha256, tenant_id),
        ordinal=ordinal, source_id=source_id, revision=revision, start=start, end=end,
        kind=kind, heading_path=tuple(heading_path), element_id=element_id,
        tenant_id=tenant_id, acl=normalize_acl(acl), text=text, retrieval_text=retrieval_text,
        content_sha256=content_sha256, retrieval_sha256=sha256_hex(retrieval_text),
        strategy_version=strategy_version,
        acl_parts=None if acl_parts is None else combine_acls(acl_parts))


def describe(record: ChunkRecord, digits: int = 16) -> str:
    """The record as text, one line per field, grouped as in ``FIELD_GROUPS``; ids and hashes
    shortened to their first ``digits`` hex digits (lesson 4 prints one; the module docstring
    shows one line).
    """
    lines = []
    for group, names in FIELD_GROUPS.items():
        for i, name in enumerate(names):
            value = getattr(record, name)
            shown = (value[:digits] + "…" if isinstance(value, str) and _HEX64.fullmatch(value)
                     and len(value) > digits else repr(value))
            lines.append(f"{group if i == 0 else '':10} {name:18} {shown}")
    return "\n".join(lines)


def to_dict(record: ChunkRecord) -> dict[str, Any]:
    """The record as a plain dict (tuples stay tuples), the shape lesson 5's functions take
    (example in the module docstring)."""
    return asdict(record)


def from_dict(data: dict[str, Any]) -> ChunkRecord:
    """Rebuild a record from ``to_dict`` output or from JSON (lists become tuples again;
    example in the module docstring)."""
    data = {f.name: data[f.name] for f in fields(ChunkRecord) if f.name in data}
    data["heading_path"] = tuple(data["heading_path"])
    if data.get("acl") is not None:
        data["acl"] = tuple(data["acl"])
    if data.get("acl_parts") is not None:
        data["acl_parts"] = tuple(None if p is None else tuple(p) for p in data["acl_parts"])
    return ChunkRecord(**data)
