"""Build the benchmark corpus: about 8 MB of real text and Markdown, deterministically.

Everything comes from documentation already installed in ``benchmarks/.venv`` by pinned
requirements, so no byte is downloaded and the same pins give the same corpus:

1. the Python reference manual's topics (``pydoc_data.topics``, the text ``help()`` shows);
2. per distribution in ``SOURCES``, sorted by name: its README (the long description in
   METADATA, mostly Markdown), its shipped ``.md``/``.rst``/``.txt`` files (licences included),
   then its docstrings, one Markdown document per module (``# module``, ``## name`` per
   class or function);
3. docstrings of the standard library, until the corpus reaches ``TARGET_BYTES``.

Documents are joined by a blank line; the last one is cut at a character boundary so the
file is exactly ``TARGET_BYTES`` of UTF-8 (newlines are ``\\n``). ``corpus.json`` beside this
file records the SHA-256 and the versions it was built from; a rebuild compares against it.

Leaves out: anything not installed by a pin (other transitive packages vary from machine to
machine), binary files, files over 256 KiB, JavaScript bundles under ``node_modules``.

    benchmarks/.venv/bin/python benchmarks/corpus.py            # build, compare with corpus.json
    benchmarks/.venv/bin/python benchmarks/corpus.py --record   # build and record a new sha256
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.metadata as md
import json
import platform
import sys
import sysconfig
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / ".cache" / "corpus.md"
RECORD = HERE / "corpus.json"
TARGET_BYTES = 8_000_000
MAX_FILE_BYTES = 256 * 1024
# Distributions pinned in requirements.txt (the course's) or benchmarks/requirements.txt.
SOURCES = (
    "chonkie", "hypothesis", "ipykernel", "ipywidgets", "jupyterlab", "langchain-core",
    "langchain-text-splitters", "markdown-it-py", "matplotlib", "nbclient", "nbconvert",
    "nbformat", "nbgrader", "numpy", "pydantic", "pytest", "semchunk", "semantic-text-splitter",
    "tiktoken",
)
TEXT_SUFFIXES = (".md", ".markdown", ".rst", ".txt")
NOT_PROSE = {"entry_points.txt", "top_level.txt", "dependency_links.txt", "namespace_packages.txt",
             "sources.txt", "requires.txt", "installer", "record", "wheel", "requested"}
STDLIB_SKIP = {"site-packages", "test"}  # site-packages: not the standard library


def _clean(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").strip("\n")


def docstring_document(title: str, source: str) -> str:
    """One module's docstrings as Markdown: ``# title``, then ``## Name`` per documented
    class or function, in source order; "" when the module documents nothing."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return ""
    parts = []
    module_doc = ast.get_docstring(tree)
    if module_doc:
        parts.append(module_doc)

    def visit(node, prefix: str) -> None:
        for child in node.body:
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                doc = ast.get_docstring(child)
                if doc:
                    parts.append(f"## {name}\n\n{doc}")
                if isinstance(child, ast.ClassDef):
                    visit(child, name + ".")

    visit(tree, "")
    return f"# {title}\n\n" + "\n\n".join(map(_clean, parts)) if parts else ""


