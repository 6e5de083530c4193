"""bench/_site_server.py: a file's compressed form to a browser that accepts it, as static hosts
configured for the build's ``.br`` and ``.gz`` files do."""

from __future__ import annotations

import gzip
import urllib.request

from conftest import serve


def _get(url: str, accept: str) -> tuple[bytes, str | None]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": accept})
    with urllib.request.urlopen(request) as response:
        return response.read(), response.headers.get("Content-Encoding")


def test_each_browser_gets_the_form_it_accepts(tmp_path):
    (tmp_path / "big.bin").write_bytes(b"plain" * 100)
    (tmp_path / "big.bin.gz").write_bytes(gzip.compress(b"plain" * 100))
    (tmp_path / "big.bin.br").write_bytes(b"brotli bytes")
    (tmp_path / "small.txt").write_text("small")
    server = serve(tmp_path)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        assert _get(url + "big.bin", "gzip, deflate, br, zstd") == (b"brotli bytes", "br")
        body, encoding = _get(url + "big.bin", "gzip")
        assert encoding == "gzip" and gzip.decompress(body) == b"plain" * 100
        assert _get(url + "big.bin", "identity") == (b"plain" * 100, None)
        assert _get(url + "small.txt", "br") == (b"small", None)
        sizes = [12, len(body), 500, 5]
        assert server.sent == list(zip(["/big.bin"] * 3 + ["/small.txt"], sizes, strict=True))
    finally:
        server.shutdown()
