"""The built site served from 127.0.0.1, as a static host that honours the build's compressed
files: a request for ``NAME`` whose ``Accept-Encoding`` names ``br`` (or ``gzip``) gets the
bytes of ``NAME.br`` (``NAME.gz``) with ``Content-Encoding``, as nginx's ``brotli_static`` and
``gzip_static`` do. It keeps what each response moved (``server.sent``). Used by the tests of
the site and by bench/browser_checker.py."""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import threading
from pathlib import Path
from typing import ClassVar

#: Content-Encoding -> the suffix of the file that holds it, in the order preferred.
ENCODINGS = {"br": ".br", "gzip": ".gz"}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
    }

    def log_message(self, *args) -> None:
        pass

    def handle(self) -> None:  # a page left before its last file arrived is not an error
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            super().handle()

    def send_header(self, keyword: str, value: str) -> None:
        if keyword == "Content-Length":  # what each response moves: the server's `sent`
            self.server.sent.append((self.path, int(value)))
        super().send_header(keyword, value)

    def send_head(self):
        path = self.translate_path(self.path)
        accepted = {e.split(";")[0].strip() for e in self.headers.get("Accept-Encoding", "").split(",")}
        for encoding, suffix in ENCODINGS.items():
            if encoding in accepted and os.path.isfile(path + suffix):
                body = open(path + suffix, "rb")  # noqa: SIM115 (closed by the handler)
                self.send_response(200)
                self.send_header("Content-Type", self.guess_type(path))
                self.send_header("Content-Encoding", encoding)
                self.send_header("Content-Length", str(os.fstat(body.fileno()).st_size))
                self.send_header("Vary", "Accept-Encoding")
                self.end_headers()
                return body
        return super().send_head()


def serve(folder: Path) -> http.server.ThreadingHTTPServer:
    """The server, started; its ``sent`` lists (path, bytes) for every response, in order."""
    handler = functools.partial(SiteHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.sent = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