def _read(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return ""
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    return "" if "\x00" in text else _clean(text)


def _readme(dist: md.Distribution) -> str:
    raw = dist.read_text("METADATA") or ""
    _, sep, body = raw.partition("\n\n")  # headers, a blank line, then the long description
    return _clean(body) if sep else ""


def _is_prose_file(rel: str) -> bool:
    lower = rel.lower()
    name = lower.rsplit("/", 1)[-1]
    if not lower.endswith(TEXT_SUFFIXES) or name in NOT_PROSE or "node_modules/" in lower:
        return False
    in_metadata = ".dist-info/" in lower or ".egg-info/" in lower
    return not in_metadata or "/licenses/" in lower or "license" in name


def distribution_documents(name: str):
    """(label, text) of one distribution: README, prose files, then module docstrings."""
    dist = md.distribution(name)
    files = sorted(dist.files or [], key=str)
    readme = _readme(dist)
    if readme:
        yield f"{name} README", readme
    for f in files:
        rel = str(f).replace("\\", "/")
        if _is_prose_file(rel):
            text = _read(Path(dist.locate_file(f)))
            if text:
                yield f"{name}:{rel}", text
    for f in files:
        rel = str(f).replace("\\", "/")
        if rel.endswith(".py") and ".dist-info/" not in rel:
            text = _read(Path(dist.locate_file(f)))
            module = rel[:-3].replace("/", ".").removesuffix(".__init__")
            doc = docstring_document(module, text) if text else ""
            if doc:
                yield f"{name}:{rel}", doc


def stdlib_documents():
    """(label, text): the reference manual's topics, then standard-library docstrings."""
    from pydoc_data.topics import topics

    yield "pydoc_data.topics", "\n\n".join(
        f"# {key}\n\n{_clean(topics[key])}" for key in sorted(topics))


def stdlib_docstrings():
    root = Path(sysconfig.get_paths()["stdlib"])
    for path in sorted(root.rglob("*.py"), key=lambda p: p.relative_to(root).as_posix()):
        rel = path.relative_to(root)
        if rel.parts[0] in STDLIB_SKIP:
            continue
        text = _read(path)
        module = rel.as_posix()[:-3].replace("/", ".").removesuffix(".__init__")
        doc = docstring_document(module, text) if text else ""
        if doc:
            yield f"stdlib:{rel.as_posix()}", doc


def versions(sources=SOURCES) -> dict[str, str]:
    """What the corpus depends on: Python's version and every source distribution's."""
    out = {"python": platform.python_version()}
    for name in sources:
        try:
            out[name] = md.version(name)
        except md.PackageNotFoundError:
            out[name] = "missing"
    return out


def build(target_bytes: int = TARGET_BYTES, sources=SOURCES) -> tuple[str, list[str]]:
    """The corpus text (exactly ``target_bytes`` of UTF-8) and the labels of its documents."""
    missing = [name for name, v in versions(sources).items() if v == "missing"]
    if missing:
        raise SystemExit(f"corpus sources not installed: {', '.join(missing)}")

    def documents():
        yield from stdlib_documents()
        for name in sorted(sources):
            yield from distribution_documents(name)
        yield from stdlib_docstrings()

    pieces, labels, used = [], [], 0
    for label, text in documents():
        data = (text + "\n\n").encode("utf-8")
        if used + len(data) >= target_bytes:
            cut = data[: target_bytes - used].decode("utf-8", errors="ignore")
            pieces.append(cut)
            labels.append(label + " (cut)")
            used += len(cut.encode("utf-8"))
            break
        pieces.append(data.decode("utf-8"))
        labels.append(label)
        used += len(data)
    text = "".join(pieces)
    if len(text.encode("utf-8")) < target_bytes - 4:
        raise SystemExit(f"the sources hold only {used} bytes; add sources to reach {target_bytes}")
    return text, labels


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def ensure(out: Path = DEFAULT_OUT, *, record: bool = False, quiet: bool = False) -> dict:
    """Build the corpus at ``out`` and compare it with ``corpus.json``; returns its facts."""
    text, labels = build()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8", newline="\n")
    facts = {"path": str(out), "bytes": out.stat().st_size, "characters": len(text),
             "documents": len(labels), "sha256": sha256_of(out), "versions": versions()}
    recorded = json.loads(RECORD.read_text()) if RECORD.exists() else None
    if record or recorded is None:
        RECORD.write_text(json.dumps({k: v for k, v in facts.items() if k != "path"},
                                     indent=2) + "\n")
        facts["matches_record"] = True
    else:
        facts["matches_record"] = recorded["sha256"] == facts["sha256"]
        if not facts["matches_record"]:
            changed = {k: (recorded["versions"].get(k), v) for k, v in facts["versions"].items()
                       if recorded["versions"].get(k) != v}
            print(f"WARNING: corpus sha256 {facts['sha256'][:12]} differs from the recorded "
                  f"{recorded['sha256'][:12]}; versions that differ (recorded, now): {changed}",
                  file=sys.stderr)
    if not quiet:
        print(f"corpus: {out} {facts['bytes']:,} bytes, {facts['characters']:,} characters, "
              f"{facts['documents']} documents, sha256 {facts['sha256']}"
              f" ({'matches' if facts['matches_record'] else 'DIFFERS FROM'} corpus.json)")
    return facts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--record", action="store_true", help="write corpus.json anew")
    args = parser.parse_args(argv)
    facts = ensure(args.out, record=args.record)
    return 0 if facts["matches_record"] else 1


if __name__ == "__main__":
    sys.exit(main())
