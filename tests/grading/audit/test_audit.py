"""Auditing a module file (symattn/grading/audit/keys.py): answer keys on fixtures, and every numeric claim
of the module text kept for the tests (tests/data/module/attention.md: the course module's facts and figures
in the project's own words), with planted errors and a shuffled copy."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import mpmath
import pytest

from symattn.grading.audit.keys import audit_claims, audit_module, audit_text, find_exercises

FIXTURES = Path(__file__).parents[2] / "fixtures"


#: The course module's facts and figures, retold for the tests (inside the repository: no test skips).
MODULE = Path(__file__).parents[2] / "data" / "module" / "attention.md"


@pytest.fixture(scope="module")
def module_text() -> str:
    return MODULE.read_text(encoding="utf-8")


def line_of(text: str, fragment: str) -> int:
    """The 1-based number of the one line of ``text`` that holds ``fragment``."""
    found = [n for n, line in enumerate(text.splitlines(), start=1) if fragment in line]
    assert len(found) == 1, (fragment, found)
    return found[0]


def _module_line(fragment: str) -> int:
    return line_of(MODULE.read_text(encoding="utf-8"), fragment)


@pytest.fixture(scope="module")
def module_claims(module_text):
    return audit_claims(module_text)


# -- answer keys -----------------------------------------------------------------------------
def test_finds_every_exercise_in_order():
    """Seven blocks with kinds, keys and tolerances; the decoy answer outside them is ignored."""
    found = find_exercises((FIXTURES / "module_ok.md").read_text())
    assert [f.kind for f in found] == [
        "check",
        "apply",
        "apply",
        "apply",
        "apply",
        "extend",
        "extend",
    ]
    assert [(f.key, f.tolerance) for f in found if f.key] == [
        ("1.96", "0.01"),
        (
            r"$\begin{bmatrix} 0 & -\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0"
            r" \end{bmatrix}$",
            None,
        ),
        ("8192", "0"),
    ]
    assert all(f.has_solution for f in found)


def test_correct_keys_pass():
    """All stated keys of the good fixture match the computed answers."""
    rows = audit_text((FIXTURES / "module_ok.md").read_text())
    assert [r.exercise.id for r in rows] == [f"ex6.{k}" for k in range(1, 8)]
    assert [r.status for r in rows if r.exercise.checkable] == ["ok", "ok", "ok"]
    assert not any(r.wrong for r in rows)


def _exercise_units(text: str) -> tuple[str, list[str]]:
    head, _, rest = text.partition("**Exercise")
    units = ["**Exercise" + u for u in rest.split("**Exercise")]
    return head, units


def test_keys_are_matched_by_content_not_position():
    """Reversing the exercises of the fixture changes no exercise's match or status."""
    text = (FIXTURES / "module_ok.md").read_text()
    head, units = _exercise_units(text)
    units = [u if u.endswith("\n\n") else u.rstrip("\n") + "\n\n" for u in units]
    reversed_text = head + "".join(reversed(units))
    before = {r.found.prompt: (r.exercise.id, r.status) for r in audit_text(text)}
    after = {r.found.prompt: (r.exercise.id, r.status) for r in audit_text(reversed_text)}
    assert after == before
    assert [r.exercise.id for r in audit_text(reversed_text)] == [f"ex6.{k}" for k in range(7, 0, -1)]


def test_wrong_keys_are_named(cli):
    """The bad fixture states 1.9 and 4096: audit exits 1 and names ex6.2 and ex6.5."""
    code, out, err = cli("audit", str(FIXTURES / "module_wrong.md"))
    assert code == 1
    assert "wrong key" in out
    assert "ex6.2" in err and "ex6.5" in err and "ex6.4" not in err
    assert "N² d with N d²" in err  # 4096 is recognised as the N > d_model slip (its math as Unicode)


def test_good_file_exits_zero(cli):
    """A file whose keys are right exits 0 with a key row per exercise."""
    code, out, _ = cli("audit", str(FIXTURES / "module_ok.md"))
    assert code == 0
    keys = out.split("Answer keys", 1)[1]
    assert len(re.findall(r"^\d+\s+(?:check|apply|extend)\s+ex6\.\d", keys, re.M)) == 7


def test_unreadable_file_is_exit_2(cli, tmp_path):
    """A missing file, or one with no exercises and no figures, is a one-line error, exit 2."""
    code, _, err = cli("audit", str(tmp_path / "nope.md"))
    assert code == 2 and err.count("\n") == 1
    empty = tmp_path / "empty.md"
    empty.write_text("# nothing here\n")
    code, _, err = cli("audit", str(empty))
    assert code == 2 and err.count("\n") == 1
    binary = tmp_path / "binary.md"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    code, _, err = cli("audit", str(binary))
    assert code == 2 and err.count("\n") == 1
    assert err.endswith(f"cannot read {binary}: not UTF-8 text (a binary file?)\n") and "codec" not in err
    nul = tmp_path / "nul.md"
    nul.write_bytes(b"# title\n\x00\x00\x01 1 + 1 = 2\n")
    code, _, err = cli("audit", str(nul))
    assert code == 2 and "not a text file" in err


