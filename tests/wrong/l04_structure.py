"""Realistic mistakes in lesson 4 (Structure, metadata and context), each confined to one
function or answer."""

WRONG = {
    "paths_by_level_index": ({"heading_paths": '''
def heading_paths(headings):
    # keeps the first level - 1 titles of the previous path: wrong after a skipped level
    path, paths = [], []
    for level, title in headings:
        path = path[:level - 1] + [title]
        paths.append(tuple(path))
    return paths
'''}, {"test_heading_paths_examples", "test_heading_paths_hidden"}),
    "paths_pop_once": ({"heading_paths": '''
def heading_paths(headings):
    # closes only one section when a heading goes back up
    stack, paths = [], []
    for level, title in headings:
        if stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        paths.append(tuple(t for _, t in stack))
    return paths
'''}, {"test_heading_paths_examples", "test_heading_paths_hidden"}),
    "paths_as_lists": ({"heading_paths": '''
def heading_paths(headings):
    stack, paths = [], []
    for level, title in headings:
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        paths.append([t for _, t in stack])
    return paths
'''}, {"test_heading_paths_examples", "test_heading_paths_hidden"}),
    "heading_in_citable_text": ({"table_row_chunks": '''
def table_row_chunks(header, rows, heading_path):
    # the context is written into the citable text as well
    context = ("Heading path: " + " > ".join(heading_path) + "\\n"
               + "Table header: " + " | ".join(header) + "\\n")
    return [{"text": context + " | ".join(row), "retrieval_text": context + " | ".join(row)}
            for row in rows]
'''}, {"test_table_row_chunks_examples", "test_table_row_chunks_hidden"}),
    "empty_path_line_dropped": ({"table_row_chunks": '''
def table_row_chunks(header, rows, heading_path):
    context = "Heading path: " + " > ".join(heading_path) + "\\n" if heading_path else ""
    context += "Table header: " + " | ".join(header) + "\\n"
    return [{"text": " | ".join(row), "retrieval_text": context + " | ".join(row)}
            for row in rows]
'''}, {"test_table_row_chunks_hidden"}),
    "hash_latin1": ({"sha256_hex": '''
import hashlib
def sha256_hex(text):
    return hashlib.sha256(text.encode("latin-1")).hexdigest()
'''}, {"test_sha256_hex_hidden"}),
    "hash_always_equal_object": ({"sha256_hex": '''
class _Digest(str):
    def __eq__(self, other):
        return True
    __hash__ = str.__hash__
def sha256_hex(text):
    return _Digest("0" * 64)
'''}, {"test_sha256_hex_examples", "test_sha256_hex_hidden"}),
    "seed_formula_goes_negative": ({"duplication_ratio": '''
def duplication_ratio(spans, source_length):
    # D = sum of units - L, as the seed writes it: negative when spans skip source
    if source_length == 0:
        return 0.0
    return (sum(e - s for s, e in spans) - source_length) / source_length
'''}, {"test_duplication_ratio_examples", "test_duplication_ratio_hidden"}),
    "overlap_of_neighbours_only": ({"duplication_ratio": '''
def duplication_ratio(spans, source_length):
    # adds up the overlap of each span with the next one: wrong for nested spans
    if source_length == 0:
        return 0.0
    spans = sorted(spans)
    shared = sum(max(0, min(a[1], b[1]) - b[0]) for a, b in zip(spans, spans[1:]))
    return shared / source_length
'''}, {"test_duplication_ratio_hidden"}),
    "empty_source_divides_by_zero": ({"duplication_ratio": '''
def duplication_ratio(spans, source_length):
    covered = set()
    for s, e in spans:
        covered.update(range(s, e))
    return (sum(e - s for s, e in spans) - len(covered)) / source_length
'''}, {"test_duplication_ratio_examples", "test_duplication_ratio_hidden"}),
    "hand_answers_off": ({"ex_path_a": 'ex_path_a = ["Failover runbook", "Failover steps", '
                                       '"Promote the standby"]',  # a list, not a tuple
                          "ex_seed_d": "ex_seed_d = 60",  # the sign lost
                          "ex_hash": 'ex_hash = "content"',
                          "q4": 'q4 = "B"'},
                         {"test_ex_path_a", "test_ex_seed_d", "test_ex_hash", "test_q4"}),
}

# Correct work that writes to stderr: must keep every point.
NOISY_BUT_RIGHT = {"sha256_hex": '''
import hashlib, sys, warnings
def sha256_hex(text):
    warnings.warn("sha256_hex() was called")
    print("debug: hashing", len(text), "characters", file=sys.stderr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
sha256_hex("")
'''}

# Correct work written another way than the reference (another algorithm, a result built
# in another order or container and then converted, the standard library instead of a
# given helper): each must keep every point (tests/test_grading_agreement.py).
VARIANTS = {
    "scan_back_for_ancestors": {"heading_paths": '''
def heading_paths(headings):
    out = []
    for i, (level, title) in enumerate(headings):
        path, need = [title], level
        for lv, t in reversed(headings[:i]):
            if lv < need:
                path.append(t)
                need = lv
        out.append(tuple(reversed(path)))
    return out
'''},
    "dict_keywords_in_a_comprehension": {"table_row_chunks": '''
def table_row_chunks(header, rows, heading_path):
    head = "\\n".join(["Heading path: " + " > ".join(heading_path),
                      "Table header: " + " | ".join(header)])
    return [dict(text=" | ".join(r), retrieval_text=head + "\\n" + " | ".join(r)) for r in rows]
'''},
    "digest_hex": {"sha256_hex": '''
import hashlib


def sha256_hex(text):
    return hashlib.sha256(bytes(text, "utf-8")).digest().hex()
'''},
    "set_of_covered_characters": {"duplication_ratio": '''
def duplication_ratio(spans, source_length):
    if source_length == 0:
        return 0.0
    covered = {i for s, e in spans for i in range(s, e)}
    return (sum(e - s for s, e in spans) - len(covered)) / source_length
'''},
}
