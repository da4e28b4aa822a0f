"""The learner's setup without a browser: Binder files, the requirement sets (no test tools for
learners) and their stamp, the JupyterLab settings, the first lesson, what a learner sees (the
server `open` starts, the learner copy and its leak check), the raw release as a learner first
runs it, and the widget accessibility helpers headless.

Iterates over release/*/, so a new lesson is covered without touching this file. The browser
side of the same path is tests/test_browser.py.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import jsonschema
import nbformat
import pytest
from nbclient import NotebookClient
from packaging.specifiers import SpecifierSet

import course
from tests.nbgrading import RELEASE, REPO, exported_since_change, lesson_notebook
from tools import export_html

LESSONS = export_html.release_lessons()
LAB_SCHEMAS = [Path(sys.prefix) / "share/jupyter/lab/schemas",
               *sorted((Path(sys.prefix) / "share/jupyter/labextensions").glob("**/schemas"))]


def _settings(name: str) -> dict:
    return json.loads((course.SETTINGS / name).read_text(encoding="utf-8"))


# ------------------------------------------------------------------ Binder (repo2docker)


def test_binder_reads_the_repository_root():
    # repo2docker reads only binder/ (or .binder/) when one exists, and would miss these files
    assert not (REPO / "binder").exists() and not (REPO / ".binder").exists()
    for name in ("runtime.txt", "postBuild", "requirements.txt"):
        assert (REPO / name).is_file(), name


def test_runtime_is_a_python_that_nbgrader_supports():
    runtime = (REPO / "runtime.txt").read_text().strip()
    match = re.fullmatch(r"python-(\d+)\.(\d+)", runtime)
    assert match, runtime
    version = f"{match[1]}.{match[2]}"
    assert version in SpecifierSet(importlib.metadata.metadata("nbgrader")["Requires-Python"])


def test_post_build_stops_on_errors_and_configures_the_learner_settings():
    post = REPO / "postBuild"
    text = post.read_text()
    assert text.startswith("#!/bin/bash\n")
    assert re.search(r"(?m)^set -[a-z]*e", text)
    assert re.search(r"(?m)^python3? course\.py configure$", text)
    assert post.stat().st_mode & stat.S_IXUSR


def _requirements(name: str) -> list[str]:
    return [ln.strip() for ln in (REPO / name).read_text().splitlines()
            if ln.strip() and not ln.startswith("#")]


def _names(lines: list[str]) -> set[str]:
    return {re.split(r"[=\[]", ln)[0].lower().replace("_", "-") for ln in lines
            if not ln.startswith("-")}


TEST_TOOLS = {"pytest", "pytest-xdist", "ruff", "hypothesis", "playwright", "tiktoken"}


def test_requirements_install_chunklib_and_pin_everything_else():
    for name in course.REQUIREMENTS.values():
        lines = _requirements(name)
        unpinned = [ln for ln in lines
                    if ln not in ("-e .", "-r requirements.txt", "-r requirements-instructor.txt")
                    and not re.fullmatch(r"[\w.\-\[\]]+==[\w.]+", ln)]
        assert not unpinned, name
    assert "-e ." in _requirements("requirements.txt")
    assert {"jupyterlab", "ipywidgets", "nbgrader"} <= _names(_requirements("requirements.txt"))


def test_learners_and_binder_install_no_test_tools():
    learner = _names(_requirements("requirements.txt"))
    assert not learner & TEST_TOOLS, learner & TEST_TOOLS
    dev = _requirements("requirements-dev.txt")
    assert dev[0] == "-r requirements.txt"  # the test set is the learner set plus the tools
    assert _names(dev) == TEST_TOOLS
    assert list(course.REQUIREMENTS) == ["learner", "dev"]
    assert course.SETUP == {"open": "learner", "release": "learner", "export": "learner",
                            "test": "dev"}


def test_the_stamp_knows_which_set_is_installed(tmp_path, monkeypatch):
    for name in ("pyproject.toml", *course.REQUIREMENTS.values()):
        (tmp_path / name).write_text((REPO / name).read_text())
    monkeypatch.setattr(course, "ROOT", tmp_path)
    monkeypatch.setattr(course, "STAMP", tmp_path / "stamp")
    assert not course.installed("learner") and not course.installed("dev")
    course.STAMP.write_text(course._stamps("learner"))  # after `open`
    assert course.installed("learner") and not course.installed("dev")  # `test` installs more
    course.STAMP.write_text(course._stamps("dev"))  # after `test`
    assert course.installed("learner") and course.installed("dev")  # `open` installs nothing
    (tmp_path / "requirements-dev.txt").write_text("-r requirements.txt\npytest==1.0\n")
    assert course.installed("learner") and not course.installed("dev")
    (tmp_path / "requirements.txt").write_text("-e .\n")
    assert not course.installed("learner")
    (tmp_path / "requirements-dev.txt").unlink()  # a learner copy
    course.STAMP.write_text(course._stamps("learner"))
    assert course.installed("learner")


# ------------------------------------------------------------------ the JupyterLab settings


def _schema(plugin: str) -> dict:
    package, _, name = plugin.partition(":")
    for root in LAB_SCHEMAS:
        path = root / package / f"{name}.json"
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
    raise AssertionError(f"no settings schema for {plugin}")


@pytest.mark.parametrize("plugin", sorted(_settings("overrides.json")))
def test_each_override_names_a_real_setting_with_a_valid_value(plugin):
    schema = _schema(plugin)
    values = _settings("overrides.json")[plugin]
    assert set(values) <= set(schema["properties"]), plugin
    jsonschema.validate(values, {**schema, "required": []})


def test_overrides_do_what_the_learner_path_needs():
    o = _settings("overrides.json")
    assert o["@jupyterlab/notebook-extension:tracker"]["autoStartDefaultKernel"] is True
    assert o["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    assert o["@jupyterlab/apputils-extension:notification"]["checkForUpdates"] is False
    assert o["@jupyter-widgets/jupyterlab-manager:plugin"]["saveState"] is True


def test_disabled_nbgrader_parts_exist_and_validation_stays():
    plugins = _settings("page_config.json")["disabledExtensions"]
    bundle = "".join(p.read_text(encoding="utf-8", errors="ignore") for p in
                     (Path(sys.prefix) / "share/jupyter/labextensions/@jupyter/nbgrader/static")
                     .glob("*.js"))
    for plugin in plugins:
        assert f'"{plugin}"' in bundle, plugin
    instructor = ("assignment-list", "course-list", "create-assignment", "formgrader", "menu")
    assert set(plugins) == {f"@jupyter/nbgrader:{n}" for n in instructor}
    server = _settings("jupyter_server_config.json")["ServerApp"]["jpserver_extensions"]
    for module, enabled in server.items():
        assert importlib.util.find_spec(module) is not None, module
        assert enabled is False
    assert "nbgrader.server_extensions.validate_assignment" not in server  # a learner's tool


def test_configure_merges_into_an_environment_and_is_idempotent(tmp_path):
    page_config = tmp_path / "etc/jupyter/labconfig/page_config.json"
    page_config.parent.mkdir(parents=True)
    page_config.write_text(json.dumps({"disabledExtensions": {"other:plugin": True},
                                       "someKey": 1}))
    changed = course.configure(tmp_path)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in changed) == sorted(
        course.LEARNER_CONFIG.values())
    merged = json.loads(page_config.read_text())
    assert merged["someKey"] == 1 and merged["disabledExtensions"]["other:plugin"] is True
    assert all(merged["disabledExtensions"][p] for p in
               _settings("page_config.json")["disabledExtensions"])
    assert course.configure(tmp_path) == []  # nothing left to change
    for name, rel in course.LEARNER_CONFIG.items():
        installed = json.loads((tmp_path / rel).read_text())
        assert course._merge(installed, _settings(name)) == installed


@pytest.mark.slow
def test_this_environment_has_the_learner_settings(tmp_path):
    course.configure(sys.prefix)  # what setup and Binder's postBuild do; idempotent
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path))  # no personal config
    jupyter = [sys.executable, "-m", "jupyter"]
    out = subprocess.run([*jupyter, "server", "extension", "list"], env=env, text=True,
                         capture_output=True, check=True)
    text = re.sub(r"\x1b\[[0-9;]*m", "", out.stdout + out.stderr)
    for module in _settings("jupyter_server_config.json")["ServerApp"]["jpserver_extensions"]:
        assert re.search(rf"{re.escape(module)} disabled", text), module
    assert re.search(r"nbgrader\.server_extensions\.validate_assignment enabled", text)
    out = subprocess.run([*jupyter, "labextension", "list"], env=env, text=True,
                         capture_output=True, check=True)
    text = re.sub(r"\x1b\[[0-9;]*m", "", out.stdout + out.stderr)
    disabled = text.split("Disabled extensions:", 1)[1]
    for plugin in _settings("page_config.json")["disabledExtensions"]:
        assert plugin in disabled, plugin
    overrides = Path(sys.prefix) / course.LEARNER_CONFIG["overrides.json"]
    assert course._merge(json.loads(overrides.read_text()), _settings("overrides.json")) == (
        json.loads(overrides.read_text()))


# ------------------------------------------------------------------ the first lesson


def test_open_shows_the_lowest_numbered_release_lesson():
    first = LESSONS[0]
    assert course.first_lesson() == f"release/{first}/{lesson_notebook(first, RELEASE).name}"


@pytest.mark.parametrize("lesson", LESSONS)
def test_release_names_its_kernel(lesson):
    # without it, JupyterLab asks "Select Kernel" where several kernels are installed
    nb = nbformat.read(lesson_notebook(lesson, RELEASE), as_version=4)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"


def test_readme_binder_link_opens_the_first_lesson():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    first_block = re.search(r"```(?:bash|sh)?\n(.*?)```", readme, re.S)[1]
    assert first_block.lstrip().startswith("python3 course.py open"), "the README's first command"
    links = re.findall(r"mybinder\.org/v2/[^\s)]*\?urlpath=lab/tree/([^\s)&\"']+)", readme)
    assert links, "README: add the Binder link (?urlpath=lab/tree/<first release lesson>)"
    for target in links:
        if not (REPO / target).is_file() and not LESSONS[0].startswith("01-"):
            pytest.skip(f"{target}: lesson 1 is not released yet")
        assert target == course.first_lesson(), target


# ------------------------------------------------------------------ what a learner sees


def test_open_roots_jupyterlab_at_the_release():
    root, first = course.lab_args()
    assert root == f"--ServerApp.root_dir={RELEASE}"
    assert Path(first) == REPO / course.first_lesson() and RELEASE in Path(first).parents


@pytest.mark.slow
def test_open_shows_the_learner_only_the_lessons(tmp_path):
    """The server `course.py open` starts: its file browser lists the lessons and nothing else,
    the source notebooks and the tests are out of its reach, and it opens lesson 1."""
    import secrets
    import socket
    import time
    import urllib.error
    import urllib.request

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    token = secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
               JUPYTER_DATA_DIR=str(tmp_path / "data"),
               JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"))
    cmd = [sys.executable, "-m", "jupyterlab", *course.lab_args(), "--no-browser",
           "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
           f"--IdentityProvider.token={token}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    log = (tmp_path / "server.log").open("w")
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)

    def get(path: str):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}?token={token}",
                                        timeout=5) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as err:
            return err.code, None

    try:
        started = time.perf_counter()
        while True:
            assert proc.poll() is None, (tmp_path / "server.log").read_text()
            try:
                get("/api/status")
                break
            except OSError:
                assert time.perf_counter() - started < 60, "JupyterLab did not answer in 60 s"
                time.sleep(0.2)
        status, listing = get("/api/contents/")
        assert status == 200
        assert sorted(item["name"] for item in listing["content"]) == LESSONS
        for outside in ("../notebooks", "../tests", "..", "../README.md"):
            assert get(f"/api/contents/{outside}")[0] in (404, 400, 403), outside
        opened = "".join(f.read_text() for f in (tmp_path / "runtime").glob("*open*.html"))
        assert f"lab/tree/{Path(course.first_lesson()).relative_to('release')}" in opened
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _leaks(folder: Path) -> list[str]:
    """What in ``folder`` a learner must never get: instructor folders, solution or hidden-test
    markers, and answer cells that are not nbgrader's stub."""
    found = [name for name in course.INSTRUCTOR_ONLY if (folder / name).exists()]
    for path in folder.rglob("*"):
        if not path.is_file() or path.suffix not in (".ipynb", ".py", ".md", ".txt", ".json"):
            continue
        text = path.read_text(encoding="utf-8", errors="ignore")
        for mark in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS"):
            if f"### {mark}" in text:
                found.append(f"{path.relative_to(folder)}: {mark}")
        if path.suffix == ".ipynb":
            found += [f"{path.relative_to(folder)}: answer in {gid}"
                      for gid in course.answered_cells(path)]
    return found


