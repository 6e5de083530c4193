"""The ``symattn`` command line: parses arguments and calls the library; nothing more.

Exit codes: 0 success, 1 a check failed, 2 bad input (see :mod:`symattn.errors`).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import gc
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from ..core.masks import usage as mask_usage
from ..errors import EXIT_BAD_INPUT, EXIT_INTERNAL, SymattnError
from ..limits import (
    AUDIT_STRICT_DECIDED,
    MAX_COUNT,
    MAX_DIGITS,
    MAX_KEYS,
    MAX_NUMBERS_TEXT,
    MAX_WIDTH,
    MAX_WIDTHS,
    MIN_DRAWS,
)
from . import commands


def _whole(low: int, high: int, shown: str | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"must be between {low} and {shown or high}, got {n}")
        return n

    return parse


_digits = _whole(1, MAX_DIGITS)
_positive = _whole(1, 10**12, "10^12")
_seed = _whole(0, 2**63 - 1, "2^63 - 1")


class _Formatter(argparse.HelpFormatter):
    """Help that shows every option's default, and never fails on a stray ``%`` in a help text."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help
        if text is None or action.default in (None, False, argparse.SUPPRESS) or "default" in text:
            return text
        if action.option_strings or action.nargs in (argparse.OPTIONAL, argparse.ZERO_OR_MORE):
            return f"{text} (default: %(default)s)"
        return text

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        """Descriptions and epilogs are filled, except lines that start with two spaces
        (examples of command lines), which are kept as written."""
        if "\n" not in text:
            return super()._fill_text(text, width, indent)
        fill = super()._fill_text
        lines = text.splitlines()
        return "\n".join(indent + ln if ln.startswith("  ") else fill(ln, width, indent) for ln in lines)

    def _expand_help(self, action: argparse.Action) -> str:
        try:
            return super()._expand_help(action)
        except (ValueError, TypeError, KeyError):  # a literal % in the text, e.g. "95% intervals"
            return str(action.help)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit code 2."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    #: The program named in this parser's errors, when not its own ``prog``: an action of
    #: ``exercises`` errs as ``symattn exercises``, as the one parser of before did.
    error_prog: str | None = None

    def error(self, message: str) -> NoReturn:
        first = message.splitlines()[0] if message else ""
        self.exit(EXIT_BAD_INPUT, f"{self.error_prog or self.prog}: error: {_did_you_mean(first)}\n")


def _verdict_codes() -> str:
    """The exit codes of a check, from the registry of outcomes: "0 correct, 1 incorrect, ..."."""
    from ..grading.outcomes import OUTCOMES

    return ", ".join(f"{o.exit_code} {o.name}" for o in OUTCOMES) + " (the time safety net fired: try again)"


