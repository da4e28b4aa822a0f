"""The course fixture: Markdown sources with a tenant, a revision and section ACLs (lessons 4-6).

The files live in ``chunklib/data/fixture/`` beside ``manifest.toml``, which gives each source
its ``source_id``, ``revision``, ``tenant_id``, ``default_acl`` and ``section_acl`` rules, and the
SHA-256 of the file's bytes (a changed file must get a new revision, so a stale hash fails
loudly). A rule names a heading path and applies to that section and everything below it; the
longest matching rule wins, then ``default_acl``; a source without a default leaves uncovered
sections with a *missing* ACL (``None``), which lesson 5's fail-closed index refuses to publish.
Files are read as bytes and decoded, so line ends reach the parser exactly as stored.

Leaves out: deny rules, ACL inheritance across sources, user-level permissions (groups only,
OR semantics: a reader needs one listed group).

    >>> [s.source_id for s in load_sources()][:2]
    ['deployment-guide', 'failover-runbook']
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from chunklib.elements import parse_elements
from chunklib.records import normalize_acl

FIXTURE_DIR = files("chunklib").joinpath("data", "fixture")


@dataclass(frozen=True)
class SectionAcl:
    """The groups that may read the section at ``heading_path`` and everything below it."""

    heading_path: tuple[str, ...]
    groups: tuple[str, ...]


@dataclass(frozen=True)
class Source:
    """One source document: ids, the full ``text``, and its ACL rules."""

    source_id: str
    revision: str
    tenant_id: str
    filename: str
    text: str
    default_acl: tuple[str, ...] | None
    section_acls: tuple[SectionAcl, ...]

    def acl_for(self, heading_path: tuple[str, ...]) -> tuple[str, ...] | None:
        """The ACL of the section at ``heading_path``: longest matching rule, else the default.

        ``guide.acl_for(("Deployment Guide", "Environment Matrix", "x"))`` -> ('sre',)
        """
        path = tuple(heading_path)
        best = None
        for rule in self.section_acls:
            n = len(rule.heading_path)
            if path[:n] == rule.heading_path and (best is None or n > len(best.heading_path)):
                best = rule
        return best.groups if best is not None else self.default_acl


def unmatched_acl_rules(source: Source) -> list[SectionAcl]:
    """Rules whose heading path names no heading of the text (a renamed or misspelt heading).

    Such a rule protects nothing: its section silently falls back to the default ACL.
    ``unmatched_acl_rules(load_source("deploy-faq"))`` -> []
    """
    paths = {e.heading_path for e in parse_elements(source.text) if e.kind == "heading"}
    return [rule for rule in source.section_acls if rule.heading_path not in paths]


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
