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

    der = sub.add_parser(
        "derive",
        help="print a checked derivation",
        description="Print one of the module's derivations, every step checked, as text, Markdown or LaTeX.",
    )
    der.add_argument("name", nargs="?", help="derivation name (see --list)")
    der.add_argument("--list", action="store_true", help="list the derivations, one per line")
    der.add_argument("--format", choices=("text", "markdown", "latex"), default="text")
    der.set_defaults(run=_run_derive)

    ver = sub.add_parser(
        "verify",
        help="check every derivation and print a table",
        description="Run every derivation's steps, lemmas and numeric checks. Exit 1 if any fails.",
    )
    ver.add_argument("names", nargs="*", metavar="NAME", help="only these derivations")
    ver.set_defaults(run=_run_verify)

    fl = sub.add_parser(
        "flops",
        help="the cost of multi-head attention",
        description="Multiply-adds of multi-head attention: 4 N d^2 + 2 N^2 d, and the crossover.",
    )
    fl.add_argument("--d-model", type=_positive, required=True, metavar="D")
    fl.add_argument("--n", type=_positive, required=True, metavar="N", help="sequence length")
    fl.add_argument("--heads", type=_positive, default=1, metavar="H")
    fl.add_argument("--json", action="store_true")
    fl.set_defaults(run=_run_flops)

    ex = sub.add_parser(
        "exercises",
        help="list, show or vary the module's exercises",
        description="symattn exercises | exercises show ID [--solution] | "
        "exercises variant ID --seed S [--solution]",
    )
    ex.add_argument("action", nargs="?", choices=("list", "show", "variant"), default="list")
    ex.add_argument("id", nargs="?", metavar="ID")
    ex.add_argument("--solution", action="store_true", help="include the model solution")
    ex.add_argument("--seed", type=_seed, metavar="S", help="variant seed")
    ex.set_defaults(run=_run_exercises)

    ch = sub.add_parser(
        "check",
        help="judge an answer to an exercise",
        description="Judge ANSWER (LaTeX or a plain number) for exercise ID. "
        "Exit 0 correct, 1 incorrect, 2 invalid.",
    )
    ch.add_argument("id", metavar="ID")
    ch.add_argument("answer", metavar="ANSWER")
    ch.add_argument("--seed", type=_seed, metavar="S", help="judge the variant for this seed")
    ch.add_argument("--json", action="store_true")
    ch.set_defaults(run=_run_check)

    au = sub.add_parser(
        "audit",
        help="check a module file's answer keys",
        description="Find every exercise in a module file in the seed's Markdown format, match "
        "it to the registry and check each stated key. Exit 1 naming any wrong key.",
    )
    au.add_argument("file", metavar="FILE")
    au.set_defaults(run=_run_audit)

    bd = sub.add_parser(
        "build",
        help="generate docs/ from the code (the main job)",
        description="Run every derivation and check, the labs and the exercises, and write the "
        "documentation. Exit 1 if any check fails (or, with --check, if docs/ is out of date).",
    )
    bd.add_argument("--out", default="docs", metavar="DIR")
    bd.add_argument(
        "--check",
        action="store_true",
        help="regenerate into a temporary folder and list files that differ from DIR",
    )
    bd.set_defaults(run=_run_build)

    lab = sub.add_parser("lab", help="reproduce the module's measured results")
    labs = lab.add_subparsers(dest="lab", metavar="LAB", parser_class=_Parser)
    labs.required = True
    lv = labs.add_parser("variance", help="Var(q.k)/d_k per width, with 95% intervals")
    lv.add_argument("--draws", type=_positive, default=200_000)
    lv.add_argument("--widths", type=_widths, default=[32, 64, 128, 256], metavar="W,W,...")
    _lab_common(lv)
    lv.set_defaults(run=_run_lab_variance)
    ls = labs.add_parser("saturation", help="share of trials with p_max above a threshold")
    ls.add_argument("--trials", type=_positive, default=500)
    ls.add_argument("--width", type=_positive, default=128)
    ls.add_argument("--keys", type=_positive, default=64)
    ls.add_argument("--threshold", type=_probability, default=0.99)
    _lab_common(ls)
    ls.set_defaults(run=_run_lab_saturation)
    return parser