def _did_you_mean(message: str) -> str:
    """argparse's "invalid choice" message with the nearest choices suggested instead of all of them."""
    import difflib
    import re

    m = re.match(r"argument (.+?): invalid choice: '(.*)' \(choose from (.*)\)$", message)
    if m is None:
        return message
    what, given, listed = m.groups()
    choices = [c.strip().strip("'") for c in listed.split(",")]
    close = difflib.get_close_matches(given, choices, n=3, cutoff=0.6)
    hint = f"did you mean {' or '.join(close)}?" if close else f"choose from {', '.join(choices)}"
    return f"argument {what}: invalid choice: {given!r}; {hint}"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="symattn",
        description="The mathematics of attention, exact and machine-checked.",
        epilog="Exit codes: 0 success, 1 a check failed, 2 bad input.",
    )
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    att = sub.add_parser(
        "attention",
        help="work attention out exactly, step by step",
        description="Softmax(Q K^T / sqrt(d_k) + M) V, every stage exact and to --digits digits.",
    )
    att.add_argument("--q", metavar="JSON", help="the queries Q, rows in JSON: [[3,-3],[1,1]]")
    att.add_argument("--k", metavar="JSON", help="the keys K, one row of width d_k per key")
    att.add_argument("--v", metavar="JSON", help="the values V, one row of width d_v per key")
    att.add_argument(
        "--example",
        action="store_true",
        help="use the two-token example of the module's section 6.2 for Q, K and V",
    )
    att.add_argument(
        "--mask",
        metavar="SPEC",
        default="none",
        help=mask_usage(),
    )
    att.add_argument("--no-scale", action="store_true", help="do not divide scores by sqrt(d_k)")
    att.add_argument(
        "--digits",
        type=_digits,
        default=15,
        metavar="N",
        help="significant digits of decimals, correctly rounded",
    )
    att.add_argument(
        "--format", choices=("text", "markdown", "latex", "json"), default="text", help="output format"
    )
    att.set_defaults(run=commands.attention)

    der = sub.add_parser(
        "derive",
        help="print a checked derivation",
        description="Print one of the module's derivations, every step checked, as text, Markdown or LaTeX.",
    )
    der.add_argument("name", nargs="?", help="derivation name (see --list)")
    der.add_argument("--list", action="store_true", help="list the derivations, one per line")
    der.add_argument("--format", choices=("text", "markdown", "latex"), default="text", help="output format")
    _plugin_option(der)
    der.set_defaults(run=commands.derive)

    ver = sub.add_parser(
        "verify",
        help="check every derivation and print a table",
        description="Run every derivation's steps, lemmas and numeric checks. Exit 1 if any fails.",
    )
    ver.add_argument("names", nargs="*", metavar="NAME", help="only these derivations")
    ver.add_argument(
        "--jobs",
        type=_whole(1, 64),
        metavar="N",
        help="worker processes for the lemmas, steps and checks (default: one per core)",
    )
    ver.add_argument(
        "--mutations",
        action="store_true",
        help="also plant each known error of these derivations; each must fail where planted",
    )
    _plugin_option(ver)
    ver.set_defaults(run=commands.verify)

    fl = sub.add_parser(
        "flops",
        help="the cost of multi-head attention",
        description="Multiply-adds of multi-head attention: 4 N d^2 + 2 N^2 d, and the crossover.",
    )
    fl.add_argument(
        "--d-model", type=_positive, required=True, metavar="D", help="model width d_model (required)"
    )
    fl.add_argument("--n", type=_positive, required=True, metavar="N", help="sequence length N (required)")
    fl.add_argument("--heads", type=_positive, default=1, metavar="H", help="number of heads h, dividing D")
    fl.add_argument("--json", action="store_true", help="print the counts as JSON")
    fl.set_defaults(run=commands.flops)

    gr = sub.add_parser(
        "grade",
        help="grade a class: a file of answers in, verdicts and a summary out",
        description="Judge every answer of FILE (CSV with a header, or JSON Lines, with the fields "
        "learner, exercise, answer and optionally seed or steps_file) as `symattn check` would, in a pool of "
        "workers, and print a summary per exercise. Rows go to --out as they finish; a rerun with "
        "the same --out resumes. Exit 0 when the batch ran, 2 when FILE cannot be read.",
    )
    gr.add_argument("file", metavar="FILE", help="the class file: CSV with a header, or JSON Lines")
    gr.add_argument("--out", metavar="FILE", help="graded rows (default: stdout, and the summary on stderr)")
    gr.add_argument("--format", choices=("csv", "jsonl"), help="of the rows (default: from --out, else csv)")
    gr.add_argument("--jobs", type=_whole(1, 256), metavar="N", help="workers (default: one per core)")
    gr.add_argument("--summary-json", metavar="FILE", help="also write the summary as JSON")
    gr.add_argument(
        "--gradebook",
        metavar="FILE.csv",
        help="also write a gradebook: one row per learner, one column per exercise (1 when the best "
        "attempt is correct, else 0) and a total",
    )
    gr.add_argument("--report", metavar="FILE.md", help="also write a Markdown report with a bar chart")
    _plugin_option(gr)
    gr.set_defaults(run=commands.grade)

    _add_exercises(sub)

    ch = sub.add_parser(
        "check",
        help="judge an answer to an exercise",
        description="Judge ANSWER (LaTeX or a plain number) for exercise ID, or with --steps a "
        "derivation (ex6.3, ex6.7) line by line. An ANSWER that starts with '-' needs no '--'. "
        f"Exit {_verdict_codes()}.",
    )
    ch.add_argument("id", metavar="ID", help="the exercise, such as ex6.2 (see symattn exercises)")
    ch.add_argument("answer", metavar="ANSWER", nargs="?", help="the answer, in LaTeX or as a plain number")
    ch.add_argument(
        "--steps",
        metavar="FILE",
        help="a derivation in LaTeX, one step per line ('A = B' starts a chain, '= C' continues it); "
        "- reads standard input",
    )
    ch.add_argument("--seed", type=_seed, metavar="S", help="judge the variant for this seed")
    ch.add_argument("--stdin", action="store_true", help="read the answer from standard input")
    ch.add_argument("--json", action="store_true", help="print the verdict as JSON")
    _plugin_option(ch)
    ch.set_defaults(run=commands.check)

    au = sub.add_parser(
        "audit",
        help="check every numeric claim and answer key of a module file",
        description="Certify or flag every numeric claim in a module file's prose and math, and "
        "check each exercise's stated key against the registry (matched by content). Exit 0 "
        "when nothing is wrong, 1 when a claim or key is wrong (or, with --min-decided or "
        "--strict, when too few claims were decided), 2 for an unreadable file.",
    )
    au.add_argument(
        "file",
        metavar="FILE",
        help="the text: Markdown with LaTeX, a Jupyter notebook (.ipynb) or a LaTeX source (.tex)",
    )
    au.add_argument(
        "--json", action="store_true", help='print {"claims": [...], "keys": [...], "coverage": {...}}'
    )
    decided = au.add_mutually_exclusive_group()
    decided.add_argument(
        "--min-decided",
        type=_whole(0, 100),
        metavar="P",
        help="exit 1 unless at least P %% of the claims are decided (certified or wrong)",
    )
    decided.add_argument(
        "--strict",
        action="store_const",
        dest="min_decided",
        const=AUDIT_STRICT_DECIDED,
        help=f"the same as --min-decided {AUDIT_STRICT_DECIDED}",
    )
    au.add_argument(
        "--macros",
        action="append",
        metavar="FILE",
        help="read the LaTeX macros the text uses (\\newcommand, \\def, \\DeclareMathOperator, minted's "
        "\\newmintinline) from this preamble or style file (repeatable)",
    )
    _plugin_option(au)
    au.set_defaults(run=commands.audit)

    bd = sub.add_parser(
        "build",
        help="generate docs/ from the code (the main job)",
        description="Run every derivation and check, the labs and the exercises, and write the "
        "documentation. Exit 1 if any check fails (or, with --check, if docs/ is out of date).",
    )
    bd.add_argument("--out", default="docs", metavar="DIR", help="folder to write (or compare with --check)")
    bd.add_argument(
        "--check",
        action="store_true",
        help="regenerate into a temporary folder and list files that differ from DIR",
    )
    bd.set_defaults(run=commands.build)

    _add_labs(sub)
    return parser