# -- the module text ----------------------------------------------------------------------------
#: Every claim of the module text as a reader checks it by hand: (a fragment found on one line
#: only, the verdict of each claim on that line). Lines are found by their text, not numbered.
CLAIMS = [
    # the scores QK^T divided by sqrt(d_k), the root of their width
    (r"\operatorname{Softmax}\left(\frac{QK^\top}{\sqrt{d_k}} + M\right) V", ["certified"]),
    (r"1. The product $QK^\top$ is a score table", ["certified"]),  # (N x d_k)(d_k x M): N x M (shapes)
    ("holds $0$ where attention is allowed", ["certified"] * 2),  # the mask's 0 and -inf; e^{-inf} = 0
    ("weights that sum to 1", ["certified"]),  # softmax rows sum to 1
    ("is often $64$ or $128$", ["unchecked"]),  # a habit of practice: nothing to compute (one claim)
    ("**Scores.**", ["certified"] * 4),  # -9 - 9 = -18; 3 - 3 = 0; -3 + 3 = 0; 1 + 1 = 2
    ("**Scale.**", ["certified"] * 3),  # sqrt(2) = 1.4142; -18/sqrt(2) = -12.728; 2/sqrt(2) = sqrt(2)
    ("**Mask.**", ["certified"]),  # row 1 keeps -12.73 and gets -inf
    ("**Softmax** row by row", ["certified"] * 4),  # [1, 0]; e^sqrt(2) = 4.1133; sum 5.1133; 1/5.1133
    ("**Weighted sum of values.**", ["certified"] * 2),  # v_1; [0.804, -0.196 + 2(0.804) = 1.413]
    ("the strongly negative score $-12.73$", ["certified"]),  # -9 sqrt(2)
    ("a gap near 12.7", ["certified"] * 2),  # the gap 9 sqrt(2) = 12.73; e^12.7 = 327,748
    ("**The mean vanishes**", ["certified"]),  # E[q_i] = 0, as assumed
    (r"z = \mathbf{q}^\top \mathbf{k} = \sum", ["certified"]),  # q and k both of width d_k (shapes)
    (r"\mathbb{E}[z] = \sum", ["certified"]),  # linearity and independence
    ("**Every product has variance 1.**", ["certified"] * 4),  # variance 1, mean 0, E splits, Var(q_i) = 1
    (r"\operatorname{Var}(q_i k_i) = \mathbb{E}", ["certified"]),  # (1)(1) = 1
    (r"\operatorname{Var}(z) = \sum", ["certified"]),  # d_k terms of 1
    (r"\sigma_z = \sqrt{\operatorname{Var}(z)}", ["certified"]),
    ("the typical score thus comes to", ["certified"] * 2),  # sqrt(64) = 8; sqrt(128) = 11.31
    ("Gaps of 20 between scores", ["unchecked", "certified"]),  # "often": practice; e^20 = 4.85e8
    (r"\operatorname{Var}\left(\frac{z}{\sqrt{d_k}}\right)", ["certified"]),  # d_k/d_k = 1
    ("scaled scores have variance 1", ["certified"]),
    ("Over 200,000 random draws", ["certified"] * 5),  # four ratios near 1 and the scaled 1.0
    ("Over 500 random trials", ["certified"] * 3),  # 35 % unscaled, 0 % scaled, p(1 - p) = 0.0020
    (r"M_{\text{causal}} =", ["certified"]),  # -inf above the diagonal, "with . for 0"
    ("$0/0$ = `NaN`", ["certified"]),
    ("the paper uses $h = 8$", ["certified"] * 2),  # 512/8 = 64; the total cost has no h in it
    ("A head maps the tokens to its own 64 features", ["certified"]),  # 512/8
    ("**It blends the heads.**", ["certified"] * 2),  # 64 features a head; 8 x 64 = 512
    ("1. Projecting the queries", ["certified"]),  # 3 N d_model^2
    (r"2. The scores $Q K^\top$", ["certified"]),  # h N^2 d_k = N^2 d_model
    ("3. The weighted sum $A V$", ["certified"]),  # likewise
    ("4. The output projection $W^O$", ["certified"]),  # N d_model^2
    (r"\text{FLOPs}_{\text{MHA}} =", ["certified"]),  # 3 + 1 = 4 and 1 + 1 = 2
    ("The first term grows with", ["certified"] * 3),  # degrees 1 and 2; 2N^2 d > 4N d^2 iff N > 2d
    ("*Solution:* Softmax of $[2, 0, 0]$", ["certified"] * 4),  # e^2 = 7.389; 9.389; weights; 1.959
    ("*Solution:* From rule 4", ["certified"] * 2),  # d_k; (1/d_k) d_k = 1
    (r"*Solution:* $\begin{bmatrix}", ["certified"] * 2),  # the 3 x 3 causal mask; its first row
    ("= 8192$ tokens", ["certified"]),  # 2 x 4096
]


def test_every_claim_of_the_module_is_found_with_its_verdict(module_text, module_claims):
    """The module text's claims line by line: all certified but the 2 statements of practice
    (each unchecked, saying why), none wrong."""
    expected = sorted((line_of(module_text, fragment), v) for fragment, verdicts in CLAIMS for v in verdicts)
    assert sorted((c.line, c.verdict) for c in module_claims) == expected
    verdicts = [v for _, vs in CLAIMS for v in vs]
    assert "wrong" not in verdicts and verdicts.count("unchecked") == 2
    assert all(c.rule for c in module_claims if c.verdict == "unchecked")


@pytest.mark.parametrize(
    ("anchor", "fragment"),
    [
        ("**Scores.**", "-18"),  # q_1 . k_1 from the table
        ("**Scale.**", "1.414"),  # sqrt(2)
        ("**Scale.**", "[-12.73, 0]"),
        ("**Softmax** row by row", "4.113"),  # e^{1.414} with 1.414 a rounded sqrt(2)
        ("**Softmax** row by row", "5.113"),
        ("**Softmax** row by row", "[0.196, 0.804]"),
        ("**Weighted sum of values.**", "[0.804, 1.413]"),
        ("a gap near 12.7", "330,000"),
        ("the typical score thus comes to", "± 8"),
        ("the typical score thus comes to", "± 11.3"),
        ("Gaps of 20 between scores", "500 million"),
        ("Over 200,000 random draws", "1.0040"),
        ("Over 500 random trials", "35"),
        ("Over 500 random trials", "0.0020"),
        (r"M_{\text{causal}} =", "bmatrix"),
        ("1. Projecting the queries", "3 * N * d_model"),
        (r"\text{FLOPs}_{\text{MHA}} =", "4 N d_model^(2) + 2 N^(2) d_model"),
        ("The first term grows with", "N > 2d_model"),
        ("= 8192$ tokens", "8192"),
    ],
)
def test_named_claims_are_found_and_certified(module_text, module_claims, anchor, fragment):
    """Each claim the issue names is found on its line and certified."""
    line = line_of(module_text, anchor)
    hits = [c for c in module_claims if c.line == line and fragment in c.text]
    assert hits, f"no claim with {fragment!r} on line {line}"
    assert all(c.verdict == "certified" for c in hits)


