"""The learner's path in a real browser: JupyterLab on 127.0.0.1 driven by Debian's Chromium.

Iterates over release/*/, so a new lesson is covered without touching this file. One JupyterLab
server (the venv's, with the learner settings of jupyter-settings/, and a second kernel
installed as on many learners' machines) serves a throwaway copy of release/. One browser tab
starts on the lowest-numbered lesson, as the README's first command and the Binder link do,
checks that a notebook naming no kernel gets the default one without a "Select Kernel"
question, and then follows the learner's path through every lesson:

1. Open the release notebook as a learner receives it: the kernel must start without a
   "Select Kernel" dialog or a news prompt. "Run All" must run every cell before the first
   exercise without an error or stderr (the explorer is drawn) and then stop at nbgrader's
   ``NotImplementedError`` stub: by design, the answer cells are the learner's to write.
2. Type every answer as the source notebook has it (what a learner who finished has), restart
   the kernel and "Run All": every cell must run, none may show an error or stderr. The
   explorer's first control (a slider; a drop-down where an explorer has no slider) is moved
   with the keyboard, and the plot and its text summary must change. Every widget control
   must have a name in Chromium's accessibility tree (every slider the name of its visible
   label), every plot a name, its undistorted aspect ratio and a text summary beside it.
   Saving keeps the widget state in the file.

Then every lesson of the offline export (build/html/, written by ``python3 course.py export``,
which .ci/run runs first; pages older than their inputs are exported again here) is opened
from disk in an offline browser context: no request may leave file://, the widgets must
render from their saved state with named controls, and the math must be typeset.

Screenshots and the measured figures (server start to idle kernel, run-all and redraw times)
go to build/test-output/browser/. Without Chromium (or Playwright) the tests skip locally and
fail in CI (CI=true); .ci/run installs Debian's chromium and fetches the export's pinned npm
files before the tests, which never use the network.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from html.parser import HTMLParser

import nbformat
import pytest

import course  # the repository's course.py (configure)
from tests.nbgrading import NOTEBOOKS, RELEASE, REPO, exported_since_change, lesson_notebook
from tools import export_html

pytestmark = pytest.mark.slow

LESSONS = export_html.release_lessons()
OUTPUT = REPO / "build" / "test-output" / "browser"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-quic", "--no-first-run", "--disable-component-update",
                 "--disable-sync"]
FIGURES: dict[str, object] = {}

KERNEL_IDLE = """(path) => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!w || !w.context || w.context.path !== path) { return false; }
  const k = w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.connectionStatus === 'connected' && k.status === 'idle';
}"""
# JupyterLab sometimes misses a just-restarted kernel's first status message (it restores the
# connection while the kernel starts) and shows the kernel as not idle although it is: asking
# the kernel for its info makes it publish busy/idle again, as a learner's next action would.
NUDGE = """async () => {
  const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  if (k.connectionStatus !== 'connected') { k.reconnect(); }
  await Promise.race([k.requestKernelInfo(), new Promise((r) => setTimeout(r, 5000))]);
  return k.status;
}"""
KERNEL_STATE = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return k ? `${k.connectionStatus}/${k.status}` : 'no kernel';
}"""
RESTART = """async () => {
  const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  await Promise.race([k.restart(), new Promise((r) => setTimeout(r, 30000))]);
}"""
# page.evaluate has no timeout of its own: a cell that never ends must not hang the test
RUN_ALL = """async () => {
  const t = performance.now();
  const limit = new Promise((_, reject) => setTimeout(
    () => reject(new Error('Run All took longer than 120 s')), 120000));
  await Promise.race([window.jupyterapp.commands.execute('notebook:run-all-cells'), limit]);
  return performance.now() - t;
}"""
CELLS = """() => window.jupyterapp.shell.currentWidget.content.widgets.map((c, i) => {
  const nbg = c.model.getMetadata('nbgrader') || {};
  const outs = c.model.type === 'code' ? c.model.outputs.toJSON() : [];
  return {index: i, type: c.model.type, count: c.model.type === 'code' ? c.model.executionCount
          : null, solution: !!nbg.solution, grade_id: nbg.grade_id || null,
          outputs: outs.map((o) => ({type: o.output_type, name: o.name || null,
                                     ename: o.ename || null, evalue: o.evalue || null}))};
})"""
# what a screen reader can reach inside widget outputs
CONTROLS = ("[role=slider]", "button", "img", "input", "select", "[contenteditable=true]")


