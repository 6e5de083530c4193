"""Class files in, graded rows out: reading, resuming and writing for ``symattn grade``.

A class file is CSV with a header or JSON Lines, one answer a row, with the fields ``learner``,
``exercise``, ``answer`` and optionally ``seed`` and ``steps_file``. Each row keeps the line it
starts on, so that a row that cannot be read (a broken quote, a missing field, a field over
:data:`MAX_FIELD_BYTES`, a line that is not a JSON object) becomes an ``invalid`` verdict naming
its line instead of stopping the batch. Only a file that cannot be read at all (missing, no
header naming the fields, no JSON object on any line) raises :class:`ClassFileError`.

A ``steps_file`` is a file the class file's author did not necessarily write: :func:`read_steps_file`
reads it only if it resolves inside the class file's folder (no absolute path, no ``..`` out of
it, no symbolic link out of it) and is a regular file of at most :data:`MAX_STEPS_BYTES`.

Graded rows are the input fields plus ``steps_sha256`` (the content of the steps file that was
judged), ``verdict``, ``feedback``, ``mistake``, ``read_as``, ``read_as_latex``, ``read_as_typed``
(the reading with numbers as the learner typed them: ``1.96`` where ``read_as`` has 49/25),
``notes`` and ``seconds``, after a
``line`` column. :class:`ResultFile` appends each row as it finishes, reads back what an
interrupted run wrote (so that a resumed run skips a row whose answer and steps file are
unchanged) and rewrites the file in input order at the end. Every file it writes follows the
umask, as a file written by ``open`` would.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from ...errors import InputError
from ..outcomes import OUTCOMES

REQUIRED = ("learner", "exercise", "answer")
OPTIONAL = ("seed", "steps_file")
RESULTS = (
    "steps_sha256",
    "verdict",
    "feedback",
    "mistake",
    "read_as",
    "read_as_latex",
    "read_as_typed",
    "notes",
    "seconds",
)
VERDICTS = tuple(o.name for o in OUTCOMES)  # correct, incorrect, invalid, unchecked
#: Physical lines one quoted CSV field may span before its row is called unterminated.
MAX_RECORD_LINES = 20
#: Largest class file read, in bytes.
MAX_BYTES = 200 * 1024 * 1024
#: Largest field of a row (an answer, say), in bytes of UTF-8; a larger one makes its row invalid.
MAX_FIELD_BYTES = 1024 * 1024
#: Largest steps file read, in bytes (a derivation has at most 60 lines of 400 characters).
MAX_STEPS_BYTES = 200_000
#: Largest --out read back to resume: a result row is at most a few fields of MAX_FIELD_BYTES.
MAX_RESUME_BYTES = 2 * MAX_BYTES


class ClassFileError(InputError):
    """Raised when a class file cannot be read at all (exit code 2)."""


@dataclass(frozen=True)
class Row:
    """One answer of a class file. ``problem`` says why it cannot be judged, if it cannot."""

    number: int  # 1-based position among the rows
    line: int  # the line of the file it starts on
    fields: dict[str, str]
    problem: str | None = None

    def get(self, name: str) -> str:
        return self.fields.get(name, "")

    def key(self, columns: list[str], steps_sha256: str = "") -> tuple[str, ...]:
        """What identifies a graded row in --out, for resuming: its line, every input field
        (``columns``) and the digest of its steps file's content (so that a changed proof, or
        any changed field, makes the row be judged again)."""
        return (str(self.line), *(self.get(c) for c in columns), steps_sha256)


@dataclass
class ClassFile:
    path: str
    format: str  # csv or jsonl
    columns: list[str]  # the input fields, in file order
    rows: list[Row] = field(default_factory=list)

    @property
    def output_columns(self) -> list[str]:
        return ["line", *self.columns, *RESULTS]


def record_key(record: dict[str, str], columns: list[str]) -> tuple[str, ...]:
    """The key of a graded row read back from --out (see :meth:`Row.key`)."""
    return (record.get("line", ""), *(record.get(c, "") for c in columns), record.get("steps_sha256", ""))


#: Invalid verdicts that say nothing final about the answer: the row itself could not be taken
#: (an exercise unknown until a plugin is given, a refused file), a limit was hit on a busy
#: machine, or the judge failed. A resumed run judges such rows again.
_PROVISIONAL = re.compile(r"^(?:line \d+: |too costly to check|could not be checked)")


def _final(record: dict[str, str]) -> bool:
    return record.get("verdict") != "invalid" or not _PROVISIONAL.match(record.get("feedback", ""))


# -- reading a class file ---------------------------------------------------------------------
def read_class(path: str | Path) -> ClassFile:
    """Read a class file; raise :class:`ClassFileError` only if it cannot be read at all."""
    name = str(path)
    try:
        # a FIFO (or a device) would wait for a writer before a byte could be read: refused unread
        raw, _ = _read_regular(name, MAX_BYTES)
    except OSError as exc:
        raise ClassFileError(f"cannot read {name}: {exc.strerror or exc}") from None
    if raw is None:
        raise ClassFileError(f"cannot read {name}: not a regular file")
    if len(raw) > MAX_BYTES:
        raise ClassFileError(f"{name}: larger than {MAX_BYTES // 2**20} MB")
    # Undecodable bytes spoil only the rows they are in (see _text_problem).
    text = raw.decode("utf-8-sig", errors="surrogateescape")
    lines = list(io.StringIO(text, newline=""))
    if not any(line.strip() for line in lines):
        raise ClassFileError(f"{name}: the file is empty")
    first = next(line for line in lines if line.strip()).lstrip()
    if Path(name).suffix.lower() in (".jsonl", ".ndjson", ".json") or first.startswith("{"):
        return _read_jsonl(name, lines)
    return _read_csv(name, lines)


@contextlib.contextmanager
def _fields_up_to_file_size() -> Iterator[None]:
    """csv's field limit (128 KiB by default) raised while reading: a long field is refused per
    row by its size in :func:`_row`, with a reason, not by csv with Python's words."""
    saved = csv.field_size_limit()
    csv.field_size_limit(MAX_RESUME_BYTES)
    try:
        yield
    finally:
        csv.field_size_limit(saved)