def test_every_number_is_accounted_for(module_text):
    """Every number written in prose or math is in a claim, a reference or a given: a new
    figure added to a sentence no rule knows comes out as an unchecked claim."""
    old = "Nearly all of today's large language models"
    assert module_text.count(old) == 1
    text = module_text.replace(old, "About 73 of every 100 of today's large language models")
    claims = audit_claims(text)
    new = [c for c in claims if c.line == line_of(text, "About 73 of every 100")]
    assert new and {c.verdict for c in new} == {"unchecked"}
    assert any("73" in c.text or "100" in c.text for c in new)


# -- planted errors ------------------------------------------------------------------------------
def _e(x: str) -> mpmath.mpf:
    with mpmath.workdps(30):  # called while collecting: the session's precision is left alone
        return +(mpmath.e ** mpmath.mpf(x))


#: (what the module says, what the copy says, the line, a fragment of the true value). True
#: values are computed here with mpmath or by hand, not by the code under test.
LINE = _module_line  # the line of the module text that holds a fragment
PLANTED = [
    # a swapped digit
    (
        r"\sqrt{2} \approx 1.414",
        r"\sqrt{2} \approx 1.441",
        LINE("**Scale.**"),
        mpmath.nstr(mpmath.sqrt(2), 4),
    ),
    (r"[1, 4.113]", r"[1, 4.131]", LINE("**Softmax** row by row"), mpmath.nstr(_e("1.414"), 4)),
    (
        r"\, 0.804]$",
        r"\, 0.840]$",
        LINE("**Softmax** row by row"),
        mpmath.nstr(_e(mpmath.sqrt(2)) / (1 + _e(mpmath.sqrt(2))), 4),
    ),
    (r"$e^2 = 7.389$", r"$e^2 = 7.398$", LINE("*Solution:* Softmax of"), mpmath.nstr(_e("2"), 4)),
    (
        r"about $\pm 11.3$",
        r"about $\pm 13.1$",
        LINE("the typical score thus comes to"),
        mpmath.nstr(mpmath.sqrt(128), 4),
    ),
    # a wrong power of ten
    (
        r"e^{12.7} \approx 330{,}000",
        r"e^{12.7} \approx 33{,}000",
        LINE("a gap near 12.7"),
        str(int(_e("12.7"))),
    ),
    ("about 500 million", "about 50 million", LINE("Gaps of 20 between scores"), "4.85"),
    # wrong arithmetic and a wrong figure of the example
    (r"= -9 - 9 = -18", r"= -9 - 9 = -81", LINE("**Scores.**"), "-18"),
    (
        r"score $-12.73$",
        r"score $-12.37$",
        LINE("negative score $-12.73$"),
        mpmath.nstr(-9 * mpmath.sqrt(2), 6),
    ),
    (r"(1)(1) = 1", r"(1)(1) = 2", LINE(r"\operatorname{Var}(q_i k_i) = \mathbb{E}"), "1"),
    (
        r"\sum_{i=1}^{d_k} 1 = d_k",
        r"\sum_{i=1}^{d_k} 1 = 2 d_k",
        LINE(r"\operatorname{Var}(z) = \sum"),
        "2*d_k is not d_k",
    ),
    # a lab figure outside its interval
    ("$1.0040$", "$1.0400$", LINE("Over 200,000 random draws"), "99 % interval"),
    (r"$35\%$", r"$55\%$", LINE("Over 500 random trials"), "99 % interval"),
    (r"$35\%$", "75 per cent", LINE("Over 500 random trials"), "99 % interval"),  # a share in words
    (r"$35\%$", "75 percent", LINE("Over 500 random trials"), "99 % interval"),
    ("is $0.0020$", "is $0.0200$", LINE("Over 500 random trials"), "99 % interval"),
    # a wrong cost term, total and crossover
    (
        r"$3 \cdot N \cdot d_{\text{model}}^2$",
        r"$2 \cdot N \cdot d_{\text{model}}^2$",
        LINE("1. Projecting the queries"),
        "3*N*d_model^2",
    ),
    (
        r"4 N d_{\text{model}}^2 + 2 N^2",
        r"4 N d_{\text{model}}^2 + 3 N^2",
        LINE(r"\text{FLOPs}_{\text{MHA}} ="),
        "2*N^2*d_model",
    ),
    (
        r"that is, $N > 2d_{\text{model}}$",
        r"that is, $N > 4d_{\text{model}}$",
        LINE("The first term grows with"),
        "2*d_model",
    ),
    (r"2 d_{\text{model}} = 8192$", r"2 d_{\text{model}} = 8092$", LINE("= 8192$ tokens"), "8192"),
    (
        r"that is, $N > 2d_{\text{model}}$",
        r"that is, $N > d_{\text{model}}$",
        LINE("The first term grows with"),
        "2*d_model",
    ),
    # a wrong mask, a wrong head width
    (
        r"0 & -\infty & -\infty \\ 0 & 0 & -\infty",
        r"0 & 0 & -\infty \\ 0 & 0 & -\infty",
        LINE(r"*Solution:* $\begin{bmatrix}"),
        "-∞",
    ),
    ("so $d_k = 64$", "so $d_k = 46$", LINE("the paper uses $h = 8$"), "64"),
    ("its own 64 features and", "its own 32 features and", LINE("A head maps the tokens"), "64"),
]


