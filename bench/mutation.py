"""Mutation testing of symattn/cli/ and symattn/grading/batch/ with mutmut (issue 29).

The counts per module, and every survivor with why it is equivalent or what killing it would take.

Run: python bench/mutation.py [--workdir DIR] [--exclude PATH ...] [--children N]
                              [--reuse | --again | --resume]
     python bench/report.py --only mutation   (writes the section into docs/benchmarks.md)

Needs the ``mutation`` extra (``pip install -c constraints.txt -e '.[mutation]'``: mutmut, pinned).
What is mutated and which tests run are ``[tool.mutmut]`` in pyproject.toml. The pass works in a
copy of the repository (``--workdir``, default a folder under the temporary folder): the files git
tracks or would track, as they are in the working tree, so mutmut's ``mutants/`` folder never
touches the checkout. mutmut puts the copy's ``mutants/`` first on ``sys.path``, ahead of the
editable install's finder, so the tests import the mutated code (mutmut checks it before the
pass: the tests must fail when every mutated function raises). One worker by default
(``--children`` sets mutmut's ``--max-children``; 2 on an otherwise idle 2-core machine): the
mutants whose tests take seconds (the grading pool's and the class file's) come last, so a pass
may be stopped (its results are kept mutant by mutant; ``--resume`` goes on with the rest) and the
section then says it is partial. The workers and minutes of each run are kept in the workdir's
``runs.json``, which the section reports.
CI never runs it. ``--exclude`` leaves out a file of the working tree (a test someone is still
writing).
``--reuse`` prints the section from the last pass in ``--workdir`` without running it again;
``--again`` reruns only that pass's survivors not named equivalent (and mutants no test reached),
and every mutant of a function changed since, with the code and tests as they are now: new tests
are checked in minutes rather than a full pass.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOL = ("mutmut", "3.8.1")
MODULES = ("symattn/cli/", "symattn/grading/batch/")
WORKDIR = Path(tempfile.gettempdir()) / "symattn-mutation"

#: Functions left unmutated: the argument parser's declarations (options, their help, defaults and
#: choices; 1,267 mutants, mostly of help prose, each needing the whole CLI suite to survive: hours on
#: one worker). Each option's effect has tests of its own, generated from the parser (issue 29, must
#: have 2); the parser's behaviour (_whole, _widths, _check_argv, main, ...) is mutated. Marked in the
#: copy only, with mutmut's ``# pragma: no mutate block``.
NOT_MUTATED = {
    "symattn/cli/app.py": (
        "build_parser",
        "_add_exercises",
        "_exercise_arguments",
        "_examples",
        "_plugin_option",
        "_add_labs",
        "_lab_common",
    ),
}

#: Survivors no test can kill: the mutant cannot change what a user sees. Name -> one-line reason.
_VARIANCE_FIGURE = (
    "the variance figure's fixed work (49.6 million numbers) stays far below the 2 x 10^9 limit "
    "whatever the method or one draw more"
)
_REDUCED = "saturation_numbers counts keys + 1 per trial for every method but 'direct', whatever the width"
_NEWLINE = "newline=None writes '\\n' as os.linesep, which is '\\n' on every POSIX system"
_FALLBACK = "a wrong distribution name falls back to symattn.__version__, the same number"
_EMPTY = "argparse never calls error() with an empty message"
_NO_STDIN = "the default standard input is read by no command: only check_steps reads it, and passes its own"
_ALWAYS_SAYS = (
    "the default message is for a refusal with nothing on stderr: every refusal prints its one line"
)
_WARM_UP = "warm_up returns and prints nothing whatever it checks: only the next check's speed is at stake"
_HAS_PLUGIN = (
    "the namespace always has plugin (exercises' own --plugin defaults to None): the default is never read"
)
_VERSION_DEFAULT = "the namespace's version is read by nothing (--version ends the run when it is given)"
_LAST_OPTION = (
    "a --seed, --steps or --plugin with no word after it is passed on as an option either way, and "
    "argparse says it expects one argument"
)
_ENCODE_OBJECT = (
    "a UnicodeEncodeError's object is always a str (its constructor requires one): '?' is never shown"
)
_SUBPARSERS = "argparse's subparsers action reads neither its parser nor its option string"
_MUTATIONS_SET = "verify's parser always sets mutations: getattr's default is never read"
_LATEX_DEFAULT = "only rows that have read_as_latex are read: the default is never used"
_UTF8_NAME = "'UTF-8' and 'utf-8' name the same codec"
_UNIVERSAL = (
    "universal newlines split at the same CR, LF and CR LF, only turning each into LF, which json.loads "
    "reads as whitespace (json.dumps escapes CR and LF inside strings)"
)
_BEST = (
    "grade writes only correct, incorrect and invalid, whose alphabetical order is their rank: "
    "min agrees with or without the key"
)
_LINE_BUFFERED = "sys.stderr is line-buffered (Python 3.9+): each progress line is written at its newline"
_AFTER_COMPLETE = "_final runs only after _complete, which requires a feedback: the default is never used"
_LINE_DIGITS = (
    "a row's key starts with its line number, digits: a record without a line matches none either way"
)
_NO_DIGEST = "a record without steps_sha256 already fails _complete: it is never keyed"
_NOT_STRICT = "zip(strict=None) and zip() are zip(strict=False)"
_CHUNK = "the chunk size changes how many reads it takes, not the bytes read"
_UMASK_FALLBACK = (
    "the fallback when /proc/self/status cannot be read or parsed asks os.umask, which gives the same mask"
)
_SAME_WRITER = "_write builds the same writer when given None, and the JSON Lines path uses none"
_EQUIVALENT = {
    "symattn.cli.app": [
        ("xǁ_Versionǁ__call____mutmut_3", _FALLBACK),
        ("xǁ_Versionǁ__call____mutmut_4", _FALLBACK),
        (
            "xǁ_Formatterǁ_get_help_string__mutmut_11",
            "reached only by a positional with a default to show: each has None or SUPPRESS",
        ),
        (
            "xǁ_Formatterǁ_fill_text__mutmut_14",
            "only epilogs hold a newline, and their one unindented line ('examples:') is too short to wrap",
        ),
        (
            "xǁ_Formatterǁ_expand_help__mutmut_2",
            "every % in a help text is escaped: expansion never fails, the fallback is never reached",
        ),
        ("xǁ_Parserǁerror__mutmut_3", _EMPTY),
        ("xǁ_Parserǁerror__mutmut_5", _EMPTY),
        (
            "xǁ_Parserǁerror__mutmut_6",
            "exit(None, ...): main turns a SystemExit whose code is not a number into exit code 2, the same",
        ),
        (
            "x__did_you_mean__mutmut_12",
            "strip(\"XX'XX\") strips X and ': no choice begins or ends with a capital X",
        ),
        ("xǁ_Actionsǁ__call____mutmut_6", _HAS_PLUGIN),
        ("xǁ_Actionsǁ__call____mutmut_22", _HAS_PLUGIN),
        ("xǁ_Actionsǁ__call____mutmut_9", _SUBPARSERS),
        ("xǁ_Actionsǁ__call____mutmut_12", _SUBPARSERS),
        ("xǁ_Actionsǁ__call____mutmut_16", _SUBPARSERS),
        ("x__did_you_mean__mutmut_22", "n=3 is difflib.get_close_matches' default"),
        ("x__did_you_mean__mutmut_23", "cutoff=0.6 is difflib.get_close_matches' default"),
        ("xǁ_Versionǁ__init____mutmut_1", "no add_argument passes nargs to --version: nothing to drop"),
        *((f"xǁ_Versionǁ__init____mutmut_{i}", _VERSION_DEFAULT) for i in (9, 13)),
        (
            "xǁ_Parserǁ__init____mutmut_7",
            "every _Parser is made with keywords only (argparse's subparsers too): *args is always empty",
        ),
        *((f"x__check_argv__mutmut_{i}", _LAST_OPTION) for i in (30, 32)),
        *((f"x__check_argv__mutmut_{i}", "--help is an option by the --word rule too") for i in (44, 45)),
        ("x_main__mutmut_26", "None and False are both false: parsing has ended either way"),
        *((f"x_main__mutmut_{i}", _ENCODE_OBJECT) for i in (53, 56)),
    ],
    "symattn.cli.commands": [
        ("x_audit__mutmut_10", _UTF8_NAME),
        ("x_progress__mutmut_3", _LINE_BUFFERED),
        ("x_progress__mutmut_6", _LINE_BUFFERED),
        ("x_progress__mutmut_7", _LINE_BUFFERED),
        ("x_grade__mutmut_43", "ensure_ascii=None is false, as False is"),
        ("x_verify__mutmut_20", _MUTATIONS_SET),
        ("x_verify__mutmut_23", _MUTATIONS_SET),
        ("x_verify__mutmut_26", _MUTATIONS_SET),
        ("x_lab_variance__mutmut_8", _VARIANCE_FIGURE),
        ("x_lab_variance__mutmut_13", _VARIANCE_FIGURE),
        ("x_lab_variance__mutmut_14", _VARIANCE_FIGURE),
        ("x_lab_variance__mutmut_15", _VARIANCE_FIGURE),
        ("x_lab_saturation__mutmut_4", _REDUCED),
        ("x_lab_saturation__mutmut_6", _REDUCED),
        ("x_lab_saturation__mutmut_12", _REDUCED),
        ("x_lab_saturation__mutmut_13", _REDUCED),
        ("x_lab_saturation__mutmut_39", _REDUCED),
        ("x_lab_saturation__mutmut_41", _REDUCED),
        ("x_lab_saturation__mutmut_46", _REDUCED),
        ("x_lab_saturation__mutmut_47", _REDUCED),
        ("x__write_output__mutmut_12", "'UTF-8' and 'utf-8' name the same codec"),
        ("x__write_output__mutmut_4", _NEWLINE),
        ("x__write_output__mutmut_8", _NEWLINE),
    ],
    "symattn.cli.browser": [
        ("x__run__mutmut_1", _NO_STDIN),
        ("x__json__mutmut_1", _NO_STDIN),
        ("x__json__mutmut_10", "a command's JSON never starts with white space, so lstrip and rstrip agree"),
        ("x__json__mutmut_14", _ALWAYS_SAYS),
        ("x__json__mutmut_18", _ALWAYS_SAYS),
        ("x__json__mutmut_19", _ALWAYS_SAYS),
        ("x__refusal__mutmut_4", _ALWAYS_SAYS),
        ("x_variant__mutmut_14", _ALWAYS_SAYS),
        ("x_variant__mutmut_18", _ALWAYS_SAYS),
        ("x_variant__mutmut_19", _ALWAYS_SAYS),
        ("x_variant__mutmut_47", "every exercise with variants has an expected answer"),
        ("x_variant__mutmut_49", "every exercise with variants has an expected answer"),
        ("x_warm_up__mutmut_2", _WARM_UP),
        ("x_warm_up__mutmut_5", _WARM_UP),
        ("x_warm_up__mutmut_6", _WARM_UP),
        ("x_warm_up__mutmut_7", _WARM_UP),
    ],
    "symattn.grading.batch.files": [
        *((f"x__parse_records__mutmut_{i}", _UNIVERSAL) for i in (7, 9)),
        ("x__printable__mutmut_9", _UTF8_NAME),
        ("x__printable__mutmut_13", _UTF8_NAME),
        ("x_read_steps_file__mutmut_55", _UTF8_NAME),
        *((f"x__final__mutmut_{i}", _AFTER_COMPLETE) for i in (11, 13, 16)),
        (
            "x__complete__mutmut_14",
            "float('') and float('XXXX') both raise ValueError: the record is incomplete either way",
        ),
        *((f"x_record_key__mutmut_{i}", _LINE_DIGITS) for i in (2, 4, 7)),
        *((f"x_record_key__mutmut_{i}", _NO_DIGEST) for i in (14, 16, 19)),
        *((f"x__read_csv_records__mutmut_{i}", _NOT_STRICT) for i in (74, 77)),
        ("x_read_class__mutmut_24", _UTF8_NAME),
        ("x__row__mutmut_23", "None and [] are both false: no field is missing either way"),
        ("xǁResultFileǁ_write__mutmut_25", "ensure_ascii=None is false, as False is"),
        (
            "x__csv_records__mutmut_3",
            "the extra pass at i == len(lines) yields a record with no cells and no problem, skipped as a "
            "blank line is",
        ),
        (
            "x__csv_records__mutmut_46",
            "lines[i:i + span] is never empty while i < len(lines), and csv.reader yields a row for any "
            "line: rows is never empty",
        ),
        *((f"x__read_regular__mutmut_{i}", "O_NONBLOCK exists on every POSIX system") for i in (9, 12, 15)),
        *((f"x__read_regular__mutmut_{i}", _CHUNK) for i in (33, 34)),
        *((f"x_umask_mode__mutmut_{i}", _UMASK_FALLBACK) for i in (2, 4, 5, 6, 8, 15, 18, 19, 20)),
        ("x_umask_mode__mutmut_23", "the umask set to read it is restored at once: the same mask"),
        ("xǁRowǁkey__mutmut_1", "its only caller passes the digest"),
        *((f"xǁResultFileǁstart__mutmut_{i}", _NEWLINE) for i in (7, 11)),
        ("xǁResultFileǁstart__mutmut_15", _UTF8_NAME),
        *((f"xǁResultFileǁstart__mutmut_{i}", _SAME_WRITER) for i in (17, 18, 19, 20)),
        *(
            (f"xǁResultFileǁstart__mutmut_{i}", "appended records have exactly the output columns")
            for i in (26, 28)
        ),
        *((f"x__row__mutmut_{i}", _UTF8_NAME) for i in (65, 69)),
        ("x__has_bad_bytes__mutmut_3", _UTF8_NAME),
        ("xǁResultFileǁload__mutmut_29", "bytes.decode's default encoding is UTF-8"),
        ("xǁResultFileǁload__mutmut_32", _UTF8_NAME),
        *((f"xǁResultFileǁfinish__mutmut_{i}", _NEWLINE) for i in (37, 41)),
        ("xǁResultFileǁfinish__mutmut_45", _UTF8_NAME),
        (
            "xǁResultFileǁfinish__mutmut_59",
            "the temporary file was made by this call and is still there: its unlink raises nothing to "
            "suppress",
        ),
        ("xǁResultFileǁ_write__mutmut_39", "csv.DictWriter lowercases extrasaction: 'IGNORE' is 'ignore'"),
        *(
            (name, "'' is false as None is: _write builds the same writer")
            for name in ("xǁResultFileǁ__init____mutmut_5", "xǁResultFileǁclose__mutmut_3")
        ),
        (
            "xǁResultFileǁappend__mutmut_4",
            "a writer built afresh for each appended row (no header) writes the same bytes",
        ),
    ],
    "symattn.grading.batch.grade": [
        ("x_check_row__mutmut_73", "row_problem is only ever tested for truth: None and False alike"),
        ("x__record__mutmut_1", "its only caller passes the digest"),
        (
            "x_judge_rows__mutmut_89",
            "retries are scheduled once every first try is done: nothing joins later after it is reset",
        ),
    ],
    "symattn.grading.batch.summary": [
        ("x__who__mutmut_3", "None and '' are both false: a row without a learner is its line either way"),
        ("x__who__mutmut_5", "None and '' are both false: a row without a learner is its line either way"),
        ("x__ranked__mutmut_16", "most_common(2)[0] is most_common(1)[0]"),
        ("x__ranked__mutmut_24", _LATEX_DEFAULT),
        ("x__ranked__mutmut_26", _LATEX_DEFAULT),
        ("x__ranked__mutmut_29", _LATEX_DEFAULT),
        ("x_best__mutmut_2", _BEST),
        ("x_best__mutmut_4", _BEST),
        ("x_best__mutmut_7", _BEST),
        ("x_best__mutmut_9", _BEST),
        (
            "x__ranked__mutmut_3",
            "most_common(None)[0] is most_common(1)[0]: the most frequent answer either way",
        ),
    ],
}
#: Survivors known and not killed, with what killing them would take. Name -> one line.
_NOT_KILLED: dict[str, list[tuple[str, str]]] = {}
NOT_KILLED: dict[str, str] = {
    f"{m}.{name}": why for m, entries in _NOT_KILLED.items() for name, why in entries
}

EQUIVALENT: dict[str, str] = {
    f"{m}.{name}": why for m, entries in _EQUIVALENT.items() for name, why in entries
}


def copy_repository(workdir: Path, exclude: tuple[str, ...] = ()) -> None:
    """The files git tracks or would track (not ignored), as in the working tree, into ``workdir``,
    less those named in ``exclude`` (a test file someone is still writing, say)."""
    if workdir.exists():
        shutil.rmtree(workdir)
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):
        if name in exclude:
            continue
        source = ROOT / name
        if source.is_file():
            (workdir / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, workdir / name)


def leave_unmutated(workdir: Path) -> None:
    """Mark the functions of :data:`NOT_MUTATED` in the copy so that mutmut leaves them alone."""
    for name, functions in NOT_MUTATED.items():
        path = workdir / name
        text = path.read_text()
        for function in functions:
            text, n = re.subn(
                rf"^(def {function}\(.*\)(?: -> [^:]+)?:)$",
                r"\1  # pragma: no mutate block",
                text,
                flags=re.M,
            )
            assert n == 1, f"{name}: no one-line def {function}(...):"
        path.write_text(text)


def mutmut(workdir: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mutmut", *args], cwd=workdir, text=True, **kwargs)


def check_tool() -> None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version(TOOL[0])
    except PackageNotFoundError:
        install = "pip install -c constraints.txt -e '.[mutation]'"
        sys.exit(f"bench/mutation.py: {TOOL[0]} is not installed: {install}")
    if found != TOOL[1]:
        sys.exit(f"bench/mutation.py: needs {TOOL[0]} {TOOL[1]}, found {found}")


RUNS = "runs.json"


def record_run(workdir: Path, kind: str, children: int, start: float) -> float:
    """Adds this run (pass, resume or again) to the workdir's ``runs.json``; its minutes."""
    minutes = (time.monotonic() - start) / 60
    runs = [*recorded_runs(workdir), {"kind": kind, "children": children, "minutes": round(minutes, 1)}]
    (workdir / RUNS).write_text(json.dumps(runs, indent=1))
    return minutes


