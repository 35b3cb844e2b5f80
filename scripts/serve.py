#!/usr/bin/env python3
"""A static file server for the repo root, on 127.0.0.1 only. Stdlib only.

    python scripts/serve.py [--port 8000] [--root DIR] [--verbose]    (--port 0 picks a free port)

As a module (the browser tests and benchmarks use this):

    from serve import start_in_background
    server, base_url = start_in_background(port=0)   # base_url like "http://127.0.0.1:41234/"
    ...
    server.shutdown(); server.server_close()

MIME types are fixed here rather than taken from the system's /etc/mime.types, so the site is
served the same way on every machine: .mjs/.js text/javascript, .wasm application/wasm (needed
for streaming compilation), .webmanifest application/manifest+json, .zip application/zip.
Every response says `Cache-Control: no-cache`: the browser may keep files but revalidates them
(a cheap 304), so edits show up on reload. Logs only requests that fail, unless --verbose.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".tar": "application/x-tar",
    ".gz": "application/gzip",
    ".py": "text/x-python; charset=utf-8",
    ".toml": "application/toml; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".ico": "image/x-icon",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
}


class Handler(SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: fewer connections for the ~20 files of a page
    server: StaticServer

    def guess_type(self, path: str | Any) -> str:
        suffix = Path(str(path)).suffix.lower()
        return MIME_TYPES.get(suffix) or super().guess_type(path)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        status = int(code) if isinstance(code, int) else 0
        if self.server.verbose or status >= 400:
            super().log_request(code, size)

    def log_error(self, format: str, *args: Any) -> None:
        if self.server.verbose:
            super().log_error(format, *args)


class StaticServer(ThreadingHTTPServer):
    daemon_threads = True  # open keep-alive connections do not block shutdown
    verbose = False

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser that closes a connection mid-response (navigation, test teardown) is normal.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def make_server(
    port: int = 0, root: Path | str = ROOT, host: str = HOST, verbose: bool = False
) -> tuple[StaticServer, str]:
    """Bind (port 0: a free port) and return (server, base_url); call serve_forever() to serve."""
    handler = functools.partial(Handler, directory=str(Path(root).resolve()))
    server = StaticServer((host, port), handler)
    server.verbose = verbose
    bound_host, bound_port = server.server_address[:2]
    return server, f"http://{bound_host!s}:{bound_port}/"


def start_in_background(
    port: int = 0, root: Path | str = ROOT, host: str = HOST, verbose: bool = False
) -> tuple[StaticServer, str]:
    """Serve from a daemon thread; stop with server.shutdown() then server.server_close()."""
    server, base_url = make_server(port, root, host, verbose)
    thread = threading.Thread(target=server.serve_forever, name="static-server", daemon=True)
    thread.start()
    return server, base_url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the repo root on 127.0.0.1.")
    parser.add_argument("--port", type=int, default=8000, help="0 picks a free port (default 8000)")
    parser.add_argument("--root", type=Path, default=ROOT, help="folder to serve (default: repo root)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every request")
    args = parser.parse_args(argv)
    try:
        server, base_url = make_server(args.port, args.root, verbose=args.verbose)
    except OSError as error:
        print(f"serve.py: cannot listen on {HOST}:{args.port}: {error.strerror}", file=sys.stderr)
        return 1
    print(f"Serving {Path(args.root).resolve()} at {base_url}  (Ctrl-C stops)", flush=True)
    with server, contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