@pytest.mark.parametrize(("old", "new", "line", "true"), PLANTED, ids=[p[1] for p in PLANTED])
def test_planted_error_is_flagged_at_its_line(module_text, old, new, line, true):
    """One planted error: flagged wrong at its line with the true value; nothing else is."""
    assert module_text.count(old) == 1
    copy = module_text.replace(old, new)
    claims = audit_claims(copy)
    wrong = [c for c in claims if c.verdict == "wrong"]
    assert wrong, f"{new!r} was not flagged"
    assert {c.line for c in wrong} == {line}
    assert any(true in (c.value or "") for c in wrong), [c.value for c in wrong]


def test_planted_errors_all_at_once(module_text):
    """All planted errors in one copy: each line flagged, and no other line."""
    copy = module_text
    for old, new, _, _ in PLANTED:
        copy = copy.replace(old, new)
    wrong_lines = {c.line for c in audit_claims(copy) if c.verdict == "wrong"}
    assert wrong_lines == {p[2] for p in PLANTED}


# -- binding by content: a shuffled copy ------------------------------------------------------------
def _blocks(section: str) -> list[str]:
    """Paragraphs of a section; a display or a list item after a display stays with its
    paragraph, an exercise stays whole (its answer and solution with it)."""
    raw = [b for b in re.split(r"\n\s*\n", section.strip("\n")) if b.strip()]
    out: list[str] = []
    for b in raw:
        glue = b.lstrip().startswith("$$") or (
            out and "**Exercise" in out[-1] and not b.lstrip().startswith(("**Exercise", "#"))
        )
        if glue and out:
            out[-1] += "\n\n" + b
        else:
            out.append(b)
    return out


def shuffled(text: str, seed: int) -> str:
    """Sections in a new order, paragraphs moved within them, exercises reordered."""
    rng = random.Random(seed)
    parts = re.split(r"(?m)^(?=## )", text)
    front, sections = parts[0], parts[1:]
    rng.shuffle(sections)
    out = [front.rstrip("\n")]
    for section in sections:
        head, _, body = section.partition("\n")
        blocks = _blocks(body)
        tail = [b for b in blocks if b.startswith("###") and "References" in b]
        blocks = [b for b in blocks if b not in tail]
        rng.shuffle(blocks)
        out.append("\n\n".join([head, *blocks, *tail]))
    return "\n\n".join(out) + "\n"


def _verdicts(claims) -> list[tuple[str, str, str | None, str]]:
    return sorted((" ".join(c.text.split()), c.verdict, c.value, c.rule) for c in claims)


@pytest.mark.parametrize("seed", [1, 2])
def test_shuffled_module_has_the_same_verdicts(module_text, module_claims, seed):
    """Moving paragraphs, reordering sections and exercises changes no claim's verdict or
    value, and no exercise's match or key status. Shapes are the one premise a text must
    declare before it uses them (issue 47: what is declared holds from there on): a shape
    claim moved above its declaration is no claim, never one with another verdict. A count
    whose paragraph ends in a colon ("three kinds:") is read against the list right after it:
    moved away from its list it says something else, and is left out of the comparison."""
    copy = shuffled(module_text, seed)
    assert copy != module_text
    assert sorted(copy.split()) == sorted(module_text.split())  # the same words, moved
    result = audit_module(copy)
    listed = "meaning: the items listed after the count"
    moved = [v for v in _verdicts(result.claims) if not v[3].startswith(listed)]
    kept = _verdicts(module_claims)
    shaped = [v for v in moved if v[3].startswith("shapes:")]
    assert [v for v in moved if v not in shaped] == [v for v in kept if not v[3].startswith("shapes:")]
    assert {v for v in moved if v[3].startswith("shapes:")} <= set(kept)
    original = {r.exercise.id: r.status for r in audit_text(module_text)}
    assert {r.exercise.id: r.status for r in result.keys} == original
    assert [r.exercise.id for r in result.keys] != list(original)  # the exercises did move


def test_renumbered_exercises_keep_their_matches_and_verdicts(module_text, module_claims):
    """Numbering the exercises in reverse ("**Exercise 7 (check).**", ...) changes nothing."""
    count = module_text.count("**Exercise (")
    numbers = iter(range(count, 0, -1))
    copy = re.sub(r"\*\*Exercise \(", lambda _: f"**Exercise {next(numbers)} (", module_text)
    assert "**Exercise 7 (check).**" in copy
    result = audit_module(copy)
    assert _verdicts(result.claims) == _verdicts(module_claims)
    assert [r.exercise.id for r in result.keys] == [f"ex6.{k}" for k in range(1, 8)]
    assert [r.status for r in result.keys] == [r.status for r in audit_text(module_text)]


def test_planted_error_in_shuffled_copy_is_flagged_at_its_new_line(module_text):
    """In a shuffled copy, a planted error is flagged at the line it moved to."""
    copy = shuffled(module_text, 3).replace(r"[1, 4.113]", r"[1, 4.131]")
    line = next(i for i, t in enumerate(copy.splitlines(), start=1) if "4.131" in t)
    wrong = [c for c in audit_claims(copy) if c.verdict == "wrong"]
    assert [c.line for c in wrong] == [line]