def recorded_runs(workdir: Path) -> list[dict]:
    path = workdir / RUNS
    return json.loads(path.read_text()) if path.exists() else []


def rerun_survivors(workdir: Path, exclude: tuple[str, ...] = (), children: int = 1) -> float:
    """The repository as it is now copied over the last pass's ``workdir`` (its ``mutants/`` kept:
    mutmut mutates again only the functions that changed, and forgets only their results), and
    only the pass's survivors and mutants without tests run again, by name, with the tests as they
    are now (mutmut collects the new tests' coverage first), then the mutants of the functions that
    changed. Checks new tests in minutes."""
    start = time.monotonic()
    fresh = workdir.with_name(workdir.name + "-now")
    copy_repository(fresh, exclude)
    leave_unmutated(fresh)
    for path in sorted(fresh.rglob("*")):
        if path.is_file():
            target = workdir / path.relative_to(fresh)
            if not target.exists() or target.read_bytes() != path.read_bytes():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target)
    shutil.rmtree(fresh)
    before = results(workdir)
    snapshot = workdir / "before-again.json"
    if not snapshot.exists():  # the counts of the pass itself, kept across reruns
        snapshot.write_text(json.dumps(before, indent=0))
    # (a survivor named equivalent cannot be killed: it is left, unless its function changed)
    names = [n for n, s in before.items() if s in ("survived", "no tests") and n not in EQUIVALENT]
    # mutmut mutates the changed functions afresh only when it runs: with no such survivor left,
    # one survivor named equivalent runs (it survives again), so that changed functions are found.
    names = names or sorted(n for n, s in before.items() if s == "survived")[:1]
    run_named(workdir, names, children)
    # A function changed since the pass is mutated again and its results forgotten: its mutants
    # (renumbered, and new ones) run too, or a change to the code would hide its own survivors;
    # so do those an earlier rerun forgot and was stopped before it reached.
    forgotten = [n for n, s in results(workdir).items() if s == "not checked"]
    run_named(workdir, forgotten, children)
    return record_run(workdir, "again", children, start)


