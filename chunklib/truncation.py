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

Leaves out: other models and limits; how much a truncated vector loses for retrieval (lesson 6
measures retrieval). Texts within the limit are accepted: nothing is cut, ``ignored`` is 0.

    >>> truncation("Short text.").ignored
    0
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from chunklib.tokens import (
    MINILM_MAX_SEQ_LENGTH,
    MINILM_SPECIAL_TOKENS,
    truncated_at,
    wordpiece_count,
)
from chunklib.validate import require_text

__all__ = ["MINILM_TRAINED_LENGTH", "Truncation", "truncation"]

#: The longest input all-MiniLM-L6-v2 was trained on, special tokens included (model card;
#: also the truncation of its ``tokenizer.json``).
MINILM_TRAINED_LENGTH = 128


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


def truncation(text: str) -> Truncation:
    """Where all-MiniLM-L6-v2 stops reading ``text``, and the cosines that show it.

    ``truncation("tok " * 300)[:4]`` -> (600, 254, 508, 692)
    """
    text = require_text(text)
    from chunklib.embedding import embed

    read = min(wordpiece_count(text), MINILM_MAX_SEQ_LENGTH - MINILM_SPECIAL_TOKENS)
    cut = truncated_at(text)
    one_less = truncated_at(text, max(MINILM_SPECIAL_TOKENS, read + MINILM_SPECIAL_TOKENS - 1))
    trained = truncated_at(text, MINILM_TRAINED_LENGTH)
    whole, *others = embed([text, text[:cut], text[:one_less], text[:trained]])

    def cosine(vector: np.ndarray) -> float:
        return float(whole.astype(np.float64) @ vector.astype(np.float64))  # unit vectors

    return Truncation(wordpiece_count(text), read, cut, len(text) - cut,
                      wordpiece_count(text[:cut]), cosine(others[0]), one_less,
                      cosine(others[1]), trained, cosine(others[2]))
