"""Offline HTML of every release lesson: executed, widgets drawn from their saved state, no CDN.

    python3 course.py export                      # every lesson -> build/html/ (index.html too)
    .venv/bin/python tools/export_html.py 03-overlap --out /tmp/html

Each release notebook (what a learner receives: no solutions, no hidden tests) runs top to
bottom in a fresh kernel with nbclient, which stores the widget state in the notebook. The
answer cells still hold nbgrader's ``raise NotImplementedError()`` stub, so their error, and the
same error in the check cells that call a stub, is removed from the copy; any other error stops
the export. nbconvert's lab template then writes the HTML, with require.js, the widget renderer
(``@jupyter-widgets/html-manager``'s ``embed-amd.js``) and MathJax (SVG output, no web fonts)
loaded from ``_static/`` beside the pages instead of from CDNs, and no Mermaid loader. Open
``build/html/index.html`` from disk: nothing is fetched from the network.

The three JavaScript files come from npm packages pinned below by version and checksum. The
first export fetches them with ``npm pack`` (Node.js's npm, from the npm registry) into
``build/export-assets/``; later exports, and the browser test, use that copy offline.

Leaves out: interactivity (no kernel behind the page: explorers show their starting state),
solutions (the source notebooks are never exported), and lessons whose notebook fails for
another reason than a stub (the export stops and names the cell).

    >>> export(["03-overlap"], Path("/tmp/html"))   # -> [Path('/tmp/html/03-overlap.html')]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import html
import multiprocessing
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat
from pathlib import Path

# jsonschema (which nbformat imports) would build its optional IRI format checker's grammars,
# seconds in this process and in each worker; nothing here validates with a format checker
if "jsonschema" not in sys.modules:
    sys.modules.setdefault("rfc3987_syntax", None)
import nbformat
from jinja2 import DictLoader
from nbclient import NotebookClient
from nbconvert import HTMLExporter
from traitlets.config import Config

REPO = Path(__file__).resolve().parents[1]
RELEASE = REPO / "release"
OUT = REPO / "build" / "html"
# each lesson as the export ran it, stub errors kept (tests/test_learner_setup.py reads it)
EXECUTED = REPO / "build" / "executed"
ASSETS = REPO / "build" / "export-assets"
STATIC = "_static"

# npm spec -> (sha512 integrity of its tarball, as the registry states it,
#              {file in the tarball: its name in _static/})
PINNED = {
    # BSD-3-Clause; html-manager 1.0.x renders ipywidgets 8.1 (controls 5.0) state
    "@jupyter-widgets/html-manager@1.0.15": (
        "sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA==",
        {"package/dist/embed-amd.js": "embed-amd.js",
         "package/dist/embed.js.LICENSE.txt": "embed-amd.LICENSE.txt"},
    ),
    # MIT; the licence is in the file's header
    "requirejs@2.3.8": (
        "sha512-7/cTSLOdYkNBNJcDMWf+luFvMriVm7eYxp4BcFCsAX0wF421Vyce5SXP17c+Jd5otXKGNehIonFlyQXSowL6Mw==",
        {"package/require.js": "require.js"},
    ),
    # Apache-2.0; tex-svg.js is a single file (SVG output needs no font files)
    "mathjax@3.2.2": (
        "sha512-Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/FEsPsjKPZGJvtRZM1vO+geW0OhGw==",
        {"package/es5/tex-svg.js": "tex-svg.js", "package/LICENSE": "mathjax.LICENSE.txt"},
    ),
}

# The lab template with MathJax 3 configured for $...$ (its default MathJax 2 config block is
# inert under MathJax 3, and the widget renderer's MathJax 2 call is routed to MathJax 3), the
# UI font for widgets, and no Mermaid loader (it imports from a CDN when a page has a diagram;
# no lesson has one).
_TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js_mathjax -%}
<script>
window.MathJax = {
  tex: {inlineMath: [['$', '$'], ['\\\\(', '\\\\)']],
        displayMath: [['$$', '$$'], ['\\\\[', '\\\\]']],
        processEscapes: true, processEnvironments: true},
  svg: {fontCache: 'global'}
};
</script>
<script src="{{ resources.mathjax_url }}"></script>
<script>
// the widget renderer typesets labels with MathJax 2's Hub.Queue: route it to MathJax 3
window.MathJax.Hub = {Queue: (...jobs) => jobs.forEach((job) => {
  if (Array.isArray(job) && job[0] === 'Typeset' && job[2]) {
    MathJax.startup.promise.then(() => MathJax.typesetPromise([job[2]]));
  }
})};
</script>
{%- endblock html_head_js_mathjax -%}
{%- block extra_css -%}
<style>.jupyter-widgets { font-family: var(--jp-ui-font-family); }</style>
{%- endblock extra_css -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
"""