def _run_build(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .errors import EXIT_CHECK_FAILED
    from .site import compare, generate, write

    result = generate(progress=_progress)
    sys.stdout.write(result.summary)
    out = Path(args.out)
    if args.check:
        stale = compare(result.files, out)
        if stale:
            print(f"symattn: {out}/ is out of date; run `symattn build --out {out}`:", file=sys.stderr)
            for rel in stale:
                print(f"  {rel}", file=sys.stderr)
            return EXIT_CHECK_FAILED
        print(f"{out}/ is up to date ({len(result.files)} files).")
    else:
        write(result.files, out)
        print(f"wrote {len(result.files)} files to {out}/")
    return 0 if result.ok else EXIT_CHECK_FAILED


def _lab_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=_seed, default=0)
    p.add_argument(
        "--method",
        choices=("direct", "reduced"),
        default="direct",
        help="draw q and every key (direct) or use the score reduction (reduced)",
    )
    p.add_argument("--json", action="store_true")
    p.add_argument("--plot", metavar="PATH", help="also draw the lab's figure (SVG)")


def _widths(text: str) -> list[int]:
    try:
        widths = [int(w) for w in text.split(",") if w.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"widths must be whole numbers: {text!r}") from None
    if not widths or any(w < 1 or w > 1_000_000 for w in widths):
        raise argparse.ArgumentTypeError(f"widths must be between 1 and 10^6: {text!r}")
    return widths


def _probability(text: str) -> float:
    try:
        p = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < p < 1:
        raise argparse.ArgumentTypeError(f"must be strictly between 0 and 1, got {text}")
    return p


def _run_lab_variance(args: argparse.Namespace) -> int:
    import json

    from .labs import variance_lab

    rows = variance_lab(args.widths, args.draws, args.seed, args.method)
    if args.json:
        doc = {
            "widths": [
                r.__dict__ | {"ratio_ci": list(r.ratio_ci), "scaled_variance_ci": list(r.scaled_variance_ci)}
                for r in rows
            ],
            "draws": args.draws,
            "seed": args.seed,
            "method": args.method,
        }
        print(json.dumps(doc, indent=2))
    else:
        print(
            f"Var(q.k)/d_k over {args.draws:,} draws per width ({args.method}, seed {args.seed}); "
            "95% intervals"
        )
        print(f"{'d_k':>6}  {'Var(q.k)/d_k':>13}  {'95% interval':>18}  {'Var(scaled)':>11}")
        for r in rows:
            print(
                f"{r.d_k:>6}  {r.ratio:>13.4f}  [{r.ratio_ci[0]:.4f}, {r.ratio_ci[1]:.4f}]  "
                f"{r.scaled_variance:>11.4f}"
            )
    if args.plot:
        from .figures import score_histograms

        score_histograms(args.plot, seed=args.seed)
    return 0


def _run_lab_saturation(args: argparse.Namespace) -> int:
    import json

    from .labs import saturation_lab

    r = saturation_lab(args.trials, args.width, args.keys, args.threshold, args.seed, args.method)
    if args.json:
        doc = r.as_dict()
        for name in ("unscaled", "scaled"):
            doc[name]["ci"] = list(doc[name]["ci"])
        print(json.dumps(doc, indent=2))
    else:
        print(
            f"{r.trials:,} trials, d_k = {r.width}, {r.keys} keys, p_max > {r.threshold} "
            f"({r.method}, seed {r.seed}); Wilson 95% intervals"
        )
        for name in ("unscaled", "scaled"):
            s = getattr(r, name)
            mean = "-" if s.mean_p_one_minus_p is None else f"{s.mean_p_one_minus_p:.4f}"
            print(
                f"  {name:<9} {100 * s.share:6.2f}%  [{100 * s.ci[0]:.2f}%, {100 * s.ci[1]:.2f}%]"
                f"  mean p(1-p) when saturated: {mean}"
            )
    if args.plot:
        from .figures import saturation_curve

        saturation_curve(args.plot, keys=args.keys, threshold=args.threshold, seed=args.seed)
    return 0