def test_learner_copy_holds_the_course_and_no_solution(tmp_path):
    feedback = RELEASE / LESSONS[0] / "page.feedback.html"  # what `course.py grade` writes
    feedback.write_text("<html></html>", encoding="utf-8")
    try:
        dest = course.learner_copy(tmp_path / "learner")
    finally:
        feedback.unlink()
    assert not list(dest.rglob("*.feedback.html"))
    assert sorted(p.name for p in dest.iterdir()) == sorted({*course.LEARNER_FILES, "README.md"})
    assert _leaks(dest) == []
    assert sorted(p.name for p in (dest / "release").iterdir()) == LESSONS
    for lesson in LESSONS:
        for nb in (RELEASE / lesson).glob("*.ipynb"):
            assert (dest / "release" / lesson / nb.name).read_bytes() == nb.read_bytes()
    assert (dest / "postBuild").stat().st_mode & stat.S_IXUSR
    assert not list(dest.rglob("__pycache__"))
    readme = (dest / "README.md").read_text(encoding="utf-8")
    assert readme.lstrip("# \n").startswith("Chunking Strategies")
    first = re.search(r"```(?:bash|sh)?\n(.*?)```", readme, re.S)[1]
    assert first.strip().startswith("python3 course.py open")
    for target in re.findall(r"mybinder\.org/v2/[^\s)]*\?urlpath=lab/tree/([^\s)&\"']+)", readme):
        assert (dest / target).is_file(), target
    assert "test" not in re.findall(r"course\.py (\w+)", readme)