BANNER = ("*Offline copy of this lesson, run from top to bottom. The explorers show their starting "
          "state and do not respond here (there is no Python behind this page); open the notebook "
          "in JupyterLab to move the sliders and to write your answers.*")


class ExportError(RuntimeError):
    """A lesson could not be exported (a cell failed for another reason than a stub)."""


def release_lessons() -> list[str]:
    """Release lesson folders in reading order, e.g. ['03-overlap'].

    ``release_lessons()[0]`` -> '01-units' once lesson 1 is released
    """
    return sorted(p.name for p in RELEASE.iterdir() if p.is_dir() and any(p.glob("*.ipynb")))


def _integrity(path: Path) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def _tarball(spec: str) -> str:
    """npm pack's file name for ``spec``: '@a/b@1.0' -> 'a-b-1.0.tgz'."""
    name, _, version = spec.rpartition("@")
    return f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"


def assets_ready(cache: Path = ASSETS) -> bool:
    """True when every pinned tarball is in ``cache`` with its checksum (no npm needed then).

    ``assets_ready(Path("/nonexistent"))`` -> False
    """
    return all((cache / _tarball(spec)).is_file()
               and _integrity(cache / _tarball(spec)) == sha for spec, (sha, _f) in PINNED.items())


def fetch_assets(cache: Path = ASSETS) -> Path:
    """Fetch the pinned npm tarballs into ``cache`` with ``npm pack`` unless already there.

    ``fetch_assets()`` -> Path('build/export-assets')
    """
    cache.mkdir(parents=True, exist_ok=True)
    for spec, (sha, _files) in PINNED.items():
        target = cache / _tarball(spec)
        if target.is_file() and _integrity(target) == sha:
            continue
        npm = shutil.which("npm")
        if npm is None:
            raise ExportError("the first export needs npm (Node.js) to fetch " + spec +
                              " from the npm registry; install Node.js and run it again")
        subprocess.run([npm, "pack", spec, "--pack-destination", str(cache), "--silent",
                        "--loglevel=error"], check=True, stdout=subprocess.DEVNULL)
        if not target.is_file() or _integrity(target) != sha:
            raise ExportError(f"{spec}: the tarball's checksum is not the pinned one")
    return cache


def install_static(out: Path, cache: Path = ASSETS) -> Path:
    """Copy the needed files of the pinned tarballs into ``out/_static``.

    ``install_static(Path("build/html"))`` -> Path('build/html/_static')
    """
    static = out / STATIC
    static.mkdir(parents=True, exist_ok=True)
    for spec, (_sha, files) in PINNED.items():
        with tarfile.open(cache / _tarball(spec)) as tar:
            for member, name in files.items():
                (static / name).write_bytes(tar.extractfile(member).read())
    return static


def _is_stub_error(output) -> bool:
    return output.get("output_type") == "error" and output.get("ename") == "NotImplementedError"


