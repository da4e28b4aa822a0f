"""Source documents with a tenant, a revision and section ACLs (lessons 4-6): the type every
chunker, index and evaluation takes.

A ``Source`` holds its ids, the full ``text`` and its ACL rules. A rule (``SectionAcl``) names
a heading path and applies to that section and everything below it; the longest matching rule
wins, then ``default_acl``; a source without a default leaves uncovered sections with a
*missing* ACL (``None``), which lesson 5's fail-closed index refuses to publish.

Leaves out: reading sources from files (the course fixture's loader is
``chunklib.course.fixture``; a folder of your own documents is ``chunklib.corpus``), deny
rules, ACL inheritance across sources, user-level permissions (groups only, OR semantics: a
reader needs one listed group).

    >>> Source("a", "1", "t", "a.md", "# A\\n", ("staff",), ()).acl_for(("A",))
    ('staff',)
"""

from __future__ import annotations

from dataclasses import dataclass

from chunklib.elements import parse_elements


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

        ``Source("a", "1", "t", "a.md", "", ("staff",), (SectionAcl(("A", "B"), ("sre",)),))
        .acl_for(("A", "B", "C"))`` -> ('sre',)
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
    ``unmatched_acl_rules(Source("a", "1", "t", "a.md", "# A\\n", None,
    (SectionAcl(("B",), ("x",)),)))`` -> [SectionAcl(heading_path=('B',), groups=('x',))]
    """
    paths = {e.heading_path for e in parse_elements(source.text) if e.kind == "heading"}
    return [rule for rule in source.section_acls if rule.heading_path not in paths]