# -- the command line ------------------------------------------------------------------------------
def test_json_report(cli):
    """--json: the kind of text read; claims with exactly line (and where, the same line for
    Markdown), text, verdict, value (plain and LaTeX), rule; keys; the coverage, which counts
    the claims listed; exit 0."""
    code, out, err = cli("audit", str(MODULE), "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert set(doc) == {"kind", "claims", "keys", "coverage"}
    assert doc["kind"] == "markdown"
    verdicts = [c["verdict"] for c in doc["claims"]]
    assert doc["coverage"]["claims"] == len(verdicts)
    assert [doc["coverage"][v] for v in ("certified", "wrong", "unchecked")] == [
        verdicts.count(v) for v in ("certified", "wrong", "unchecked")
    ]
    fields = {"line", "where", "text", "verdict", "value", "value_latex", "rule"}
    assert all(set(c) == fields and c["where"] == str(c["line"]) for c in doc["claims"])
    assert {c["verdict"] for c in doc["claims"]} <= {"certified", "wrong", "unchecked"}
    certified = sum(vs.count("certified") for _, vs in CLAIMS)
    assert sum(c["verdict"] == "certified" for c in doc["claims"]) == certified
    lines = MODULE.read_text().splitlines()
    for c in doc["claims"]:  # each line is 1-based and holds a figure, a mask entry or an identity
        assert re.search(r"\d|\\infty|\\sigma|\\sqrt", lines[c["line"] - 1])
    assert [k["exercise"] for k in doc["keys"]] == [f"ex6.{k}" for k in range(1, 8)]


def test_wrong_claim_exits_1_naming_line_and_value(cli, module_text, tmp_path):
    """A wrong figure: exit 1, the line and the true value on stderr and in the JSON."""
    bad = tmp_path / "bad.md"
    bad.write_text(module_text.replace(r"e^{12.7} \approx 330{,}000", r"e^{12.7} \approx 33{,}000"))
    code, out, err = cli("audit", str(bad), "--json")
    assert code == 1
    wrong = [c for c in json.loads(out)["claims"] if c["verdict"] == "wrong"]
    line = line_of(module_text, "a gap near 12.7")
    assert [c["line"] for c in wrong] == [line]
    assert f"line {line}" in err and "327747" in err


# -- hostile and damaged input -------------------------------------------------------------------
def test_damaged_copies_never_crash(module_text):
    """Random edits (fixed seed) to the module: every copy is audited without an exception,
    every claim has a verdict and every wrong one a true value."""
    rng = random.Random(7)
    pieces = [*list("$^_{}\\[]()0123456789.,-+="), r"\frac", r"\sqrt", r"e^{", r"\infty", "$$\n", "|"]
    part = module_text[module_text.index("### The Whole") : module_text.index("## 6.4")]
    for _ in range(8):
        t = list(part)
        for _ in range(rng.randint(1, 25)):
            i = rng.randrange(len(t))
            if rng.random() < 0.5:
                del t[i]
            else:
                t.insert(i, rng.choice(pieces))
        claims = audit_claims("".join(t))
        assert all(c.verdict in ("certified", "wrong", "unchecked") for c in claims)
        assert all(c.value for c in claims if c.verdict == "wrong")


# -- the docs page -------------------------------------------------------------------------------
def test_docs_page_has_the_module_audit_table(module_text, tmp_path):
    """`symattn build` writes audit.md from the module pyproject.toml names: a row per claim by
    line, none wrong, the file it audited named, linked in the nav."""
    from symattn.build.site import _audit_page

    (tmp_path / "pyproject.toml").write_text('[tool.symattn]\nmodule = "course/attention.md"\n')
    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "attention.md").write_text(module_text, encoding="utf-8")
    page, missing = _audit_page(tmp_path)
    assert missing is None
    rows = re.findall(r"^\| (\d+) \|.*\| \*\*(certified|wrong|unchecked)\*\*: ", page, re.M)
    assert len(rows) == sum(len(verdicts) for _, verdicts in CLAIMS)
    scale, trials = line_of(module_text, "**Scale.**"), line_of(module_text, "Over 500 random trials")
    assert (str(scale), "certified") in rows and (str(trials), "certified") in rows
    assert not any(v == "wrong" for _, v in rows)
    assert "This page audits `course/attention.md`" in page and "`symattn build` regenerates" in page
    assert "audit.md" in (Path(__file__).parents[3] / "mkdocs.yml").read_text()


#: What plain text or SymPy syntax looks like; none of it may stand in a page's value, neither
#: outside the math (an untypeset value) nor inside it (SymPy's syntax typeset).
_PLAIN_OUTSIDE = re.compile(r"[*^√∞≈_\[\]]|\boo\b|sqrt|exp\(|\d/\d")
_SYMPY_INSIDE = re.compile(r"\*|\boo\b|sqrt\(|exp\(|\bSum\(|√|∞|≈")


def _outside_math(markdown: str) -> str:
    return "".join(part for k, part in enumerate(markdown.split("$")) if k % 2 == 0)


def _inside_math(markdown: str) -> list[str]:
    return [part for k, part in enumerate(markdown.split("$")) if k % 2 == 1]


def test_the_page_typesets_every_true_value(module_text):
    """Must-have 6: every true value on the audit page, right ones and wrong ones (a wrong
    middle term, a wrong row, a wrong cost), is typeset math beside its words, never plain text
    or SymPy syntax; the terminal keeps the plain text of the same value."""
    from symattn.grading.audit.keys import audit_module
    from symattn.present.audit_render import audit_markdown

    text = module_text
    for before, after in PLANTS:
        text = text.replace(before, after)
    claims = audit_claims(module_text) + audit_claims(text)
    valued = [c for c in claims if c.value is not None]
    assert len(valued) == sum(
        c.verdict in ("certified", "wrong") for c in claims
    )  # every decided claim has its value
    assert any("middle term" in c.value for c in valued)
    for c in valued:
        assert c.value_latex and "$" in c.value_latex, c
        assert c.value_latex.count("$") % 2 == 0, c
        assert not _PLAIN_OUTSIDE.search(_outside_math(c.value_latex)), c.value_latex
        assert not any(_SYMPY_INSIDE.search(m) for m in _inside_math(c.value_latex)), c.value_latex
    # The wrong middle term names both expressions, typeset.
    middle = next(c for c in valued if "middle term" in c.value)
    assert middle.value_latex == r"the middle term $\sqrt{d_{k}}$ is not $1$"  # named once
    page = audit_markdown(audit_module(text), "planted.md")
    rows = re.findall(r"^\| \d+ \|.*\| \*\*(?:certified|wrong|unchecked)\*\*: .*$", page, re.M)
    cells = [row.split(" | ")[2] for row in rows]  # line | claim | true value | verdict: how
    assert len(cells) == len(audit_claims(text))
    # a vector's entries are typeset apart, between brackets of text: [$a$, $b$]
    outside = [_outside_math(cell).replace("[", "").replace("]", "") for cell in cells]
    assert not [text for text in outside if _PLAIN_OUTSIDE.search(text)]
    assert sum("$" in cell for cell in cells) == sum(c.value is not None for c in audit_claims(text))


