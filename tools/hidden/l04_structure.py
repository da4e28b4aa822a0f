"""Lesson 4 (Structure): reference versions of the Part 2 functions for hidden tests.

Leaves out: input checks (the contract names no errors for these functions).
"""

import hashlib as _hashlib


def _r_heading_paths(headings):
    open_, out = [], []
    for level, title in headings:
        while open_ and open_[-1][0] >= level:
            open_.pop()
        open_.append((level, title))
        out.append(tuple(t for _, t in open_))
    return out


def _r_table_row_chunks(header, rows, heading_path):
    context = ("Heading path: " + " > ".join(heading_path) + "\nTable header: "
               + " | ".join(header) + "\n")
    return [{"text": " | ".join(r), "retrieval_text": context + " | ".join(r)} for r in rows]


def _r_sha256_hex(text):
    return _hashlib.sha256(text.encode("utf-8")).hexdigest()


def _r_duplication_ratio(spans, source_length):
    if source_length == 0:
        return 0.0
    covered, reach = 0, 0
    for s, e in sorted(spans):
        s = max(s, reach)
        if e > s:
            covered, reach = covered + e - s, e
    return (sum(e - s for s, e in spans) - covered) / source_length


_REFS = {"heading_paths": _r_heading_paths, "table_row_chunks": _r_table_row_chunks,
         "sha256_hex": _r_sha256_hex, "duplication_ratio": _r_duplication_ratio}