def run_named(workdir: Path, names: list[str], children: int) -> None:
    """``mutmut run`` of the mutants ``names`` (none: nothing to run)."""
    if not names:
        return
    done = mutmut(workdir, "run", "--max-children", str(children), *names, check=False, stdout=sys.stderr)
    if done.returncode != 0:
        sys.exit(f"bench/mutation.py: mutmut run exited {done.returncode}")


def run_pass(workdir: Path, children: int = 1, kind: str = "pass") -> float:
    """mutmut's pass, in minutes. Before mutating anything mutmut runs the tests with every mutated
    function made to raise, and stops (exit 1) if they still pass: that is the check that the tests
    import the copy's ``mutants/`` code, not the editable install's."""
    start = time.monotonic()
    done = mutmut(workdir, "run", "--max-children", str(children), check=False, stdout=sys.stderr)
    if done.returncode != 0:
        sys.exit(f"bench/mutation.py: mutmut run exited {done.returncode}")
    return record_run(workdir, kind, children, start)


def results(workdir: Path) -> dict[str, str]:
    """Mutant name -> status, from ``mutmut results --all true``."""
    out = mutmut(workdir, "results", "--all", "true", capture_output=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\S+): (.+)$", line)
        if m:
            found[m.group(1)] = m.group(2).strip()
    return found