def test_the_text_report_shows_claims_as_unicode_math(cli):
    """The terminal's claim column is the module's formula in Unicode (e^(-∞) = 0, rows of a
    matrix), not the audit's own reading of it (exp(-oo), beginbmatrix)."""
    code, out, _ = cli("audit", str(MODULE))
    assert code == 0
    claims = out.split("Answer keys")[0]
    assert "e^(-∞) = 0" in claims and "[[0, -∞, -∞], [0, 0, -∞], [0, 0, 0]]" in claims
    for syntax in ("⟨", "⟩", "exp(", "-oo", "begin", "\\frac", "**"):
        assert syntax not in claims, syntax
    keys = out.split("Answer keys")[1]
    assert "(e² + 11)/(2 + e²)" in keys and "\\frac" not in keys
    # the rules' math (between dollars in --json, typeset on the page) is Unicode here too
    assert "$" not in out and "Var(q · k)/dₖ" in claims and "σ = √dₖ" in claims


# -- rules on text of our own ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "verdict", "value"),
    [
        ("Here $e^{1} \\approx 2.718$ by definition.\n", "certified", "2.718"),
        ("Here $e^{1} \\approx 2.781$ by definition.\n", "wrong", "2.718"),
        ("A sum: $2 + 2 = 5$.\n", "wrong", "4"),
        ("About $e^{10}$ is about 22 thousand.\n", "certified", "22026"),
        ("About $e^{10}$ is about 220 thousand.\n", "wrong", "22026"),
        (
            "**Exercise (apply).** For $d_{\\text{model}} = 1024$, when does the quadratic cost term win?\n\n"
            "*Solution:* When $N > 2048$.\n",
            "certified",
            "N > 2048",
        ),
        (
            "**Exercise (apply).** For $d_{\\text{model}} = 1024$, when does the quadratic cost term win?\n\n"
            "*Solution:* When $N > 1024$.\n",
            "wrong",
            "N > 2048",
        ),
        ("For $N > 1$ tokens a mask matters.\n", "unchecked", None),
        # softmax of a row of scores, inequalities between numbers, a sum of weights in words
        ("Equal scores: $\\mathrm{softmax}([0, 0]) = [0.5, 0.5]$.\n", "certified", "[0.5, 0.5]"),
        ("Equal scores: $\\mathrm{softmax}([0, 0]) = [0.4, 0.6]$.\n", "wrong", "[0.5, 0.5]"),
        ("So $\\mathrm{softmax}([2, 0]) \\approx [0.881, 0.119]$.\n", "certified", "0.8807971"),
        ("Large: $e^{20} > 10^{8}$.\n", "certified", "e^20"),
        ("Large: $e^{20} > 10^{9}$.\n", "wrong", "< 1000000000"),
        ("Close: $\\sqrt{2} < 1.4142$.\n", "wrong", "√2 ≈ 1.414214 > 1.4142"),
        ("Close: $e^{3} \\ge 20.08$.\n", "certified", "e^3"),
        ("Softmax gives weights that sum to 1 in a row.\n", "certified", "1"),
        ("Softmax gives weights that sum to 1.1 in a row.\n", "wrong", "1"),
        # decimals are read exactly as written: no rounding leeway of their own
        ("Note that $0.1 + 0.2 = 0.4$ here.\n", "wrong", "0.3"),
        ("Note that $0.1 + 0.2 = 0.3$ here.\n", "certified", "0.3"),
        ("Note that $0.5 \\cdot 4 = 2.2$ here.\n", "wrong", "2"),
        ("Note that $e^{0.5} \\approx 1.60$ here.\n", "wrong", "1.648721"),
        ("Note that $\\frac{1}{0.3} = 3.0$ here.\n", "wrong", "10/3"),
        ("Note that $\\ln 2 \\approx 0.693$ here.\n", "certified", "ln(2)"),
        ("Note that $\\ln 2 \\approx 0.639$ here.\n", "wrong", "0.6931472"),
        # exact identities SymPy's simplify leaves alone are proved, not called wrong
        ("Note that $\\frac{\\ln 8}{\\ln 2} = 3$ here.\n", "certified", "ln(8)/ln(2)"),
        ("Note that $(\\sqrt{2}+1)(\\sqrt{2}-1) = 1$ here.\n", "certified", "√2"),
        ("Note that $\\frac{\\ln 9}{\\ln 3} = 3$ here.\n", "wrong", "ln(9)/ln(3)"),
        ("Each layer costs $5 N d_{\\text{model}}^2$ multiply-adds.\n", "wrong", "4*N*d_model^2"),
    ],
)
def test_rules_on_our_own_text(text, verdict, value):
    """Arithmetic, figures in words and the crossover on sentences of our own."""
    claims = audit_claims(text)
    assert [c.verdict for c in claims] == [verdict]
    if value is None:
        assert claims[0].value is None and claims[0].rule
    else:
        assert value in claims[0].value