def _controls(root: str = "body") -> str:
    """A CSS selector for the widget controls under ``root``."""
    return ", ".join(f"{root} .jupyter-widgets {c}" for c in CONTROLS)


def _panel(page) -> str:
    """A CSS selector for the notebook the tab shows now."""
    return "#" + page.evaluate("() => window.jupyterapp.shell.currentWidget.id")


def _problem(out: dict) -> bool:
    return out["type"] == "error" or (out["type"] == "stream" and out["name"] == "stderr")


def _need(what: str, ok: bool) -> None:
    if not ok:
        if os.environ.get("CI"):
            pytest.fail(f"{what} is missing in CI (.ci/run installs it)")
        pytest.skip(f"{what} is not installed here")


def filled_release(lesson: str):
    """The release notebook with each answer cell as the source notebook has it (no markers)."""
    release = nbformat.read(lesson_notebook(lesson, RELEASE), as_version=4)
    source = nbformat.read(lesson_notebook(lesson, NOTEBOOKS), as_version=4)
    answers = {c.metadata["nbgrader"]["grade_id"]: c.source for c in source.cells
               if c.metadata.get("nbgrader", {}).get("solution")}
    for cell in release.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if gid in answers:
            cell.source = re.sub(r"(?m)^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n?", "", answers[gid])
    return release


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _jupyterlab_race(message: str) -> bool:
    """JupyterLab's own, not the lesson's: when a kernel restarts while the front end is still
    asking it for a subshell (ipykernel 7), the pending request is cancelled and the page logs
    an uncaught "Canceled future for create_subshell_request". Seen once in about ten runs."""
    return "Canceled future for create_subshell_request" in message


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    _need("Playwright (requirements-dev.txt)", sync_playwright is not None)
    _need(f"Chromium ({CHROMIUM}; apt-get install chromium)", os.path.exists(CHROMIUM))
    OUTPUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
    (OUTPUT / "figures.json").write_text(json.dumps(FIGURES, indent=2) + "\n")


@pytest.fixture(scope="module")
def lab(browser, tmp_path_factory):
    """A JupyterLab server on 127.0.0.1 over a copy of every release lesson."""
    course.configure(sys.prefix)  # the learner settings, as setup and Binder's postBuild install
    root = tmp_path_factory.mktemp("lab")
    for lesson in LESSONS:
        shutil.copytree(RELEASE / lesson, root / "lessons" / lesson)
    bare = nbformat.read(lesson_notebook(LESSONS[0], RELEASE), as_version=4)
    bare.metadata.pop("kernelspec", None)  # a notebook that names no kernel
    nbformat.write(bare, root / "no-kernelspec.ipynb")
    home = root / ".jupyter-home"
    # a second kernel, as on many learners' machines: where a notebook names no kernel, a fresh
    # JupyterLab then asks "Select Kernel" unless autoStartDefaultKernel is on
    other = home / "data" / "kernels" / "other-python"
    other.mkdir(parents=True)
    (other / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Other Python", "language": "python"}))
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(home / "config"),
               JUPYTER_DATA_DIR=str(home / "data"), JUPYTER_RUNTIME_DIR=str(home / "runtime"),
               JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"))
    port, token = _free_port(), secrets.token_hex(16)
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
           f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
           f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
           "--LabApp.expose_app_in_browser=True"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # CI runs as root
    log = (root / "server.log").open("w")
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        while True:
            if proc.poll() is not None:
                raise AssertionError("JupyterLab exited:\n" + (root / "server.log").read_text())
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=1):
                    break
            except OSError:
                if time.perf_counter() - started > 60:
                    raise AssertionError("JupyterLab did not answer within 60 s") from None
                time.sleep(0.1)
        yield {"base": base, "token": token, "root": root, "started": started,
               "log": root / "server.log"}
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _api(lab, path: str):
    with urllib.request.urlopen(f"{lab['base']}{path}?token={lab['token']}", timeout=10) as r:
        return json.loads(r.read())


