#!/usr/bin/env python3
"""A static file server for the repo root, on 127.0.0.1 only. Stdlib only.

    python scripts/serve.py [--port 8000] [--root DIR] [--encodings br,gzip|none] [--verbose]
                                                                  (--port 0 picks a free port)

As a module (the browser tests and benchmarks use this):

    from serve import start_in_background
    server, base_url = start_in_background(port=0)   # base_url like "http://127.0.0.1:41234/"
    ...
    server.shutdown(); server.server_close()

MIME types are fixed here rather than taken from the system's /etc/mime.types, so the site is
served the same way on every machine: .mjs/.js text/javascript, .wasm application/wasm (needed
for streaming compilation), .webmanifest application/manifest+json, .zip/.whl application/zip.

Compressed delivery, as static hosts do it: when the request's Accept-Encoding allows it and a
`<file>.br` or `<file>.gz` (scripts/compress.py) at least as new as the file lies beside it, that
copy is sent with `Content-Encoding: br` (or gzip) and the file's own Content-Type; any file that
has copies is sent with `Vary: Accept-Encoding`. --encodings picks which (in order of preference;
"none" serves every file as it is); benchmarks/page.py uses gzip alone for its gzip figures.
Every response says `Cache-Control: no-cache`: the browser may keep files but revalidates them
(a cheap 304), so edits show up on reload. Logs only requests that fail, unless --verbose; the
server keeps (path, status, body bytes) of every response in `server.responses` (tests count
them, benchmarks/page.py adds up the bytes), and when each began (wall-clock seconds) at the same
index of `server.response_times`.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import email.utils
import functools
import os
import sys
import threading
import time
import urllib.parse
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import IO, Any

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
    ".mo": "application/octet-stream",
    ".po": "text/x-gettext-translation; charset=utf-8",
    ".bin": "application/octet-stream",
}
# Content-Encoding -> the suffix of the copy beside the file (scripts/compress.py).
ENCODINGS = {"br": ".br", "gzip": ".gz"}
DEFAULT_ENCODINGS = ("br", "gzip")


def accepted_encodings(header: str | None) -> set[str]:
    """The content codings an Accept-Encoding header allows (q > 0); "*" allows any not named."""
    allowed: set[str] = set()
    refused: set[str] = set()
    for item in (header or "").split(","):
        name, _, params = item.strip().partition(";")
        name = name.strip().lower()
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        (allowed if quality > 0 else refused).add(name)
    if "*" in allowed:
        allowed |= set(ENCODINGS) - refused
    return allowed - refused


class Handler(SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    logged: int | None = None  # this response's index in server.responses, once logged
    varies = False  # keep-alive: fewer connections for the ~20 files of a page
    server: StaticServer

    def guess_type(self, path: str | Any) -> str:
        suffix = Path(str(path)).suffix.lower()
        return MIME_TYPES.get(suffix) or super().guess_type(path)

    def send_header(self, keyword: str, value: str) -> None:
        logged = self.logged
        if keyword.lower() == "content-length" and logged is not None:
            path, status, _ = self.server.responses[logged]
            self.server.responses[logged] = (path, status, int(value) if self.command == "GET" else 0)
        super().send_header(keyword, value)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        if getattr(self, "varies", False):
            self.send_header("Vary", "Accept-Encoding")
        super().end_headers()

    def compressed_copy(self, path: str) -> tuple[str, str] | None:
        """(encoding, path of the copy) to send instead of the file at path, if any. Sets self.varies."""
        copies = [(name, path + suffix) for name, suffix in ENCODINGS.items() if os.path.isfile(path + suffix)]
        self.varies = bool(copies)
        allowed = accepted_encodings(self.headers.get("Accept-Encoding"))
        try:
            modified = os.stat(path).st_mtime
        except OSError:
            return None
        fresh = {name: copy for name, copy in copies if os.stat(copy).st_mtime >= modified}
        for name in self.server.encodings:
            if name in allowed and name in fresh:
                return name, fresh[name]
        return None

    def send_head(self) -> IO[bytes] | None:  # type: ignore[override]
        self.varies = False
        self.logged = None
        path = self.translate_path(self.path)
        if os.path.isdir(path) or path.endswith("/"):
            return super().send_head()  # a folder's index.html or a redirect
        chosen = self.compressed_copy(path)
        if chosen is None:
            return super().send_head()
        encoding, copy = chosen
        source = os.stat(path)
        if self.not_modified_since(source.st_mtime):
            self.send_response(HTTPStatus.NOT_MODIFIED)
            self.end_headers()
            return None
        body = open(copy, "rb")  # noqa: SIM115 - the caller copies and closes it
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", self.guess_type(path))
            self.send_header("Content-Encoding", encoding)
            self.send_header("Content-Length", str(os.fstat(body.fileno()).st_size))
            self.send_header("Last-Modified", self.date_time_string(source.st_mtime))
            self.end_headers()
        except BaseException:
            body.close()
            raise
        return body

    def not_modified_since(self, modified: float) -> bool:
        """If-Modified-Since, as SimpleHTTPRequestHandler reads it."""
        header = self.headers.get("If-Modified-Since")
        if header is None or "If-None-Match" in self.headers:
            return False
        try:
            since = email.utils.parsedate_to_datetime(header)
        except (TypeError, IndexError, OverflowError, ValueError):
            return False
        if since.tzinfo is None:
            since = since.replace(tzinfo=datetime.UTC)
        last = datetime.datetime.fromtimestamp(modified, datetime.UTC).replace(microsecond=0)
        return last <= since

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        status = int(code) if isinstance(code, int) else 0
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        with self.server.logging:
            self.logged = len(self.server.responses)  # its Content-Length, sent next, fills in the bytes
            self.server.responses.append((path, status, 0))
            self.server.response_times.append(time.time())
        if self.server.verbose or status >= 400:
            super().log_request(code, size)

    def log_error(self, format: str, *args: Any) -> None:
        if self.server.verbose:
            super().log_error(format, *args)


class StaticServer(ThreadingHTTPServer):
    daemon_threads = True  # open keep-alive connections do not block shutdown
    verbose = False
    encodings: tuple[str, ...] = DEFAULT_ENCODINGS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.responses: list[tuple[str, int, int]] = []  # (URL path, status, body bytes) of every response
        self.response_times: list[float] = []  # when each began, time.time()
        self.logging = threading.Lock()  # the two lists grow together

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser that closes a connection mid-response (navigation, test teardown) is normal.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def make_server(
    port: int = 0, root: Path | str = ROOT, host: str = HOST, verbose: bool = False,
    encodings: tuple[str, ...] = DEFAULT_ENCODINGS,
) -> tuple[StaticServer, str]:
    """Bind (port 0: a free port) and return (server, base_url); call serve_forever() to serve.
    encodings: the compressed copies to send, in order of preference (() sends every file as it is)."""
    unknown = set(encodings) - set(ENCODINGS)
    if unknown:
        raise ValueError(f"unknown encodings {sorted(unknown)}: use {sorted(ENCODINGS)}")
    handler = functools.partial(Handler, directory=str(Path(root).resolve()))
    server = StaticServer((host, port), handler)
    server.verbose = verbose
    server.encodings = tuple(encodings)
    bound_host, bound_port = server.server_address[:2]
    return server, f"http://{bound_host!s}:{bound_port}/"


def start_in_background(
    port: int = 0, root: Path | str = ROOT, host: str = HOST, verbose: bool = False,
    encodings: tuple[str, ...] = DEFAULT_ENCODINGS,
) -> tuple[StaticServer, str]:
    """Serve from a daemon thread; stop with server.shutdown() then server.server_close()."""
    server, base_url = make_server(port, root, host, verbose, encodings)
    thread = threading.Thread(target=server.serve_forever, name="static-server", daemon=True)
    thread.start()
    return server, base_url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the repo root on 127.0.0.1.")
    parser.add_argument("--port", type=int, default=8000, help="0 picks a free port (default 8000)")
    parser.add_argument("--root", type=Path, default=ROOT, help="folder to serve (default: repo root)")
    parser.add_argument("--encodings", default=",".join(DEFAULT_ENCODINGS),
                        help='compressed copies to send, by preference (default "br,gzip"; "none": none)')
    parser.add_argument("-v", "--verbose", action="store_true", help="log every request")
    args = parser.parse_args(argv)
    encodings = () if args.encodings == "none" else tuple(e.strip() for e in args.encodings.split(",") if e.strip())
    try:
        server, base_url = make_server(args.port, args.root, verbose=args.verbose, encodings=encodings)
    except ValueError as error:
        print(f"serve.py: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"serve.py: cannot listen on {HOST}:{args.port}: {error.strerror}", file=sys.stderr)
        return 1
    print(f"Serving {Path(args.root).resolve()} at {base_url}  (Ctrl-C stops)", flush=True)
    with server, contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