def module_of(mutant: str) -> str:
    """``symattn.cli.app.x_main__mutmut_3`` -> ``symattn/cli/app.py``."""
    dotted = mutant.split("__mutmut_")[0].rsplit(".", 1)[0]
    if "ǁ" in dotted:  # a method: module.xǁClassǁmethod
        dotted = dotted.split(".xǁ")[0]
    return dotted.replace(".", "/") + ".py"


#: Column headings short enough for the table to fit a page 720 pixels wide.
SHORT = {"no tests": "untested", "not checked": "not run"}


def section(
    workdir: Path = WORKDIR,
    reuse: bool = False,
    exclude: tuple[str, ...] = (),
    again: bool = False,
    resume: bool = False,
    children: int = 1,
) -> list[str]:
    check_tool()
    if again:
        rerun_survivors(workdir, exclude, children)
    elif resume:  # mutmut keeps each mutant's result: it goes on with those not checked
        run_pass(workdir, children, "resume")
    elif not reuse:
        copy_repository(workdir, exclude)
        leave_unmutated(workdir)
        run_pass(workdir, children)
    runs = recorded_runs(workdir)
    status = results(workdir)
    by_module: dict[str, Counter] = defaultdict(Counter)
    for name, s in status.items():
        by_module[module_of(name)][s] += 1
    columns = ["killed", "survived", "timeout", "no tests", "not checked"]
    other = sorted({s for c in by_module.values() for s in c} - set(columns))
    columns += other
    total = Counter()
    for c in by_module.values():
        total.update(c)
    survivors = sorted(n for n, s in status.items() if s == "survived")
    unexplained = [n for n in survivors if n not in EQUIVALENT]
    snapshot = workdir / "before-again.json"
    first = Counter(json.loads(snapshot.read_text()).values()) if snapshot.exists() else None
    lines = [
        f"Written by `python bench/report.py --only mutation` (bench/mutation.py): {TOOL[0]} {TOOL[1]} "
        "over " + " and ".join(f"`{m}`" for m in MODULES) + ", in a copy of the repository. "
        "Tests run: those of `[tool.mutmut]` in pyproject.toml (tests/cli/ and tests/grading/batch/ "
        "less their few slowest tests); each mutant runs the tests that call the function it changes. "
        "Not mutated: the argument parser's declarations ("
        + ", ".join(f"`{f}`" for fs in NOT_MUTATED.values() for f in fs)
        + " in `symattn/cli/app.py`), whose options each have a generated test of their effect."
        + (
            " Runs: "
            + "; ".join(
                f"{r['kind']}, {r['minutes']:.0f} minute{'s' * (round(r['minutes']) != 1)} "
                f"on {r['children']} worker{'s' * (r['children'] > 1)}"
                for r in runs
            )
            + "."
            if runs
            else ""
        ),
        "",
    ]
    if total["not checked"]:
        lines += [
            f"**A partial pass**: {total['not checked']} mutants were not checked: a run was stopped "
            "at its time limit before them. These are the mutants whose tests take longest (mutmut runs "
            "them last), or those of functions changed after the pass, which `--again` mutates afresh "
            "and runs after the survivors.",
            "",
        ]
    if total["no tests"]:
        lines += [
            f"No tests: {total['no tests']} mutants are in functions that run only in another process "
            "(`check_row` and `_seed` in grade's worker pool, `audit`'s report in its isolated worker, "
            "`run`, the program's entry): mutmut picks each mutant's tests by the calls it sees in the "
            "test process, and sees none of these, so it runs none on them.",
            "",
        ]
    if first is not None:
        lines += [
            "Before the tests written for the survivors (the pass itself): "
            + ", ".join(f"{first[k]} {k}" for k in columns if first[k])
            + "; after them (its survivors and untested mutants run again with `bench/mutation.py --again`):",
            "",
        ]
    # (the mutants of a module are its row's sum, given in the prose: one column fewer to fit 720 pixels)
    lines += [
        f"Mutants: {sum(total.values())}.",
        "",
        "| module | " + " | ".join(SHORT.get(c, c) for c in columns) + " |",
        "|---|" + "---:|" * len(columns),
    ]
    for module in sorted(by_module):
        c = by_module[module]
        short = "/".join(module.split("/")[-2:])  # cli/app.py, batch/grade.py
        lines.append(f"| `{short}` | " + " | ".join(str(c[k]) for k in columns) + " |")
    bold = " | ".join(f"**{total[k]}**" for k in columns)
    lines.append(f"| **all** | {bold} |")
    lines += [
        "",
        f"Survivors: {len(survivors)}. Equivalent (the mutant cannot change what a command prints, its "
        f"exit code or the files it writes): {len(survivors) - len(unexplained)}, each with why. "
        f"Not killed and not shown equivalent: {len(unexplained)}"
        + (", each still owed a test or a reason." if unexplained else "."),
        "",
    ]
    lines += [f"- `{n}`: {EQUIVALENT[n]}" for n in survivors if n in EQUIVALENT]
    if unexplained:
        lines += ["", "Not killed, not shown equivalent:", ""]
        lines += [f"- `{n}`" + (f": {NOT_KILLED[n]}" if n in NOT_KILLED else "") for n in unexplained]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=WORKDIR)
    parser.add_argument("--reuse", action="store_true", help="report the last pass in --workdir")
    parser.add_argument(
        "--exclude", action="append", default=[], metavar="PATH", help="a file not to copy (repeatable)"
    )
    parser.add_argument(
        "--again", action="store_true", help="rerun the last pass's survivors with the tests as they are now"
    )
    parser.add_argument("--resume", action="store_true", help="go on with a stopped pass in --workdir")
    parser.add_argument(
        "--children", type=int, default=1, metavar="N", help="mutants run at once (mutmut's --max-children)"
    )
    args = parser.parse_args()
    lines = section(args.workdir, args.reuse, tuple(args.exclude), args.again, args.resume, args.children)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
