"""Class files in, graded rows out: reading, resuming and writing for ``symattn grade``.

A class file is CSV with a header or JSON Lines, one answer a row, with the fields ``learner``,
``exercise``, ``answer`` and optionally ``seed`` and ``steps_file``. Each row keeps the line it
starts on, so that a row that cannot be read (a broken quote, a missing field, a line that is not
a JSON object) becomes an ``invalid`` verdict naming its line instead of stopping the batch.
Only a file that cannot be read at all (missing, no header naming the fields, no JSON object
on any line) raises :class:`ClassFileError`.

Graded rows are the input fields plus ``verdict``, ``feedback``, ``mistake``, ``read_as`` and
``seconds``, after a ``line`` column. :class:`ResultFile` appends each row as it finishes,
reads back what an interrupted run wrote (so that a resumed run skips it) and rewrites the
file in input order at the end.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from ...errors import InputError

REQUIRED = ("learner", "exercise", "answer")
OPTIONAL = ("seed", "steps_file")
RESULTS = ("verdict", "feedback", "mistake", "read_as", "notes", "seconds")
VERDICTS = ("correct", "incorrect", "invalid")
#: Physical lines one quoted CSV field may span before its row is called unterminated.
MAX_RECORD_LINES = 20
#: Largest class file read, in bytes.
MAX_BYTES = 200 * 1024 * 1024


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

    @property
    def key(self) -> tuple[str, ...]:
        """What identifies a graded row in --out, for resuming."""
        return (str(self.line), *(self.get(n) for n in (*REQUIRED, *OPTIONAL)))


@dataclass
class ClassFile:
    path: str
    format: str  # csv or jsonl
    columns: list[str]  # the input fields, in file order
    rows: list[Row] = field(default_factory=list)

    @property
    def output_columns(self) -> list[str]:
        return ["line", *self.columns, *RESULTS]


def record_key(record: dict[str, str]) -> tuple[str, ...]:
    """The key of a graded row read back from --out (see :attr:`Row.key`)."""
    return (record.get("line", ""), *(record.get(n, "") for n in (*REQUIRED, *OPTIONAL)))


# -- reading a class file ---------------------------------------------------------------------
def read_class(path: str | Path) -> ClassFile:
    """Read a class file; raise :class:`ClassFileError` only if it cannot be read at all."""
    name = str(path)
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ClassFileError(f"cannot read {name}: {exc.strerror or exc}") from None
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


def _read_csv(name: str, lines: list[str]) -> ClassFile:
    records = _csv_records(lines)
    header = None
    for line_no, cells, problem in records:
        if problem is not None:
            raise ClassFileError(f"{name}: line {line_no}: cannot read the header: {problem}")
        if any(c.strip() for c in cells):
            header = [c.strip().lower() for c in cells]
            break
    if header is None:
        raise ClassFileError(f"{name}: no header")
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
    for line_no, cells, problem in records:
        if problem is None and not any(c.strip() for c in cells):
            continue  # a blank line
        number = len(out.rows) + 1
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
        except ValueError as exc:
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
            with open(self.path, encoding="utf-8", newline="") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise ClassFileError(f"cannot read {self.path} to resume: {exc}") from None
        done = {}
        for record in _parse_records(text):
            if _complete(record):
                done[record_key(record)] = record
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
        folder = os.path.dirname(os.path.abspath(self.path))
        fd, tmp = tempfile.mkstemp(prefix=".grade-", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                self._write(fh, records, None, header=True)
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
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


def _parse_records(text: str) -> list[dict[str, str]]:
    stripped = text.lstrip()
    if stripped.startswith("{"):
        records = []
        for line in text.splitlines():
            with contextlib.suppress(ValueError):
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