def test_the_leak_check_sees_a_solution(tmp_path):
    """The control: a copy with the source notebooks, or an answered release, is caught."""
    dest = course.learner_copy(tmp_path / "learner")
    nb = dest / course.first_lesson()
    source = lesson_notebook(LESSONS[0])
    nb.write_text(source.read_text(encoding="utf-8").replace("### BEGIN SOLUTION", ""),
                  encoding="utf-8")
    assert any("answer in" in item for item in _leaks(dest))
    (dest / "notebooks").mkdir()
    assert "notebooks" in _leaks(dest)
    answered = tmp_path / "answered"
    (answered / "release" / LESSONS[0]).mkdir(parents=True)
    shutil.copy(nb, answered / "release" / LESSONS[0])
    with pytest.raises(SystemExit, match="holds answers"):
        _copy_from(answered, tmp_path / "second")


def _copy_from(root: Path, dest: Path):
    old = course.ROOT
    course.ROOT = root
    try:
        return course.learner_copy(dest)
    finally:
        course.ROOT = old


def test_learner_copy_refuses_a_folder_in_use_or_inside_the_repository(tmp_path):
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "work.ipynb").write_text("{}")
    with pytest.raises(SystemExit, match="not empty"):
        course.learner_copy(tmp_path / "used")
    with pytest.raises(SystemExit, match="inside the course repository"):
        course.learner_copy(REPO / "build" / "learner")


