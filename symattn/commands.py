"""What each ``symattn`` subcommand does: read its parsed arguments, call the library, print.

Each function takes the argparse namespace and returns the exit code (see :mod:`symattn.errors`).
Heavy modules are imported inside the functions, so ``symattn --help`` stays fast.
"""

from __future__ import annotations

import argparse
import sys

#: The two-token example of the module's section 6.2 (queries, keys, values of two tokens).
EXAMPLE = {"q": "[[3, -3], [1, 1]]", "k": "[[-3, 3], [1, 1]]", "v": "[[0, -1], [1, 2]]"}


def build(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .errors import EXIT_CHECK_FAILED
    from .site import compare, generate, write

    out = Path(args.out)
    if not args.check:
        out.mkdir(parents=True, exist_ok=True)  # an unwritable --out fails now, not after the work
    result = generate(progress=progress)
    sys.stdout.write(result.summary)
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


def lab_variance(args: argparse.Namespace) -> int:
    from . import lab_render
    from .labs import variance_lab, variance_numbers

    plot = _plot_target(args.plot, variance_numbers(list(_figures().WIDTHS), 50_000, "direct"))
    rows = variance_lab(args.widths, args.draws, args.seed, args.method)
    if args.json:
        _emit(lab_render.variance_json(rows, args.seed, args.method))
    else:
        _emit(lab_render.variance_text(rows, args.seed, args.method))
    if plot is not None:
        _figures().score_histograms(plot, seed=args.seed)
    return 0


def lab_saturation(args: argparse.Namespace) -> int:
    from . import lab_render
    from .labs import saturation_lab, saturation_numbers

    figure_work = sum(saturation_numbers(20_000, w, args.keys, "reduced") for w in _figures().WIDTHS)
    plot = _plot_target(args.plot, figure_work)
    r = saturation_lab(args.trials, args.width, args.keys, args.threshold, args.seed, args.method)
    _emit(lab_render.saturation_json(r) if args.json else lab_render.saturation_text(r))
    if plot is not None:
        _figures().saturation_curve(plot, keys=args.keys, threshold=args.threshold, seed=args.seed)
    return 0


def _figures():
    from . import figures

    return figures


def _plot_target(path: str | None, numbers: int):
    """Check a --plot path (and that matplotlib is there) before a lab runs, not after."""
    if path is None:
        return None
    from .errors import InputError
    from .limits import MAX_NUMBERS, MAX_NUMBERS_TEXT

    if numbers > MAX_NUMBERS:
        raise InputError(
            f"the figure would draw {numbers:.3g} random numbers, more than the limit of {MAX_NUMBERS_TEXT}"
        )
    return _figures().check_target(path)


def _emit(text: str) -> None:
    """Write to stdout; a full disk or a closed pipe is one line on stderr, exit 2."""
    from .errors import InputError

    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as exc:
        _silence_stdout()
        raise InputError(f"cannot write the output: {exc.strerror or exc}") from None


def _silence_stdout() -> None:
    """Point stdout at /dev/null so Python's final flush of the unwritten text stays quiet."""
    import os

    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def exercises(args: argparse.Namespace) -> int:
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


def check(args: argparse.Namespace) -> int:
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


def audit(args: argparse.Namespace) -> int:
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


def derive(args: argparse.Namespace) -> int:
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
    progress(f"checking {args.name} ...")
    report = d.verify()
    sys.stdout.write(FORMATS[args.format](d, report))
    return 0


def verify(args: argparse.Namespace) -> int:
    import derivations

    from .errors import EXIT_CHECK_FAILED
    from .verify_table import verify_all

    names = args.names or list(derivations.NAMES)
    for name in names:
        if name not in derivations.NAMES:
            derivations.load(name)  # raises the one-line error
    def write(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    _, ok = verify_all(names, progress=progress, write=write)
    return 0 if ok else EXIT_CHECK_FAILED


def flops(args: argparse.Namespace) -> int:
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


def progress(message: str) -> None:
    """Progress on stderr, only when a person is watching."""
    if sys.stderr.isatty():
        print(message, file=sys.stderr, flush=True)


def attention(args: argparse.Namespace) -> int:
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
