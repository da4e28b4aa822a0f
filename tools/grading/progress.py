"""Progress of an autograde run: a bar (done, failures, time left) and ``exports/progress.json``,
which ``tools/grade.py status`` reads while the run goes on (or after it stopped).

On a terminal the bar is redrawn in place under the per-submission lines; elsewhere (a log, CI)
each submission's line ends with the same counts. The time left is the time per submission so
far times the submissions left (submissions skipped as unchanged are not counted).

Leaves out: the grades themselves (``exports/status.json``, written by ``pipeline``).
Example: ``bar(done=12, failed=1, total=40, elapsed=30.0)`` ->
``'[#######.................] 12/40 done, 1 failed, 0:30 elapsed, about 1:10 left'``.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from pathlib import Path

WIDTH = 24
EVERY = 1.0  # seconds between writes of progress.json


def clock(seconds: float) -> str:
    """``clock(75)`` -> ``'1:15'``; hours when needed: ``clock(3725)`` -> ``'1:02:05'``."""
    s = int(round(seconds))
    if s >= 3600:
        return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


def bar(done: int, failed: int, total: int, elapsed: float) -> str:
    """One line: the bar, the counts and the time left."""
    filled = WIDTH * done // total if total else WIDTH
    left = (f", about {clock(elapsed / done * (total - done))} left" if 0 < done < total
            else "")
    return (f"[{'#' * filled}{'.' * (WIDTH - filled)}] {done}/{total} done, {failed} failed, "
            f"{clock(elapsed)} elapsed{left}")


class Tracker:
    """Counts a run's submissions; echoes each one with the counts; keeps progress.json."""

    def __init__(self, path: Path, total: int, skipped: int = 0, echo=print, how: str = "",
                 stream=None):
        self.path, self.total, self.skipped, self.echo, self.how = path, total, skipped, echo, how
        self.done = self.failed = 0
        self.start = time.monotonic()
        self.started = time.time()
        self.stream = stream if stream is not None else sys.stderr
        self.live = echo is print and getattr(self.stream, "isatty", lambda: False)()
        self._written = 0.0
        self._save(force=True)

    def line(self) -> str:
        return bar(self.done, self.failed, self.total, time.monotonic() - self.start)

    def add(self, text: str, failed: bool = False) -> None:
        """One submission finished: ``text`` says how."""
        self.done += 1
        self.failed += failed
        if self.live:
            self.stream.write("\r\033[K")
            self.echo(text)
            self.stream.write(self.line())
            self.stream.flush()
        else:
            self.echo(f"{text}  [{self.done}/{self.total}, {self.failed} failed"
                      + (f", about {clock(self._left())} left" if self.done < self.total
                         else "") + "]")
        self._save()

    def _left(self) -> float:
        return (time.monotonic() - self.start) / self.done * (self.total - self.done)

    def close(self, finished: bool = True) -> None:
        if self.live:
            self.stream.write("\r\033[K")
            self.stream.flush()
        self._save(force=True, state="finished" if finished else "stopped")

    def _save(self, force: bool = False, state: str = "running") -> None:
        now = time.monotonic()
        if not force and now - self._written < EVERY:
            return
        self._written = now
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = {"state": state, "pid": os.getpid(), "host": socket.gethostname(),
                "how": self.how, "started": self.started, "updated": time.time(),
                "elapsed": round(now - self.start, 1), "total": self.total, "done": self.done,
                "failed": self.failed, "skipped": self.skipped}
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1))
        tmp.replace(self.path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def status(path: Path) -> list[str]:
    """What ``tools/grade.py status`` prints for the run recorded in ``path``."""
    if not path.exists():
        return ["no autograde run recorded here (exports/progress.json is missing)"]
    p = json.loads(path.read_text())
    state = p["state"]
    elapsed = p["elapsed"]
    if state == "running":
        if p["host"] == socket.gethostname() and not _alive(p["pid"]):
            state = "stopped (its process is gone: run autograde again to resume)"
        else:
            elapsed += max(0.0, time.time() - p["updated"])
            state = f"running (process {p['pid']} on {p['host']})"
    elif state == "stopped":
        state = "stopped before the end: run autograde again to resume"
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(p["started"]))
    return [f"autograde {state}, started {when}" + (f" ({p['how']})" if p["how"] else ""),
            bar(p["done"], p["failed"], p["total"], elapsed),
            f"{p['skipped']} submission(s) skipped as already graded and unchanged"]