def test_a_learner_copy_says_which_commands_it_lacks(tmp_path):
    dest = course.learner_copy(tmp_path / "learner")
    for command in ("test", "release", "export"):
        out = subprocess.run([sys.executable, str(dest / "course.py"), command],
                             capture_output=True, text=True)
        assert out.returncode != 0 and "learner copy" in out.stderr, (command, out.stderr)
        assert not (dest / ".venv").exists()  # it stopped before any setup


# ------------------------------------------------------------------ the raw release, headless


@pytest.mark.slow
@pytest.mark.parametrize("lesson", LESSONS)
def test_raw_release_errors_only_at_the_stubs(lesson, tmp_path, kernel_config):
    """Every cell run on its own (allow_errors): the cells before the first exercise run clean,
    and every error anywhere is nbgrader's NotImplementedError stub, raised by an answer cell
    or by a check that calls a stub. The run is the export's (``python3 course.py export``, which
    .ci/run runs before the tests, keeps it in build/executed/) when it is newer than all it
    depends on; else the notebook is run here the same way."""
    kept = export_html.EXECUTED / f"{lesson}.ipynb"
    if exported_since_change(kept):
        nb = nbformat.read(kept, as_version=4)
    else:
        nb = nbformat.read(lesson_notebook(lesson, RELEASE), as_version=4)
        NotebookClient(nb, timeout=60, kernel_name="python3", allow_errors=True,
                       config=kernel_config, resources={"metadata": {"path": str(tmp_path)}}
                       ).execute(stderr=subprocess.DEVNULL)
    first = min(i for i, c in enumerate(nb.cells)
                if c.metadata.get("nbgrader", {}).get("solution"))
    problems = [(i, o.get("ename") or o.get("text", "")[:100]) for i, c in enumerate(nb.cells)
                if c.cell_type == "code" for o in c.outputs
                if o.output_type == "error" or (o.output_type == "stream" and o.name == "stderr")]
    assert not [p for p in problems if p[0] < first], problems
    assert problems and {p[1] for p in problems} == {"NotImplementedError"}, problems
    sent = [o for c in nb.cells[:first] if c.cell_type == "code" for o in c.outputs
            if "application/javascript" in o.get("data", {})]
    assert sent, "the explorer should send chunklib's widget accessibility script"


