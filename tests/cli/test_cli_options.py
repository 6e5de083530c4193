"""Every option has an effect, the documented one: one test per command-line option (and per
positional argument, which selects what a command works on) and per ``SYMATTN_*`` environment
variable, each running ``symattn.cli.main`` in-process with and without the option and asserting
what ``--help`` and the guide (``symattn/present/guide/``) say it changes.

The options are read from the parser and the variables from symattn's source, so an option or a
variable added without an entry in :data:`EFFECTS` or :data:`ENVIRONMENT` fails here. Expected
values are worked out in the test from the inputs (a softmax by hand, 4 N d^2 + 2 N^2 d, a share
that is 1 with one key) or are the documented contract (the same seed gives the same sample;
the number of workers changes no result), never copied from the output of the code under test.
"""

from __future__ import annotations

import argparse
import ast
import csv
import io
import json
import math
import os
import re
import shutil
import sys
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import mpmath
import pytest

import derivations
from symattn.cli.app import build_parser

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "tests" / "example_plugin"
DERIVATION_PLUGIN = str(PLUGINS / "layer_norm.py")
EXERCISE_PLUGIN = str(PLUGINS / "layer_norm_exercise.py")

#: The module's two-token example (section 6.2; the README's worked example).
EXAMPLE_Q = [[3, -3], [1, 1]]
EXAMPLE_K = [[-3, 3], [1, 1]]
EXAMPLE_V = [[0, -1], [1, 2]]

#: ex6.2: scores [2, 0, 0] against values [1, 4, 7]; checked within 0.01.
EX62_SCORES, EX62_VALUES = [2, 0, 0], [1, 4, 7]

#: The example plugin's ln.1: y_1 of x = [1, 2, 3, 4] layer-normalised, (x_1 - mean) / sigma with
#: sigma^2 the mean squared deviation; checked within 0.01.
LN_X = [1, 2, 3, 4]
LN_Y1 = (LN_X[0] - sum(LN_X) / 4) / math.sqrt(sum((x - sum(LN_X) / 4) ** 2 for x in LN_X) / 4)


# -- the parser's options and the source's environment variables -------------------------------
def _options(parser: argparse.ArgumentParser, where: tuple[str, ...] = ()):
    """(command path, option) for every argument of every command and sub-command: an optional
    argument by its long name, a positional one by its metavar (NAME, FILE, ID, ANSWER)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _options(sub, (*where, name))
        elif isinstance(action, argparse._HelpAction) or "--version" in action.option_strings:
            continue
        elif action.option_strings:
            yield " ".join(where), max(action.option_strings, key=len)
        else:
            yield " ".join(where), action.metavar or action.dest.upper()


PARSED = sorted(set(_options(build_parser())))


def _environment_variables() -> set[str]:
    """Every SYMATTN_* name that symattn's code holds as a string of its own (what it reads from
    os.environ, directly or through a constant such as READER_ENV), prose and help left out."""
    found = set()
    for path in (ROOT / "symattn").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        if "SYMATTN_" not in source:
            continue
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.update(re.findall(r"^SYMATTN_[A-Z0-9_]+$", node.value))
    return found


# -- helpers -----------------------------------------------------------------------------------
_RUNS: dict[tuple[str, ...], tuple[int, str, str]] = {}


def once(cli, *argv: str) -> tuple[int, str, str]:
    """``cli(*argv)``, run once per test process: only for commands whose output depends on
    nothing but their arguments (no files written, no environment)."""
    if argv not in _RUNS:
        _RUNS[argv] = cli(*argv)
    return _RUNS[argv]


def softmax_output(scores: list, values: list) -> mpmath.mpf:
    """sum_j softmax(scores)_j values_j, at 50 digits."""
    with mpmath.workdps(50):
        weights = [mpmath.exp(s) for s in scores]
        return mpmath.fsum(w * v for w, v in zip(weights, values, strict=True)) / mpmath.fsum(weights)


def attention_by_hand(q, k, v, causal=False, scale=True):
    """Scores, scaled scores, weights and output, at 50 digits (None for a blocked entry)."""
    with mpmath.workdps(50):
        scores = [[sum(mpmath.mpf(a) * b for a, b in zip(qi, kj, strict=True)) for kj in k] for qi in q]
        factor = 1 / mpmath.sqrt(len(k[0])) if scale else mpmath.mpf(1)
        scaled = [[s * factor for s in row] for row in scores]
        weights = []
        for i, row in enumerate(scaled):
            e = [mpmath.exp(z) if not (causal and j > i) else mpmath.mpf(0) for j, z in enumerate(row)]
            weights.append([x / mpmath.fsum(e) for x in e])
        output = [
            [mpmath.fsum(a * v[j][c] for j, a in enumerate(row)) for c in range(len(v[0]))] for row in weights
        ]
    return {"scores": scores, "scaled": scaled, "weights": weights, "output": output}


def rounds_to(text: str, exact, digits: int) -> bool:
    """``text`` is ``exact`` to ``digits`` significant digits, correctly rounded (or exact)."""
    value = Decimal(text)
    if value == 0:
        return exact == 0
    mantissa = text.lstrip("-").split("E")[0].split("e")[0].replace(".", "").lstrip("0")
    if len(mantissa) > digits:
        return False
    with mpmath.workdps(60):
        last = value.adjusted() - (digits - 1)  # the place of the last significant digit
        return abs(mpmath.mpf(text) - exact) <= mpmath.mpf(10) ** last / 2 * (1 + mpmath.mpf(10) ** -30)


def attention_json(cli, *argv: str) -> dict:
    code, out, err = once(cli, "attention", *argv, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def values(doc: dict, stage: str) -> list[list[str]]:
    return [[cell["value"] for cell in row] for row in doc[stage]]


def matrix(m) -> str:
    return json.dumps(m)


def prompt_numbers(text: str) -> tuple[list[int], list[int]]:
    """ex6.2's prompt (or a variant's): its scores and its values."""
    scores = re.search(r"has scores \[([-\d, ]*)\]", text).group(1)
    vals = re.search(r"scalars \[([-\d, ]*)\]", text).group(1)
    return [int(x) for x in scores.split(",")], [int(x) for x in vals.split(",")]


def lab_json(cli, *argv: str) -> dict:
    code, out, err = once(cli, "lab", *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def variance_numbers(doc: dict) -> list:
    return [(w["ratio"], *w["ratio_ci"]) for w in doc["widths"]]


def saturation_numbers(doc: dict) -> list:
    return [
        (doc[s]["saturated"], doc[s]["share"], doc[s]["mean_p_one_minus_p"]) for s in ("unscaled", "scaled")
    ]


def write_class(path: Path, rows: list[tuple[str, str, str]]) -> str:
    path.write_text("learner,exercise,answer\n" + "".join(f"{a},{b},{c}\n" for a, b, c in rows))
    return str(path)


#: ada answers ex6.2 right (within 0.01 of 1.9586), ben with the plain average 4.
CLASS = [("ada", "ex6.2", "1.96"), ("ben", "ex6.2", "4")]


def graded_rows(text: str) -> list[dict]:
    """Graded rows (CSV or JSON Lines) without ``seconds``, the one field that is a timing."""
    if text.lstrip().startswith("{"):
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    else:
        rows = list(csv.DictReader(io.StringIO(text)))
    return [{k: str(v) for k, v in r.items() if k != "seconds"} for r in rows]


def untimed(summary: str) -> str:
    """grade's summary without its time."""
    return re.sub(r"judged in [0-9.]+ s", "judged in - s", summary)


def verdicts(text: str) -> list[tuple[str, str]]:
    return [(r["learner"], r["verdict"]) for r in graded_rows(text)]


def table_rows(out: str) -> dict[str, list[str]]:
    """verify's table: derivation -> its columns, the time column left out."""
    rows = {}
    for line in out.splitlines()[2:]:
        if not line.strip():
            break
        cells = line.split()
        time_at = cells.index("s") - 1
        rows[cells[0]] = cells[:time_at] + cells[time_at + 2 :]
    return rows


class PoolSpy:
    """Wraps a pool class and records how many workers each pool was asked for."""

    def __init__(self, real, keyword: str) -> None:
        self.real, self.keyword, self.sizes = real, keyword, []

    def __call__(self, *args, **kwargs):
        self.sizes.append(kwargs[self.keyword] if self.keyword in kwargs else args[0])
        return self.real(*args, **kwargs)


def plugin_attribute(path: str, name: str):
    """A constant a plugin file defines (its NAME, TITLE, MUTATIONS), read without registering it."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return node.value
    raise AssertionError(f"{path} defines no {name}")


EFFECTS: dict[tuple[str, str], Callable[..., None]] = {}


def effect(command: str, option: str):
    """Register the test of ``option``'s effect on ``command``."""

    def register(test: Callable[..., None]) -> Callable[..., None]:
        assert (command, option) not in EFFECTS, (command, option)
        EFFECTS[(command, option)] = test
        return test

    return register