def _status(lab, path: str) -> int:
    try:
        with urllib.request.urlopen(f"{lab['base']}{path}?token={lab['token']}", timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as err:
        return err.code


def _rel(lesson: str) -> str:
    return f"lessons/{lesson}/{lesson_notebook(lesson, RELEASE).name}"


@pytest.fixture(scope="module")
def lab_page(browser, lab):
    """One JupyterLab tab for the whole module, as a learner keeps one open. It starts on the
    lowest-numbered lesson, as the README's first command and the Binder link do."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.errors = []  # uncaught exceptions on the page
    page.on("pageerror", lambda e: None if _jupyterlab_race(str(e)) else page.errors.append(str(e)))
    rel = _rel(LESSONS[0])
    t = time.perf_counter()
    # reset: a fresh workspace, with nothing reopened from an earlier session
    page.goto(f"{lab['base']}/lab/tree/{rel}?reset&token={lab['token']}")
    page.wait_for_function(KERNEL_IDLE, arg=rel, timeout=90_000, polling=50)
    FIGURES["server_start_to_idle_kernel_s"] = round(time.perf_counter() - lab["started"], 2)
    FIGURES["page_load_to_idle_kernel_s"] = round(time.perf_counter() - t, 2)
    yield page
    context.close()


def _wait_for_idle_kernel(page, rel: str, lesson: str, seconds: int = 120) -> None:
    """Wait until the notebook's kernel is connected and idle; every 20 s without that, nudge
    the kernel (``NUDGE``); when two nudges did not help, restart it once more, as a learner
    whose kernel indicator stays stuck would (``RESTART``). Both are counted in the figures, and
    a final timeout says what JupyterLab showed."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    deadline = time.perf_counter() + seconds
    tries = 0
    while True:
        try:
            page.wait_for_function(KERNEL_IDLE, arg=rel, timeout=20_000, polling=50)
            return
        except PlaywrightTimeout:
            state = page.evaluate(KERNEL_STATE)
            if time.perf_counter() > deadline:
                raise AssertionError(f"{lesson}: no idle kernel after {tries} tries: "
                                     f"{state}") from None
            tries += 1
            kind = "kernel_nudges" if tries != 3 else "kernel_restarts"
            FIGURES.setdefault(kind, {}).setdefault(lesson, []).append(state)
            page.evaluate(NUDGE if tries != 3 else RESTART)


def _open(page, rel: str) -> float:
    """Open ``rel`` in the tab (File > Open) and wait for its kernel; seconds taken."""
    page.errors.clear()
    t = time.perf_counter()
    page.evaluate("async (path) => { await window.jupyterapp.commands.execute("
                  "'docmanager:open', {path}); }", rel)
    page.wait_for_function(KERNEL_IDLE, arg=rel, timeout=90_000, polling=50)
    return time.perf_counter() - t


def _close(page) -> None:
    """Shut down the current notebook's kernel and close it without a save prompt."""
    page.evaluate("""async () => {
      const panel = window.jupyterapp.shell.currentWidget;
      await panel.sessionContext.shutdown();
      panel.dispose();
    }""")


def _ax_names(page, selector: str) -> list[tuple[str, str, str]]:
    """(Chromium role, Chromium accessible name, tag) of every element matching ``selector``."""
    cdp = page.context.new_cdp_session(page)
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    found = []
    for node_id in cdp.send("DOM.querySelectorAll", {"nodeId": root,
                                                     "selector": selector})["nodeIds"]:
        tag = cdp.send("DOM.describeNode", {"nodeId": node_id})["node"]["localName"]
        ax = cdp.send("Accessibility.getPartialAXTree",
                      {"nodeId": node_id, "fetchRelatives": False})["nodes"]
        node = ax[0] if ax else {}
        if node.get("ignored"):
            continue
        found.append((node.get("role", {}).get("value", ""),
                      str(node.get("name", {}).get("value", "")).strip(), tag))
    cdp.detach()
    return found


# ------------------------------------------------------------------ server and settings


def _setting(lab, plugin: str, key: str):
    """A setting as the front end sees it: the user's value, else the (overridden) default."""
    data = _api(lab, f"/lab/api/settings/{plugin}")
    return data["settings"].get(key, data["schema"]["properties"][key].get("default"))


def test_server_applies_the_learner_settings(lab):
    for plugin, values in json.loads((course.SETTINGS / "overrides.json").read_text()).items():
        for key, value in values.items():
            assert _setting(lab, plugin, key) == value, (plugin, key)
    for path in ("/formgrader", "/assignments", "/courses"):  # instructor and exchange pages
        assert _status(lab, path) == 404, path
    with urllib.request.urlopen(f"{lab['base']}/lab?token={lab['token']}", timeout=10) as r:
        page = r.read().decode()
    config = json.loads(re.search(r'id="jupyter-config-data"[^>]*>(.*?)</script>', page,
                                  re.S).group(1))
    disabled = set(config.get("disabledExtensions", []))
    for plugin in json.loads((course.SETTINGS / "page_config.json").read_text())[
            "disabledExtensions"]:
        assert plugin in disabled


def test_a_notebook_naming_no_kernel_starts_the_default_one_without_asking(lab_page):
    page = lab_page
    _open(page, "no-kernelspec.ipynb")  # waits for an idle kernel
    try:
        assert page.locator(".jp-Dialog").count() == 0, page.locator(".jp-Dialog").all_inner_texts()
        name = page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext"
                             ".session.kernel.name")
        assert name == "python3"
    finally:
        _close(page)