# ------------------------------------------------------------------ widgets, headless


def test_widget_helpers_send_nothing_outside_a_kernel(capsys):
    from chunklib.widgets.explorer import int_slider, send_widget_a11y

    assert send_widget_a11y() is False
    int_slider("chunk size C", 200, 1, 500)
    assert capsys.readouterr().out == ""


def test_plot_image_carries_its_alt_text_as_a_synced_tooltip():
    from chunklib.widgets.explorer import Layers, PlotImage

    png = Layers(2, 2).draw(frame=lambda: None, data=lambda: [])
    img = PlotImage(value=png, tooltip="Plot of nothing")
    assert isinstance(img, PlotImage) and img.tooltip == "Plot of nothing"
    state = img.get_state()
    assert state["description"] == "" and state["tooltip"] == "Plot of nothing"
    img.value, img.tooltip = png, "Plot of something"
    assert img.tooltip == "Plot of something" and img.value[:4] == b"\x89PNG"


def test_accessibility_script_labels_sliders_and_frees_their_keys():
    from chunklib.widgets.explorer import WIDGET_A11Y_JS

    for needle in ("aria-label", "aria-description", "data-lm-suppress-shortcuts",
                   "MutationObserver", "[role=\"slider\"]", "select"):
        assert needle in WIDGET_A11Y_JS, needle


def test_export_pins_its_npm_files():
    for spec, (integrity, files) in export_html.PINNED.items():
        assert re.fullmatch(r"(@[\w-]+/)?[\w.-]+@\d+\.\d+\.\d+", spec), spec
        assert re.fullmatch(r"sha512-[A-Za-z0-9+/]{86}==", integrity), spec
        assert files
    assert export_html._tarball("@jupyter-widgets/html-manager@1.0.15") == (
        "jupyter-widgets-html-manager-1.0.15.tgz")
    assert not export_html.assets_ready(Path("/nonexistent"))


@pytest.mark.parametrize("args", [["-h"], ["configure", "--help"], ["learner-copy", "-h"],
                                  ["release", "--help"]])
def test_help_prints_the_commands_and_does_nothing_else(args, tmp_path):
    assert course.asks_for_help(args)
    done = subprocess.run([sys.executable, str(REPO / "course.py"), *args], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "python3 course.py learner-copy DEST" in done.stdout
    assert not list(tmp_path.iterdir())  # configure --help made a folder named --help


def test_help_after_test_or_grade_is_the_tool_s_own():
    assert not course.asks_for_help(["test", "--help"])  # pytest's help
    assert not course.asks_for_help(["grade", "-h"])      # the self-grader's