def _add_exercises(sub) -> None:
    """``symattn exercises [list|show|variant]``: each action a sub-parser with its own help.

    ``symattn exercises`` alone lists. Every command line the single parser of before accepted
    still means the same: ``--seed`` and ``--solution`` may come before the action
    (``exercises --solution show ex6.2``), and ``list`` ignores an ID, ``--seed`` and
    ``--solution`` as it did; those are accepted without being shown in the help. An action's
    own arguments default to nothing (SUPPRESS), so that they never overwrite what came before.
    """
    ex = sub.add_parser(
        "exercises",
        help="list, show or vary the module's exercises",
        description="List the module's exercises (the default), show one, or draw a variant of one "
        "with new numbers. Each action has its own help: symattn exercises show --help.",
        epilog=_examples(
            "symattn exercises                         # the same as: symattn exercises list",
            "symattn exercises show ex6.2 --solution",
            "symattn exercises variant ex6.2 --seed 7",
        ),
    )
    _plugin_option(ex)
    ex.add_argument("--seed", type=_seed, default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    ex.add_argument("--solution", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    actions = ex.add_subparsers(dest="action", parser_class=_Parser, action=_Actions)
    actions.required = False  # symattn exercises alone lists them
    ex.set_defaults(run=commands.exercises, action="list", id=None, seed=None, solution=False)

    ls = actions.add_parser(
        "list",
        help="list the exercises: id, kind, title and how each is checked (the default)",
        description="List the module's exercises (and those of --plugin files), one a line: id, "
        "kind, title and how the answer is checked.",
        epilog=_examples("symattn exercises list", "symattn exercises list --plugin my_exercises.py"),
    )
    _exercise_arguments(ls, shown=False)
    sh = actions.add_parser(
        "show",
        usage="%(prog)s [-h] ID [--seed S] [--solution] [--plugin PATH|MODULE]",
        help="show one exercise: its prompt and how the answer is checked",
        description="Print exercise ID: its prompt, how its answer is checked and the command that "
        "checks it; with --solution also the model solution, the exact expected answer and the "
        "verified derivation; with --seed S the variant for that seed (as `variant` prints it).",
        epilog=_examples(
            "symattn exercises show ex6.2",
            "symattn exercises show ex6.2 --solution",
            "symattn exercises show ex6.5 --seed 4      # the same as: exercises variant ex6.5 --seed 4",
        ),
    )
    _exercise_arguments(sh, shown=True, seed="show this seed's variant instead of the exercise itself")
    va = actions.add_parser(
        "variant",
        usage="%(prog)s [-h] ID --seed S [--solution] [--plugin PATH|MODULE]",
        help="draw a variant of one exercise with new numbers (needs --seed)",
        description="Print a variant of exercise ID with numbers drawn from --seed S (required): its "
        "prompt and the command that checks an answer to it, seed included. The same seed always "
        "gives the same variant.",
        epilog=_examples(
            "symattn exercises variant ex6.2 --seed 7",
            "symattn exercises variant ex6.2 --seed 7 --solution",
            "symattn check ex6.2 ANSWER --seed 7          # check an answer to that variant",
        ),
    )
    _exercise_arguments(va, shown=True, seed="the variant's seed (required)")
    for p in (ls, sh, va):
        p.error_prog = ex.prog


class _Actions(argparse._SubParsersAction):
    """The actions of ``exercises``: --plugin given before the action and after it adds up, as
    it did with one parser (argparse would keep only the action's)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:  # type: ignore[no-untyped-def]
        before = getattr(namespace, "plugin", None)
        super().__call__(parser, namespace, values, option_string)
        after = getattr(namespace, "plugin", None)
        if before and after is not before:
            namespace.plugin = [*before, *(after or [])]


def _exercise_arguments(p: argparse.ArgumentParser, shown: bool, seed: str = "") -> None:
    """ID, --seed, --solution and --plugin of an ``exercises`` action; hidden where not shown."""

    def helps(text: str) -> str:
        return text if shown else argparse.SUPPRESS

    p.add_argument(
        "id",
        nargs="?",
        metavar="ID",
        default=argparse.SUPPRESS,
        help=helps("the exercise, such as ex6.2 (symattn exercises lists them)"),
    )
    p.add_argument("--seed", type=_seed, metavar="S", default=argparse.SUPPRESS, help=helps(seed))
    p.add_argument(
        "--solution",
        action="store_true",
        default=argparse.SUPPRESS,
        help=helps("also print the model solution, the expected answer and the verified derivation"),
    )
    _plugin_option(p, default=argparse.SUPPRESS)


def _examples(*lines: str) -> str:
    """An epilog of example command lines, kept one a line by :class:`_Formatter`."""
    return "examples:\n" + "\n".join(f"  {line}" for line in lines)


def _plugin_option(p: argparse.ArgumentParser, **kwargs: object) -> None:
    p.add_argument(
        "--plugin",
        action="append",
        metavar="PATH|MODULE",
        **kwargs,  # type: ignore[arg-type]
        help="also register the derivations and exercises of this .py file or module (repeatable; "
        "SYMATTN_PLUGINS and the entry points symattn.derivations and symattn.exercises are read too)",
    )


def _add_labs(sub) -> None:
    """``symattn lab variance|saturation``: every option states its range and default."""
    lab = sub.add_parser(
        "lab",
        help="reproduce the module's measured results, with 95%% intervals",
        description="Reproduce the module's section 6.3 measurements by seeded simulation. Limits "
        "(both labs): widths and keys up to 10^6, at most 10^9 draws or trials and at most "
        f"{MAX_NUMBERS_TEXT} random numbers per run (a minute or two).",
    )
    labs = lab.add_subparsers(dest="lab", metavar="LAB", parser_class=_Parser)
    labs.required = True
    lv = labs.add_parser(
        "variance",
        help="Var(q.k)/d_k per width, with 95%% intervals",
        description="Var(q.k)/d_k (which is also Var(q.k/sqrt(d_k))) for q, k with N(0, 1) entries, "
        "per width, with a 95% interval: chi-square with degrees of freedom matched to the sample "
        f"kurtosis, calibrated from {MIN_DRAWS:,} draws on.",
        epilog=_examples(
            "symattn lab variance",
            "symattn lab variance --widths 16,64 --draws 1000000 --seed 3",
            "symattn lab variance --json --plot variance.svg",
        ),
    )
    lv.add_argument(
        "--draws",
        type=_draws,
        default=200_000,
        metavar="N",
        help=f"draws per width, from {MIN_DRAWS:,} (fewer cannot give a calibrated 95%% interval) "
        "to 10^9 (default: 200,000)",
    )
    lv.add_argument(
        "--widths",
        type=_widths,
        default=[32, 64, 128, 256],
        metavar="W,W,...",
        help=f"widths d_k, 1 to 10^6, at most {MAX_WIDTHS} of them (default: 32,64,128,256)",
    )
    _lab_common(lv)
    lv.set_defaults(run=commands.lab_variance)
    ls = labs.add_parser(
        "saturation",
        help="share of trials with p_max above a threshold",
        description="The share of trials in which the largest softmax weight over K keys "
        "exceeds P, with and without scaling by 1/sqrt(d_k) (Wilson 95% intervals), "
        "and the mean p_max (1 - p_max) of saturated trials with its 95% interval.",
        epilog=_examples(
            "symattn lab saturation",
            "symattn lab saturation --trials 200000 --method reduced   # the score reduction: fast",
            "symattn lab saturation --keys 256 --threshold 0.9 --json",
        ),
    )
    ls.add_argument(
        "--trials",
        type=_whole(1, MAX_COUNT, "10^9"),
        default=500,
        metavar="TRIALS",
        help="1 to 10^9 (default: 500)",
    )
    ls.add_argument(
        "--width",
        type=_whole(1, MAX_WIDTH, "10^6"),
        default=128,
        metavar="D_K",
        help="d_k, 1 to 10^6 (default: 128)",
    )
    ls.add_argument(
        "--keys",
        type=_whole(1, MAX_KEYS, "10^6"),
        default=64,
        metavar="KEYS",
        help="the number of keys, 1 to 10^6 (default: 64)",
    )
    ls.add_argument(
        "--threshold",
        type=_probability,
        default=0.99,
        metavar="P",
        help="strictly between 0 and 1 (default: 0.99)",
    )
    _lab_common(ls)
    ls.set_defaults(run=commands.lab_saturation)


def _lab_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=_seed, default=0, metavar="S", help="0 to 2^63 - 1 (default: 0)")
    p.add_argument(
        "--method",
        choices=("direct", "reduced"),
        default="direct",
        help="draw q and every key (direct) or use the score reduction, 1 + keys numbers "
        "per trial (reduced) (default: direct)",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument(
        "--plot",
        metavar="PATH",
        help="also draw the lab's figure to PATH (.svg, .png or .pdf, in an existing folder; "
        "needs matplotlib) (default: no figure)",
    )


def _draws(text: str) -> int:
    """--draws: the minimum comes with its reason."""
    try:
        n = int(text)
    except ValueError:
        n = None  # not a number: _whole says so
    if n is not None and n < MIN_DRAWS:
        raise argparse.ArgumentTypeError(
            f"at least {MIN_DRAWS:,} draws are needed for a calibrated 95% interval, got {n}"
        )
    return _whole(MIN_DRAWS, MAX_COUNT, "10^9")(text)


def _widths(text: str) -> list[int]:
    parts = [w.strip() for w in text.split(",") if w.strip()]
    if not parts or len(parts) > MAX_WIDTHS:
        raise argparse.ArgumentTypeError(f"give from 1 to {MAX_WIDTHS} widths separated by commas")
    if any(not (w.isascii() and w.isdigit()) for w in parts):
        raise argparse.ArgumentTypeError(f"widths must be whole numbers: {text[:40]!r}")
    widths = [int(w) for w in parts]
    if any(w < 1 or w > MAX_WIDTH for w in widths):
        raise argparse.ArgumentTypeError(f"widths must be from 1 to 10^6: {text[:40]!r}")
    return widths


def _probability(text: str) -> float:
    try:
        p = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < p < 1:
        raise argparse.ArgumentTypeError(f"must be strictly between 0 and 1, got {text}")
    return p


def _check_argv(argv: list[str]) -> list[str]:
    """``check ID -\\frac{1}{2}``: a word starting with '-' that is not an option is the answer.

    Options of ``check`` (and any ``--word``, so that a typo is still an error) stay options;
    every other word goes after ``--``, where argparse reads it as a positional.
    """
    if not argv or argv[0] != "check":
        return argv
    options: list[str] = []
    positional: list[str] = []
    rest = argv[1:]
    i = 0
    while i < len(rest):
        word = rest[i]
        if word == "--":
            positional += rest[i + 1 :]
            break
        if word in ("--seed", "--steps", "--plugin") and i + 1 < len(rest):
            options += rest[i : i + 2]
            i += 1
        elif word in ("-h", "--help") or (word.startswith("--") and word[2:3].isalpha()):
            options.append(word)
        else:
            positional.append(word)
        i += 1
    return ["check", *options, "--", *positional]


class _Version(argparse.Action):
    """--version, reading the installed version only when asked (metadata lookups are slow)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        kwargs.pop("nargs", None)
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)  # type: ignore[arg-type]

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> NoReturn:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("symattn")
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            from .. import __version__ as number
        print(f"symattn {number}")
        parser.exit(0)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (0, 1 or 2; 130 when interrupted).

    Errors are one line on stderr. Output that cannot be written (a full device, a path that
    does not exist, a standard output closed when the program started) is an error like any
    other; a reader that closes the pipe early (``| head``) ends the command quietly with exit
    code 2. With stderr closed at the start, errors are lost but the exit codes are the same.
    """
    if sys.stderr is None:  # started with 2>&-: Python has no stderr to write to
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (it lasts as long as the process)
    if sys.stdout is None:  # started with >&-: nothing the command prints could be written
        return _error("cannot write to standard output: it is closed")
    parsing = True
    try:
        words = list(sys.argv[1:] if argv is None else argv)
        if not words:  # symattn alone: what it can do, rather than a complaint
            build_parser().print_help()
            return 0
        args = build_parser().parse_args(_check_argv(words))
        parsing = False
        if hasattr(args, "plugin"):  # commands that know derivations or exercises
            from ..grading.plugins import loaded

            with loaded(args.plugin or ()):
                code = args.run(args)
        else:
            code = args.run(args)
        try:
            sys.stdout.flush()  # surface a write error here, not at interpreter exit
        except BrokenPipeError:
            raise
        except OSError as exc:
            return _error(f"cannot write to standard output: {exc.strerror or exc}")
        return code
    except SystemExit as exc:
        if not parsing:  # a plugin's code called sys.exit: it must not decide the exit code
            return _error(f"code run by the command called sys.exit({exc.code!r})")
        _flush_quietly()  # --help, --version and argument errors
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    except SymattnError as exc:
        return _error(str(exc), exc.exit_code)
    except UnicodeEncodeError as exc:  # a terminal whose encoding (ascii, latin-1) lacks a symbol
        shown = exc.object[exc.start : exc.start + 1] if isinstance(exc.object, str) else "?"
        return _error(
            f"cannot write to standard output: its encoding, {exc.encoding}, has no {shown!r} "
            "(set PYTHONIOENCODING=utf-8)"
        )
    except ValueError as exc:  # a lab's own argument checks
        return _error(str(exc))
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BAD_INPUT
    except OSError as exc:
        if exc.filename:
            return _error(f"cannot read or write {exc.filename}: {exc.strerror or exc}")
        if exc.errno in _FULL:  # the files symattn writes name themselves: this is standard output
            return _error(f"cannot write to standard output: {exc.strerror or exc}")
        return _error(f"cannot read or write: {exc.strerror or exc}")
    except MemoryError:
        return _error("out of memory: the problem is too large for this machine")
    except RecursionError:
        return _error("input nested too deeply")
    except KeyboardInterrupt:
        print("symattn: interrupted", file=sys.stderr)
        return 130


#: A device or file system with no room left: what a write, not a read, meets.
_FULL = frozenset({errno.ENOSPC, errno.EFBIG, errno.EDQUOT})


def _error(message: str, code: int = EXIT_BAD_INPUT) -> int:
    first = message.strip().splitlines()[0] if message.strip() else "unknown error"
    with contextlib.suppress(OSError):
        print(f"symattn: error: {first}", file=sys.stderr)
    _silence_stdout()
    return code


def _flush_quietly() -> None:
    try:
        sys.stdout.flush()
    except OSError:
        _silence_stdout()


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that Python's final flush cannot fail with a traceback."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return  # captured in memory (tests): nothing is flushed at exit
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)


#: The commands that verify derivations. They build and compare the same SymPy expressions
#: many times over, in every lemma, step and check: SymPy's cache of 1,000 results keeps too
#: few of them (measured in bench/verify_speed.py: verify 0.2 to 0.3 s faster with 100,000).
VERIFYING = ("verify", "derive", "build")


def _tune(command: Sequence[str]) -> None:
    """Settings for a symattn process (not for a program that imports symattn): Python's cyclic
    garbage collector runs far less often (SymPy allocates millions of small objects, few of
    them in cycles), and a command that verifies derivations gets a larger SymPy cache (read
    when SymPy is first imported, so set before)."""
    gc.set_threshold(50_000, 20, 20)
    if command and command[0] in VERIFYING and "sympy" not in sys.modules:
        os.environ.setdefault("SYMPY_CACHE_SIZE", "100000")


def run() -> NoReturn:
    """The ``symattn`` program (and ``python -m symattn``): :func:`main`, then the process ends
    at once with its exit code.

    By then the output is flushed (or silenced) and everything the command started is over:
    worker pools are joined (a worker left by an interrupted clean-up is killed), files closed.
    What Python would still do on a normal exit is free every object one by one, SymPy's
    caches included: 0.2 to 0.5 s after a derivation, longer than some whole commands take.
    ``os._exit`` skips it. Tests call :func:`main` in-process.
    """
    import multiprocessing

    _tune(sys.argv[1:2])
    try:
        code = main()
    except Exception as exc:  # a fault of symattn's own: said in one line, not a traceback
        code = _error(
            f"internal error ({type(exc).__name__}: {exc}); please report it with the command",
            EXIT_INTERNAL,
        )
    # A worker still running can only be left by a second Ctrl-C that cut short a pool's
    # clean-up; a normal exit would wait for it, os._exit would leave it behind: stop it.
    for child in multiprocessing.active_children():
        child.kill()
    for stream in (sys.stdout, sys.stderr):  # None when the program was started with it closed
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