# ------------------------------------------------------------------ a lesson in JupyterLab


@pytest.fixture(scope="module", params=LESSONS)
def notebook(request, lab_page):
    """The release copy of one lesson, open in the tab with its kernel idle (one per lesson:
    the learner's path first runs it as released, then fills in the answers and runs it again).
    """
    lesson = request.param
    rel = _rel(lesson)
    seconds = _open(lab_page, rel)  # the first lesson is open already: its kernel is idle
    if lesson != LESSONS[0]:
        FIGURES.setdefault("open_to_idle_kernel_s", {})[lesson] = round(seconds, 2)
    yield {"lesson": lesson, "rel": rel, "page": lab_page}
    _close(lab_page)


def test_release_opens_with_a_kernel_and_runs_up_to_the_first_stub(notebook):
    page = notebook["page"]
    assert page.locator(".jp-Dialog").count() == 0, page.locator(".jp-Dialog").all_inner_texts()
    toasts = page.locator(".jp-Notification-Toast, .Toastify__toast")
    assert toasts.count() == 0, toasts.all_inner_texts()  # no news prompt, no error toast
    FIGURES.setdefault("run_to_first_stub_s", {})[notebook["lesson"]] = round(
        page.evaluate(RUN_ALL) / 1000, 2)
    cells = page.evaluate(CELLS)
    first_exercise = min(c["index"] for c in cells if c["solution"])
    before = [c for c in cells if c["type"] == "code" and c["index"] < first_exercise]
    assert before and all(c["count"] is not None for c in before)
    assert not [(c["index"], o) for c in before for o in c["outputs"] if _problem(o)]
    errors = [(c["index"], o["ename"]) for c in cells for o in c["outputs"]
              if o["type"] == "error"]
    assert errors, "Run All should stop at the first NotImplementedError stub"
    assert errors[0][0] >= first_exercise
    assert {e for _i, e in errors} == {"NotImplementedError"}, errors
    _explorer(page, _panel(page))  # the explorer above the exercises is drawn
    assert page.locator(".jupyter-widgets-error-widget").count() == 0
    assert not page.errors


FILL_AND_RESTART = """async (answers) => {
  const panel = window.jupyterapp.shell.currentWidget;
  let filled = 0;
  for (const cell of panel.content.widgets) {
    const gid = (cell.model.getMetadata('nbgrader') || {}).grade_id;
    if (gid in answers) { cell.model.sharedModel.setSource(answers[gid]); filled += 1; }
  }
  const limit = new Promise((_, reject) => setTimeout(
    () => reject(new Error('the kernel did not restart within 60 s')), 60000));
  await Promise.race([panel.sessionContext.session.kernel.restart(), limit]);
  return filled;
}"""