# -- attention ---------------------------------------------------------------------------------
ONE_QUERY = ["--k", "[[1,0],[0,1]]", "--v", "[[1,0],[0,1]]"]


@effect("attention", "--q")
def _(cli, tmp_path, monkeypatch):
    """--q: the queries; the scores are Q K^T."""
    k = v = [[1, 0], [0, 1]]
    for q in ([[1, 0]], [[2, 3]]):
        doc = attention_json(cli, "--q", matrix(q), *ONE_QUERY)
        expected = attention_by_hand(q, k, v)
        assert values(doc, "scores") == [[str(int(s)) for s in row] for row in expected["scores"]]
        assert rounds_to(values(doc, "output")[0][1], expected["output"][0][1], 15)
    assert attention_json(cli, "--q", "[[1,0]]", *ONE_QUERY) != attention_json(
        cli, "--q", "[[2,3]]", *ONE_QUERY
    )


@effect("attention", "--k")
def _(cli, tmp_path, monkeypatch):
    """--k: the keys, one row per key: a third key is a third column of scores."""
    q, v2, v3 = [[1, 2]], [[1, 0], [0, 1]], [[1, 0], [0, 1], [1, 1]]
    for k, v in (([[1, 0], [0, 1]], v2), ([[1, 0], [0, 1], [2, 2]], v3)):
        doc = attention_json(cli, "--q", matrix(q), "--k", matrix(k), "--v", matrix(v))
        expected = attention_by_hand(q, k, v)
        assert values(doc, "scores") == [[str(int(s)) for s in row] for row in expected["scores"]]
        for got, want in zip(values(doc, "weights")[0], expected["weights"][0], strict=True):
            assert rounds_to(got, want, 15)


@effect("attention", "--v")
def _(cli, tmp_path, monkeypatch):
    """--v: the values; the output is the weights times V (the weights unchanged)."""
    q, k = [[1, 0]], [[1, 0], [0, 1]]
    docs = []
    for v in ([[1, 0], [0, 1]], [[5, 1], [-3, 2]]):
        doc = attention_json(cli, "--q", matrix(q), "--k", matrix(k), "--v", matrix(v))
        expected = attention_by_hand(q, k, v)
        for got, want in zip(values(doc, "output")[0], expected["output"][0], strict=True):
            assert rounds_to(got, want, 15)
        docs.append(doc)
    assert docs[0]["weights"] == docs[1]["weights"] and docs[0]["output"] != docs[1]["output"]


@effect("attention", "--example")
def _(cli, tmp_path, monkeypatch):
    """--example: Q, K and V of the module's section 6.2; without it Q, K and V are required."""
    doc = attention_json(cli, "--example")
    expected = attention_by_hand(EXAMPLE_Q, EXAMPLE_K, EXAMPLE_V)
    assert (
        values(doc, "scores")
        == [["-18", "0"], ["0", "2"]]
        == [[str(int(s)) for s in row] for row in expected["scores"]]
    )
    assert rounds_to(values(doc, "weights")[1][1], expected["weights"][1][1], 15)
    code, out, err = once(cli, "attention")
    assert code == 2 and out == "" and "--q is required (or pass --example)" in err


@effect("attention", "--mask")
def _(cli, tmp_path, monkeypatch):
    """--mask causal blocks key 2 for query 1 (weight exactly 0, masked score -inf); padding:1
    blocks key 2 for every query; none (the default) blocks nothing."""
    plain, causal = attention_json(cli, "--example"), attention_json(cli, "--example", "--mask", "causal")
    assert plain == attention_json(cli, "--example", "--mask", "none")
    by_hand = attention_by_hand(EXAMPLE_Q, EXAMPLE_K, EXAMPLE_V, causal=True)
    assert values(causal, "masked")[0][1] == "-inf" and values(causal, "weights")[0] == ["1", "0"]
    assert rounds_to(values(causal, "weights")[1][0], by_hand["weights"][1][0], 15)
    free = attention_by_hand(EXAMPLE_Q, EXAMPLE_K, EXAMPLE_V)
    assert rounds_to(values(plain, "weights")[0][1], free["weights"][0][1], 15)
    padded = attention_json(cli, "--example", "--mask", "padding:1")
    assert [row[1] for row in values(padded, "weights")] == ["0", "0"]
    assert [row[0] for row in values(padded, "weights")] == ["1", "1"]


@effect("attention", "--no-scale")
def _(cli, tmp_path, monkeypatch):
    """--no-scale: the scores are not divided by sqrt(d_k), and the header says no sqrt(d_k)."""
    scaled, unscaled = attention_json(cli, "--example"), attention_json(cli, "--example", "--no-scale")
    assert unscaled["scaled"] == unscaled["scores"]
    by_hand = attention_by_hand(EXAMPLE_Q, EXAMPLE_K, EXAMPLE_V)
    assert rounds_to(values(scaled, "scaled")[1][1], by_hand["scaled"][1][1], 15)  # sqrt(2)
    raw = attention_by_hand(EXAMPLE_Q, EXAMPLE_K, EXAMPLE_V, scale=False)
    assert rounds_to(values(unscaled, "weights")[1][0], raw["weights"][1][0], 15)  # 1/(1 + e^2)
    assert "sqrt(d_k)" in once(cli, "attention", "--example")[1].splitlines()[0]
    assert "sqrt(d_k)" not in once(cli, "attention", "--example", "--no-scale")[1].splitlines()[0]


@effect("attention", "--digits")
def _(cli, tmp_path, monkeypatch):
    """--digits N: every decimal to N significant digits, correctly rounded (default 15)."""
    weight = attention_by_hand(EXAMPLE_Q, EXAMPLE_K, EXAMPLE_V)["weights"][1][0]  # 1/(1 + e^sqrt2)
    for digits, argv in ((15, []), (8, ["--digits", "8"]), (30, ["--digits", "30"])):
        got = values(attention_json(cli, "--example", *argv), "weights")[1][0]
        assert rounds_to(got, weight, digits) and not rounds_to(got, weight, digits - 1), (digits, got)


@effect("attention", "--format")
def _(cli, tmp_path, monkeypatch):
    """--format: text (the default), Markdown, LaTeX or JSON, each showing the same weights."""
    outs = {
        f: once(cli, "attention", "--example", "--format", f) for f in ("text", "markdown", "latex", "json")
    }
    assert all(code == 0 for code, _, _ in outs.values())
    text, markdown, latex, as_json = (outs[f][1] for f in ("text", "markdown", "latex", "json"))
    assert once(cli, "attention", "--example")[1] == text
    assert len({text, markdown, latex, as_json}) == 4
    assert "Step 1. Scores" in text and "$" not in text
    assert markdown.startswith("## ") and "$$" in markdown and "| query 1 |" in markdown
    assert r"\begin{align*}" in latex and "##" not in latex
    assert set(json.loads(as_json)) == {"scores", "scaled", "masked", "weights", "output"}
    weight = attention_by_hand(EXAMPLE_Q, EXAMPLE_K, EXAMPLE_V)["weights"][1][0]
    shown = mpmath.nstr(weight, 15, strip_zeros=False)
    assert all(shown in out for out in (text, markdown, latex, as_json))


# -- derive --------------------------------------------------------------------------------------
@effect("derive", "NAME")
def _(cli, tmp_path, monkeypatch):
    """NAME: the derivation printed, headed by its name and title; none named is an error."""
    for name in ("attention_by_hand", "multihead_flops"):
        code, out, err = once(cli, "derive", name)
        assert code == 0, err
        assert out.splitlines()[0] == f"{name}: {derivations.title(name)}"
    code, out, err = once(cli, "derive")
    assert code == 2 and out == "" and "name a derivation" in err


@effect("derive", "--list")
def _(cli, tmp_path, monkeypatch):
    """--list: one derivation a line, name then title, every registered one."""
    code, out, _ = once(cli, "derive", "--list")
    assert code == 0
    assert [line.split("\t")[0] for line in out.splitlines()] == list(derivations.names())
    assert once(cli, "derive")[0] == 2


@effect("derive", "--format")
def _(cli, tmp_path, monkeypatch):
    """--format: text (default), Markdown (the title as a heading, display math in $$) or LaTeX."""
    name, title = "attention_by_hand", derivations.title("attention_by_hand")
    outs = {f: once(cli, "derive", name, "--format", f) for f in ("text", "markdown", "latex")}
    assert all(code == 0 for code, _, _ in outs.values())
    text, markdown, latex = (outs[f][1] for f in ("text", "markdown", "latex"))
    assert once(cli, "derive", name)[1] == text
    assert text.startswith(f"{name}: {title}\n") and "$$" not in text and r"\begin" not in text
    assert markdown.startswith(f"# {title}\n") and markdown.count("$$") >= 2 and markdown != text
    assert r"\subsection*{" + title + "}" in latex and r"\begin{align*}" in latex and latex != markdown


