"""Timing helpers shared by the benchmark stages: medians of repeated runs, machine facts.

Leaves out: statistics beyond the median, min and max (ratios are taken between medians
measured in the same run, which is what makes two numbers comparable on a shared machine).

    >>> measure(lambda: sum(range(1000)), repeat=5)["runs"]
    5
"""

from __future__ import annotations

import gc
import importlib.metadata as md
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable


def _timed(fn: Callable[[], object]) -> tuple[float, float, object]:
    gc.collect()
    cpu, start = time.process_time(), time.perf_counter()
    out = fn()
    return time.perf_counter() - start, time.process_time() - cpu, out


def measure(fn: Callable[[], object], *, baseline: Callable[[], object] | None = None,
            repeat: int = 7, budget: float = 2.0, min_repeat: int = 3,
            warmup: bool = True) -> dict:
    """Median seconds of ``fn()`` over up to ``repeat`` runs, after one untimed warm-up run.

    Stops early once ``budget`` seconds of timed runs are spent and ``min_repeat`` runs are
    done, so a 9-second peer costs 3 runs and a 2-millisecond one ``repeat``. With a
    ``baseline``, each run of ``fn`` follows a run of the baseline and the ratios are the
    medians of the per-pair ratios, so a load that comes and goes hits both. Wall-clock and
    CPU seconds (``time.process_time``: this process only, so time spent waiting for a core
    that other work holds is left out) are both kept.
    Returns ``{"median", "min", "max", "cpu_median", "runs", "ratio", "cpu_ratio",
    "result"}`` (``result`` of the first run; ratios None without a baseline).
    """
    result = fn() if warmup else None
    if baseline is not None:
        baseline()
    times: list[float] = []
    cpus: list[float] = []
    ratios: list[float] = []
    cpu_ratios: list[float] = []
    while len(times) < repeat and (len(times) < min_repeat or sum(times) < budget):
        base = _timed(baseline) if baseline is not None else None
        elapsed, cpu, out = _timed(fn)
        times.append(elapsed)
        cpus.append(cpu)
        if base and base[0] and base[1]:
            ratios.append(elapsed / base[0])
            cpu_ratios.append(cpu / base[1])
        if result is None:
            result = out
        del out
    return {"median": statistics.median(times), "min": min(times), "max": max(times),
            "cpu_median": statistics.median(cpus), "runs": len(times),
            "ratio": statistics.median(ratios) if ratios else None,
            "cpu_ratio": statistics.median(cpu_ratios) if cpu_ratios else None,
            "result": result}


def cpu_model() -> str:
    """The CPU model name from /proc/cpuinfo (``platform.processor()`` elsewhere)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine() -> dict:
    """Python, OS, CPU model, core count, memory and the load average right now."""
    mem = "unknown"
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            kib = int(f.readline().split()[1])
            mem = f"{kib / 2**20:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return {"python": platform.python_version(), "implementation": sys.implementation.name,
            "os": platform.platform(), "cpu": cpu_model(), "cores": os.cpu_count(),
            "memory": mem, "load_average": load_average()}


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


PACKAGES = ("chunklib", "langchain-text-splitters", "langchain-core", "chonkie", "chonkie-core",
            "semchunk", "semantic-text-splitter", "tiktoken", "bpe-openai", "tokenizers",
            "numpy", "matplotlib", "ipywidgets", "ipykernel", "nbclient", "nbgrader", "pillow")


def versions(names=PACKAGES) -> dict[str, str]:
    out = {}
    for name in names:
        try:
            out[name] = md.version(name)
        except md.PackageNotFoundError:
            out[name] = "not installed"
    return out
