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


def lab_saturation(args: argparse.Namespace) -> int:
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
    rows, ok = verify_all(names, progress=progress)
    sys.stdout.write(rows)
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
