"""The ``symattn`` command line: parses arguments and calls the library; nothing more.

Exit codes: 0 success, 1 a check failed, 2 bad input (see :mod:`symattn.errors`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from .errors import EXIT_BAD_INPUT, SymattnError

#: The two-token example of the module's section 6.2 (queries, keys, values of two tokens).
EXAMPLE = {"q": "[[3, -3], [1, 1]]", "k": "[[-3, 3], [1, 1]]", "v": "[[0, -1], [1, 2]]"}


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def _digits(text: str) -> int:
    from .digits import MAX_DIGITS

    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= n <= MAX_DIGITS:
        raise argparse.ArgumentTypeError(f"must be between 1 and {MAX_DIGITS}, got {n}")
    return n


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="symattn",
        description="The mathematics of attention, exact and machine-checked.",
        epilog="Exit codes: 0 success, 1 a check failed, 2 bad input.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    att = sub.add_parser(
        "attention",
        help="work attention out exactly, step by step",
        description="Softmax(Q K^T / sqrt(d_k) + M) V, every stage exact and to --digits digits.",
    )
    att.add_argument("--q", metavar="M", help="queries, rows in JSON: [[3,-3],[1,1]]")
    att.add_argument("--k", metavar="M", help="keys, M rows of width d_k")
    att.add_argument("--v", metavar="M", help="values, M rows of width d_v")
    att.add_argument(
        "--example",
        action="store_true",
        help="use the two-token example of the module's section 6.2 for Q, K and V",
    )
    att.add_argument(
        "--mask",
        metavar="SPEC",
        default="none",
        help="none, causal[:bottom-right], padding:L, window:W[:bottom-right], joined with +",
    )
    att.add_argument("--no-scale", action="store_true", help="do not divide scores by sqrt(d_k)")
    att.add_argument(
        "--digits",
        type=_digits,
        default=15,
        metavar="N",
        help="significant digits of decimals (default 15), correctly rounded",
    )
    att.add_argument("--format", choices=("text", "markdown", "latex", "json"), default="text")
    att.set_defaults(run=_run_attention)
    return parser


def _run_attention(args: argparse.Namespace) -> int:
    from .errors import InputError
    from .exact import attention
    from .inputs import parse_matrix
    from .render import FORMATS

    texts = {}
    for name in ("q", "k", "v"):
        given = getattr(args, name)
        if given is None and not args.example:
            raise InputError(f"--{name} is required (or pass --example)")
        texts[name] = given if given is not None else EXAMPLE[name]
    q, k, v = (parse_matrix(texts[n], n.upper()) for n in ("q", "k", "v"))
    steps = attention(q, k, v, mask=args.mask, scale=not args.no_scale)
    sys.stdout.write(FORMATS[args.format](steps, args.digits))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except SymattnError as exc:
        print(f"symattn: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("symattn: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
