#!/usr/bin/env python3
"""Run chunklib's benchmarks on demand (never part of the test suite).

    python3 benchmarks/run.py              # everything: ~6 min on an idle 2-core machine
    python3 benchmarks/run.py corpus       # only (re)build the 8 MB corpus and check its sha256
    python3 benchmarks/run.py peers learner instructor   # chosen stages (see below)
    python3 benchmarks/run.py --quick      # fewer repeats: a minute or two, rougher numbers

Setup: creates ``benchmarks/.venv`` with the interpreter that runs this file and installs
``benchmarks/requirements.txt`` into it (the course's pinned requirements plus the pinned
peers; again only when a requirements file changed), then re-runs itself inside that venv.
The course's own requirements and ``.venv`` are never touched.

Stages, one after the other (never in parallel: the kernels and the timed code share the
machine's cores), each in a fresh interpreter:

1. corpus: build ``benchmarks/.cache/corpus.md`` unless its sha256 already matches
   ``benchmarks/corpus.json``;
2. peers: throughput against the peers and the floor (``peers.py``);
3. learner: slider redraws, then every lesson top to bottom (``learner.py``);
4. instructor: autograde per student (``instructor.py``).

A full run writes ``benchmarks/results.md`` and ``benchmarks/results.json`` (date, machine,
versions, corpus sha256, tables, targets). A run of chosen stages writes
``benchmarks/.cache/partial-results.md`` instead, so the committed results always come from
one complete run.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
import venv
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
VENV = HERE / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
CACHE = HERE / ".cache"
STAGES = ("corpus", "peers", "learner", "instructor")


def _stamp() -> str:
    files = (HERE / "requirements.txt", ROOT / "requirements.txt",
             ROOT / "requirements-dev.txt", ROOT / "pyproject.toml")
    data = b"".join(f.read_bytes() for f in files)
    return hashlib.sha256(data + sys.version.encode()).hexdigest()


def setup() -> None:
    """Create benchmarks/.venv and install the pinned requirements (skipped when current)."""
    if sys.version_info[:2] < (3, 11):  # noqa: UP036 (run by any python3)
        sys.exit(f"Python 3.11 or newer is needed, this is {sys.version.split()[0]}")
    stamp_file = VENV / ".bench-stamp"
    if stamp_file.exists() and stamp_file.read_text() == _stamp():
        return
    print(f"Setting up {VENV} (a few minutes the first time) ...", flush=True)
    if not PY.exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    pip = [str(PY), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "-r", str(HERE / "requirements.txt")], check=True, cwd=ROOT)
    stamp_file.write_text(_stamp())


def _inside_venv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


def _env() -> dict[str, str]:
    env = dict(os.environ, PATH=str(BIN) + os.pathsep + os.environ.get("PATH", ""))
    env.update(MPLBACKEND="Agg", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
               PYTHONDONTWRITEBYTECODE="1")
    env.pop("JUPYTER_CONFIG_DIR", None)
    return env


def _stage(script: str, *args: str) -> dict:
    out = CACHE / f"{script}.json"
    out.unlink(missing_ok=True)
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, str(HERE / f"{script}.py"), "--json", str(out),
                           *args], cwd=ROOT, env=_env())
    print(f"[{script}: {time.perf_counter() - started:.0f} s]", flush=True)
    if proc.returncode or not out.exists():
        return {"error": f"{script}.py exited {proc.returncode}"}
    return json.loads(out.read_text())


def corpus_stage(force: bool = False) -> dict:
    sys.path.insert(0, str(HERE))
    import corpus

    record = json.loads(corpus.RECORD.read_text()) if corpus.RECORD.exists() else None
    path = corpus.DEFAULT_OUT
    if not force and record and path.exists() and corpus.sha256_of(path) == record["sha256"]:
        text = path.read_text(encoding="utf-8")
        facts = {**record, "path": str(path), "matches_record": True,
                 "characters": len(text)}
        print(f"corpus: {path} is current (sha256 {record['sha256']})", flush=True)
        return facts
    return corpus.ensure(path)


def orchestrate(stages: list[str], quick: bool) -> int:
    sys.path.insert(0, str(HERE))
    import report
    import timing

    CACHE.mkdir(exist_ok=True)
    started = time.perf_counter()
    data = {"date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "command": "python3 benchmarks/run.py" + (" --quick" if quick else ""),
            "machine": timing.machine(), "versions": timing.versions()}
    full = stages == list(STAGES)
    data["corpus"] = corpus_stage(force=stages == ["corpus"])
    if stages == ["corpus"]:
        return 0 if data["corpus"]["matches_record"] else 1
    corpus_path = data["corpus"]["path"]
    if "peers" in stages:
        data["peers"] = _stage("peers", "--corpus", corpus_path,
                               "--repeat", "3" if quick else "7")
    if "learner" in stages:
        data["learner"] = _stage("learner", "--rounds", "1" if quick else "5",
                                 "--moves", "7" if quick else "21")
    if "instructor" in stages:
        data["instructor"] = _stage("instructor", "--students", "1" if quick else "5")
    data["seconds"] = time.perf_counter() - started
    data["load_average_end"] = timing.load_average()
    if full and not quick:
        report.write(data)
        target = HERE / "results.md"
    else:
        (CACHE / "partial-results.json").write_text(json.dumps(data, indent=2))
        target = CACHE / "partial-results.md"
        target.write_text(report.markdown(data))
    print(f"\nwrote {target.relative_to(ROOT)} in {data['seconds']:.0f} s\n")
    for t in report.targets(data):
        met = {True: "met", False: "MISSED", None: "?"}[t["met"]]
        print(f"  {met:7} {t['target']}: {t['measured']}")
    return 0


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    stages = [a for a in argv if not a.startswith("-")] or list(STAGES)
    unknown = set(stages) - set(STAGES)
    if unknown or any(a.startswith("-") and a != "--quick" for a in argv):
        sys.exit(__doc__)
    if not _inside_venv():
        setup()
        return subprocess.run([str(PY), __file__, *argv], cwd=ROOT, env=_env()).returncode
    if "corpus" not in stages:
        stages = ["corpus", *stages]
    stages = [s for s in STAGES if s in stages]
    return orchestrate(stages, quick)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