def _read_csv(name: str, lines: list[str]) -> ClassFile:
    with _fields_up_to_file_size():
        return _read_csv_records(name, list(_csv_records(lines)))


def _read_csv_records(name: str, records: list[tuple[int, list[str], str | None]]) -> ClassFile:
    header, start = None, 0
    for line_no, cells, problem in records:
        start += 1
        if problem is not None:
            raise ClassFileError(f"{name}: line {line_no}: cannot read the header: {problem}")
        if any(c.strip() for c in cells):
            header = [c.strip().lower() for c in cells]
            break
    if header is None:
        raise ClassFileError(f"{name}: no header")
    if any(_has_bad_bytes(c) for c in header):  # a column name could not be written to --out
        raise ClassFileError(f"{name}: the header is not UTF-8 text")
    missing = [f for f in REQUIRED if f not in header]
    if missing or any(header.count(c) > 1 for c in header) or "" in header:
        found = _printable(", ".join(header))
        raise ClassFileError(
            f"{name}: the header must name the columns {', '.join(REQUIRED)} once each "
            f"(optional: {', '.join(OPTIONAL)}); found: {found}"
        )
    if reserved := [c for c in header if c in ("line", *RESULTS)]:
        raise ClassFileError(f"{name}: the column names {', '.join(reserved)} are for the output")
    out = ClassFile(name, "csv", header)
    for line_no, cells, problem in records[start:]:
        if problem is None and not any(c.strip() for c in cells):
            continue  # a blank line
        number = len(out.rows) + 1
        if problem is None and not any(c.strip() for c in cells[len(header) :]):
            cells = cells[: len(header)]  # empty cells past the header (a spreadsheet's trailing commas)
        if problem is None and len(cells) > len(header):
            problem = f"{len(cells)} fields where the header names {len(header)}"
        fields = dict(zip(header, cells, strict=False)) if problem is None else {}
        out.rows.append(_row(number, line_no, fields, problem))
    return out