@pytest.mark.parametrize(
    ("later", "verdict"),
    [
        (r"$e^{1.414} \approx 4.113$", "certified"),  # e^√2 = 4.11325; as written 4.11237
        (r"$e^{1.414} \approx 4.112$", "certified"),  # as written
        (r"$e^{1.414} \approx 4.114$", "wrong"),
        (r"$1.414 + 1 = 2.414$", "certified"),
        (r"$1.414 \cdot 1.414 = 2$", "certified"),  # √2 · √2, as a reader takes it
        (r"$1.414 \cdot 1.414 = 2.1$", "wrong"),
    ],
)
def test_a_figure_certified_before_stands_for_its_exact_value(later, verdict):
    """After √2 ≈ 1.414 is certified, 1.414 in a later formula of the same section may be read
    as √2 (and the rule says so); without that earlier claim it is read as written."""
    text = "So $\\sqrt{2} \\approx 1.414$ here.\n\nAnd " + later + " there.\n"
    claims = audit_claims(text)
    assert [c.verdict for c in claims] == ["certified", verdict]
    alone = audit_claims("And " + later + " there.\n")
    if "4.113" in later or "= 2$" in later:
        assert [c.verdict for c in alone] == ["wrong"]  # read as written, 1.414 is not √2
        assert r"reading 1.414 as $\sqrt{2}$" in claims[1].rule  # and the rule says how it was read


def test_a_figure_is_read_as_its_value_only_after_it_and_in_its_own_section():
    """The reading is local: a later section, or a line before the figure was certified, reads
    the decimal as written; a later statement of the same figure for another value is the one
    read after it, and does not undo the earlier reading before it."""
    later_section = "So $\\sqrt{2} \\approx 1.414$.\n\n## Costs\n\nAnd $1.414 \\cdot 1.414 = 2$.\n"
    assert [c.verdict for c in audit_claims(later_section)] == ["certified", "wrong"]
    before = "And $1.414 \\cdot 1.414 = 2$.\n\nSo $\\sqrt{2} \\approx 1.414$.\n"
    assert [c.verdict for c in audit_claims(before)] == ["wrong", "certified"]
    restated = (
        "So $\\sqrt{2} \\approx 1.414$, and $e^{1.414} \\approx 4.113$.\n\n"
        "Also $\\ln 4.112 \\approx 1.414$, and $1.414 \\cdot 1 = 1.414$.\n"
    )
    assert [c.verdict for c in audit_claims(restated)] == ["certified"] * 4


def test_a_true_remark_elsewhere_does_not_change_the_worked_example(module_text):
    """The review's case: a true sentence in the introduction stating 1.414 for another value
    leaves line 68 (e^{1.414} = 4.113, read as e^√2) certified."""
    lines = module_text.split("\n")
    intro = line_of(module_text, "Below, attention is computed by hand") - 1  # 0-based
    lines[intro] = r"A side remark: $\ln 4.112 \approx 1.414$."
    claims = audit_claims("\n".join(lines))
    assert not [c for c in claims if c.verdict == "wrong"]
    lines[intro] = r"A learning rate of $1.414$ doubled is $2 \cdot 1.414 = 2.8284$."
    assert {c.line for c in audit_claims("\n".join(lines)) if c.verdict == "wrong"} == {intro + 1}


#: Wrong claims planted in a copy of the module: (text as the module has it, the planted text).
#: Each is flagged at its own line and nothing else is; the copy is made here, from the module.
PLANTS = [
    (r"\mathbf{q}_1 \cdot \mathbf{k}_1 = -9 - 9 = -18", r"\mathbf{q}_1 \cdot \mathbf{k}_1 = -9 - 9 = -16"),
    (r"$e^{12.7} \approx 330{,}000$", r"$e^{12.7} \approx 3.6 \times 10^{5}$"),
    (
        r"= \mathbb{E}[q_i^2] \mathbb{E}[k_i^2] - 0 = (1)(1) = 1",
        r"= \mathbb{E}[q_i^2] \mathbb{E}[k_i^2] - 0 = (1)(2) = 1",
    ),
    (r"= \sum_{i=1}^{d_k} 1 = d_k", r"= \sum_{i=1}^{d_k} 2 = d_k"),
    (
        r"\sigma_z = \sqrt{\operatorname{Var}(z)} = \sqrt{d_k}",
        r"\sigma_z = \sqrt{\operatorname{Var}(z)} = d_k",
    ),
    (r"the typical score thus comes to about $\pm 8$", r"the typical score thus comes to about $\pm 9$"),
    (  # the middle term: 1/sqrt(d_k) where 1/d_k belongs, the stated end still 1
        r"\right) = \frac{1}{d_k} \operatorname{Var}(z) = \frac{d_k}{d_k} = 1",
        r"\right) = \frac{1}{\sqrt{d_k}} \operatorname{Var}(z) = \frac{d_k}{d_k} = 1",
    ),
    (r"$e^{20}$ is about 500 million", r"$e^{20}$ is about 400 million"),
    (r"$7.389 + 1 + 1 = 9.389$", r"$7.389 + 1 + 1 = 9.489$"),
    (r"$\operatorname{Var}(z) = d_k \cdot 1 = d_k$", r"$\operatorname{Var}(z) = d_k \cdot 1 = 2 d_k$"),
    (
        r"$h \cdot N^2 \cdot d_k = N^2 \cdot d_{\text{model}}$",
        r"$h \cdot N^2 \cdot d_k = N \cdot d_{\text{model}}$",
    ),
    (r"$e^2 = 7.389$", r"$e^2 = 7.398$"),
]


def test_a_planted_module_is_flagged_at_every_planted_line_and_nowhere_else(module_text):
    """Twelve wrong claims planted in a copy of the module, one of them a chain's middle term
    beside a right final figure: each is reported wrong at its line, and no other line is."""
    text, planted = module_text, set()
    for before, after in PLANTS:
        assert text.count(before) == 1, before
        planted.add(text[: text.index(before)].count("\n") + 1)
        text = text.replace(before, after)
    assert len(PLANTS) == 12 and len(planted) == 11  # two of the twelve share a line
    wrong = {c.line for c in audit_claims(text) if c.verdict == "wrong"}
    assert wrong == planted