@effect("derive", "--plugin")
def _(cli, tmp_path, monkeypatch):
    """--plugin: the file's derivation can be derived (and is listed); without it, it is unknown."""
    name = plugin_attribute(DERIVATION_PLUGIN, "NAME").value
    title = plugin_attribute(DERIVATION_PLUGIN, "TITLE").value
    code, out, err = cli("derive", name, "--plugin", DERIVATION_PLUGIN, "--format", "markdown")
    assert code == 0, err
    assert out.startswith(f"# {title}\n")
    code, out, _ = cli("derive", "--list", "--plugin", DERIVATION_PLUGIN)
    assert out.splitlines()[-1] == f"{name}\t{title}"
    code, out, err = cli("derive", name, "--format", "markdown")
    assert code == 2 and out == "" and f"no derivation named '{name}'" in err


# -- verify --------------------------------------------------------------------------------------
@effect("verify", "NAME")
def _(cli, tmp_path, monkeypatch):
    """NAME: only these derivations are verified, a row each; an unknown name is exit 2."""
    code, out, err = once(cli, "verify", "attention_by_hand", "--jobs", "2")
    assert code == 0, err
    rows = table_rows(out)
    assert list(rows) == ["attention_by_hand"] and rows["attention_by_hand"][-1] == "ok"
    code, out, err = cli("verify", "no_such_derivation")
    assert code == 2 and out == "" and "no_such_derivation" in err


@effect("verify", "--jobs")
def _(cli, tmp_path, monkeypatch):
    """--jobs N: N worker processes; the report does not depend on their number (each step draws
    its points from its own seed)."""
    from symattn.proof import parallel

    spy = PoolSpy(parallel.ProcessPoolExecutor, "max_workers")
    monkeypatch.setattr(parallel, "ProcessPoolExecutor", spy)
    reports = {}
    for jobs in ("1", "2"):
        code, out, err = cli("verify", "attention_by_hand", "--jobs", jobs)
        assert code == 0, err
        reports[jobs] = table_rows(out)
    assert spy.sizes == [1, 2]
    assert reports["1"] == reports["2"] and reports["1"]["attention_by_hand"][-1] == "ok"


@effect("verify", "--mutations")
def _(cli, tmp_path, monkeypatch):
    """--mutations: also plants each known error of these derivations; each must be caught."""
    planted = len(plugin_attribute(DERIVATION_PLUGIN, "MUTATIONS").elts)
    argv = ("verify", "layer_norm", "--plugin", DERIVATION_PLUGIN, "--jobs", "2")
    code, plain, err = once(cli, *argv)
    assert code == 0, err
    assert "planted" not in plain
    code, out, err = cli(*argv, "--mutations")
    assert code == 0, err
    assert f"planted errors: {planted}\n" in out and f"caught where planted: {planted} of {planted}\n" in out
    assert len(re.findall(r"^  layer_norm: .*: caught at step \d+$", out, re.M)) == planted
    assert table_rows(out) == table_rows(plain)


@effect("verify", "--plugin")
def _(cli, tmp_path, monkeypatch):
    """--plugin: the file's derivation is verified; without it, its name is unknown."""
    code, out, err = once(cli, "verify", "layer_norm", "--plugin", DERIVATION_PLUGIN, "--jobs", "2")
    assert code == 0, err
    assert list(table_rows(out)) == ["layer_norm"] and table_rows(out)["layer_norm"][-1] == "ok"
    code, out, err = cli("verify", "layer_norm", "--jobs", "2")
    assert code == 2 and out == "" and "layer_norm" in err


# -- flops ---------------------------------------------------------------------------------------
def flops_json(cli, d, n, heads=1):
    code, out, err = once(cli, "flops", "--d-model", str(d), "--n", str(n), "--heads", str(heads), "--json")
    assert code == 0, err
    return json.loads(out)


@effect("flops", "--d-model")
def _(cli, tmp_path, monkeypatch):
    """--d-model D: 4 N D^2 + 2 N^2 D multiply-adds; the N^2 terms dominate for N > 2 D."""
    for d in (8, 64):
        doc = flops_json(cli, d, 16)
        assert doc["total"] == 4 * 16 * d**2 + 2 * 16**2 * d and doc["crossover_n"] == 2 * d
        assert doc["projections"] == 3 * 16 * d**2 and doc["output_projection"] == 16 * d**2


@effect("flops", "--n")
def _(cli, tmp_path, monkeypatch):
    """--n N: the sequence length; the scores and the weighted sum are N^2 d each."""
    for n in (4, 1000):
        doc = flops_json(cli, 8, n)
        assert (
            doc["total"] == 4 * n * 8**2 + 2 * n**2 * 8 and doc["scores"] == doc["weighted_sum"] == n**2 * 8
        )
    _, out, _ = once(cli, "flops", "--d-model", "8", "--n", "1000")
    assert "The N^2 terms (16,000,000) are larger than the N d^2 terms (256,000)" in out
    _, out, _ = once(cli, "flops", "--d-model", "8", "--n", "4")
    assert "The N^2 terms (256) are smaller than the N d^2 terms (1,024)" in out


@effect("flops", "--heads")
def _(cli, tmp_path, monkeypatch):
    """--heads h: d_k = d_model / h, shown in the header; the total does not depend on h; h must
    divide d_model."""
    assert flops_json(cli, 8, 4, 2) == flops_json(cli, 8, 4, 1)
    one, two = (
        once(cli, "flops", "--d-model", "8", "--n", "4"),
        once(cli, "flops", "--d-model", "8", "--n", "4", "--heads", "2"),
    )
    assert "h = 1 (d_k = 8)" in one[1] and "h = 2 (d_k = 4)" in two[1]
    code, out, err = cli("flops", "--d-model", "8", "--n", "4", "--heads", "3")
    assert code == 2 and out == "" and "not divisible" in err


@effect("flops", "--json")
def _(cli, tmp_path, monkeypatch):
    """--json: the counts as JSON instead of the table."""
    _, text, _ = once(cli, "flops", "--d-model", "8", "--n", "4")
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
    doc = flops_json(cli, 8, 4)
    assert doc["total"] == 4 * 4 * 64 + 2 * 16 * 8
    assert f"{doc['total']:,}" in text and f"{2 * doc['total']:,} FLOPs" in text


# -- grade ---------------------------------------------------------------------------------------
@effect("grade", "FILE")
def _(cli, tmp_path, monkeypatch):
    """FILE: the class graded, one row per input row in input order, with check's verdicts."""
    first = write_class(tmp_path / "a.csv", CLASS)
    second = write_class(
        tmp_path / "b.csv", [("cy", "ex6.2", "4"), ("cy", "ex6.2", "1.96"), ("di", "ex6.5", "N > 8192")]
    )
    code, out, err = cli("grade", first, "--jobs", "1")
    assert code == 0, err
    assert verdicts(out) == [("ada", "correct"), ("ben", "incorrect")]
    assert err.startswith(f"2 rows from {first}")
    code, out, err = cli("grade", second, "--jobs", "1")
    assert code == 0, err
    assert verdicts(out) == [("cy", "incorrect"), ("cy", "correct"), ("di", "correct")]
    assert [r["line"] for r in graded_rows(out)] == ["2", "3", "4"]
    code, out, err = cli("grade", str(tmp_path / "missing.csv"))
    assert code == 2 and out == ""


@effect("grade", "--out")
def _(cli, tmp_path, monkeypatch):
    """--out FILE: the rows go to FILE and the summary to stdout (without it: rows on stdout, the
    summary on stderr); a rerun with the same --out resumes, judging nothing again."""
    path, out_file = write_class(tmp_path / "c.csv", CLASS), tmp_path / "graded.csv"
    code, rows, summary = cli("grade", path, "--jobs", "1")
    assert code == 0 and summary.startswith("2 rows from")
    code, out, err = cli("grade", path, "--jobs", "1", "--out", str(out_file))
    assert code == 0 and err == "" and untimed(out) == untimed(summary)
    assert graded_rows(out_file.read_text()) == graded_rows(rows)
    code, out, err = cli("grade", path, "--jobs", "1", "--out", str(out_file))
    assert (
        code == 0
        and out.startswith(f"2 rows from {path}: 0 judged")
        and f"2 already graded in {out_file}" in out
    )


