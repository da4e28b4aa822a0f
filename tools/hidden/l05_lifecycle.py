"""Lesson 5 (Lifecycle): reference versions for hidden tests of what the exercises build on.

``H`` is given in the notebook (read-only) and ``authorized`` is an exercise that ``search``
calls; both are swapped for these while another exercise is graded.

Leaves out: chunk_id, index_entry_id, search and plan_update (no exercise builds on them).
"""

import hashlib as _hashlib


def _r_H(fields):
    return _hashlib.sha256("\x1f".join(str(f) for f in fields).encode("utf-8")).hexdigest()


def _r_authorized(chunk_acl, subject_groups):
    if not chunk_acl or not subject_groups:
        return False
    return not set(chunk_acl).isdisjoint(subject_groups)


_REFS = {"H": _r_H, "authorized": _r_authorized}