def _explorer(page, panel: str):
    """The first plot of the notebook's widgets, the summary beside it, and the explorer's first
    keyboard control (a slider, else a drop-down, else a button) with the key that moves it."""
    img = page.locator(f"{panel} .jp-OutputArea-output .jupyter-widgets img").first
    img.wait_for(state="attached", timeout=30_000)
    summary = img.locator("xpath=..").locator("[role=status]").first
    area = img.locator("xpath=ancestor::div[contains(@class,'jp-OutputArea-output')][1]")
    for selector in ("[role=slider]", "select", "button"):
        controls = area.locator(selector)
        if controls.count():
            control = controls.first
            break
    else:
        raise AssertionError("the explorer has no control")
    if selector == "[role=slider]":
        at_max = control.get_attribute("aria-valuenow") == control.get_attribute("aria-valuemax")
        key = "ArrowLeft" if at_max else "ArrowRight"
    elif selector == "select":
        last = control.evaluate("(s) => s.selectedIndex === s.options.length - 1")
        key = "ArrowUp" if last else "ArrowDown"
    else:
        key = "Enter"
    return img, summary, control, key


def test_finished_lesson_runs_clean_and_its_explorer_answers_the_keyboard(notebook, lab):
    page, lesson, rel = notebook["page"], notebook["lesson"], notebook["rel"]
    filled = filled_release(lesson)
    answers = {c.metadata["nbgrader"]["grade_id"]: c.source for c in filled.cells
               if c.metadata.get("nbgrader", {}).get("solution")}
    t = time.perf_counter()
    assert page.evaluate(FILL_AND_RESTART, answers) == len(answers)  # as a learner types them
    _wait_for_idle_kernel(page, rel, lesson)
    state = page.evaluate(NUDGE)  # the fallback itself works
    if state == "starting":  # the restart was still settling (seen once under load): wait again
        _wait_for_idle_kernel(page, rel, lesson)
        state = page.evaluate(NUDGE)
    assert state in ("idle", "busy")
    FIGURES.setdefault("restart_to_idle_kernel_s", {})[lesson] = round(time.perf_counter() - t, 2)
    run_ms = page.evaluate(RUN_ALL)
    FIGURES.setdefault("run_all_s", {})[lesson] = round(run_ms / 1000, 2)
    cells = page.evaluate(CELLS)
    code = [c for c in cells if c["type"] == "code"]
    assert all(c["count"] is not None for c in code), "Run All did not reach every cell"
    assert not [(c["index"], o) for c in code for o in c["outputs"] if _problem(o)]

    panel = _panel(page)
    img, summary, control, key = _explorer(page, panel)
    assert page.locator(".jupyter-widgets-error-widget").count() == 0
    img.scroll_into_view_if_needed()
    before_src, before_text = img.get_attribute("src"), summary.inner_text()

    # accessibility, as Chromium exposes it to a screen reader
    named = _ax_names(page, _controls(panel))
    assert named, "no widget controls found"
    assert not [n for n in named if not n[1]], [n for n in named if not n[1]]
    for slider in page.locator(f"{panel} .jp-OutputArea-output .widget-slider").all():
        label = (slider.locator(".widget-label").first.text_content() or "").strip()
        assert slider.get_by_role("slider", name=label, exact=True).count() == 1, label
    for picture in page.locator(f"{panel} .jp-OutputArea-output .jupyter-widgets img").all():
        assert (picture.get_attribute("title") or "").strip()  # its name: the short alt text
        distortion = picture.evaluate(
            "(i) => i.clientHeight ? Math.abs(i.clientWidth / i.clientHeight"
            " / (i.naturalWidth / i.naturalHeight) - 1) : 0")
        assert distortion < 0.03, f"plot drawn at another aspect ratio ({distortion:.0%})"
        beside = picture.locator("xpath=..").locator("[role=status]")  # the long one, beside it
        assert (beside.first.text_content() or "").strip()
    FIGURES.setdefault("accessible_names", {})[lesson] = sorted(
        {f"{role}: {label}" for role, label, _tag in named})

    # move the explorer's first control with the keyboard: the picture and its summary follow
    control.focus()
    t = time.perf_counter()
    page.keyboard.press(key)
    page.wait_for_function("([el, src]) => el.getAttribute('src') !== src",
                           arg=[img.element_handle(), before_src], polling="raf", timeout=15_000)
    FIGURES.setdefault("redraw_after_key_s", {})[lesson] = round(time.perf_counter() - t, 3)
    page.wait_for_function("([el, text]) => el.innerText !== text",
                           arg=[summary.element_handle(), before_text], timeout=15_000)
    page.wait_for_timeout(200)
    page.screenshot(path=str(OUTPUT / f"{lesson}.png"))

    # widget state is saved with the notebook (saveState)
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    saved = nbformat.read(lab["root"] / rel, as_version=4)
    state = saved.metadata.get("widgets", {}).get(
        "application/vnd.jupyter.widget-state+json", {}).get("state", {})
    assert state, "widget state was not saved with the notebook"
    assert not page.errors


