"""Regenerate chunklib/data/lesson6-results.json: lesson 6's totals and diagnoses of every
strategy the lesson and its explorer show (``chunklib.course.vector_store.store_strategies()``:
the lesson's strategies, the averaged sweep's window grids, every size and overlap of the
explorer) under each retriever of ``chunklib.course.sweep.RETRIEVERS``, computed by
``chunklib.course.experiment.computed_results``, keyed by ``inputs_sha256``.

    .venv/bin/python tools/build_results.py          # rewrites the file when it is stale
    .venv/bin/python tools/build_results.py --check  # exit 1 when it is stale

Stale means computed from other inputs (the fixture, the questions, the vector store, chunklib's
code) or for other strategies: a lesson then computes every number itself, correct but slower,
and tests/test_lesson6_results.py fails until this is run. ``tools/sync.py`` runs it first.

Leaves out: the vector store (``tools/build_vectors.py``; run it first when texts changed).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from chunklib.course import experiment
from chunklib.course.experiment import RESULTS, K, computed_results
from chunklib.course.sweep import RETRIEVERS
from chunklib.course.vector_store import store_strategies

ABOUT = ("Lesson 6's results, shipped so a Run all does not evaluate every strategy again: "
         "written by tools/build_results.py with chunklib.course.experiment.computed_results, "
         "read only while inputs_sha256 matches chunklib.course.experiment.inputs_sha256().")


def wanted_keys() -> list[list]:
    """(kind, size, overlap, offset, retriever) of every row the file must hold, in order."""
    return [[s.kind, s.size, s.overlap, s.offset, r] for s in store_strategies()
            for r in RETRIEVERS]


def results_text() -> str:
    """The file's text: the results computed now, one row a line."""
    data = computed_results(store_strategies(), RETRIEVERS, K)
    rows = ",\n".join("    " + json.dumps(row, ensure_ascii=False) for row in data["rows"])
    head = {"about": ABOUT, "inputs_sha256": data["inputs_sha256"], "k": data["k"],
            "columns": data["columns"]}
    return json.dumps(head, indent=2, ensure_ascii=False)[:-2] + ',\n  "rows": [\n' + rows \
        + "\n  ]\n}\n"


def is_current(path: Path) -> bool:
    """True when ``path`` holds results of these inputs for exactly the wanted rows."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False
    return (data.get("inputs_sha256") == experiment.inputs_sha256() and data.get("k") == K
            and [row[:5] for row in data.get("rows", [])] == wanted_keys())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that it is current")
    args = parser.parse_args(argv)
    path = Path(str(RESULTS))
    if is_current(path):
        print(f"{path.name} is current ({path.stat().st_size} bytes)")
        return 0
    if args.check:
        print(f"{path.name} is stale: run tools/build_results.py")
        return 1
    path.write_text(results_text(), encoding="utf-8")
    print(f"wrote {path} ({path.stat().st_size} bytes, {len(wanted_keys())} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
