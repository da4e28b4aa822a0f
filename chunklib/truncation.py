"""What all-MiniLM-L6-v2 makes of a chunk longer than it reads, shown with its vectors (lesson 1).

sentence-transformers runs the model on at most ``MINILM_MAX_SEQ_LENGTH = 256`` word pieces,
``[CLS]`` and ``[SEP]`` included, so 254 pieces of text; the rest is dropped before the model
sees it. ``truncation(text)`` shows this with the real model (``chunklib.embedding.embed``):
the vector of the whole text and the vector of ``text[:cut]``, the text cut at the exact
character offset where the 255th piece starts (``chunklib.tokens.truncated_at``), have cosine
1.0 (to float precision): anything after the cut, such as the answer to a question, cannot
move the chunk's vector, so retrieval cannot find the chunk by it. A cut one piece earlier
does change the vector (on lesson 1's passage by about 1e-4, a thousand times float32's
rounding), so the 1.0 is not a model that ignores small edits.

The model was trained on shorter inputs: its model card says the sequence length was limited
to 128 tokens in training, and the ``tokenizer.json`` it ships truncates at 128
(``MINILM_TRAINED_LENGTH``). Pieces 127 to 254 are read, and change the vector (the text cut
at the training length has a cosine below 1 with the whole), but with positions the model
rarely saw.

The vectors come from ``chunklib.vectors.default_embedder()``: the store the course ships when
it holds a text (it holds ``truncation_texts`` of lesson 1's passage, so the lesson's cell does
not wait for the model), else the model itself. ``truncation_report`` prints the figures as the
lesson shows them.

Leaves out: other models and limits; how much a truncated vector loses for retrieval (lesson 6
measures retrieval). Texts within the limit are accepted: nothing is cut, ``ignored`` is 0.

    >>> truncation("Short text.").ignored
    0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from chunklib.tokens import (
    MINILM_MAX_SEQ_LENGTH,
    MINILM_SPECIAL_TOKENS,
    minilm_trained_length,
    truncated_at,
    wordpiece_count,
)
from chunklib.validate import require_text

__all__ = ["MINILM_TRAINED_LENGTH", "Truncation", "truncation", "truncation_texts",
           "truncation_report"]

#: The longest input all-MiniLM-L6-v2 was trained on, special tokens included (model card;
#: read from the truncation of its ``tokenizer.json``).
MINILM_TRAINED_LENGTH = minilm_trained_length()


class Truncation(NamedTuple):
    """The figures of one text: word pieces, cuts as character offsets, and cosines."""

    pieces: int            # word pieces of the whole text, [CLS] and [SEP] left out
    read: int              # the pieces the model reads: at most 254
    cut: int               # text[:cut] is what the model reads
    ignored: int           # characters after the cut: len(text) - cut
    prefix_pieces: int     # word pieces of text[:cut] (equal to read)
    cosine_prefix: float   # whole text against text[:cut]: 1.0
    one_less_cut: int      # the cut one word piece earlier
    cosine_one_less: float  # whole text against text[:one_less_cut]: below 1 when cut
    trained_cut: int       # the cut at the training length (126 pieces of text)
    cosine_trained: float  # whole text against text[:trained_cut]


def _cuts(text: str) -> tuple[int, int, int, int]:
    """(pieces read, the cut, the cut one piece earlier, the cut at the training length)."""
    read = min(wordpiece_count(text), MINILM_MAX_SEQ_LENGTH - MINILM_SPECIAL_TOKENS)
    one_less = max(MINILM_SPECIAL_TOKENS, read + MINILM_SPECIAL_TOKENS - 1)
    return (read, truncated_at(text), truncated_at(text, one_less),
            truncated_at(text, MINILM_TRAINED_LENGTH))


def truncation_texts(text: str) -> list[str]:
    """The four texts ``truncation`` embeds: ``text`` and its prefixes up to the cut, one word
    piece earlier, and at the training length.

    ``truncation_texts("Short text.")``
    -> ['Short text.', 'Short text.', 'Short text', 'Short text.']
    """
    text = require_text(text)
    _read, *cuts = _cuts(text)
    return [text, *(text[:cut] for cut in cuts)]


def truncation(text: str,
               vectors: Callable[[Sequence[str]], np.ndarray] | None = None) -> Truncation:
    """Where all-MiniLM-L6-v2 stops reading ``text``, and the cosines that show it. ``vectors``
    maps a list of texts to their unit vectors, one row each (default: the shipped store, else
    the model; pass ``chunklib.embedding.embed`` to run the model on every text).

    ``truncation("tok " * 300)[:4]`` -> (600, 254, 508, 692)
    """
    text = require_text(text)
    if vectors is None:
        from chunklib.vectors import default_embedder
        vectors = default_embedder().lookup
    elif not callable(vectors):
        raise TypeError(f"vectors must be a function of a list of texts or None, "
                        f"got {type(vectors).__name__}")
    read, cut, one_less, trained = _cuts(text)
    whole, *others = np.asarray(vectors(truncation_texts(text)), dtype=np.float64)

    def cosine(vector: np.ndarray) -> float:
        return float(whole @ vector)  # unit vectors

    return Truncation(wordpiece_count(text), read, cut, len(text) - cut,
                      wordpiece_count(text[:cut]), cosine(others[0]), one_less,
                      cosine(others[1]), trained, cosine(others[2]))


def truncation_report(text: str) -> str:
    """``truncation(text)`` as a table: the word pieces, where the model stops reading, and the
    cosine of the whole text's vector with the vectors of its beginnings.

    ``truncation_report("Short text.").splitlines()[0]``
    -> 'The text: 11 characters, 3 word pieces.'
    """
    t = truncation(text)
    with_markers = f"{t.read + MINILM_SPECIAL_TOKENS} with [CLS] and [SEP]"
    if t.ignored:
        read = (f"all-MiniLM-L6-v2 reads {t.read} of them ({with_markers}), up to character "
                f"{t.cut}:\nthe other {t.ignored} characters never reach the vector.")
    else:
        read = f"all-MiniLM-L6-v2 reads all {t.read} of them ({with_markers}): nothing is left out."
    lines = [f"The text: {len(text)} characters, {t.pieces} word pieces.", read, "",
             "Cosine of the whole text's vector with the vector of its beginning:",
             "  word pieces  characters   cosine"]
    rows = [(t.read, t.cut, t.cosine_prefix, "all the model reads"),
            (max(t.read - 1, 0), t.one_less_cut, t.cosine_one_less, "one piece fewer"),
            (wordpiece_count(text[:t.trained_cut]), t.trained_cut, t.cosine_trained,
             f"the most it was trained on ({MINILM_TRAINED_LENGTH} with [CLS] and [SEP])")]
    for pieces, cut, cosine, what in rows:
        lines.append(f"  {pieces:>11}  {f'0 to {cut}':>10}  {cosine:.5f}   {what}")
    return "\n".join(lines)