# ------------------------------------------------------------------ the offline export


class _Assets(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script" and a.get("src"):
            self.urls.append(a["src"])
        if tag == "link" and a.get("href"):
            self.urls.append(a["href"])


@pytest.fixture(scope="module")
def exported(browser):
    """build/html as ``python3 course.py export`` writes it (.ci/run runs that command before the
    tests); a page that is missing or older than its inputs is exported again here, offline,
    from the npm files that command cached."""
    pages = {lesson: export_html.OUT / f"{lesson}.html" for lesson in LESSONS}
    stale = [lesson for lesson, page in pages.items() if not exported_since_change(page)]
    if stale:
        _need("the export's pinned npm files (run: python3 course.py export)",
              export_html.assets_ready())
        t = time.perf_counter()
        export_html.export(stale, export_html.OUT)
        FIGURES["export_s"] = {"lessons": stale, "seconds": round(time.perf_counter() - t, 2)}
    return pages


@pytest.mark.parametrize("lesson", LESSONS)
def test_offline_export_renders_its_widgets_without_network(browser, exported, lesson):
    page_file = exported[lesson]
    index = (page_file.parent / "index.html").read_text(encoding="utf-8")
    assert f'href="{lesson}.html"' in index
    parser = _Assets()
    parser.feed(page_file.read_text(encoding="utf-8"))
    for url in parser.urls:
        assert not re.match(r"^(https?:)?//", url), url
        assert (page_file.parent / url).is_file(), url
    context = browser.new_context(offline=True, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    requests, failed, errors = [], [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        t = time.perf_counter()
        page.goto(page_file.as_uri())
        img = page.locator(".jupyter-widgets img").first
        img.wait_for(state="attached", timeout=30_000)
        FIGURES.setdefault("export_widgets_rendered_s", {})[lesson] = round(
            time.perf_counter() - t, 2)
        page.wait_for_load_state("load")
        source = nbformat.read(lesson_notebook(lesson, RELEASE), as_version=4)
        if any(re.search(r"\$[^$\n]+\$", c.source) for c in source.cells
               if c.cell_type == "markdown"):
            page.wait_for_function("() => document.querySelectorAll('mjx-container').length > 0",
                                   timeout=30_000)
        page.wait_for_timeout(300)
        assert page.locator(".jupyter-widgets-error-widget").count() == 0
        assert not [u for u in requests if not u.startswith(("file:", "blob:", "data:"))]
        assert not failed and not errors, (failed, errors)
        named = _ax_names(page, _controls())
        assert named and not [n for n in named if not n[1]], named
        assert (img.get_attribute("src") or "").startswith(("blob:", "data:"))
        assert (img.get_attribute("title") or "").strip()
        assert (img.locator("xpath=..").locator("[role=status]").first.text_content() or "").strip()
        for slider in page.locator(".widget-slider").all():
            label = (slider.locator(".widget-label").first.text_content() or "").strip()
            assert slider.get_by_role("slider", name=label, exact=True).count() == 1, label
        img.scroll_into_view_if_needed()
        page.screenshot(path=str(OUTPUT / f"{lesson}-export.png"))
    finally:
        context.close()