@effect("grade", "--format")
def _(cli, tmp_path, monkeypatch):
    """--format: rows as CSV (the default without --out) or JSON Lines (the default for an --out
    ending in .jsonl); the same rows either way."""
    path = write_class(tmp_path / "c.csv", CLASS)
    code, as_csv, _ = cli("grade", path, "--jobs", "1")
    assert as_csv.startswith("line,learner,exercise,answer,")
    code, as_jsonl, _ = cli("grade", path, "--jobs", "1", "--format", "jsonl")
    assert code == 0 and all(json.loads(line) for line in as_jsonl.splitlines())
    assert graded_rows(as_jsonl) == graded_rows(as_csv)
    code, explicit_csv, _ = cli("grade", path, "--jobs", "1", "--format", "csv")
    assert graded_rows(explicit_csv) == graded_rows(as_csv) and explicit_csv.startswith("line,")
    code, _, _ = cli("grade", path, "--jobs", "1", "--out", str(tmp_path / "g.jsonl"))
    assert graded_rows((tmp_path / "g.jsonl").read_text()) == graded_rows(as_csv)
    assert (tmp_path / "g.jsonl").read_text().startswith("{")


@effect("grade", "--jobs")
def _(cli, tmp_path, monkeypatch):
    """--jobs N: N workers; the rows are the same whatever their number."""
    import pebble

    spy = PoolSpy(pebble.ProcessPool, "max_workers")
    monkeypatch.setattr(pebble, "ProcessPool", spy)
    path = write_class(tmp_path / "c.csv", [*CLASS, ("cy", "ex6.5", "N > 4096"), ("di", "ex6.2", "2,5")])
    rows = {}
    for jobs in ("1", "2"):
        code, out, err = cli("grade", path, "--jobs", jobs)
        assert code == 0, err
        rows[jobs] = graded_rows(out)
    assert spy.sizes == [1, 2]
    assert rows["1"] == rows["2"]
    assert [r["verdict"] for r in rows["1"]] == ["correct", "incorrect", "incorrect", "invalid"]


@effect("grade", "--summary-json")
def _(cli, tmp_path, monkeypatch):
    """--summary-json FILE: the summary also as JSON (per exercise, per learner); nothing else
    changes."""
    path, summary = write_class(tmp_path / "c.csv", CLASS), tmp_path / "summary.json"
    code, plain, _ = cli("grade", path, "--jobs", "1")
    code, out, _ = cli("grade", path, "--jobs", "1", "--summary-json", str(summary))
    assert code == 0 and graded_rows(out) == graded_rows(plain)
    doc = json.loads(summary.read_text())
    (ex,) = doc["exercises"]
    assert (ex["exercise"], ex["rows"], ex["learners"], ex["learners_correct"]) == ("ex6.2", 2, 2, 1)
    assert ex["counts"] == {"correct": 1, "incorrect": 1, "invalid": 0, "unchecked": 0}
    assert {x["learner"]: x["correct"] for x in doc["learners"]} == {"ada": 1, "ben": 0}
    assert doc["rows"] == 2 and doc["file"] == path


