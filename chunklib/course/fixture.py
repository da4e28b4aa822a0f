"""The course fixture: Markdown sources with a tenant, a revision and section ACLs (lessons 4-6),
read into ``chunklib.documents.Source`` records.

The files live in ``chunklib/data/fixture/`` beside ``manifest.toml``, which gives each source
its ``source_id``, ``revision``, ``tenant_id``, ``default_acl`` and ``section_acl`` rules, and the
SHA-256 of the file's bytes (a changed file must get a new revision, so a stale hash fails
loudly). How a rule applies is ``Source.acl_for``; a rule that names no heading fails the load.
Files are read as bytes and decoded, so line ends reach the parser exactly as stored.

Leaves out: the document types and ACL rules themselves (``chunklib.documents``) and documents
of your own (``chunklib.corpus``).

    >>> [s.source_id for s in load_sources()][:2]
    ['deployment-guide', 'failover-runbook']
"""

from __future__ import annotations

import hashlib
import tomllib
from functools import cache
from importlib.resources import files

from chunklib.documents import SectionAcl, Source, unmatched_acl_rules
from chunklib.records import normalize_acl

FIXTURE_DIR = files("chunklib").joinpath("data", "fixture")


@cache
def _load() -> tuple[Source, ...]:
    manifest = tomllib.loads(FIXTURE_DIR.joinpath("manifest.toml").read_bytes().decode("utf-8"))
    sources = []
    for entry in manifest["source"]:
        data = FIXTURE_DIR.joinpath(entry["file"]).read_bytes()
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise ValueError(f"fixture file {entry['file']} does not match its sha256 in "
                             "manifest.toml: give it a new revision and record the new hash")
        rules = tuple(SectionAcl(tuple(r["heading_path"]), normalize_acl(r["acl"]))
                      for r in entry.get("section_acl", []))
        source = Source(entry["source_id"], entry["revision"], entry["tenant_id"], entry["file"],
                        data.decode("utf-8"), normalize_acl(entry.get("default_acl")), rules)
        if unmatched_acl_rules(source):
            raise ValueError(f"{source.source_id}: ACL rules match no heading: "
                             f"{unmatched_acl_rules(source)}")
        sources.append(source)
    if len({s.source_id for s in sources}) != len(sources):
        raise ValueError("manifest.toml repeats a source_id")
    return tuple(sources)


def load_sources() -> list[Source]:
    """Every fixture source, in manifest order (read once, then shared; records are frozen).

    ``len(load_sources())`` -> 4
    """
    return list(_load())


def load_source(source_id: str) -> Source:
    """One fixture source by id. ``load_source("deployment-guide").tenant_id`` -> 'kestrel'"""
    for source in _load():
        if source.source_id == source_id:
            return source
    raise ValueError(f"no fixture source {source_id!r}; "
                     f"known: {[s.source_id for s in _load()]}")
