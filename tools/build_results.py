"""Regenerate chunklib/data/lesson6-results.json and lesson6-hits.npz: lesson 6's totals and
diagnoses of every strategy the lesson and its explorer show
(``chunklib.course.vector_store.store_strategies()``: the lesson's strategies, the averaged
sweep's window grids, every size and overlap of the explorer) under each retriever of
``chunklib.course.sweep.RETRIEVERS`` (``chunklib.course.experiment.computed_results``), and the
hits of the explorer's strategies under each retriever (``computed_hits``), both keyed by
``inputs_sha256``.

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

import numpy as np

from chunklib.course import experiment
from chunklib.course.experiment import HITS, RESULTS, K, computed_hits, computed_results
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


def hit_keys() -> list[str]:
    """The key of every row the hits file must hold, in order."""
    return [f"{s.kind} {s.size} {s.overlap} {s.offset} {r}"
            for s in experiment.explorer_strategies() for r in RETRIEVERS]


def is_current(path: Path, hits: Path | None = None) -> bool:
    """True when ``path`` holds results of these inputs for exactly the wanted rows, and
    ``hits`` (default: the shipped hits' path) the hits of these inputs for the wanted keys."""
    hits = Path(str(HITS)) if hits is None else hits
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        with np.load(hits) as shipped:
            hits_ok = (str(shipped["inputs_sha256"]) == experiment.inputs_sha256()
                       and shipped["keys"].tolist() == hit_keys()
                       and shipped["index"].shape[2] == K)
    except FileNotFoundError:
        return False
    return (hits_ok and data.get("inputs_sha256") == experiment.inputs_sha256()
            and data.get("k") == K and [row[:5] for row in data.get("rows", [])] == wanted_keys())


def write_hits(path: Path) -> None:
    """Write the explorer's hits, computed now, to ``path``."""
    np.savez_compressed(path, **computed_hits(experiment.explorer_strategies(), K))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that it is current")
    args = parser.parse_args(argv)
    path = Path(str(RESULTS))
    if is_current(path):
        print(f"{path.name} and {Path(str(HITS)).name} are current")
        return 0
    if args.check:
        print(f"{path.name} or {Path(str(HITS)).name} is stale: run tools/build_results.py")
        return 1
    path.write_text(results_text(), encoding="utf-8")
    print(f"wrote {path} ({path.stat().st_size} bytes, {len(wanted_keys())} rows)")
    hits = Path(str(HITS))
    write_hits(hits)
    print(f"wrote {hits} ({hits.stat().st_size} bytes, {len(hit_keys())} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