@effect("grade", "--gradebook")
def _(cli, tmp_path, monkeypatch):
    """--gradebook FILE.csv: one row per learner, a column per exercise (1 when the best attempt is
    correct) and a total."""
    rows = [*CLASS, ("ben", "ex6.2", "1.96"), ("ben", "ex6.5", "N > 8192"), ("ada", "ex6.5", "N > 4096")]
    path, book = write_class(tmp_path / "c.csv", rows), tmp_path / "book.csv"
    code, _, err = cli("grade", path, "--jobs", "1", "--gradebook", str(book))
    assert code == 0, err
    assert list(csv.reader(book.open())) == [
        ["learner", "ex6.2", "ex6.5", "total"],
        ["ada", "1", "0", "1"],
        ["ben", "1", "1", "2"],
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.csv", "c.csv"]


@effect("grade", "--report")
def _(cli, tmp_path, monkeypatch):
    """--report FILE.md: a Markdown report with the summary's tables and a bar chart beside it."""
    monkeypatch.chdir(tmp_path)
    report = Path(write_class(tmp_path / "c.csv", CLASS)).with_name("report.md")
    code, _, err = cli("grade", "c.csv", "--jobs", "1")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.csv"]
    code, _, err = cli("grade", "c.csv", "--jobs", "1", "--report", "report.md")
    assert code == 0, err
    text = report.read_text()
    assert text.startswith("# Class report: c.csv\n")
    assert "| ex6.2 | 2 | 2 | 1 (50.0%) | 1 (50.0%) | 1 (50.0%) | 0 (0.0%) |" in text
    assert "](report.svg)" in text and "<svg" in (tmp_path / "report.svg").read_text()


@effect("grade", "--plugin")
def _(cli, tmp_path, monkeypatch):
    """--plugin: rows of the file's exercise get check's verdicts; without it they are invalid
    (an unknown exercise)."""
    y1 = LN_Y1
    path = write_class(tmp_path / "c.csv", [("ada", "ln.1", f"{y1:.3f}"), ("ben", "ln.1", f"{y1 + 0.1:.3f}")])
    code, out, err = cli("grade", path, "--jobs", "1", "--plugin", EXERCISE_PLUGIN)
    assert code == 0, err
    assert verdicts(out) == [("ada", "correct"), ("ben", "incorrect")]
    code, out, err = cli("grade", path, "--jobs", "1")
    assert code == 0 and verdicts(out) == [("ada", "invalid"), ("ben", "invalid")]


# -- exercises -----------------------------------------------------------------------------------
def listed_ids(out: str) -> list[str]:
    return [line.split("\t")[0] for line in out.splitlines()]


BUILT_IN = ["ex6.1", "ex6.2", "ex6.3", "ex6.4", "ex6.5", "ex6.6", "ex6.7"]


def check_plugin_listing(cli, *argv: str) -> None:
    code, out, err = cli(*argv, "--plugin", EXERCISE_PLUGIN)
    assert code == 0, err
    assert listed_ids(out) == [*BUILT_IN, "ln.1"]
    assert listed_ids(once(cli, "exercises")[1]) == BUILT_IN


@effect("exercises", "--plugin")
def _(cli, tmp_path, monkeypatch):
    """exercises --plugin (before the action, or alone): the file's exercise is listed too."""
    check_plugin_listing(cli, "exercises")
    code, out, _ = cli("exercises", "--plugin", EXERCISE_PLUGIN, "show", "ln.1")
    assert code == 0 and out.startswith("ln.1 (apply)")


@effect("exercises", "--seed")
def _(cli, tmp_path, monkeypatch):
    """exercises --seed S before the action: the same as after it (accepted, not shown)."""
    before = cli("exercises", "--seed", "7", "variant", "ex6.2")
    assert before == once(cli, "exercises", "variant", "ex6.2", "--seed", "7") and before[0] == 0
    assert cli("exercises", "--seed", "7", "show", "ex6.2")[1] != once(cli, "exercises", "show", "ex6.2")[1]


@effect("exercises", "--solution")
def _(cli, tmp_path, monkeypatch):
    """exercises --solution before the action: the same as after it (accepted, not shown)."""
    before = cli("exercises", "--solution", "show", "ex6.2")
    assert before == once(cli, "exercises", "show", "ex6.2", "--solution") and before[0] == 0
    assert before[1] != once(cli, "exercises", "show", "ex6.2")[1]


@effect("exercises list", "ID")
def _(cli, tmp_path, monkeypatch):
    """list ignores an ID (as the single parser of before did): the whole list."""
    assert cli("exercises", "list", "ex6.2") == once(cli, "exercises")
    assert listed_ids(once(cli, "exercises")[1]) == BUILT_IN


@effect("exercises list", "--seed")
def _(cli, tmp_path, monkeypatch):
    """list ignores --seed: the list of the exercises themselves."""
    assert cli("exercises", "list", "--seed", "7") == once(cli, "exercises", "list") == once(cli, "exercises")


@effect("exercises list", "--solution")
def _(cli, tmp_path, monkeypatch):
    """list ignores --solution."""
    assert cli("exercises", "list", "--solution") == once(cli, "exercises", "list")


@effect("exercises list", "--plugin")
def _(cli, tmp_path, monkeypatch):
    """list --plugin: the file's exercise is listed after the module's."""
    check_plugin_listing(cli, "exercises", "list")


@effect("exercises show", "ID")
def _(cli, tmp_path, monkeypatch):
    """show ID: that exercise's prompt; none named is an error."""
    code, ex62, _ = once(cli, "exercises", "show", "ex6.2")
    assert code == 0 and ex62.startswith("ex6.2 (apply):")
    assert prompt_numbers(ex62) == (EX62_SCORES, EX62_VALUES)
    code, ex65, _ = once(cli, "exercises", "show", "ex6.5")
    assert code == 0 and ex65.startswith("ex6.5 (apply):") and "check ex6.5 ANSWER" in ex65
    code, out, err = cli("exercises", "show")
    assert code == 2 and out == "" and "name an exercise" in err


def expected_answer(out: str) -> float:
    return float(re.search(r"^Expected answer: .* ≈ (\S+)$", out, re.M).group(1))


@effect("exercises show", "--solution")
def _(cli, tmp_path, monkeypatch):
    """show --solution: also the model solution and the exact expected answer, (e^2+11)/(e^2+2)."""
    code, plain, _ = once(cli, "exercises", "show", "ex6.2")
    code, out, _ = once(cli, "exercises", "show", "ex6.2", "--solution")
    assert code == 0 and out.startswith(plain.rstrip("\n")) and "Model solution:" in out
    assert "Expected answer:" not in plain
    assert expected_answer(out) == pytest.approx(float(softmax_output(EX62_SCORES, EX62_VALUES)), abs=1e-5)


@effect("exercises show", "--seed")
def _(cli, tmp_path, monkeypatch):
    """show --seed S: that seed's variant, the same as `variant ID --seed S`."""
    code, out, _ = once(cli, "exercises", "show", "ex6.2", "--seed", "7")
    assert code == 0 and (code, out) == once(cli, "exercises", "variant", "ex6.2", "--seed", "7")[:2]
    assert "[variant, seed 7]" in out and "--seed 7" in out
    assert prompt_numbers(out) != prompt_numbers(once(cli, "exercises", "show", "ex6.2")[1])


@effect("exercises show", "--plugin")
def _(cli, tmp_path, monkeypatch):
    """show --plugin: the file's exercise can be shown; without it, it is unknown."""
    code, out, err = cli("exercises", "show", "ln.1", "--plugin", EXERCISE_PLUGIN)
    assert code == 0 and out.startswith("ln.1 (apply):") and "x = [1, 2, 3, 4]" in out
    code, out, err = cli("exercises", "show", "ln.1")
    assert code == 2 and out == "" and "ln.1" in err


@effect("exercises variant", "ID")
def _(cli, tmp_path, monkeypatch):
    """variant ID --seed S: a variant of that exercise."""
    code, a, _ = once(cli, "exercises", "variant", "ex6.2", "--seed", "7")
    code, b, _ = once(cli, "exercises", "variant", "ex6.5", "--seed", "7")
    assert a.startswith("ex6.2 (apply):") and b.startswith("ex6.5 (apply):")
    assert "symattn check ex6.2 ANSWER --seed 7" in a and "symattn check ex6.5 ANSWER --seed 7" in b
    code, _, err = cli("exercises", "variant", "--seed", "7")
    assert code == 2 and "name an exercise" in err


@effect("exercises variant", "--seed")
def _(cli, tmp_path, monkeypatch):
    """variant --seed S: new numbers drawn from S (the same seed, the same variant); required. The
    variant's expected answer is its own numbers' softmax-weighted value."""
    runs = {s: once(cli, "exercises", "variant", "ex6.2", "--seed", s, "--solution") for s in ("7", "8")}
    assert cli("exercises", "variant", "ex6.2", "--seed", "7", "--solution") == runs["7"]
    numbers = {s: prompt_numbers(out) for s, (_, out, _) in runs.items()}
    assert numbers["7"] != numbers["8"] != (EX62_SCORES, EX62_VALUES)
    for s, (_, out, _) in runs.items():
        assert expected_answer(out) == pytest.approx(float(softmax_output(*numbers[s])), abs=1e-5)
    code, out, err = cli("exercises", "variant", "ex6.2")
    assert code == 2 and "needs --seed" in err


@effect("exercises variant", "--solution")
def _(cli, tmp_path, monkeypatch):
    """variant --solution: also the model solution and the variant's expected answer."""
    _, plain, _ = once(cli, "exercises", "variant", "ex6.2", "--seed", "7")
    _, out, _ = once(cli, "exercises", "variant", "ex6.2", "--seed", "7", "--solution")
    assert (
        out.startswith(plain.rstrip("\n")) and "Expected answer:" in out and "Expected answer:" not in plain
    )
    assert expected_answer(out) == pytest.approx(float(softmax_output(*prompt_numbers(plain))), abs=1e-5)


@effect("exercises variant", "--plugin")
def _(cli, tmp_path, monkeypatch):
    """variant --plugin: the file's exercise can be varied (its variant() draws new entries)."""
    code, out, err = cli("exercises", "variant", "ln.1", "--seed", "3", "--plugin", EXERCISE_PLUGIN)
    assert code == 0 and out.startswith("ln.1 (apply):") and "[variant, seed 3]" in out
    assert "x = [1, 2, 3, 4]" not in out
    code, out, err = cli("exercises", "variant", "ln.1", "--seed", "3")
    assert code == 2 and out == "" and "ln.1" in err


# -- check ---------------------------------------------------------------------------------------
EX62 = float(softmax_output(EX62_SCORES, EX62_VALUES))  # (e^2 + 11)/(e^2 + 2) = 1.9586...


@effect("check", "ID")
def _(cli, tmp_path, monkeypatch):
    """ID: the exercise the answer is judged against: 1.96 answers ex6.2, not ex6.5."""
    assert abs(1.96 - EX62) <= 0.01
    code, out, _ = once(cli, "check", "ex6.2", "1.96")
    assert code == 0 and out.startswith("Correct.") and "ex6.2" in out
    code, out, _ = cli("check", "ex6.5", "1.96")
    assert code == 1 and out.startswith("Incorrect.")
    code, out, err = cli("check", "ex9.9", "1.96")
    assert code == 2 and "ex9.9" in err


@effect("check", "ANSWER")
def _(cli, tmp_path, monkeypatch):
    """ANSWER: within 0.01 of (e^2+11)/(e^2+2) is correct (exit 0), the plain average of the values
    is incorrect with its slip named (exit 1), text that is not mathematics is invalid (exit 2)."""
    assert once(cli, "check", "ex6.2", "1.96")[0] == 0
    assert once(cli, "check", "ex6.2", f"{EX62 + 0.011:.3f}")[0] == 1
    average = sum(EX62_VALUES) / len(EX62_VALUES)
    code, out, _ = once(cli, "check", "ex6.2", f"{average:g}")
    assert code == 1 and "[uniform-weights]" in out
    code, out, _ = cli("check", "ex6.2", "banana")
    assert code == 2 and out.startswith("Invalid answer")


@effect("check", "--steps")
def _(cli, tmp_path, monkeypatch):
    """--steps FILE: a derivation judged line by line; the faulty line is named with its slip."""
    good = ROOT / "examples" / "proofs" / "ada-ex6.3.tex"
    code, out, _ = cli("check", "ex6.3", "--steps", str(good))
    steps = [ln for ln in good.read_text().splitlines() if ln.strip() and not ln.startswith("%")]
    assert code == 0 and out.count("✓ line ") == len(steps) and "✗" not in out
    bad = tmp_path / "bad.tex"
    bad.write_text(
        "\\operatorname{Var}(z) = d_k\n"
        "\\operatorname{Var}\\left(\\frac{z}{\\sqrt{d_k}}\\right) = "
        "\\frac{1}{\\sqrt{d_k}}\\operatorname{Var}(z)\n"
    )
    code, out, _ = cli("check", "ex6.3", "--steps", str(bad))
    assert code == 1 and "✗ line 2" in out and "Var(aX) = a Var(X)" in out
    code, out, err = cli("check", "ex6.3")
    assert code == 2 and "--steps FILE" in err


@effect("check", "--seed")
def _(cli, tmp_path, monkeypatch):
    """--seed S: the answer is judged against that seed's variant (its own numbers)."""
    numbers = prompt_numbers(once(cli, "exercises", "variant", "ex6.2", "--seed", "7")[1])
    answer = float(softmax_output(*numbers))
    assert abs(answer - EX62) > 0.05
    assert cli("check", "ex6.2", f"{answer:.4f}", "--seed", "7")[0] == 0
    assert cli("check", "ex6.2", f"{answer:.4f}")[0] == 1
    assert cli("check", "ex6.2", "1.96", "--seed", "7")[0] == 1
    assert once(cli, "check", "ex6.2", "1.96")[0] == 0


@effect("check", "--stdin")
def _(cli, tmp_path, monkeypatch):
    """--stdin: the answer is read from standard input, judged as if given as ANSWER."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("1.96\n"))
    assert cli("check", "ex6.2", "--stdin") == once(cli, "check", "ex6.2", "1.96")
    monkeypatch.setattr(sys, "stdin", io.StringIO("4\n"))
    code, out, _ = cli("check", "ex6.2", "--stdin")
    assert code == 1 and "[uniform-weights]" in out
    monkeypatch.setattr(sys, "stdin", io.StringIO("1.96\n"))
    code, out, err = cli("check", "ex6.2")
    assert code == 2 and "give an ANSWER" in err


@effect("check", "--json")
def _(cli, tmp_path, monkeypatch):
    """--json: the verdict as JSON (id, verdict, expected, what was read, slip)."""
    code, text, _ = once(cli, "check", "ex6.2", "4")
    code, out, _ = cli("check", "ex6.2", "4", "--json")
    doc = json.loads(out)
    assert code == 1 and not text.lstrip().startswith("{")
    assert (doc["id"], doc["verdict"], doc["typed"], doc["mistake"]) == (
        "ex6.2",
        "incorrect",
        "4",
        "uniform-weights",
    )
    assert json.loads(cli("check", "ex6.2", "1.96", "--json")[1])["verdict"] == "correct"


@effect("check", "--plugin")
def _(cli, tmp_path, monkeypatch):
    """--plugin: the file's exercise can be checked; without it, the id is unknown."""
    y1 = LN_Y1
    code, out, _ = cli("check", "ln.1", f"{y1:.3f}", "--plugin", EXERCISE_PLUGIN)
    assert code == 0 and out.startswith("Correct.")
    code, out, _ = cli("check", "ln.1", f"{y1 + 0.02:.3f}", "--plugin", EXERCISE_PLUGIN)
    assert code == 1
    code, out, err = cli("check", "ln.1", f"{y1:.3f}")
    assert code == 2 and out == "" and "ln.1" in err


# -- audit ---------------------------------------------------------------------------------------
def module_file(path: Path, text: str) -> str:
    """``text`` written to ``path``; and the audit's modules imported here, once, so that each
    audit's worker (forked from this process) does not import them again (3 s each)."""
    import symattn.grading.audit.keys
    import symattn.present.audit_render  # noqa: F401

    path.write_text(text, encoding="utf-8")
    return str(path)


RIGHT = "# Attention\n\nAt $d_k = 64$ the standard deviation is $\\sqrt{64} = 8$.\n"
WRONG = RIGHT + "And $0.1 + 0.2 = 0.4$.\n"


@effect("audit", "FILE")
def _(cli, tmp_path, monkeypatch):
    """FILE: the module audited: a true claim certified (exit 0), a false one wrong (exit 1,
    named on stderr with its true value); an unreadable file is exit 2."""
    code, out, err = cli("audit", module_file(tmp_path / "right.md", RIGHT))
    assert (
        code == 0
        and err == ""
        and "certified" in out
        and "1 claims: 1 certified, 0 wrong" in out.replace("claim:", "claims:")
    )
    code, out, err = cli("audit", module_file(tmp_path / "wrong.md", WRONG))
    assert code == 1 and "line 4: 0.1 + 0.2 = 0.4: true value 0.3" in err
    code, out, err = cli("audit", str(tmp_path / "missing.md"))
    assert code == 2 and out == ""


@effect("audit", "--json")
def _(cli, tmp_path, monkeypatch):
    """--json: {"kind": ..., "claims": [...], "keys": [...], "coverage": {...}}, each claim with its 1-based
    line and verdict."""
    path = module_file(tmp_path / "wrong.md", WRONG)
    code, text, _ = cli("audit", path)
    code, out, _ = cli("audit", path, "--json")
    doc = json.loads(out)
    assert code == 1 and set(doc) == {"kind", "claims", "keys", "coverage"}
    assert not text.lstrip().startswith("{")
    assert [(c["line"], c["verdict"]) for c in doc["claims"]] == [(3, "certified"), (4, "wrong")]
    assert doc["claims"][1]["value"] == "0.3"


HALF = RIGHT + "In practice a width of 512 is common.\n"  # one claim certified, one unchecked


@effect("audit", "--min-decided")
def _(cli, tmp_path, monkeypatch):
    """--min-decided P: exit 1, one line on stderr, when fewer than P % of the claims are
    decided; the same report either way."""
    path = module_file(tmp_path / "half.md", HALF)
    plain = cli("audit", path)
    assert plain[0] == 0 and "(50.0 % decided)" in plain[1]
    assert cli("audit", path, "--min-decided", "50")[:2] == plain[:2]
    code, out, err = cli("audit", path, "--min-decided", "51")
    assert code == 1 and out == plain[1] and err.startswith("symattn: too little decided: 50.0 %")


@effect("audit", "--strict")
def _(cli, tmp_path, monkeypatch):
    """--strict: --min-decided 80."""
    path = module_file(tmp_path / "half.md", HALF)
    assert cli("audit", path, "--strict")[2] == cli("audit", path, "--min-decided", "80")[2] != ""
    assert cli("audit", module_file(tmp_path / "right.md", RIGHT), "--strict")[0] == 0


@effect("audit", "--macros")
def _(cli, tmp_path, monkeypatch):
    """--macros FILE: the text's macros are read from FILE (repeatable, later files win), so a claim
    written with them is judged; without it the macro is an unknown name and nothing is wrong."""
    chapter = tmp_path / "ch.tex"
    chapter.write_text("With $h = 8$ and $d_{model} = 512$, each head is $\\per{d_{model}}{h} = 32$ wide.\n")
    first, second = tmp_path / "a.sty", tmp_path / "b.sty"
    first.write_text("\\newcommand{\\per}[2]{#1 #2}\n")  # a product: 4096, not 32
    second.write_text("\\renewcommand{\\per}[2]{#1/#2}\n")  # a share: 64, not 32
    assert cli("audit", str(chapter))[0] == 0
    code, out, _ = cli("audit", str(chapter), "--macros", str(first))
    assert code == 1 and "4096" in out
    code, out, _ = cli("audit", str(chapter), "--macros", str(first), "--macros", str(second))
    assert code == 1 and "64" in out and "4096" not in out


@effect("audit", "--plugin")
def _(cli, tmp_path, monkeypatch):
    """--plugin: a module's exercise that matches the file's exercise has its key checked; without
    it the exercise matches nothing."""
    y1 = LN_Y1
    text = (
        "# Layer normalisation\n\n**Exercise (apply).** Layer-normalise $x = [1, 2, 3, 4]$ without gain or "
        "bias. What is $y_1$?\n\n*Answer:* {key} (within 0.01)\n\n*Solution:* subtract the mean, divide "
        "by the standard deviation.\n"
    )
    path = module_file(tmp_path / "ln.md", text.format(key=f"{y1:.3f}"))
    code, out, _ = cli("audit", path, "--json", "--plugin", EXERCISE_PLUGIN)
    assert code == 0 and [(k["exercise"], k["status"]) for k in json.loads(out)["keys"]] == [("ln.1", "ok")]
    code, out, _ = cli("audit", path, "--json")
    assert code == 1 and json.loads(out)["keys"][0]["status"] == "unmatched"


# -- build ---------------------------------------------------------------------------------------
def stub_build(monkeypatch) -> dict[str, bytes]:
    """`symattn build` with a stand-in for the generator (the real one takes minutes): what the
    options decide is where the files go and whether they are written or compared."""
    from symattn.build import site

    files = {"index.md": b"# symattn\n", "guide/labs.md": b"# The labs\n"}
    result = site.BuildResult(files=files, summary="every check passed\n", ok=True)
    monkeypatch.setattr(site, "generate", lambda progress=None: result)
    return files


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@effect("build", "--out")
def _(cli, tmp_path, monkeypatch):
    """--out DIR: the documentation is written to DIR (default: docs)."""
    files = stub_build(monkeypatch)
    monkeypatch.chdir(tmp_path)
    code, out, _ = cli("build", "--out", "site")
    assert code == 0 and tree(tmp_path) == {f"site/{k}": v for k, v in files.items()}
    assert "wrote 2 files to site/" in out
    code, out, _ = cli("build")
    assert code == 0 and tree(tmp_path / "docs") == files and "wrote 2 files to docs/" in out


@effect("build", "--check")
def _(cli, tmp_path, monkeypatch):
    """--check: nothing is written; the files that differ from DIR are listed, exit 1 (0 when
    DIR is up to date)."""
    files = stub_build(monkeypatch)
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("build", "--check")
    assert code == 1 and tree(tmp_path) == {} and "docs/ is out of date" in err
    assert sorted(line.strip() for line in err.splitlines()[1:]) == sorted(files)
    assert cli("build")[0] == 0 and tree(tmp_path / "docs") == files
    code, out, err = cli("build", "--check")
    assert code == 0 and "docs/ is up to date (2 files)" in out
    (tmp_path / "docs" / "index.md").write_text("edited\n")
    code, out, err = cli("build", "--check")
    assert code == 1 and err.splitlines()[1:] == ["  index.md"]
    assert (tmp_path / "docs" / "index.md").read_text() == "edited\n"


# -- lab variance --------------------------------------------------------------------------------
VARIANCE = ("variance", "--draws", "5000", "--widths", "4,16")


@effect("lab variance", "--draws")
def _(cli, tmp_path, monkeypatch):
    """--draws N: draws per width; four times the draws halves the interval, about 1 either way
    (Var(q.k)/d_k = 1 for N(0, 1) entries)."""
    few, many = (
        lab_json(cli, "variance", "--draws", "1000", "--widths", "16"),
        lab_json(cli, "variance", "--draws", "16000", "--widths", "16"),
    )
    assert (few["draws"], many["draws"]) == (1000, 16000)
    (w_few,), (w_many,) = few["widths"], many["widths"]
    span = [w["ratio_ci"][1] - w["ratio_ci"][0] for w in (w_few, w_many)]
    assert 0.15 < span[1] / span[0] < 0.4  # 16 times the draws: about 1/4 as wide
    assert w_many["ratio_ci"][0] < 1 < w_many["ratio_ci"][1]
    assert (
        "over 16,000 draws per width" in once(cli, "lab", "variance", "--draws", "16000", "--widths", "16")[1]
    )


@effect("lab variance", "--widths")
def _(cli, tmp_path, monkeypatch):
    """--widths: a row per width d_k, in the order given, each about 1."""
    for widths in ([4, 16], [2, 8, 32]):
        doc = lab_json(cli, "variance", "--draws", "5000", "--widths", ",".join(map(str, widths)))
        assert [w["d_k"] for w in doc["widths"]] == widths
        assert all(abs(w["ratio"] - 1) < 0.2 for w in doc["widths"])


@effect("lab variance", "--seed")
def _(cli, tmp_path, monkeypatch):
    """--seed S: the draws come from S: two seeds give different samples, one seed the same one."""
    one, two = lab_json(cli, *VARIANCE, "--seed", "1"), lab_json(cli, *VARIANCE, "--seed", "2")
    assert (one["seed"], two["seed"]) == (1, 2)
    assert variance_numbers(one) != variance_numbers(two)
    assert all(a != b for a, b in zip(variance_numbers(one), variance_numbers(two), strict=True))
    again = json.loads(cli("lab", *VARIANCE, "--seed", "1", "--json")[1])
    assert again == one
    assert variance_numbers(lab_json(cli, *VARIANCE)) == variance_numbers(
        lab_json(cli, *VARIANCE, "--seed", "0")
    )


@effect("lab variance", "--method")
def _(cli, tmp_path, monkeypatch):
    """--method reduced draws from the score reduction instead of q and k: another sample of the
    same distribution (each ratio about 1), and the method is reported."""
    direct, reduced = lab_json(cli, *VARIANCE), lab_json(cli, *VARIANCE, "--method", "reduced")
    assert (direct["method"], reduced["method"]) == ("direct", "reduced")
    assert all(a != b for a, b in zip(variance_numbers(direct), variance_numbers(reduced), strict=True))
    for doc in (direct, reduced):
        assert all(abs(w["ratio"] - 1) < 0.2 for w in doc["widths"])
    assert "(reduced, seed 0)" in once(cli, "lab", *VARIANCE, "--method", "reduced")[1].splitlines()[0]


@effect("lab variance", "--json")
def _(cli, tmp_path, monkeypatch):
    """--json: JSON instead of the table, with the same figures."""
    _, text, _ = once(cli, "lab", *VARIANCE)
    doc = lab_json(cli, *VARIANCE)
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
    for w in doc["widths"]:
        assert re.search(rf"^\s+{w['d_k']}\s+{w['ratio']:.4f}\s", text, re.M)


def plot_draws_and_prints_the_same(cli, path: Path, *argv: str) -> None:
    """--plot PATH: also draws the lab's figure to PATH; the printed results are the same."""
    code, out, err = cli("lab", *argv, "--plot", str(path))
    assert code == 0, err
    assert out == once(cli, "lab", *argv)[1]
    assert path.read_text().lstrip().startswith("<?xml") and "<svg" in path.read_text()


@effect("lab variance", "--plot")
def _(cli, tmp_path, monkeypatch):
    """--plot PATH: also draws the lab's figure to PATH; the printed results are the same."""
    plot_draws_and_prints_the_same(cli, tmp_path / "variance.svg", *VARIANCE)


# -- lab saturation ------------------------------------------------------------------------------
SATURATION = ("saturation", "--trials", "2000", "--method", "reduced")


@effect("lab saturation", "--trials")
def _(cli, tmp_path, monkeypatch):
    """--trials: the number of trials, the share's denominator."""
    for trials in (500, 2000):
        doc = lab_json(cli, "saturation", "--trials", str(trials), "--method", "reduced")
        assert doc["trials"] == trials
        for s in ("unscaled", "scaled"):
            assert doc[s]["share"] == doc[s]["saturated"] / trials
    assert "2000 trials" in once(cli, "lab", *SATURATION)[1].replace(",", "")


@effect("lab saturation", "--width")
def _(cli, tmp_path, monkeypatch):
    """--width d_k: unscaled scores have variance |q|^2 ~ d_k, so more trials saturate at larger
    widths; at the default 128 (64 keys, P = 0.99) the guide's large run gives 33.32 %."""
    narrow, default = lab_json(cli, *SATURATION, "--width", "8"), lab_json(cli, *SATURATION)
    assert (narrow["width"], default["width"]) == (8, 128)
    assert narrow["unscaled"]["share"] < 0.1 < default["unscaled"]["share"]
    assert abs(default["unscaled"]["share"] - 0.3332) < 4 * math.sqrt(0.3332 * 0.6668 / 2000)


@effect("lab saturation", "--keys")
def _(cli, tmp_path, monkeypatch):
    """--keys: the number of keys; with one key its weight is 1, so every trial saturates."""
    one = lab_json(cli, *SATURATION, "--keys", "1")
    assert one["keys"] == 1
    for s in ("unscaled", "scaled"):
        assert one[s]["share"] == 1 and one[s]["saturated"] == 2000 and one[s]["mean_p_one_minus_p"] == 0
    assert lab_json(cli, *SATURATION)["unscaled"]["share"] < 0.5


@effect("lab saturation", "--threshold")
def _(cli, tmp_path, monkeypatch):
    """--threshold P: a trial saturates when p_max > P; the same trials with a lower P saturate
    at least as often."""
    low, high = lab_json(cli, *SATURATION, "--threshold", "0.5"), lab_json(cli, *SATURATION)
    assert (low["threshold"], high["threshold"]) == (0.5, 0.99)
    for s in ("unscaled", "scaled"):
        assert low[s]["saturated"] >= high[s]["saturated"]
    assert low["unscaled"]["saturated"] > high["unscaled"]["saturated"]
    assert "p_max > 0.5" in once(cli, "lab", *SATURATION, "--threshold", "0.5")[1].splitlines()[0]


@effect("lab saturation", "--seed")
def _(cli, tmp_path, monkeypatch):
    """--seed S: the trials come from S: two seeds give different samples, one seed the same one."""
    one, two = lab_json(cli, *SATURATION, "--seed", "1"), lab_json(cli, *SATURATION, "--seed", "2")
    assert (one["seed"], two["seed"]) == (1, 2)
    assert saturation_numbers(one)[0] != saturation_numbers(two)[0]
    assert json.loads(cli("lab", *SATURATION, "--seed", "1", "--json")[1]) == one
    direct = ("saturation", "--trials", "300", "--width", "16", "--keys", "8")
    a, b = lab_json(cli, *direct, "--seed", "1"), lab_json(cli, *direct, "--seed", "2")
    assert saturation_numbers(a)[0] != saturation_numbers(b)[0]


@effect("lab saturation", "--method")
def _(cli, tmp_path, monkeypatch):
    """--method: direct draws q and every key, reduced 1 + keys numbers per trial: two samples
    of the same distribution (both near the guide's 33.32 %), and the method is reported."""
    argv = ("saturation", "--trials", "2000")
    direct, reduced = lab_json(cli, *argv), lab_json(cli, *argv, "--method", "reduced")
    assert (direct["method"], reduced["method"]) == ("direct", "reduced")
    assert saturation_numbers(direct)[0] != saturation_numbers(reduced)[0]
    for doc in (direct, reduced):
        assert abs(doc["unscaled"]["share"] - 0.3332) < 4 * math.sqrt(0.3332 * 0.6668 / 2000)


@effect("lab saturation", "--json")
def _(cli, tmp_path, monkeypatch):
    """--json: JSON instead of the table, with the same counts."""
    _, text, _ = once(cli, "lab", *SATURATION)
    doc = lab_json(cli, *SATURATION)
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
    for s in ("unscaled", "scaled"):
        assert re.search(rf"^\s+{s}\s+{doc[s]['saturated']} of 2,000 saturated", text, re.M)


@effect("lab saturation", "--plot")
def _(cli, tmp_path, monkeypatch):
    """--plot PATH: also draws the lab's figure to PATH; the printed results are the same."""
    plot_draws_and_prints_the_same(cli, tmp_path / "saturation.svg", *SATURATION)


# -- environment variables -----------------------------------------------------------------------
CACHE_VARIABLES = ("SYMATTN_CACHE_DIR", "SYMATTN_NO_CACHE", "XDG_CACHE_HOME")


def _independence_logged(n, oracle=None, one=False, log=""):
    """A stand-in for the body of score_reduction's cached lemma ('independence'): it says which
    size it checked (in the log file named by its last default) and is quick, true for the lemma,
    false for its twin. Put in as the function's code, so the lemma's cache key is unchanged."""
    with open(log, "a") as fh:
        fh.write(f"{n} {'twin' if one else 'lemma'}\n")
    return not one


def new_process(mp: pytest.MonkeyPatch, log: Path, **env: str) -> None:
    """The lemma cache as a new process finds it (nothing checked, the file not yet read), the
    cached lemma's body logging to ``log``, and the environment ``env`` (cache variables unset)."""
    import derivations.score_reduction as score_reduction
    from symattn.proof import lemma, lemma_cache

    body = score_reduction._independent_factors
    mp.setattr(body, "__code__", _independence_logged.__code__)
    mp.setattr(body, "__defaults__", (None, False, str(log)))
    mp.setattr(lemma, "_lemma_cache", lemma_cache._LemmaCache())
    mp.setattr(lemma, "_CHECKED", set())
    for name in CACHE_VARIABLES:
        mp.delenv(name, raising=False)
    for name, value in env.items():
        mp.setenv(name, value)


def checked_sizes(log: Path) -> list[str]:
    return sorted(log.read_text().splitlines()) if log.exists() else []


def keys(cache: Path) -> list[str]:
    return sorted(cache.read_text().split())


#: The sizes at which 'independence' is checked, lemma and twin.
def independence_checks() -> list[str]:
    from derivations.score_reduction import INDEPENDENCE

    return sorted(f"{n} {who}" for n in INDEPENDENCE.sizes for who in ("lemma", "twin"))


@pytest.fixture(scope="module")
def moved_cache(tmp_path_factory):
    """`symattn verify score_reduction` run with SYMATTN_CACHE_DIR set, HOME a temporary folder:
    (the cache file there, HOME, the log of the lemma's checks)."""
    from symattn.cli import main

    root = tmp_path_factory.mktemp("moved-cache")
    home, moved, log = root / "home", root / "moved", root / "checked.log"
    with pytest.MonkeyPatch.context() as mp:
        new_process(mp, log, HOME=str(home), SYMATTN_CACHE_DIR=str(moved))
        out = io.StringIO()
        mp.setattr(sys, "stdout", out)
        code = main(["verify", "score_reduction", "--jobs", "2"])
    assert code == 0, out.getvalue()
    return moved / "lemmas.txt", home, log


def env_symattn_cache_dir(cli, tmp_path, monkeypatch, request):
    """SYMATTN_CACHE_DIR moves the lemma cache from ~/.cache/symattn to that folder: a key per
    size checked is written there, nothing under ~/.cache; unset, the same keys go to
    ~/.cache/symattn (the guide's default)."""
    from derivations.score_reduction import INDEPENDENCE
    from symattn.proof import lemma

    cache, home, log = request.getfixturevalue("moved_cache")
    assert checked_sizes(log) == independence_checks()
    moved = keys(cache)
    assert len(moved) == len(INDEPENDENCE.sizes) and all(re.fullmatch(r"[0-9a-f]{64}", k) for k in moved)
    assert not home.exists()
    default_home = tmp_path / "home"
    new_process(monkeypatch, tmp_path / "checked.log", HOME=str(default_home))
    lemma._check_lemma(INDEPENDENCE)
    assert keys(default_home / ".cache" / "symattn" / "lemmas.txt") == moved


def env_symattn_no_cache(cli, tmp_path, monkeypatch, request):
    """SYMATTN_NO_CACHE=1 checks everything afresh: a lemma the cache vouches for is checked
    again, and nothing is written to the cache; without it, the cached lemma is not checked."""
    from derivations.score_reduction import INDEPENDENCE
    from symattn.proof import lemma

    cached, _, _ = request.getfixturevalue("moved_cache")
    folder, log = tmp_path / "cache", tmp_path / "checked.log"
    folder.mkdir()
    shutil.copy(cached, folder / "lemmas.txt")
    before = (folder / "lemmas.txt").read_bytes()
    new_process(monkeypatch, log, SYMATTN_CACHE_DIR=str(folder), SYMATTN_NO_CACHE="1")
    code, out, err = cli("verify", "score_reduction", "--jobs", "2")
    assert code == 0, out + err
    assert checked_sizes(log) == independence_checks()
    assert (folder / "lemmas.txt").read_bytes() == before and os.listdir(folder) == ["lemmas.txt"]
    log.unlink()
    new_process(monkeypatch, log, SYMATTN_CACHE_DIR=str(folder))
    lemma._check_lemma(INDEPENDENCE)
    assert checked_sizes(log) == []


def env_symattn_plugins(cli, tmp_path, monkeypatch, request):
    """SYMATTN_PLUGINS: plugin files (os.pathsep between them) registered as --plugin would."""
    monkeypatch.delenv("SYMATTN_PLUGINS", raising=False)
    assert listed_ids(cli("exercises")[1]) == BUILT_IN
    assert "layer_norm" not in listed_ids(cli("derive", "--list")[1])
    monkeypatch.setenv("SYMATTN_PLUGINS", f"{DERIVATION_PLUGIN}{os.pathsep}{EXERCISE_PLUGIN}")
    assert listed_ids(cli("exercises")[1]) == [*BUILT_IN, "ln.1"]
    assert listed_ids(cli("derive", "--list")[1])[-1] == "layer_norm"
    y1 = LN_Y1
    assert cli("check", "ln.1", f"{y1:.3f}")[0] == 0


def env_symattn_reader(cli, tmp_path, monkeypatch, request):
    """SYMATTN_READER=name: answers are read with that reader (unset: latex2sympy2); a name that is
    no reader is a one-line error naming the variable."""
    import sympy as sp

    from symattn.grading.answers import judge, readers

    # A reader that reads every answer as 4, the plain average of ex6.2's values.
    four = readers.Reader("four", "none", "none", lambda: object(), lambda: None, lambda text: sp.Integer(4))
    monkeypatch.setitem(readers.READERS, "four", four)
    monkeypatch.delenv("SYMATTN_READER", raising=False)
    assert cli("check", "ex6.2", "1.96")[0] == 0
    monkeypatch.setenv("SYMATTN_READER", "latex2sympy2")
    assert cli("check", "ex6.2", "1.96")[0] == 0
    monkeypatch.setenv("SYMATTN_READER", "four")
    code, out, _ = cli("check", "ex6.2", "1.96", "--json")
    assert code == 1 and json.loads(out)["mistake"] == "uniform-weights" and json.loads(out)["given"] == "4"
    monkeypatch.setattr(judge, "_WARM", set())  # as in a new process, which loads the reader first
    monkeypatch.setenv("SYMATTN_READER", "no_such_reader")
    code, out, err = cli("check", "ex6.2", "1.96")
    assert code == 2 and err.count("\n") == 1 and "SYMATTN_READER='no_such_reader' names no reader" in err


ENVIRONMENT: dict[str, Callable[..., None]] = {
    "SYMATTN_CACHE_DIR": env_symattn_cache_dir,
    "SYMATTN_NO_CACHE": env_symattn_no_cache,
    "SYMATTN_PLUGINS": env_symattn_plugins,
    "SYMATTN_READER": env_symattn_reader,
}


# -- the tests -----------------------------------------------------------------------------------
def test_every_option_of_the_parser_has_an_effect_test():
    """The options walked from the parser are exactly those of EFFECTS: a new option without a
    test of its effect fails here (and in its own test below)."""
    assert set(PARSED) == set(EFFECTS), {
        "options without an effect test": sorted(set(PARSED) - set(EFFECTS)),
        "effect tests of no option": sorted(set(EFFECTS) - set(PARSED)),
    }
    assert len(PARSED) >= 69


def test_every_environment_variable_has_an_effect_test():
    """The SYMATTN_* variables of symattn's source are exactly those of ENVIRONMENT."""
    assert _environment_variables() == set(ENVIRONMENT)


@pytest.mark.parametrize("key", sorted(set(PARSED) | set(EFFECTS)), ids=" ".join)
def test_option_changes_the_output_as_documented(key, cli, tmp_path, monkeypatch):
    assert key in EFFECTS, f"`symattn {' '.join(key)}` has no test of its effect: add one to EFFECTS"
    assert key in PARSED, f"`symattn {' '.join(key)}` is not an option of the parser"
    EFFECTS[key](cli, tmp_path, monkeypatch)


@pytest.mark.parametrize("name", sorted(_environment_variables() | set(ENVIRONMENT)))
def test_environment_variable_changes_the_output_as_documented(name, cli, tmp_path, monkeypatch, request):
    assert name in ENVIRONMENT, f"{name} has no test of its effect: add one to ENVIRONMENT"
    ENVIRONMENT[name](cli, tmp_path, monkeypatch, request)
