"""Run each autograde kernel in a bubblewrap sandbox that sees only what a kernel needs.

The kernel of a submission runs student code with whatever rights it is given. Here it gets:
read-only Python, the virtualenv and chunklib's source; an empty, size-limited /tmp as its home
and working directory (with read-only copies of the lesson's data files); no network (the kernel
talks to nbgrader over unix sockets); its own process, IPC and hostname namespaces; memory,
file-size and process limits; and, when the grader runs as root, the unprivileged uid 65534.
Nothing else of the host exists inside: not the course folder, not notebooks/ or gradebook.db,
not other submissions. nbgrader itself (which reads the hidden tests and writes the grades)
stays outside, trusted.

This file is both the library side (``kernelspec`` writes the kernel spec nbgrader launches) and
the launcher that kernel spec runs (``python -I sandbox.py SPEC CONNECTION_FILE [args]``), which
must work with the standard library alone.

Leaves out: seccomp filters and CPU quotas (the per-cell timeout bounds the time); Windows/macOS.
Example: ``kernelspec(run_dir)`` -> ``"chunklib-sandbox"``, then ``c.Execute.kernel_name`` = it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

KERNEL_NAME = "chunklib-sandbox"
NOBODY = 65534
LIMITS = {  # resource limits of the sandboxed kernel
    "RLIMIT_AS": 4 << 30,        # 4 GiB of address space: a runaway allocation fails in-cell
    "RLIMIT_FSIZE": 64 << 20,    # no file above 64 MiB
    "RLIMIT_NPROC": 256,         # no fork bomb (counted for uid 65534)
    "RLIMIT_CORE": 0,
}
TMP_BYTES = 128 << 20            # the writable /tmp (home and working directory)


def bwrap() -> str | None:
    """Path of the bubblewrap executable, or None."""
    return shutil.which("bwrap")


def _ro_paths() -> list[str]:
    """Host paths the kernel reads: system Python, the venv, editable sources (e.g. chunklib)."""
    paths = {sys.base_prefix, sys.prefix, "/usr"}
    spec = importlib.util.find_spec("chunklib")
    if spec and spec.origin:
        paths.add(str(Path(spec.origin).resolve().parent))
    return sorted(p for p in paths if Path(p).exists())


def _cached_files() -> dict[str, str]:
    """Host cache files copied read-only into the sandbox: matplotlib's font list (without it
    every kernel would rebuild it, a second or more)."""
    try:
        import matplotlib
        from matplotlib import font_manager  # noqa: F401 (writes the cache if missing)
    except ImportError:
        return {}
    return {str(p): "/tmp/.matplotlib/" + p.name
            for p in Path(matplotlib.get_cachedir()).glob("fontlist-v*.json")}


def kernelspec(run_dir: Path, *, python: str | None = None, stderr: Path | None = None) -> str:
    """Write the sandbox kernel spec under ``run_dir/share/jupyter/kernels``; return its name.

    The caller puts ``run_dir/share/jupyter`` first on JUPYTER_PATH and gives the kernel
    manager an ipc transport with an absolute, short path (``GuardedExecute.ipc_dir``). The
    kernel's own stderr (not cell output) is appended to ``stderr``.
    """
    spec = {"ro": _ro_paths(), "python": python or sys.executable, "limits": LIMITS,
            "tmp_bytes": TMP_BYTES, "as_root": os.geteuid() == 0, "files": _cached_files(),
            "stderr": str(stderr) if stderr else os.devnull}
    (run_dir / "sandbox.json").write_text(json.dumps(spec, indent=1))
    kdir = run_dir / "share" / "jupyter" / "kernels" / KERNEL_NAME
    kdir.mkdir(parents=True, exist_ok=True)
    (kdir / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-I", str(Path(__file__).resolve()),
                 str(run_dir / "sandbox.json"), "{connection_file}"],
        "display_name": "Python 3 (autograde sandbox)",
        "language": "python",
        "interrupt_mode": "message",  # a signal to the launcher would kill bwrap, not interrupt
        "metadata": {"debugger": False},
    }, indent=1))
    return KERNEL_NAME


def command(spec: dict, connection_file: str, cwd: str, extra: list[str]) -> tuple[list, int]:
    """The bwrap argv running ipykernel on ``connection_file``, and the fd bwrap reads it from."""
    conn = json.loads(Path(connection_file).read_text())
    fd = os.open(connection_file, os.O_RDONLY)
    os.set_inheritable(fd, True)
    argv = [bwrap() or "bwrap", "--die-with-parent", "--unshare-ipc", "--unshare-pid",
            "--unshare-net", "--unshare-uts", "--unshare-cgroup-try", "--hostname", "sandbox"]
    if not spec["as_root"]:
        argv += ["--unshare-user", "--cap-drop", "ALL"]
    for link in ("bin", "lib", "lib64", "sbin"):
        host = Path("/" + link)
        if host.is_symlink():
            argv += ["--symlink", os.readlink(host), "/" + link]
        elif host.is_dir():
            argv += ["--ro-bind", str(host), "/" + link]
    sock_dir = str(Path(conn["ip"]).parent) if conn.get("transport") == "ipc" else None
    if sock_dir and not Path(conn["ip"]).is_absolute():
        raise SystemExit(f"sandbox: the ipc path must be absolute, got {conn['ip']!r}")
    etc = [f for f in ("/etc/ld.so.cache", "/etc/localtime", "/etc/mime.types", "/etc/fonts")
           if Path(f).exists()]
    data = []  # the lesson's data files, read-only, where the notebook expects them
    for root, dirs, files in os.walk(cwd):
        dirs[:] = [d for d in dirs if not Path(root, d).is_symlink()]
        for name in files:
            host = Path(root, name)
            if host.suffix != ".ipynb" and host.is_file() and not host.is_symlink():
                data.append((str(host), "/tmp/work/" + str(host.relative_to(cwd))))
    data += [(h, inside) for h, inside in spec.get("files", {}).items() if Path(h).exists()]
    binds = [*spec["ro"], *etc, *([sock_dir] if sock_dir else []), *(d for _, d in data)]
    argv += ["--proc", "/proc", "--dev", "/dev",
             "--size", str(spec["tmp_bytes"]), "--tmpfs", "/tmp", "--chmod", "1777", "/tmp",
             "--perms", "1777", "--dir", "/tmp/work",
             "--perms", "1777", "--dir", "/tmp/.matplotlib"]
    parents = sorted({str(a) for b in binds for a in Path(b).parents}, key=lambda a: a.count("/"))
    for parent in parents:  # bwrap would create them 0700: closed to uid 65534
        if parent not in binds and parent not in ("/", "/usr", "/tmp", "/tmp/work",
                                                  "/tmp/.matplotlib"):
            argv += ["--perms", "0755", "--dir", parent]
    for path in [*spec["ro"], *etc]:
        argv += ["--ro-bind", path, path]
    for host, inside in data:
        argv += ["--ro-bind", host, inside]
    if sock_dir:  # the kernel creates its unix sockets here (mode 1733: it cannot list it)
        argv += ["--bind", sock_dir, sock_dir]
    argv += ["--perms", "0444", "--ro-bind-data", str(fd), "/tmp/.connection.json",
             "--clearenv", "--chdir", "/tmp/work"]
    env = {"HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8", "MPLBACKEND": "Agg",
           "MPLCONFIGDIR": "/tmp/.matplotlib", "PYTHONDONTWRITEBYTECODE": "1",
           "PATH": f"{Path(spec['python']).parent}:/usr/bin:/bin",
           "NBGRADER_EXECUTION": os.environ.get("NBGRADER_EXECUTION", "autograde")}
    for key, value in env.items():
        argv += ["--setenv", key, value]
    argv.append("--")
    if spec["as_root"]:
        argv += [shutil.which("setpriv") or "/usr/bin/setpriv", f"--reuid={NOBODY}",
                 f"--regid={NOBODY}", "--clear-groups", "--inh-caps=-all", "--bounding-set=-all",
                 "--no-new-privs"]
    argv += [spec["python"], "-m", "ipykernel_launcher", "-f", "/tmp/.connection.json", *extra]
    return argv, fd


def _limit(limits: dict, as_root: bool) -> None:
    for name, value in limits.items():
        if name == "RLIMIT_NPROC" and not as_root:
            continue  # it would count every process of the instructor's own account
        resource.setrlimit(getattr(resource, name), (value, value))


def probe() -> str | None:
    """None if the sandbox works on this machine, else why not (one line)."""
    if not sys.platform.startswith("linux"):
        return "the sandbox needs Linux (bubblewrap)"
    if not bwrap():
        return "bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    if os.geteuid() == 0 and not shutil.which("setpriv"):
        return "setpriv (util-linux) is missing: as root the kernel drops to uid 65534 with it"
    argv = [bwrap(), "--unshare-ipc", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/",
            "--proc", "/proc", "--dev", "/dev"]
    if os.geteuid() != 0:
        argv += ["--unshare-user", "--cap-drop", "ALL"]
    proc = subprocess.run([*argv, "true"], capture_output=True, text=True)
    if proc.returncode:
        return "bubblewrap cannot create namespaces here: " + proc.stderr.strip()[:200]
    return None


def main(argv: list[str]) -> None:
    """Launcher: ``sandbox.py SPEC CONNECTION_FILE [ipykernel args]`` -> exec bwrap."""
    spec = json.loads(Path(argv[0]).read_text())
    args, _fd = command(spec, argv[1], os.getcwd(), argv[2:])
    _limit(spec["limits"], spec["as_root"])
    log = os.open(spec.get("stderr", os.devnull), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    os.dup2(log, 1)  # the kernel's own chatter (not cell output) goes to the log
    os.dup2(log, 2)
    os.execvp(args[0], args)


if __name__ == "__main__":
    main(sys.argv[1:])