def test_a_stated_identity_is_read_and_used(tmp_path):
    """sigma_z = sqrt(Var(z)) is checked, then defines sigma_z for later claims at d_k = 64."""
    doc = (
        "# T\n\nLet the entries of $q$ and $k$ be independent with mean 0 and variance 1.\n\n"
        r"The spread is $\sigma_z = \sqrt{\operatorname{Var}(z)} = \sqrt{d_k}$."
        "\n\n"
        r"With $d_k = 64$ it is $\sigma_z = 8$."
        "\n\n"
        r"With $d_k = 64$ it is $\sigma_z = 9$."
        "\n"
    )
    verdicts = {(c.line, c.verdict) for c in audit_claims(doc)}
    assert {(5, "certified"), (7, "certified"), (9, "wrong")} <= verdicts


@pytest.mark.parametrize(
    ("formula", "verdict"),
    [
        (r"$e^{12.7} \approx 3.3\times10^5$", "certified"),
        (r"$2^{-10} \approx 9.8 \times 10^{-4}$", "certified"),
        (r"$e^{20} \approx 4.85 \cdot 10^{8}$", "certified"),
        (r"$e^{20} \approx 4.95 \cdot 10^{8}$", "wrong"),
        (r"$\frac{7}{20}$ is 35 percent", "certified"),
        (r"$\frac{1}{4}$ is 25 per cent", "certified"),
        (r"$\frac{1}{4}$ is 20 percent", "wrong"),
        (r"$e^{20}$ is about 485 million", "certified"),
        (r"$e^{21}$ is about 1.3 billion", "certified"),
    ],
)
def test_approximations_and_number_words(formula, verdict):
    """\\approx in scientific notation is a figure to its stated digits; million, billion,
    percent and per cent are read as the numbers they name."""
    claims = audit_claims(f"# T\n\nHere {formula}.\n")
    assert [c.verdict for c in claims] == [verdict], claims


def test_a_costly_module_is_refused_within_the_limits(cli, tmp_path, monkeypatch):
    """The audit runs in a limited worker: past its CPU budget (a safety net: a time limit, not a
    measure of the module) it ends with one line, exit 75: not audited, try again."""
    from symattn.cli import commands
    from symattn.grading.audit import rules

    def spin(self, line):  # a rule that never finishes, as a hostile module could make one
        while True:
            pass

    monkeypatch.setattr(rules.Auditor, "_line", spin)
    monkeypatch.setattr(commands, "AUDIT_CPU_SECONDS", 1)
    path = tmp_path / "m.md"
    path.write_text("# M\n\nWe have $2 + 2 = 4$.\n", encoding="utf-8")
    code, out, err = cli("audit", str(path))
    assert code == 75 and out == ""
    assert err.startswith("symattn: ") and "ran out of time" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("formula", "reason"),
    [("+".join(["1"] * 300) + " = 301", "too long"), ("(" * 500 + "1" + ")" * 500 + " = 2", "too long")],
)
def test_a_formula_too_large_to_read_is_reported_unchecked_not_dropped(formula, reason):
    """A claim the parser refuses for its size is still a claim: unchecked, with the reason."""
    claims = audit_claims(f"Note that ${formula}$.\n")
    assert [c.verdict for c in claims] == ["unchecked"]
    assert reason in claims[0].rule


@pytest.mark.parametrize(
    ("written", "verdict"),
    [
        (r"$N/2 > d_{\text{model}}$", "certified"),
        (r"$N - 2d_{\text{model}} > 0$", "certified"),
        (r"$\frac{N}{d_{\text{model}}} > 2$", "certified"),
        (r"$2 d_{\text{model}} < N$", "certified"),
        (r"$N \geq 2d_{\text{model}}$", "wrong"),  # the terms are equal at N = 2 d_model
        (r"$N > d_{\text{model}}$", "wrong"),
        (r"$N/4 > d_{\text{model}}$", "wrong"),
    ],
)
def test_the_crossover_in_any_equivalent_form(module_text, written, verdict):
    """The crossover N > 2 d_model, written another way: judged by solving for N."""
    old = r"that is, $N > 2d_{\text{model}}$"
    line = line_of(module_text, old)
    claims = audit_claims(module_text.replace(old, "that is, " + written))
    assert [c.verdict for c in claims if c.line == line][-1] == verdict


def test_a_formula_after_that_is_a_claim_and_a_rule_that_gives_up_says_why_in_words():
    """'note that ⟨...⟩' is not a premise 'at ⟨d_k = 64⟩' (the word ends in 'at'); a claim the
    rules cannot evaluate is unchecked with a reason in words, never a Python class name."""
    claims = audit_claims("Note that $2 + 2 = 5$ here.\n")
    assert [c.verdict for c in claims] == ["wrong"]
    claims = audit_claims("Note that $\\sqrt{-4} = 2$ here.\n")
    assert [c.verdict for c in claims] == ["unchecked"]
    assert "not a finite real number" in claims[0].rule and "Error" not in claims[0].rule


def test_each_exercise_without_a_key_says_how_it_is_checked(module_text):
    """No exercise that `check` judges is called "not checkable": a derivation (ex6.3, ex6.7) is
    checked step by step, ex6.6's formula is the computed answer its missing key is compared
    with; only ex6.1, a question in words, has nothing to check."""
    from symattn.grading.answers.formula import EXPECTED_LATEX

    rows = {r.exercise.id: r for r in audit_text(module_text)}
    assert rows["ex6.1"].status == "not checkable"
    assert rows["ex6.3"].status == rows["ex6.7"].status == "checked step by step"
    assert (rows["ex6.6"].status, rows["ex6.6"].computed) == ("no key", EXPECTED_LATEX)
