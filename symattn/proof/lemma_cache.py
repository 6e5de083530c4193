"""The lemma cache: lemma results on disk, keyed by a hash of the lemma and of all the code
that checks it (``SYMATTN_NO_CACHE=1`` checks everything afresh; ``SYMATTN_CACHE_DIR`` moves it)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import sympy as sp

if TYPE_CHECKING:
    from .lemma import Lemma

def source_digest(package: Path) -> str:
    """A hash of the versions of Python, SymPy and mpmath and of every module of ``package``
    (symattn, with all its subpackages) and of ``derivations`` beside it: the code a lemma's
    cached result depends on."""
    import platform

    import mpmath

    versions = f"{platform.python_version()} sympy {sp.__version__} mpmath {mpmath.__version__}"
    digest = hashlib.sha256(versions.encode())
    for folder in (package, package.parent / "derivations"):
        for path in sorted(folder.rglob("*.py")):
            digest.update(path.relative_to(folder).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


class _LemmaCache:
    """Lemma results on disk, keyed by a hash of the lemma and of all the code that checks it.

    The key covers the lemma's name, statement and function (its module and qualified name),
    the size, the source of every module of symattn and derivations, and the versions of
    Python, SymPy and mpmath:
    any change to the code invalidates every entry. A lemma whose body is replaced by another
    function (as the mutation tests do) has another key. Set ``SYMATTN_NO_CACHE=1`` to
    check everything afresh; ``SYMATTN_CACHE_DIR`` moves the cache.
    """

    def __init__(self) -> None:
        self._code: str | None = None
        self._entries: set[str] | None = None

    @property
    def enabled(self) -> bool:
        return os.environ.get("SYMATTN_NO_CACHE", "") in ("", "0")

    def _path(self) -> Path:
        root = os.environ.get("SYMATTN_CACHE_DIR") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "symattn"
        )
        return Path(root) / "lemmas.txt"

    def _key(self, lemma: Lemma, n: int) -> str:
        if self._code is None:
            self._code = source_digest(Path(__file__).resolve().parents[1])
        who = [
            f"{getattr(f, '__module__', '')}.{getattr(f, '__qualname__', repr(f))}"
            for f in (lemma.verify, lemma.twin)
        ]
        text = "\x1f".join([self._code, lemma.name, lemma.statement, *who, lemma.twin_statement, str(n)])
        return hashlib.sha256(text.encode()).hexdigest()

    @staticmethod
    def _cacheable(f: Callable[[int], bool]) -> bool:
        """Only named module-level functions of symattn and derivations, whose code is hashed."""
        module = getattr(f, "__module__", "") or ""
        qualname = getattr(f, "__qualname__", "<lambda>")
        return (
            module.split(".")[0] in ("symattn", "derivations")
            and "<" not in qualname
            and getattr(f, "__closure__", None) is None
        )

    def holds(self, lemma: Lemma, n: int) -> bool:
        if not self.enabled or not self._cacheable(lemma.verify) or not self._cacheable(lemma.twin):
            return False
        if self._entries is None:
            try:
                self._entries = set(self._path().read_text().split())
            except OSError:
                self._entries = set()
        return self._key(lemma, n) in self._entries

    def record(self, lemma: Lemma, n: int) -> None:
        if not self.enabled or not self._cacheable(lemma.verify) or not self._cacheable(lemma.twin):
            return
        key = self._key(lemma, n)
        try:
            path = self._path()
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a") as fh:
                fh.write(key + "\n")
        except OSError:
            return  # a cache that cannot be written is no cache
        if self._entries is not None:
            self._entries.add(key)