def _csv_records(lines: list[str]) -> Iterator[tuple[int, list[str], str | None]]:
    """(first line, cells, problem) for each CSV record; a broken record spoils only itself."""
    i = 0
    while i < len(lines):
        for span in range(1, MAX_RECORD_LINES + 1):
            try:
                rows = list(csv.reader(lines[i : i + span], strict=True))
            except csv.Error as exc:
                if "unexpected end of data" in str(exc) and i + span < len(lines):
                    continue  # a quoted field going on to the next line
                problem = "a quoted field is not closed" if "end of data" in str(exc) else str(exc)
                yield i + 1, [], f"bad CSV: {problem}"
                i += 1
                break
            yield i + 1, rows[0] if rows else [], None
            i += span
            break
        else:
            yield i + 1, [], f"bad CSV: a quoted field runs over {MAX_RECORD_LINES} lines"
            i += 1


def _read_jsonl(name: str, lines: list[str]) -> ClassFile:
    parsed: list[tuple[int, dict[str, str], str | None]] = []
    columns: list[str] = list(REQUIRED)
    line_no = 0
    for line in lines:
        line_no += 1
        if not line.strip():
            continue
        try:
            obj = json.loads(line, parse_int=str, parse_float=str)  # numbers keep their text
        except (ValueError, RecursionError) as exc:  # RecursionError: nested too deeply
            parsed.append((line_no, {}, f"not a JSON object: {str(exc).split(':')[0]}"))
            continue
        if not isinstance(obj, dict):
            parsed.append((line_no, {}, "not a JSON object"))
            continue
        fields: dict[str, str] = {}
        problem = None
        for key, value in obj.items():
            if key in ("line", *RESULTS):
                continue  # an output column: a graded file given back as input
            if _has_bad_bytes(key):  # a lone surrogate escaped in a name: no column to write it in
                problem = "not UTF-8 text"
                continue
            if value is None:
                value = ""
            if not isinstance(value, str):
                problem = f"the field {key} is not text or a number"
                continue
            fields[key] = value
            if key not in columns:
                columns.append(key)
        parsed.append((line_no, fields, problem))
    if not any(p is None for _, _, p in parsed):
        raise ClassFileError(f"{name}: no line is a JSON object with the fields {', '.join(REQUIRED)}")
    out = ClassFile(name, "jsonl", columns)
    for number, (line_no, fields, problem) in enumerate(parsed, start=1):
        out.rows.append(_row(number, line_no, fields, problem))
    return out


def _row(number: int, line: int, fields: dict[str, str], problem: str | None) -> Row:
    fields = {k: v if k == "answer" else v.strip() for k, v in fields.items()}
    if problem is None:
        # An empty answer is judged (check calls it empty); no learner or exercise is a bad row.
        missing = [f for f in REQUIRED if f not in fields or (f != "answer" and not fields[f])]
        if fields.get("steps_file") and missing == ["answer"]:
            missing = []  # a learner proof instead of an answer
        if missing:
            problem = f"missing {' and '.join(missing)}"
    if problem is None and any(_has_bad_bytes(v) for v in fields.values()):
        problem = "not UTF-8 text"
    if problem is None:
        for key, value in fields.items():
            size = len(value.encode("utf-8"))
            if size > MAX_FIELD_BYTES:
                problem = (
                    f"the field {_printable(key, 40)} is {size:,} bytes, larger than the "
                    f"{MAX_FIELD_BYTES // 2**20} MB a field may hold"
                )
                fields = {k: v if k != key else v[:200] + "..." for k, v in fields.items()}
                break
    if problem is not None:
        # Keep what was read, but never an undecodable byte, so the row can still be written.
        fields = {k: v.encode("utf-8", "replace").decode("utf-8") for k, v in fields.items()}
    return Row(number, line, fields, None if problem is None else f"line {line}: {problem}")


def _printable(text: str, width: int = 80) -> str:
    """``text`` safe for one line of a message: no undecodable bytes, no control characters."""
    text = text.encode("utf-8", "replace").decode("utf-8")
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= width else text[: width - 3] + "..."


def _has_bad_bytes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


# -- steps files --------------------------------------------------------------------------------
class StepsFileRefused(InputError):
    """A row's steps_file that is not read, with the reason (its row is invalid, the batch goes on)."""


