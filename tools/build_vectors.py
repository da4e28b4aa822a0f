"""Regenerate chunklib/data/minilm-vectors.npz: the all-MiniLM-L6-v2 vectors of every text
``chunklib.course.vector_store.store_texts()`` lists (the fixture's chunks under the lesson-6
strategies, every question, lesson 5's index builds, lesson 1's truncation texts, lesson 2's
sentences). Vectors already in the store are kept; only missing texts are encoded, and texts no
longer wanted are dropped.

    .venv/bin/python tools/build_vectors.py          # writes the store (a few minutes, 1 core)
    .venv/bin/python tools/build_vectors.py --check  # exit 1 if the store misses a text

The vectors depend on the model and the texts only; regenerate after changing the fixture, the
questions, a chunker or the strategies (``tests/test_vectors.py`` fails until then).
"""

from __future__ import annotations

import argparse
import sys

from chunklib.course.vector_store import store_texts
from chunklib.embedding import embed
from chunklib.vectors import SHIPPED_STORE, Progress, save_store, shipped_store


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check coverage")
    args = parser.parse_args(argv)
    wanted = store_texts()
    missing = sorted(set(wanted) - set(shipped_store()))
    if args.check:
        print(f"{len(wanted)} texts wanted, {len(missing)} missing from {SHIPPED_STORE}")
        return 1 if missing else 0
    keys = sorted(missing, key=lambda key: len(wanted[key]))  # similar lengths batch well
    old = shipped_store()
    vectors = {key: old[key] for key in wanted if key in old}
    bar = Progress([len(wanted[key]) for key in keys])
    for i in range(0, len(keys), 64):
        part = keys[i:i + 64]
        vectors.update(zip(part, embed([wanted[k] for k in part]), strict=True))
        bar(i + len(part))
    save_store(str(SHIPPED_STORE), vectors)
    print(f"wrote {len(vectors)} vectors to {SHIPPED_STORE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
