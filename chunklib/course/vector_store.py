"""What the shipped vector store (``chunklib/data/minilm-vectors.npz``) must hold: the
all-MiniLM-L6-v2 inputs lessons 1, 5 and 6 embed, so none of them waits for the model.

``store_strategies`` lists every strategy whose fixture chunks the store covers and
``store_texts`` every text: those chunks' retrieval texts, the questions, lesson 5's index
builds and explorer edits, the four texts lesson 1's truncation step compares
(``truncation_texts``), and the sentences lesson 2's semantic chunking embeds
(``boundaries.semantic_texts``).
``tools/build_vectors.py`` writes the store; ``tests/test_vectors.py`` checks it covers
``store_texts()``.

Leaves out: reading and writing the store and the embedder that uses it (``chunklib.vectors``).

    >>> Strategy("structure", 400) in store_strategies()
    True
"""

from __future__ import annotations

from chunklib.course.boundaries import semantic_texts
from chunklib.course.edits import MATRIX, edit_texts
from chunklib.course.experiment import LESSON_STRATEGIES, chunk_dicts, explorer_strategies
from chunklib.course.fixture import load_source, load_sources
from chunklib.course.lifecycle import RENAMED
from chunklib.course.passages import sample_passage
from chunklib.course.questions import load_questions
from chunklib.course.sweep import SWEEP_SIZE, window_offsets
from chunklib.experiment import Strategy, sweep_overlaps
from chunklib.identity import sha256_hex
from chunklib.lifecycle import rename_heading
from chunklib.structure import structure_chunks
from chunklib.truncation import truncation_texts


def store_strategies() -> list[Strategy]:
    """Every strategy whose fixture chunks the shipped vector store covers: the lesson's
    strategies, the averaged sweep's window grids, and the explorer's (every size of
    ``SIZES``: windows at each overlap of its sweep, structure-aware chunks, which
    parent-child retrieval uses too).

    ``len(store_strategies()) > len(LESSON_STRATEGIES)`` -> True
    """
    out = list(LESSON_STRATEGIES)
    for overlap in sweep_overlaps(SWEEP_SIZE):
        out += [Strategy("windows", SWEEP_SIZE, overlap, o)
                for o in window_offsets(SWEEP_SIZE, overlap)]
    return list(dict.fromkeys(out + explorer_strategies()))


def store_texts() -> dict[str, str]:
    """retrieval hash -> text of everything the shipped store holds: the fixture's chunks
    under ``store_strategies()`` (lesson 6), the questions, lesson 5's index builds
    (structure chunks at the default size of the fixture and of the lesson's two renames) and
    its explorer's edits (``edits.edit_texts``), lesson 1's passage with the three beginnings
    ``truncation`` compares it with, and lesson 2's sentences (``semantic_texts``).

    ``len(store_texts()) > 1000`` -> True
    """
    texts = {c["retrieval_text"] for s in store_strategies() for c in chunk_dicts(s)}
    texts |= {q.question for q in load_questions()}
    guide = load_source("deployment-guide")
    for source in [*load_sources(), rename_heading(guide, MATRIX, RENAMED),
                   rename_heading(guide, MATRIX[:1], "Harbor " + MATRIX[0])]:
        texts |= {c.retrieval_text for c in structure_chunks(source)}
    texts |= edit_texts()  # lesson 5's explorer: every edit at every section
    texts |= set(truncation_texts(sample_passage()))
    texts |= set(semantic_texts())
    return {sha256_hex(t): t for t in sorted(texts)}