def _seed(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= n < 2**63:
        raise argparse.ArgumentTypeError("must be between 0 and 2^63 - 1")
    return n


def _run_exercises(args: argparse.Namespace) -> int:
    from .errors import InputError
    from .exercise_render import exercise_list, exercise_text
    from .exercises import EXERCISES, get

    if args.action == "list":
        sys.stdout.write(exercise_list(list(EXERCISES.values())))
        return 0
    if not args.id:
        raise InputError(f"name an exercise: symattn exercises {args.action} ID")
    if args.action == "variant" and args.seed is None:
        raise InputError("a variant needs --seed S")
    exercise = get(args.id, args.seed if args.action == "variant" else None)
    sys.stdout.write(exercise_text(exercise, args.solution))
    return 0


def _run_check(args: argparse.Namespace) -> int:
    from .errors import InputError
    from .exercise_render import verdict_json, verdict_text
    from .exercises import get
    from .judge import judge

    exercise = get(args.id, args.seed)
    if not exercise.checkable:
        raise InputError(
            f"{exercise.id} has no machine-checkable answer: see "
            f"symattn exercises show {exercise.id} --solution"
        )
    verdict = judge(args.answer, exercise.expected, exercise.mistakes)
    if args.json:
        sys.stdout.write(verdict_json(exercise.id, exercise.expected.latex(), verdict))
    else:
        sys.stdout.write(verdict_text(exercise.id, verdict))
    return verdict.exit_code


def _run_audit(args: argparse.Namespace) -> int:
    from .audit import audit_text
    from .errors import EXIT_CHECK_FAILED, InputError
    from .exercise_render import audit_table

    try:
        with open(args.file, encoding="utf-8") as fh:
            text = fh.read(2_000_000)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {args.file}: {getattr(exc, 'strerror', None) or exc}") from None
    rows = audit_text(text)
    if not rows:
        raise InputError(f"{args.file}: no exercises found (expected **Exercise (kind).** blocks)")
    sys.stdout.write(audit_table(rows))
    wrong = [r for r in rows if r.wrong]
    for r in wrong:
        name = r.exercise.id if r.exercise else f"exercise {r.found.position}"
        print(f"symattn: {r.status}: {name}: {r.detail}", file=sys.stderr)
    return EXIT_CHECK_FAILED if wrong else 0


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n < 1 or n > 10**12:
        raise argparse.ArgumentTypeError(f"must be between 1 and 10^12, got {n}")
    return n


def _run_derive(args: argparse.Namespace) -> int:
    import derivations

    from .errors import InputError
    from .proof_render import FORMATS

    if args.list:
        for name in derivations.NAMES:
            print(f"{name}\t{derivations.title(name)}")
        return 0
    if not args.name:
        raise InputError("name a derivation (symattn derive --list shows them)")
    d = derivations.load(args.name)
    _progress(f"checking {args.name} ...")
    report = d.verify()
    sys.stdout.write(FORMATS[args.format](d, report))
    return 0


def _run_verify(args: argparse.Namespace) -> int:
    import derivations

    from .errors import EXIT_CHECK_FAILED
    from .verify_table import verify_all

    names = args.names or list(derivations.NAMES)
    for name in names:
        if name not in derivations.NAMES:
            derivations.load(name)  # raises the one-line error
    rows, ok = verify_all(names, progress=_progress)
    sys.stdout.write(rows)
    return 0 if ok else EXIT_CHECK_FAILED


def _run_flops(args: argparse.Namespace) -> int:
    import json

    from .errors import InputError
    from .flops import breakdown

    try:
        b = breakdown(args.n, args.d_model, args.heads)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    if args.json:
        print(json.dumps(b, indent=2))
        return 0
    width = max(len(f"{v:,}") for v in b.values())
    print(
        f"Multi-head attention, N = {args.n:,}, d_model = {args.d_model:,}, h = {args.heads} "
        f"(d_k = {args.d_model // args.heads}); multiply-adds:"
    )
    labels = {
        "projections": "projections      3 N d^2",
        "scores": "scores           N^2 d",
        "weighted_sum": "weighted sum     N^2 d",
        "output_projection": "output proj.     N d^2",
        "total": "total  4 N d^2 + 2 N^2 d",
    }
    for key, label in labels.items():
        print(f"  {label:<26} {b[key]:>{width},}")
    quadratic = b["scores"] + b["weighted_sum"]
    linear = b["projections"] + b["output_projection"]
    side = "larger than" if quadratic > linear else ("equal to" if quadratic == linear else "smaller than")
    print(
        f"The N^2 terms ({quadratic:,}) are {side} the N d^2 terms ({linear:,}); "
        f"they dominate for N > 2 d_model = {b['crossover_n']:,}."
    )
    print(f"Counting multiplies and adds separately doubles every figure: {2 * b['total']:,} FLOPs.")
    return 0


def _progress(message: str) -> None:
    """Progress on stderr, only when a person is watching."""
    if sys.stderr.isatty():
        print(message, file=sys.stderr, flush=True)


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
    except ValueError as exc:  # a lab's own argument checks
        print(f"symattn: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("symattn: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