def read_steps_file(folder: str | Path, name: str) -> tuple[str, str]:
    """The text of the steps file ``name`` of a class file in ``folder``, and its SHA-256.

    Raises :class:`StepsFileRefused` for a path that is absolute, leads out of ``folder`` (by
    ``..`` or by a symbolic link), is not a regular file, is larger than :data:`MAX_STEPS_BYTES`
    or is not UTF-8 text. The file is opened without following it into a FIFO or a device: it is
    checked to be a regular file before a byte is read.
    """
    import hashlib

    shown = _printable(name, 60)
    if "\0" in name:
        raise StepsFileRefused(f"steps_file holds a NUL character: {shown}")
    if os.path.isabs(name):
        raise StepsFileRefused(f"steps_file must be a path relative to the class file's folder: {shown}")
    root = os.path.realpath(folder)
    given = os.path.join(root, name)
    resolved = os.path.realpath(given)
    if os.path.commonpath([root, resolved]) != root:
        raise StepsFileRefused(f"steps_file leads out of the class file's folder: {shown}")
    try:  # the name as given, so that "proof.tex/" fails as it does for check
        raw, info = _read_regular(given, MAX_STEPS_BYTES)
    except OSError as exc:
        raise StepsFileRefused(f"steps_file cannot be read ({exc.strerror or exc}): {shown}") from None
    try:  # it must be the very file that was resolved inside the folder
        there = os.stat(resolved)
    except OSError:
        there = None
    if there is None or (there.st_dev, there.st_ino) != (info.st_dev, info.st_ino):
        raise StepsFileRefused(f"steps_file changed while it was read: {shown}")
    if raw is None:
        raise StepsFileRefused(f"steps_file is not a regular file: {shown}")
    if info.st_size > MAX_STEPS_BYTES:
        raise StepsFileRefused(
            f"steps_file is larger than the {MAX_STEPS_BYTES:,} bytes a derivation may hold "
            f"({info.st_size:,} bytes): {shown}"
        )
    if len(raw) > MAX_STEPS_BYTES:  # grew while it was read
        raise StepsFileRefused(
            f"steps_file is larger than the {MAX_STEPS_BYTES:,} bytes a derivation may hold: {shown}"
        )
    try:  # with universal newlines, as check reads it (CRLF is one line end)
        text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError:
        raise StepsFileRefused(f"steps_file is not UTF-8 text: {shown}") from None
    return text, hashlib.sha256(raw).hexdigest()