def executed_release(lesson: str, timeout: int = 60, keep: Path | None = None):
    """The release notebook of ``lesson`` run in a fresh kernel, widget state saved, stub errors
    removed (``keep``: a folder that gets the run before that, as ``<lesson>.ipynb``). Raises
    ExportError on any other error.

    ``executed_release("03-overlap").metadata["widgets"]`` -> {'application/vnd.jupyter...': ...}
    """
    (path,) = sorted((RELEASE / lesson).glob("*.ipynb"))
    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / lesson
        shutil.copytree(RELEASE / lesson, work)  # the kernel runs in a copy: nothing written here
        config = Config()
        if os.name == "posix":  # lessons run side by side: unix sockets, no TCP port to race for
            config.KernelManager.transport = "ipc"
            config.KernelManager.ip = str(Path(tmp) / "kernel")
        # the kernel is stopped at once after the last cell: a graceful shutdown only makes
        # the kernel tidy up (about 0.4 s of CPU and 0.2 s of waiting per lesson)
        NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                       store_widget_state=True, config=config, shutdown_kernel="immediate",
                       resources={"metadata": {"path": str(work)}}).execute(
                           stderr=subprocess.DEVNULL)  # the kernel's own log, not cell output
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, keep / f"{lesson}.ipynb")
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for out in cell.outputs:
            if out.output_type == "error" and not _is_stub_error(out):
                raise ExportError(f"{lesson}: cell {index} failed with {out.ename}: {out.evalue}")
        cell.outputs = [o for o in cell.outputs if not _is_stub_error(o)]
    nb.cells.insert(1, nbformat.v4.new_markdown_cell(BANNER))
    return nb


def to_html(nb, title: str) -> str:
    """The lab-template HTML of an executed notebook, every script from ``_static/``.

    ``to_html(nb, "Lesson 3")`` -> '<!DOCTYPE html>...'
    """
    exporter = HTMLExporter(
        extra_loaders=[DictLoader({"offline.html.j2": _TEMPLATE})], template_file="offline.html.j2",
        require_js_url=f"{STATIC}/require.js", widget_renderer_url=f"{STATIC}/embed-amd.js",
        mathjax_url=f"{STATIC}/tex-svg.js", embed_images=True,
    )
    nb.metadata["title"] = title
    body, _resources = exporter.from_notebook_node(nb)
    return body


def _title(nb, lesson: str) -> str:
    first = nb.cells[0].source.splitlines()[0] if nb.cells and nb.cells[0].source else lesson
    return first.lstrip("# ").strip() or lesson


def _page(lesson: str, keep: Path | None) -> str:
    """The HTML page of ``lesson`` (run in a worker process of ``export``)."""
    nb = executed_release(lesson, keep=keep)
    return to_html(nb, _title(nb, lesson))


def export(lessons: list[str] | None = None, out: Path = OUT, cache: Path = ASSETS) -> list[Path]:
    """Write ``out/<lesson>.html`` for each lesson (all by default), ``out/index.html`` and
    ``out/_static/``; return the lesson pages. The lessons run side by side, one per core; into
    ``build/html`` the runs are also kept in ``EXECUTED``.

    ``export(["03-overlap"], Path("/tmp/html"))`` -> [Path('/tmp/html/03-overlap.html')]
    """
    every = release_lessons()
    lessons = list(lessons or every)
    unknown = sorted(set(lessons) - set(every))
    if unknown:
        raise ExportError(f"no such lesson in release/: {', '.join(unknown)}")
    if not assets_ready(cache):
        fetch_assets(cache)
    out.mkdir(parents=True, exist_ok=True)
    install_static(out, cache)
    pages = []
    keep = EXECUTED if out.resolve() == OUT.resolve() else None
    jobs = max(1, min(len(lessons), os.cpu_count() or 1))
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        for lesson, text in zip(lessons, pool.map(_page, lessons, repeat(keep))):
            page = out / f"{lesson}.html"
            page.write_text(text, encoding="utf-8")
            pages.append(page)
    links = []  # every exported lesson, this run's and earlier runs'
    for lesson in every:
        if (out / f"{lesson}.html").is_file():
            (path,) = sorted((RELEASE / lesson).glob("*.ipynb"))
            title = _title(nbformat.read(path, as_version=4), lesson)
            links.append(f'<li><a href="{lesson}.html">{html.escape(title)}</a></li>')
    (out / "index.html").write_text(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>Chunking Strategies: lessons (offline)</title></head><body><main>"
        "<h1>Chunking Strategies: lessons (offline)</h1><ul>" + "".join(links) +
        "</ul></main></body></html>\n", encoding="utf-8")
    return pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", help="release lesson folders (default: all)")
    parser.add_argument("--out", type=Path, default=OUT, help="output folder (default build/html)")
    args = parser.parse_args(argv)
    try:
        pages = export(args.lessons, args.out)
    except ExportError as err:
        print(f"export failed: {err}", file=sys.stderr)
        return 1
    for page in pages:
        print("wrote", page)
    print("open", args.out / "index.html", "(works offline)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
