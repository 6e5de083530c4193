"""The command line on random argument lists: every call ends with exit 0, 1 or 2, no traceback,
at most one line on stderr (symattn/cli/app.py); bench/limits.py times the calls.

Argument lists are drawn with a fixed seed over every subcommand: random flags and values, unicode,
huge and negative numbers, malformed matrices, missing and unreadable files. Each runs in-process
through ``symattn.cli.main``. Sizes that legitimately take long are left out: ``build`` and
``verify`` of every derivation (tested in test_site.py and test_cli_derive.py), labs above a few
hundred draws (the labs' own limits are tested in test_cli_lab.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from symattn.cli import main

SEED = 12
CASES = 2000

UNICODE = ["é", "∞", "√2", "𝔼", "—", "\u200b", "🙂", "ß", "Ω", "\x00", "\\frac{1}{0}", "%s", "%(x)d", "%"]
NUMBERS = [
    "0", "1", "-1", "2", "3", "7", "-0", "1e300", "-1e300", "1e400", "1e401", "1e-300", "-1e-400",
    "0.1", "1/3", "-7/2", "1/0", "2^64", str(2**63), str(-(2**63)), str(10**12), str(10**13),
    "9" * 30, "1e99999", "nan", "inf", "-inf", "NaN", "0x10", "1_000", " 4 ", "", "½", "٣",
]
FLAGS = ["--json", "--help", "-h", "--version", "--list", "--solution", "--check", "--no-scale",
         "--example", "--bogus", "-x", "--", "--seed", "--format", "--digits", "--mask"]


def _number(rng: random.Random) -> str:
    return rng.choice(NUMBERS + UNICODE) if rng.random() < 0.2 else rng.choice(NUMBERS)


def _entry(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.55:
        return str(rng.randint(-5, 5))
    if r < 0.75:
        return rng.choice(["1e300", "-1e300", "1e-300", "0.5", '"1/3"', '"-2/7"', "1e400", "-1e12"])
    return rng.choice(['"x"', "null", "true", "[1]", '"1/0"', "NaN", "Infinity", '"1e500"', '"√2"', "{}"])


def _matrix(rng: random.Random, rows: int, cols: int) -> str:
    if rng.random() < 0.15:
        return rng.choice(["[]", "[[]]", "[[1,2],[3]]", "[1,2]", "[[1", "{}", "1", "[[[1]]]", "🙂",
                           "[" * 5000 + "]" * 5000, "[[" + ",".join(["1"] * 70) + "]]", ""])
    return "[" + ",".join("[" + ",".join(_entry(rng) for _ in range(cols)) + "]" for _ in range(rows)) + "]"


def _mask(rng: random.Random) -> str:
    parts = ["causal", "causal:bottom-right", "padding:1", "padding:2", "window:1", "window:2",
             "window:2:bottom-right", "padding:0", "window:-1", "diagonal", "none", "causal:left",
             "padding:99999999999999999999", "window:", "padding:١"]
    return "+".join(rng.choice(parts) for _ in range(rng.choice([1, 1, 1, 2, 2, 3])))


def _attention(rng: random.Random) -> list[str]:
    n, m, d, dv = (rng.choice([1, 1, 2, 2, 3]) for _ in range(4))
    argv = ["attention"]
    if rng.random() < 0.15:
        argv.append("--example")
    else:
        q_cols = d if rng.random() < 0.9 else d + 1
        v_rows = m if rng.random() < 0.9 else m + 1
        for flag, text in (("--q", _matrix(rng, n, q_cols)), ("--k", _matrix(rng, m, d)),
                           ("--v", _matrix(rng, v_rows, dv))):
            if rng.random() < 0.95:
                argv += [flag, text]
    if rng.random() < 0.5:
        argv += ["--mask", _mask(rng)]
    if rng.random() < 0.3:
        argv.append("--no-scale")
    if rng.random() < 0.4:
        argv += ["--digits", rng.choice(["1", "6", "15", "40", "1000", "1001", "0", "-3", "x"])]
    if rng.random() < 0.4:
        argv += ["--format", rng.choice(["text", "markdown", "latex", "json", "html", "TEXT"])]
    return argv


def _derive(rng: random.Random) -> list[str]:
    name = rng.choice(["attention_by_hand", "nope", "", "variance_scaling" + rng.choice(UNICODE), "..",
                       "../etc/passwd", "ATTENTION_BY_HAND", "derivations", "__init__"])
    argv = ["derive"]
    if rng.random() < 0.3:
        argv.append("--list")
    if rng.random() < 0.8:
        argv.append(name)
    if rng.random() < 0.4:
        argv += ["--format", rng.choice(["text", "markdown", "latex", "json", "🙂"])]
    return argv


def _verify(rng: random.Random) -> list[str]:
    names = ["attention_by_hand", "nope", "é", "-", "--all", "multihead"]
    return ["verify", *rng.sample(names, rng.randint(1, 2))]


def _flops(rng: random.Random) -> list[str]:
    argv = ["flops"]
    for flag in ("--d-model", "--n", "--heads"):
        if rng.random() < 0.85:
            good = rng.choice(["1", "2", "8", "64", "4096", "3", "12", str(10**12)])
            argv += [flag, good if rng.random() < 0.7 else _number(rng)]
    if rng.random() < 0.3:
        argv.append("--json")
    return argv


def _exercises(rng: random.Random) -> list[str]:
    argv = ["exercises"]
    if rng.random() < 0.85:
        argv.append(rng.choice(["list", "show", "variant", "hide", ""]))
    if rng.random() < 0.7:
        argv.append(rng.choice(["ex6.1", "ex6.2", "ex6.5", "ex6.7", "ex6.9", "ex", "6.2", "EX6.2", "é"]))
    if rng.random() < 0.4:
        argv += ["--seed", _number(rng)]
    # --solution verifies the exercise's derivation (seconds): tested in test_cli_exercises.py.
    return argv


ANSWERS = ["1", "N > 8192", r"\frac{e^2+11}{e^2+2}", "8192 )", r"\def\x{1}", "x" * 5000, "}{",
           r"\frac{1}{0}", "1e999999", "9" * 500, "🙂", "", "-", r"\sqrt{-1}", "0.5", "((((((((((1))))))))))"]


def _check(rng: random.Random) -> list[str]:
    argv = ["check", rng.choice(["ex6.2", "ex6.5", "ex6.1", "ex6.3", "ex9", "é"])]
    if rng.random() < 0.95:
        argv.append(rng.choice(ANSWERS))
    if rng.random() < 0.3:
        argv += ["--seed", _number(rng)]
    if rng.random() < 0.3:
        argv.append("--json")
    return argv


def _audit(rng: random.Random, files: list[str]) -> list[str]:
    return ["audit", *rng.sample(files, rng.choice([0, 1, 1, 1, 2]))]


def _grade(rng: random.Random, files: list[str]) -> list[str]:
    """A class file (good, garbage, binary, absent, a folder) and outputs that may not be
    writable (/dev/full, a folder, a missing folder), with odd formats and worker counts."""
    folder = Path(files[0]).parent
    outs = [str(folder / "graded.csv"), "/dev/full", str(folder), str(folder / "no" / "g.csv"), ""]
    argv = ["grade", rng.choice([str(folder / "class.csv"), str(folder / "class.jsonl"), *files])]
    if rng.random() < 0.85:
        argv += ["--out", rng.choice(outs)]
    for flag, values in (
        ("--format", ["csv", "jsonl", "xml", ""]),
        ("--jobs", ["1", "1", "2", "0", "-3", "x"]),
        ("--gradebook", [str(folder / "book.csv"), "/dev/full", str(folder)]),
        ("--report", [str(folder / "report.md"), str(folder / "report.svg"), "/dev/full"]),
        ("--summary-json", [str(folder / "summary.json"), "/dev/full"]),
    ):
        if rng.random() < 0.25:
            argv += [flag, rng.choice(values)]
    return argv


def _build(rng: random.Random, files: list[str]) -> list[str]:
    # A valid build runs every derivation (about a minute): here only its argument handling,
    # and an --out that cannot be written (refused before any work starts).
    argv = ["build"]
    choice = rng.random()
    if choice < 0.4:
        argv += ["--out", rng.choice(["/dev/null/docs", "/proc/nope/docs", files[0] + "/sub"])]
    elif choice < 0.7:
        argv += [rng.choice(["--bogus", "--out", "extra", "-h"])]
    else:
        argv += ["--check", "--out", "--help"]
    return argv


def _lab(rng: random.Random) -> list[str]:
    kind = rng.choice(["variance", "saturation", "nope", ""])
    argv = ["lab", kind] if kind else ["lab"]
    small = ["1", "2", "3", "5", "10", "20", "40"]

    def size() -> str:
        bad = ["0", "-1", "x", "1e3", str(10**13), "🙂"]
        return rng.choice(small) if rng.random() < 0.8 else rng.choice(bad)

    if kind == "variance":
        argv += ["--draws", size()]
        argv += ["--widths", rng.choice(["4", "2,8", "1", "0", "4,,8", "a,b", "-4", "1000001", ""])]
    elif kind == "saturation":
        argv += ["--trials", size()]
        argv += ["--width", rng.choice(["4", "8", "1", "0"])]
        argv += ["--keys", rng.choice(["2", "4", "1", "0", "-2"])]
        if rng.random() < 0.5:
            argv += ["--threshold", rng.choice(["0.5", "0.99", "1", "0", "nan", "-0.1", "2", "x"])]
    if rng.random() < 0.4:
        argv += ["--seed", _number(rng)]
    if rng.random() < 0.3:
        argv += ["--method", rng.choice(["direct", "reduced", "magic"])]
    if rng.random() < 0.3:
        argv.append("--json")
    if rng.random() < 0.15:
        argv.append("--help")
    return argv


def _helps() -> list[list[str]]:
    """``--help`` of every command and of every action of a command, read from the parser."""
    import argparse

    from symattn.cli.app import build_parser

    def walk(parser: argparse.ArgumentParser, words: list[str]):
        yield [*words, "--help"]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield from walk(sub, [*words, name])

    return list(walk(build_parser(), []))


HELPS = _helps()


def _commands() -> set[str]:
    """The commands of the parser itself (not a list kept by hand)."""
    import argparse

    from symattn.cli.app import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


COMMANDS = _commands()


def _top(rng: random.Random) -> list[str]:
    return rng.choice([[], ["--version"], ["-h"], ["nope"], ["🙂"], ["--bogus"], *HELPS])


def _mutate(rng: random.Random, argv: list[str]) -> list[str]:
    """Sometimes drop, duplicate or insert a token, as a person mistyping would."""
    argv = list(argv)
    if not argv:
        return argv
    r = rng.random()
    if r < 0.08 and len(argv) > 1:
        del argv[rng.randrange(1, len(argv))]
    elif r < 0.16:
        argv.insert(rng.randrange(1, len(argv) + 1), rng.choice(FLAGS + UNICODE + NUMBERS))
    elif r < 0.2 and len(argv) > 1:
        argv.append(argv[rng.randrange(1, len(argv))])
    return argv


def argument_lists(files: list[str]) -> list[list[str]]:
    rng = random.Random(SEED)
    makers: list[tuple[Callable[[random.Random], list[str]], int]] = [
        (_attention, 520),
        (_derive, 120),
        (_verify, 60),
        (_flops, 260),
        (_exercises, 220),
        (_check, 160),
        (lambda r: _audit(r, files), 120),
        (lambda r: _build(r, files), 100),
        (lambda r: _grade(r, files), 80),
        (_lab, 300),
        (_top, 140),
    ]
    out = []
    for make, n in makers:
        for _ in range(n):
            argv = make(rng)
            # Mistyping could turn these into a full run (every derivation, a whole build).
            long_if_valid = argv and argv[0] in ("verify", "build", "derive")
            out.append(argv if long_if_valid else _mutate(rng, argv))
    rng.shuffle(out)
    return out


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> list[str]:
    d = tmp_path_factory.mktemp("fuzz")
    (d / "module.md").write_text("**Exercise (compute).** 1 + 1 = ?\n\n**Answer.** 2\n", encoding="utf-8")
    (d / "binary.md").write_bytes(bytes(range(256)) * 4)
    (d / "empty.md").write_text("", encoding="utf-8")
    (d / "class.csv").write_text(
        "learner,exercise,answer\na,ex6.2,1.96\nb,ex6.5,N > 4096\nc,ex9,1\n", encoding="utf-8"
    )
    jsonl = '{"learner": "a", "exercise": "ex6.2", "answer": "2"}\n[1]\n'
    (d / "class.jsonl").write_text(jsonl, encoding="utf-8")
    return [str(d / "module.md"), str(d / "binary.md"), str(d / "empty.md"), str(d), "/nonexistent/x.md",
            "/dev/null", "-", "é.md", ""]


def test_the_argument_lists_cover_every_subcommand(files):
    """2,080 lists, and every subcommand appears (so the fuzz below means something)."""
    lists = argument_lists(files)
    assert len(lists) == 2080
    heads = {a[0] for a in lists if a}
    assert heads >= COMMANDS, COMMANDS - heads  # every command the parser has, grade included
    assert all(h in lists for h in HELPS), "the help of every command and action is fuzzed"
    actions = {(a[0], a[1]) for a in lists if len(a) > 2 and a[0] in ("exercises", "lab")}
    assert {("exercises", "list"), ("exercises", "show"), ("exercises", "variant")} <= actions


#: The lists are run in this many slices (every SHARDS-th list each), so that pytest-xdist can
#: spread them over the cores; together the slices run every list once.
SHARDS = 4


@pytest.mark.parametrize("shard", range(SHARDS))
def test_no_argument_list_crashes(files, capsys, shard):
    """Exit code 0, 1 or 2; nothing that looks like a traceback; errors are one line. (How long
    the calls take is bench/limits.py's measure, not a test's.)"""
    failures = []
    for argv in argument_lists(files)[shard::SHARDS]:
        try:
            code = main(argv)
        except BaseException as exc:  # any escape is the failure being looked for
            code = f"raised {type(exc).__name__}: {exc}"
        out, err = capsys.readouterr()
        problems = []
        if code not in (0, 1, 2):
            problems.append(f"exit {code!r}")
        if "Traceback" in out + err:
            problems.append("traceback")
        if code != 0 and len(err.strip().splitlines()) > 1:
            problems.append(f"{len(err.strip().splitlines())} lines on stderr")
        if code == 2 and not (err.strip() or out.strip()):  # check prints "Invalid answer" on stdout
            problems.append("exit 2 without a message")
        if problems:
            failures.append(f"{argv!r}: {', '.join(problems)}; stderr: {err.strip()[-200:]!r}")
    assert not failures, f"{len(failures)} failing argument lists:\n" + "\n".join(failures[:25])