def _read_regular(path: str, limit: int) -> tuple[bytes | None, os.stat_result]:
    """``path`` opened without blocking (a FIFO would wait for a writer): its status, and for a
    regular file at most ``limit + 1`` of its bytes (None for anything else, which is not read).
    Raises :class:`OSError` when it cannot be opened."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, info
        chunks, size = [], 0
        while size <= limit and (chunk := os.read(fd, min(1 << 20, limit + 1 - size))):
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks), info
    finally:
        os.close(fd)


# -- graded rows --------------------------------------------------------------------------------
def output_format(out: str | None, requested: str | None) -> str:
    """The format of --out: as asked, else from its suffix, else CSV."""
    if requested:
        return requested
    if out and Path(out).suffix.lower() in (".jsonl", ".ndjson", ".json"):
        return "jsonl"
    return "csv"


class ResultFile:
    """--out: rows appended as they finish, read back on resume, rewritten in order at the end.

    With no path the rows go to stdout, once, in order, at the end.
    """

    def __init__(self, path: str | None, fmt: str, columns: list[str]):
        self.path = path
        self.format = fmt
        self.columns = columns
        self._fh: IO[str] | None = None
        self._writer: csv.DictWriter | None = None

    def load(self) -> dict[tuple[str, ...], dict[str, str]]:
        """Rows an earlier run already graded, by key; a torn or foreign line is ignored."""
        if not self.path or not os.path.exists(self.path):
            return {}
        try:
            raw, _ = _read_regular(self.path, MAX_RESUME_BYTES)
        except OSError as exc:
            raise ClassFileError(f"cannot read {self.path} to resume: {exc.strerror or exc}") from None
        if raw is None or len(raw) > MAX_RESUME_BYTES:
            why = "not a regular file" if raw is None else f"larger than {MAX_RESUME_BYTES // 2**20} MB"
            raise ClassFileError(f"cannot read {self.path} to resume: {why}")
        text = raw.decode("utf-8", errors="replace")  # a row torn inside a character: incomplete, alone
        done = {}
        with _fields_up_to_file_size():
            records = _parse_records(text)
        inputs = self.columns[1 : len(self.columns) - len(RESULTS)]
        for record in records:
            if _complete(record) and _final(record):
                done[record_key(record, inputs)] = record
        return done

    def start(self, graded: list[dict[str, str]]) -> None:
        """Rewrite the file with the rows already graded, then keep it open to append."""
        if not self.path:
            return
        self.finish(graded)
        self._fh = open(self.path, "a", encoding="utf-8", newline="")  # noqa: SIM115 (closed in finish)
        if self.format == "csv":
            self._writer = csv.DictWriter(self._fh, self.columns, extrasaction="ignore")

    def append(self, record: dict[str, str]) -> None:
        """Write one finished row now (flushed), so an interruption loses nothing graded."""
        if self._fh is None:
            return
        self._write(self._fh, [record], self._writer)
        self._fh.flush()

    def finish(self, records: list[dict[str, str]]) -> None:
        """Write every row in input order (atomically, for a file)."""
        self.close()
        if not self.path:
            self._write(sys.stdout, records, None, header=True)
            sys.stdout.flush()
            return
        # Through a symbolic link to the file it names; an existing file keeps its mode, a new
        # one gets the mode open() would give it (mkstemp's is 0600).
        target = os.path.realpath(self.path)
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except OSError:
            mode = umask_mode()
        try:
            fd, tmp = tempfile.mkstemp(prefix=".grade-", dir=os.path.dirname(target))
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, self.path) from None
        try:
            os.fchmod(fd, mode)
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                self._write(fh, records, None, header=True)
            os.replace(tmp, target)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            if isinstance(exc, OSError):
                raise OSError(exc.errno, exc.strerror, self.path) from None
            raise

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
            self._writer = None

    def _write(
        self,
        fh: IO[str],
        records: list[dict[str, str]],
        writer: csv.DictWriter | None,
        header: bool = False,
    ) -> None:
        if self.format == "jsonl":
            for r in records:
                obj: dict[str, object] = {c: r.get(c, "") for c in self.columns}
                obj["line"], obj["seconds"] = int(r["line"]), float(r["seconds"])  # numbers for machines
                fh.write(json.dumps(obj, ensure_ascii=False) + "\n")
            return
        writer = writer or csv.DictWriter(fh, self.columns, extrasaction="ignore")
        if header:
            writer.writeheader()
        writer.writerows(records)


def umask_mode() -> int:
    """The mode ``open(path, "w")`` gives a new file: 0666 less the process's umask."""
    try:  # Linux states it; reading it leaves the umask alone for every other thread
        with open("/proc/self/status", encoding="ascii") as fh:
            mask = next(int(line.split()[1], 8) for line in fh if line.startswith("Umask:"))
    except (OSError, StopIteration, ValueError, IndexError):
        mask = os.umask(0o022)
        os.umask(mask)
    return 0o666 & ~mask


def _parse_records(text: str) -> list[dict[str, str]]:
    stripped = text.lstrip()
    if stripped.startswith("{"):
        records = []
        # CR and LF alone end a record, as in read_class: str.splitlines would also split at
        # U+2028, U+0085 or a form feed, which json.dumps(ensure_ascii=False) writes as they are
        for line in io.StringIO(text, newline=""):
            with contextlib.suppress(ValueError, RecursionError):
                obj = json.loads(line)
                if isinstance(obj, dict):
                    records.append({k: "" if v is None else str(v) for k, v in obj.items()})
        return records
    try:
        return [dict(r) for r in csv.DictReader(io.StringIO(text, newline=""))]
    except csv.Error:
        return []


def _complete(record: dict[str, str | None]) -> bool:
    """A row fully written by an earlier run (a torn last line fails this)."""
    if record.get("verdict") not in VERDICTS or any(record.get(c) is None for c in RESULTS):
        return False
    try:
        float(record["seconds"] or "")
    except ValueError:
        return False
    return True
