"""What each ``symattn`` subcommand does: read its parsed arguments, call the library, print.

Each function takes the argparse namespace and returns the exit code (see :mod:`symattn.errors`).
Heavy modules are imported inside the functions, so ``symattn --help`` stays fast.
"""

from __future__ import annotations

import argparse
import sys

from ..limits import AUDIT_CHARACTERS, AUDIT_FORMULAS, AUDIT_LINES, AUDIT_NOTEBOOK_BYTES


def build(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..build.site import compare, generate, write
    from ..errors import EXIT_CHECK_FAILED

    out = Path(args.out)
    if not args.check:
        out.mkdir(parents=True, exist_ok=True)  # an unwritable --out fails now, not after the work
    result = generate(progress=progress)
    sys.stdout.write(result.summary)
    placeholders = result.placeholders  # pages whose source is absent: kept, never compared
    if args.check:
        stale = compare(result.files, out, placeholders)
        for rel in placeholders:
            if rel not in stale:
                print(f"symattn: note: {out}/{rel} was not compared: {result.missing}", file=sys.stderr)
        if stale:
            print(f"symattn: {out}/ is out of date; run `symattn build --out {out}`:", file=sys.stderr)
            for rel in stale:
                print(f"  {rel}", file=sys.stderr)
            return EXIT_CHECK_FAILED
        print(f"{out}/ is up to date ({len(result.files)} files).")
    else:
        written = write(result.files, out, placeholders)
        for rel in placeholders:
            done = "wrote a short page in its place" if rel in written else "left it as it is"
            print(f"symattn: {out}/{rel} not generated ({done}): {result.missing}", file=sys.stderr)
        print(f"wrote {len(result.files)} files to {out}/")
    return 0 if result.ok else EXIT_CHECK_FAILED


def lab_variance(args: argparse.Namespace) -> int:
    from ..labs.simulation import variance_lab, variance_numbers
    from ..present import lab_render

    plot = _plot_target(args.plot, variance_numbers(list(_figures().WIDTHS), 50_000, "direct"))
    rows = variance_lab(args.widths, args.draws, args.seed, args.method)
    if args.json:
        _emit(lab_render.variance_json(rows, args.seed, args.method))
    else:
        _emit(lab_render.variance_text(rows, args.seed, args.method))
    if plot is not None:
        _figures().score_histograms(plot, seed=args.seed)
    return 0


#: Random numbers from which a direct saturation run is long enough (a few seconds) to be worth
#: a hint that the reduced method draws far fewer.
REDUCED_HINT_NUMBERS = 10**8


def lab_saturation(args: argparse.Namespace) -> int:
    from ..labs.simulation import saturation_lab, saturation_numbers
    from ..present import lab_render

    figure_work = sum(saturation_numbers(20_000, w, args.keys, "reduced") for w in _figures().WIDTHS)
    plot = _plot_target(args.plot, figure_work)
    direct = saturation_numbers(args.trials, args.width, args.keys, "direct")
    if args.method == "direct" and direct >= REDUCED_HINT_NUMBERS and sys.stderr.isatty():
        fewer = direct / saturation_numbers(args.trials, args.width, args.keys, "reduced")
        print(
            f"symattn: hint: --method reduced gives the same distribution from {fewer:,.0f} times "
            "fewer random numbers (the score reduction)",
            file=sys.stderr,
        )
    r = saturation_lab(args.trials, args.width, args.keys, args.threshold, args.seed, args.method)
    _emit(lab_render.saturation_json(r) if args.json else lab_render.saturation_text(r))
    if plot is not None:
        _figures().saturation_curve(plot, keys=args.keys, threshold=args.threshold, seed=args.seed)
    return 0


def _figures():
    from ..labs import figures

    return figures


def _plot_target(path: str | None, numbers: int):
    """Check a --plot path (and that matplotlib is there) before a lab runs, not after."""
    if path is None:
        return None
    from ..errors import InputError
    from ..limits import MAX_NUMBERS, MAX_NUMBERS_TEXT

    if numbers > MAX_NUMBERS:
        raise InputError(
            f"the figure would draw {numbers:.3g} random numbers, more than the limit of {MAX_NUMBERS_TEXT}"
        )
    return _figures().check_target(path)


def _emit(text: str) -> None:
    """Write to stdout; a full disk or a closed pipe is one line on stderr, exit 2."""
    from ..errors import InputError

    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as exc:  # main's one line for it also points stdout at /dev/null
        raise InputError(f"cannot write to standard output: {exc.strerror or exc}") from None


def exercises(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..grading.exercises import EXERCISES, get
    from ..present.exercise_render import exercise_list, exercise_text

    if args.action == "list":
        sys.stdout.write(exercise_list(list(EXERCISES.values())))
        return 0
    if not args.id:
        raise InputError(f"name an exercise: symattn exercises {args.action} ID")
    if args.action == "variant" and args.seed is None:
        raise InputError("a variant needs --seed S")
    exercise = get(args.id, args.seed)
    sys.stdout.write(exercise_text(exercise, args.solution))
    return 0


def check(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..grading.exercises import get
    from ..grading.submission import expected_latex, judge_submission
    from ..present.exercise_render import verdict_json, verdict_text

    if args.steps is not None:
        return check_steps(args)
    if args.stdin and args.answer is not None:
        raise InputError("give the answer as an argument or with --stdin, not both")
    if args.stdin:
        answer = _stdin_answer()
    elif args.answer is None:
        raise InputError(
            "give an ANSWER: symattn check ID ANSWER (or --stdin), or a derivation with --steps FILE"
        )
    else:
        answer = args.answer
    exercise = get(args.id, args.seed)
    verdict = judge_submission(exercise, answer)
    if args.json:
        sys.stdout.write(verdict_json(exercise.id, expected_latex(exercise), verdict))
    else:
        sys.stdout.write(verdict_text(exercise.id, verdict))
    return verdict.exit_code


#: Characters --stdin reads: an answer (at most 400 of them, white space around it aside) and any
#: amount of white space a file may carry, within a bound on memory.
STDIN_CHARACTERS = 1 << 20


def _stdin_answer() -> str:
    """The answer on standard input, as a file saved by an editor holds it: white space around it
    and a UTF-8 byte-order mark (Notepad's) dropped. Never what is left of a cut answer: more
    than :data:`STDIN_CHARACTERS` is refused, as is text that is not UTF-8."""
    from ..errors import InputError
    from ..grading.answers.notation import MAX_LENGTH

    not_utf8 = InputError("standard input is not UTF-8 text")
    try:
        raw = sys.stdin.read(STDIN_CHARACTERS + 1)
    except UnicodeDecodeError:  # a strict decoder (a UTF-8 locale)
        raise not_utf8 from None
    if len(raw) > STDIN_CHARACTERS:
        raise InputError(
            f"standard input holds more than {STDIN_CHARACTERS:,} characters: "
            f"an answer is at most {MAX_LENGTH}"
        )
    if any("\udc80" <= c <= "\udcff" for c in raw):  # bytes a lenient decoder (the C locale) kept
        raise not_utf8
    return raw.lstrip("\ufeff").strip()


def check_steps(args: argparse.Namespace) -> int:
    """``symattn check ID --steps FILE``: a learner's derivation judged line by line."""
    from ..errors import InputError
    from ..grading.exercises import get
    from ..grading.proofs.proof_judge import read_steps
    from ..grading.submission import judge_submission, require_steps
    from ..present.learner_render import proof_json, proof_text

    if args.answer is not None or args.stdin:
        raise InputError("give an ANSWER or --steps FILE, not both (--steps - reads standard input)")
    exercise = get(args.id)
    if args.seed is not None:
        raise InputError("--seed does not apply to --steps")
    require_steps(exercise)
    verdict = judge_submission(exercise, steps=read_steps(args.steps))
    sys.stdout.write(proof_json(verdict) if args.json else proof_text(verdict))
    return verdict.exit_code


def audit(args: argparse.Namespace) -> int:
    from ..errors import EXIT_CHECK_FAILED, InputError
    from ..grading.audit.sources import kind_of
    from ..grading.worker import OutOfTime, WorkerError, isolated

    kind = kind_of(args.file)
    # a notebook is read whole (its JSON, images and all, up to a bound); any other text to one
    # character past the bound of characters read, the audit then reading it to that bound
    limit = AUDIT_NOTEBOOK_BYTES if kind == "notebook" else AUDIT_CHARACTERS
    text = _text_file(args.file, limit)
    if kind == "notebook" and len(text) > limit:  # JSON cut short is no notebook
        raise InputError(f"{args.file}: a notebook longer than {limit:,} characters, too long to audit")
    preamble = ""
    for path in getattr(args, "macros", None) or ():
        macros = _text_file(path, AUDIT_CHARACTERS)
        if len(macros) > AUDIT_CHARACTERS:
            raise InputError(f"{path}: a file of macros longer than {AUDIT_CHARACTERS:,} characters")
        preamble += macros + "\n"
    try:
        out, problems, wrong = isolated(
            _audit_report,
            text,
            args.json,
            getattr(args, "min_decided", None),
            kind,
            preamble,
            timeout=AUDIT_WALL_SECONDS,
            memory_mb=AUDIT_MEMORY_MB,
            cpu_seconds=AUDIT_CPU_SECONDS,
            max_bytes=64 << 20,  # the report of a text at the bounds
        )
    except OutOfTime as exc:  # the safety net on time: not audited, try again (exit 75)
        raise OutOfTime(f"{args.file}: {exc}") from None
    except WorkerError as exc:
        raise InputError(f"{args.file}: {exc}") from None
    if out is None:
        raise InputError(f"{args.file}: no exercises and no numeric claims found")
    sys.stdout.write(out)
    for line in problems:
        print(line, file=sys.stderr)
    return EXIT_CHECK_FAILED if wrong else 0


#: Limits for one audit's worker. What an audit reads is bounded by the text (characters and
#: formulas, symattn.limits); these are only a safety net set far above what those bounds
#: cost (under 10 s of CPU), in CPU seconds, wall-clock seconds for a busy machine, and memory.
AUDIT_CPU_SECONDS = 40
AUDIT_WALL_SECONDS = 120.0
AUDIT_MEMORY_MB = 500


def _text_file(path: str, limit: int) -> str:
    """A text file's first ``limit`` + 1 characters; :class:`InputError` with one line for a file
    that cannot be read, is not a regular file (a FIFO would wait for a writer) or is not text."""
    import os
    import stat

    from ..errors import InputError

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise InputError(f"cannot read {path}: not a regular file")
        with open(path, encoding="utf-8") as fh:
            text = fh.read(limit + 1)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InputError(f"cannot read {path}: not UTF-8 text (a binary file?)") from None
    if "\0" in text:
        raise InputError(f"cannot read {path}: not a text file (it holds NUL bytes)")
    return text


def _audit_report(
    text: str, as_json: bool, min_decided: int | None = None, kind: str = "markdown", preamble: str = ""
) -> tuple[str | None, list[str], bool]:
    """In the audit's worker: the report, the lines for standard error, whether the audit fails
    (a claim or key wrong, or fewer than ``min_decided`` % of the claims decided; plain data:
    the parent rebuilds nothing the module's text made)."""
    from ..grading.audit.keys import audit_module
    from ..grading.audit.sources import read_source
    from ..present.audit_render import audit_json, audit_text_report, percent, short_claim
    from ..unicode_text import words

    result = audit_module(read_source(text, kind, AUDIT_CHARACTERS, preamble), AUDIT_FORMULAS)
    if not result.keys and not result.claims:
        return None, [], False
    coverage = result.coverage
    # a text read only in part was not decided past its bound, however much of the part was
    short = min_decided is not None and (coverage.below(min_decided) or bool(result.stopped))
    problems = [
        f"symattn: wrong: {result.place_of(c)}: {short_claim(c, 80)}: true value {c.value}"
        for c in result.claims
        if c.verdict == "wrong"
    ]
    for r in result.keys:
        if r.wrong:
            name = r.exercise.id if r.exercise else f"exercise {r.found.position}"
            problems.append(f"symattn: {r.status}: {name} (line {r.found.where}): {words(r.detail)}")
    if result.stopped:
        problems.append(
            f"symattn: read to {result.place(result.stopped)} only, the bound of what one audit "
            f"reads ({AUDIT_CHARACTERS:,} characters, {AUDIT_LINES:,} lines, {AUDIT_FORMULAS:,} formulas): "
            "the rest is not checked"
        )
    if short and coverage.below(min_decided):
        problems.append(
            f"symattn: too little decided: {percent(coverage.decided)} of {coverage.claims} claims, "
            f"below --min-decided {min_decided} ({coverage.unchecked} unchecked)"
        )
    elif short:
        read_to = result.place(result.stopped)
        problems.append(f"symattn: too little decided: the text was read only to {read_to}")
    return (audit_json(result) if as_json else audit_text_report(result)), problems, result.wrong or short


def derive(args: argparse.Namespace) -> int:
    import derivations

    from ..errors import InputError
    from ..present.proof_render import FORMATS
    from ..proof.engine import default_jobs

    if args.list:
        from ..unicode_text import words  # a title's math ($\sqrt{d_k}$) in Unicode

        for name in derivations.names():
            print(f"{name}\t{words(derivations.title(name))}")
        return 0
    if not args.name:
        raise InputError("name a derivation (symattn derive --list shows them)")
    d = derivations.load(args.name)
    progress(f"checking {args.name} ...")
    report = d.verify(jobs=default_jobs(), isolate=True)
    sys.stdout.write(FORMATS[args.format](d, report))
    return 0


def verify(args: argparse.Namespace) -> int:
    import derivations

    from ..build import verify as verifying
    from ..errors import EXIT_CHECK_FAILED
    from ..proof.engine import default_jobs

    every = verifying.names()  # the derivations, then the exercises' worked solutions
    names = args.names or every
    for name in names:
        if name not in every:
            derivations.load(name)  # raises the one-line error

    def write(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    jobs = args.jobs or default_jobs()
    _, ok = verifying.verify_all(names, progress=progress, write=write, jobs=jobs)
    if getattr(args, "mutations", False):
        ok &= _planted_errors(names, write, jobs)
    return 0 if ok else EXIT_CHECK_FAILED


def _planted_errors(names: list[str], write, jobs: int) -> bool:
    """``verify --mutations``: plant each error of these derivations; each must fail where planted."""
    from derivations.mutations import catalogue, outcomes

    from ..grading.exercises import solution_mutations

    planted = catalogue(names) + solution_mutations(names)
    write(f"\nplanted errors: {len(planted)}\n")
    caught = 0
    results = outcomes(planted, jobs)
    for m in planted:
        progress(f"planting {m.derivation}: {m.description} ...")
        ok, line = next(results)
        caught += ok
        write(f"  {line}\n")
    write(f"caught where planted: {caught} of {len(planted)}\n")
    return caught == len(planted)


def grade(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from ..errors import InputError
    from ..grading.batch.grade import grade_file
    from ..grading.exercises import EXERCISES
    from ..present.grade_report import (
        ChartUnavailable,
        bar_chart,
        gradebook_csv,
        report_markdown,
        summarise,
        summary_json,
        summary_text,
    )

    try:
        graded = grade_file(args.file, args.out, args.format, args.jobs, progress=sys.stderr.isatty())
    except KeyboardInterrupt:
        if args.out:
            print(f"symattn: interrupted; run the same command to resume from {args.out}", file=sys.stderr)
        raise
    except OSError as exc:  # --out (or standard output, without it) cannot be written
        where = exc.filename or args.out or "standard output"
        raise InputError(f"cannot write {where}: {exc.strerror or exc}") from None
    summary = summarise(graded.records, known=EXERCISES)
    rows = len(graded.records)
    if args.summary_json:
        doc = summary_json(summary) | {"file": args.file, "rows": rows}
        _write_output(args.summary_json, json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    if args.gradebook:
        # The class's exercises that exist, in the order of the exercise list.
        present = {s.exercise for s in summary}
        _write_output(args.gradebook, gradebook_csv(summary, [e for e in EXERCISES if e in present]))
    if args.report:
        title, chart = f"Class report: {args.file}", Path(args.report).with_suffix(".svg")
        if chart == Path(args.report):  # a report named *.svg: its chart beside it, not over it
            chart = chart.with_suffix(".chart.svg")
        _write_output(args.report, report_markdown(summary, title, chart.name))
        try:
            bar_chart(summary, chart)
        except ChartUnavailable as exc:  # the report without its chart, rather than no report
            print(f"symattn: warning: {exc}", file=sys.stderr)
            _write_output(args.report, report_markdown(summary, title, None))
        except OSError as exc:
            raise InputError(f"cannot write {chart}: {exc.strerror or exc}") from None
    # The summary last, once every file is written: an output that cannot be written is then
    # the one line on stderr. With the rows on stdout, the summary goes to stderr so that
    # stdout stays one table.
    shown = sys.stdout if args.out else sys.stderr
    head = f"{rows} rows from {args.file}: {graded.judged} judged in {graded.seconds:.1f} s"
    if graded.resumed:
        head += f", {graded.resumed} already graded in {args.out}"
    try:
        print(head + "\n", file=shown)
        shown.write(summary_text(summary))
        shown.flush()
    except OSError as exc:
        where = "standard output" if shown is sys.stdout else "standard error"
        raise InputError(f"cannot write {where}: {exc.strerror or exc}") from None
    return 0


def _write_output(path: str, text: str) -> None:
    """Write ``text`` to ``path`` (created with the umask's mode), or one line naming the file."""
    from ..errors import InputError

    try:
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None


def flops(args: argparse.Namespace) -> int:
    import json

    from ..core.flops import breakdown
    from ..errors import InputError

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
    from ..core.exact import attention
    from ..core.inputs import EXAMPLE, parse_matrix
    from ..errors import InputError
    from ..present.render import FORMATS

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
