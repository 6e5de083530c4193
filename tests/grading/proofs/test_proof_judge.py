"""Learners' derivations judged step by step: the bank of derivations, output and exit codes.

Each file in tests/data/learner_proofs/ID/ states on its first line what a teacher expects:
``% expect: VERDICT [STATUS LINE]``, the verdict and, for a derivation that is not correct,
the status and file line of the first step that is not ok. Correct ones take different routes;
wrong ones have an error planted at a known line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sampled import kept, sampled

from symattn.grading.proofs.proof_judge import check_derivation

BANK = Path(__file__).parents[2] / "data" / "learner_proofs"
FILES = sorted(BANK.glob("ex6.*/*.tex"))


def expectation(path: Path) -> list[str]:
    head = path.read_text(encoding="utf-8").lstrip("\ufeff").splitlines()[0]
    assert head.startswith("% expect: "), path
    return head.removeprefix("% expect: ").split()


def test_bank_has_thirty_derivations_per_exercise():
    for ex in ("ex6.3", "ex6.7"):
        files = list((BANK / ex).glob("*.tex"))
        assert len(files) >= 30
        kinds = {expectation(f)[0] for f in files}
        assert {"correct", "incorrect", "invalid"} <= kinds


def test_the_second_runs_sample_has_every_exercise_and_every_verdict():
    """The learner proofs CI's second run checks (one in four, tests/sampled.py) include both
    proof exercises and each verdict of each."""
    sample = [f for f in FILES if kept(_IN_GROUP[f], 4)]
    wanted = {(f.parent.name, expectation(f)[0]) for f in FILES}
    assert {(f.parent.name, expectation(f)[0]) for f in sample} == wanted
    assert len(wanted) == 6


def _places_in_groups(files: list[Path]) -> dict[Path, int]:
    """Each file's place among the files of its exercise and verdict, so that a sample of one in
    four takes some of every group, whatever the groups' sizes."""
    seen: dict[tuple[str, str], int] = {}
    out = {}
    for f in files:
        group = (f.parent.name, expectation(f)[0])
        out[f] = seen.get(group, 0)
        seen[group] = out[f] + 1
    return out


_IN_GROUP = _places_in_groups(FILES)


# one in four of each group in CI's second run too
@pytest.mark.parametrize(
    "path",
    [
        pytest.param(
            f,
            id=f"{f.parent.name}/{f.stem}",
            marks=() if kept(_IN_GROUP[f], 4) else pytest.mark.exhaustive,
        )
        for f in FILES
    ],
)
def test_derivation_bank(path, monkeypatch):
    """The verdict, and the first step that is not ok, are those the file states.

    No file of the bank is meant to run out of time: the whole derivation's CPU budget is
    raised here, so a busy machine (the CI's two test workers, each forking step workers from a
    large process) does not turn a verdict into "too costly". The budgets themselves are
    tested with the command's limits."""
    import symattn.grading.proofs.proof_judge as proof_judge

    monkeypatch.setattr(proof_judge, "TOTAL_SECONDS", 4 * proof_judge.TOTAL_SECONDS)
    monkeypatch.setattr(proof_judge, "WALL_SECONDS", 4 * proof_judge.WALL_SECONDS)
    expected = expectation(path)
    verdict = check_derivation(path.parent.name, path.read_text(encoding="utf-8"))
    assert verdict.verdict == expected[0], verdict.feedback
    bad = [s for s in verdict.steps if s.status != "ok"]
    if len(expected) > 1:
        assert bad, verdict.feedback
        assert [bad[0].status, str(bad[0].line)] == expected[1:], bad[0].feedback
    else:
        assert not bad, bad[0].feedback
    if expected[0] == "incorrect" and not bad:
        assert verdict.feedback.startswith("incorrect: does not reach ")


@pytest.mark.parametrize(
    ("path", "slip"),
    [
        ("ex6.3/w01_scaling_rule.tex", r"$\operatorname{Var}(aX) = a^2 \operatorname{Var}(X)$"),
        ("ex6.3/w02_square_of_mean.tex", r"$\operatorname{Var}(X) + \mathbb{E}[X]^2$"),
        ("ex6.3/w03_dropped_independence.tex", "needs independence"),
        ("ex6.7/w01_transposed_permutation.tex", "$P$ stays on the left"),
        ("ex6.7/w02_dropped_pt.tex", "reorders both"),
        ("ex6.7/w03_transpose_not_reversed.tex", "reverses the order"),
        ("ex6.7/w15_cross_rows_permutation_for_columns.tex", r"P_1 \operatorname{softmax}(S) P_1^\top$"),
        ("ex6.7/w16_cross_different_permutations_cancel.tex", r"$P_1$ and $P_2$ exchanged"),
        ("ex6.7/w17_cross_output_by_key_permutation.tex", r"$P_1$ and $P_2$ exchanged"),
    ],
)
def test_planted_slips_are_named(path, slip):
    """The feedback on the first wrong line names the slip and gives a counterexample."""
    p = BANK / path
    verdict = check_derivation(p.parent.name, p.read_text(encoding="utf-8"))
    wrong = next(s for s in verdict.steps if s.status == "wrong")
    assert slip in wrong.feedback
    assert "the two sides differ at " in wrong.feedback


@pytest.mark.parametrize("later", ["= @@@", r"= \\unknowncommand{d_k}"])
def test_a_wrong_step_before_an_unreadable_line_is_the_verdict(later):
    """Issue 48: a line the checker cannot read after a false one does not hide the false one."""
    text = "\\operatorname{Var}(z) = \\sum_{i=1}^{d_k} \\operatorname{Var}(q_i k_i)\n= 2 d_k\n" + later + "\n"
    verdict = check_derivation("ex6.3", text)
    assert verdict.verdict == "incorrect" and verdict.feedback.startswith("line 2 is wrong")
    # the unreadable line is still reported on its own line
    assert [s.status for s in verdict.steps][-1] == "invalid"
    # and without a false step before it, it makes the derivation invalid
    fine = check_derivation("ex6.3", text.replace("= 2 d_k", "= d_k"))
    assert fine.verdict == "invalid"


@pytest.mark.parametrize(
    ("step", "slip"),
    [
        # issue 48: three slips of ex6.7, each named for what happened (none is "dropped")
        (r"(PQ)(PK)^\top = Q K^\top P P^\top", "put on the other side"),
        (r"(PQ)(PK)^\top = P^\top Q K^\top P", "written for"),
        (r"P \operatorname{softmax}(S) P^\top P V = \operatorname{softmax}(S) P P^\top P V", "commuted"),
        # a mask kept in place while the tokens move: P M Pᵀ ≠ M, with the causal mask shown
        (
            r"\operatorname{softmax}(P S P^\top + M) P V = P \operatorname{softmax}(S + M) P^\top P V",
            "the mask not reordered",
        ),
        # cross-attention: the two permutations confused, each slip named for what happened
        (
            r"\operatorname{softmax}(P_1 S P_2^\top) P_2 V = P_1 \operatorname{softmax}(S) P_1^\top P_2 V",
            r"P_1 \operatorname{softmax}(S) P_1^\top$",
        ),
        (
            r"P_1 \operatorname{softmax}(S) P_1^\top P_2 V = P_1 \operatorname{softmax}(S) V",
            r"$P_2^\top P_1 = I$",
        ),
        (
            r"P_1 \operatorname{softmax}(S) P_2^\top P_2 V = P_1 \operatorname{softmax}(S) P_1^\top P_2 V",
            r"$P_1$ and $P_2$ exchanged",
        ),
        (
            r"\operatorname{Attention}(P_1 Q, P_2 K, P_2 V) = P_2 \operatorname{Attention}(Q, K, V)",
            "exchanged",
        ),
    ],
)
def test_ex67_slips_are_named_apart(step, slip):
    verdict = check_derivation("ex6.7", step + "\n")
    (bad,) = [s for s in verdict.steps if s.status != "ok"]
    assert bad.status == "wrong" and slip in bad.slip and "dropped" not in bad.feedback


def test_cross_attention_is_proved_and_gives_the_exercise_at_p1_equal_p2():
    """Issue 48: Attention(P_1 Q, P_2 K, P_2 V) = P_1 Attention(Q, K, V) proved with two
    permutations establishes the exercise (its case P_1 = P_2 = P), and the verdict says which
    statement was shown; a lemma about P_1 and P_2 serves for P, but only once it is proved."""
    chain = (BANK / "ex6.7/c18_cross_attention.tex").read_text(encoding="utf-8")
    verdict = check_derivation("ex6.7", chain)
    assert verdict.verdict == "correct"
    assert r"P_1 \operatorname{Attention}(Q, K, V)$, which at $P_1 = P_2 = P$ is" in verdict.feedback
    lemma = (BANK / "ex6.7/c19_cross_lemma_then_case.tex").read_text(encoding="utf-8")
    verdict = check_derivation("ex6.7", lemma)
    assert verdict.verdict == "correct", verdict.feedback
    assert any(s.rule.startswith("the result of line") for s in verdict.steps)
    # "the case $P_1 = P_2 = P$" chooses the case: it is not read as a step
    assert all("P_1 = P_2" not in s.latex for s in verdict.steps)
    # the lemma stated but its proof left out: the case taken from it is not justified
    unproved = lemma.split("*Proof.*")[0] + lemma.split("Self-attention")[1]
    verdict = check_derivation("ex6.7", unproved)
    assert verdict.verdict == "incorrect"


def test_chain_reuses_an_earlier_result():
    """A later chain may use what an earlier one proved, and says so."""
    p = BANK / "ex6.3" / "c01_module_solution.tex"
    verdict = check_derivation("ex6.3", p.read_text(encoding="utf-8"))
    assert verdict.steps[-1].rule.startswith("the result of line ")


def test_cli_text_marks_each_line(cli, tmp_path):
    """Text output: a mark and the rule per line, feedback on the first wrong line, exit 1."""
    code, out, err = cli("check", "ex6.3", "--steps", str(BANK / "ex6.3" / "w01_scaling_rule.tex"))
    assert code == 1 and err == ""
    lines = out.splitlines()
    assert lines[0] == "ex6.3, checked step by step:"
    assert lines[1].startswith("✓ line 3: ") and lines[2] == "    variances of independent terms add"
    wrong = lines.index(next(x for x in lines if x.startswith("✗ line 6: ")))
    assert lines[wrong + 1].startswith("    wrong: a constant comes out of a variance squared")
    assert lines[-1].startswith("Incorrect: line 6 is wrong: ")


def test_cli_text_gives_every_line_that_is_not_ok_its_own_reason(cli, tmp_path):
    """Two wrong lines and an unjustified one: each is told why, in text and in JSON."""
    proof = tmp_path / "p.tex"
    proof.write_text(
        "(PX)^\\top = X^\\top P\n(AB)^\\top = A^\\top B^\\top\n"
        "\\operatorname{Attention}(PX) = P \\operatorname{Attention}(X)\n",
        encoding="utf-8",
    )
    code, out, _ = cli("check", "ex6.7", "--steps", str(proof))
    assert code == 1
    lines = out.splitlines()
    for n, reason in (
        (1, "    wrong: P and Pᵀ are swapped"),  # (PX)ᵀ is Xᵀ Pᵀ: the slip named on the expanded side
        (2, "    wrong: the transpose of a product"),
    ):
        head = lines.index(next(x for x in lines if x.startswith(f"✗ line {n}: ")))
        assert lines[head + 1].startswith(reason), lines[head + 1]
    head = lines.index(next(x for x in lines if x.startswith("? line 3: ")))
    assert lines[head + 1].startswith("    unjustified") and ": " in lines[head + 1]
    code, out, _ = cli("check", "ex6.7", "--steps", str(proof), "--json")
    steps = json.loads(out)["steps"]
    assert [s["status"] for s in steps] == ["wrong", "wrong", "unjustified"]
    assert all(s["feedback"] for s in steps)


def test_cli_json(cli):
    """--json gives id, verdict, steps (line, latex, status, rule, feedback, slip), feedback, and
    the derivation's mistake and first faulty line (empty for a correct one); exit 0."""
    code, out, _ = cli("check", "ex6.7", "--steps", str(BANK / "ex6.7" / "c01_projections.tex"), "--json")
    doc = json.loads(out)
    assert code == 0
    assert set(doc) == {"id", "verdict", "steps", "feedback", "mistake", "given"}
    assert doc["id"] == "ex6.7" and doc["verdict"] == "correct"
    assert (doc["mistake"], doc["given"]) == ("", "")
    assert [s["line"] for s in doc["steps"]] == [3, 4, 5, 6, 7]
    assert set(doc["steps"][0]) == {"line", "latex", "status", "rule", "feedback", "slip"}
    assert doc["steps"][0]["rule"] == "definition of attention with projections"


@pytest.mark.parametrize(
    ("proof", "mistake", "line"),
    [
        # a named slip of a rewrite
        ("ex6.3/w01_scaling_rule.tex", r"$\operatorname{Var}(aX) = a \operatorname{Var}(X)$", 6),
        ("ex6.7/w03_transpose_not_reversed.tex", r"$(AB)^\top = A^\top B^\top$", None),  # a slip of shapes
        ("ex6.3/w10_shifted_range.tex", "index range shifted", 3),  # named by looking at the whole step
        # true but unjustified: its rule
        ("ex6.3/u01_shift.tex", r"$\operatorname{Var}(X + c) = \operatorname{Var}(X)$", 3),
        ("ex6.3/u02_one_line.tex", "circular", 4),
        ("ex6.3/s01_stops_short.tex", "stops short of the goal", None),  # every step right
        ("ex6.3/v02_unknown_symbol.tex", "", 2),  # unreadable: no slip
    ],
)
def test_a_derivations_mistake_is_its_first_faulty_step(cli, proof, mistake, line):
    """What grade's summary counts for a derivation: the first faulty line's named slip (also on
    that step, as its slip), else its rule, else the kind of fault."""
    _, out, _ = cli("check", proof.split("/")[0], "--steps", str(BANK / proof), "--json")
    doc = json.loads(out)
    assert doc["mistake"] == mistake
    first = next((s for s in doc["steps"] if s["status"] != "ok"), None)
    if line is not None:
        assert first["line"] == line and doc["given"] == f"line {line}: {first['latex']}"
    if first is not None and first["status"] == "wrong":
        assert first["slip"] == mistake and f"(the slip: {mistake})" in first["feedback"]


def test_cli_reads_stdin(cli, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(r"\operatorname{Var}(x) = 1"))
    code, out, _ = cli("check", "ex6.3", "--steps", "-", "--json")
    assert code == 2 and json.loads(out)["verdict"] == "invalid"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "ex6.2", "--steps", "x.tex"], "not checked step by step"),
        (["check", "ex6.3", "--steps", "/nonexistent/proof.tex"], "cannot read"),
        (["check", "ex6.3", "1", "--steps", "x.tex"], "not both"),
        (["check", "ex6.3"], "--steps FILE"),
    ],
)
def test_cli_bad_input(cli, argv, message):
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and message in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("exercise_id", ["ex6.3", "ex6.7"])
def test_model_solutions_pass_and_the_docs_slips_fail(exercise_id):
    """The module's model solutions, as learner files, are correct; the docs' slips are not."""
    from symattn.grading.proofs.examples import EXAMPLES

    assert check_derivation(exercise_id, EXAMPLES[exercise_id]["correct"]).verdict == "correct"
    wrong = check_derivation(exercise_id, EXAMPLES[exercise_id]["wrong"])
    assert wrong.verdict == "incorrect"
    assert next(s for s in wrong.steps if s.status != "ok").status == "wrong"


@pytest.mark.pinned  # SymPy's printing, pasted into the guide
def test_guide_example_is_real_output(cli, tmp_path):
    """The guide's step-by-step example (exercises page) is what the command prints for the
    docs' slip."""
    import re

    from symattn.grading.proofs.examples import EXAMPLES

    guide = Path(__file__).resolve().parents[3] / "symattn" / "present" / "guide" / "exercises.md"
    page = guide.read_text(encoding="utf-8")
    block = re.search(r"<!-- steps:start -->\n```text\n\$ [^\n]*\n(.*?)```\n<!-- steps:end -->", page, re.S)
    assert block, "the guide's steps example markers are missing"
    proof = tmp_path / "proof.tex"
    proof.write_text(EXAMPLES["ex6.3"]["wrong"], encoding="utf-8")
    code, out, _ = cli("check", "ex6.3", "--steps", str(proof))
    assert code == 1
    assert out == block.group(1), "the guide's steps example is stale: paste the command's output"


def test_where_python_cannot_fork_the_page_not_the_budget_bounds_a_derivation(monkeypatch):
    """In a browser's Python (no fork) the steps run in-process and the derivation's own CPU and
    wall budgets do not apply: the page's Web Worker is stopped at its own deadline, so a slower
    Python still gets the command line's verdict."""
    from symattn.grading import worker
    from symattn.grading.proofs import proof_judge

    monkeypatch.setattr(worker, "CAN_FORK", False)
    monkeypatch.setattr(proof_judge, "WALL_SECONDS", 0.0)
    monkeypatch.setattr(proof_judge, "TOTAL_SECONDS", 0.0)
    text = (BANK / "ex6.7" / "c02_module_solution.tex").read_text(encoding="utf-8")
    assert check_derivation("ex6.7", text).verdict == "correct"


def test_a_conclusion_that_runs_out_of_time_is_no_verdict_on_the_proof(monkeypatch):
    """On a busy machine the check that the steps reach the goal may run out of its budget:
    the proof is then not judged (invalid, "too costly"), never "does not reach" (a CI run
    marked a correct proof incorrect this way)."""
    import symattn.grading.proofs.proof_judge as proof_judge
    from symattn.grading.worker import WorkerError

    def out_of_time(*args):
        raise WorkerError("too costly to check: the derivation took more than 3.5 s")

    monkeypatch.setattr(proof_judge, "_reaches_goal", out_of_time)
    path = next(p for p in FILES if p.parent.name == "ex6.7" and p.stem == "c11_general_rule_first")
    verdict = check_derivation("ex6.7", path.read_text(encoding="utf-8"), isolate=False)
    assert verdict.verdict == "invalid"
    assert verdict.feedback == (
        "the conclusion cannot be checked: too costly to check: the derivation took more than 3.5 s"
    )


def test_a_steps_file_that_is_not_text_is_refused_in_one_line(cli, tmp_path):
    """A binary file or one holding NUL bytes given to --steps: one line, exit 2, as `audit`
    says it (Python's codec message never shows)."""
    binary = tmp_path / "binary.tex"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    code, _, err = cli("check", "ex6.3", "--steps", str(binary))
    assert code == 2 and err.count("\n") == 1 and "codec" not in err
    assert err.endswith(f"cannot read {binary}: not UTF-8 text (a binary file?)\n")
    nul = tmp_path / "nul.tex"
    nul.write_bytes(b"z = 1\x00\n")
    code, _, err = cli("check", "ex6.3", "--steps", str(nul))
    assert code == 2 and err.endswith("not a text file (it holds NUL bytes)\n")


LAYOUTS = sorted((BANK.parent / "learner_proofs_layouts").glob("ex6.*/*.tex"))


def test_the_layouts_bank_writes_every_derivation_of_the_bank_again():
    """tests/data/make_layout_proofs.py: each file but the hostile ones and those testing line
    ends, in the lone-first-line layout and one of the numbered ones (issue 48)."""
    stems = {f"{p.parent.name}/{p.stem}" for p in FILES if not p.stem.startswith("v")}
    assert {f"{p.parent.name}/{p.stem.rsplit('_', 1)[0]}" for p in LAYOUTS} <= stems
    assert sum(p.stem.endswith("_lone") for p in LAYOUTS) >= 40
    assert {p.stem.rsplit("_", 1)[1] for p in LAYOUTS} == {"lone", "numbered", "tagged"}


# one in four of them in CI's second run too
@pytest.mark.parametrize("path", sampled(LAYOUTS, 4, lambda _, p: f"{p.parent.name}/{p.stem}"))
def test_derivation_bank_in_other_layouts(path, monkeypatch):
    """A layout changes no verdict: the same verdict, the first bad step on its moved line."""
    test_derivation_bank(path, monkeypatch)


@pytest.mark.parametrize(
    ("step", "status"),
    [
        # issue 48: a sum with whole-number bounds is its terms written out
        (r"\operatorname{Var}(\sum_{i=1}^{2} q_i k_i) = \operatorname{Var}(q_1 k_1 + q_2 k_2)", "ok"),
        # the same value, but not the same terms: no rule says so
        (r"\mathbb{V}(\sum_{i=1}^{2} q_i k_i) = \mathbb{V}(q_1 k_1 + q_3 k_3)", "unjustified"),
        # Cov with two arguments, E[XY] - E[X]E[Y], and Var of a sum by covariances
        (
            r"\operatorname{Var}(q_1 k_1 + q_2 k_2) = \operatorname{Var}(q_1 k_1)"
            r" + \operatorname{Var}(q_2 k_2) + 2\operatorname{Cov}(q_1 k_1, q_2 k_2)",
            "ok",
        ),
        (r"\operatorname{Cov}(q_1 k_1, q_2 k_2) = 0", "ok"),
        (r"\operatorname{Cov}(q_1 k_1, q_1 k_1) = 2", "wrong"),  # it is Var(q_1 k_1) = 1
    ],
)
def test_sums_written_out_and_covariances(step, status):
    (result,) = check_derivation("ex6.3", step + "\n").steps
    assert result.status == status, result.feedback


def test_cov_takes_two_arguments():
    (result,) = check_derivation("ex6.3", "\\operatorname{Cov}(q_1 k_1) = 0\n").steps
    assert result.status == "invalid" and "takes two arguments" in result.feedback


def test_a_claim_stated_first_is_proved_by_the_lines_after_it():
    """ "**Theorem.** $A = B$." then its proof: the statement is ok once the lines after it
    connect its sides, and unjustified (circular) where they never do."""
    statement = "**Theorem.** $\\operatorname{Attention}(PX) = P \\operatorname{Attention}(X)$.\n"
    proof = (BANK / "ex6.7" / "c02_module_solution.tex").read_text(encoding="utf-8")
    verdict = check_derivation("ex6.7", statement + proof)
    assert verdict.verdict == "correct"
    assert verdict.steps[0].status == "ok" and verdict.steps[0].rule.startswith("stated, then proved")
    alone = check_derivation("ex6.7", statement + "P^\\top P X = X\n")
    assert alone.verdict == "incorrect" and alone.steps[0].status == "unjustified"
    # the same statement as a sentence that does not announce it is a step like any other: circular
    unlabelled = check_derivation("ex6.7", statement.replace("**Theorem.** ", "From this we get ") + proof)
    assert unlabelled.steps[0].status == "unjustified"


def test_a_name_on_both_sides_is_a_claim_not_a_definition():
    """ "S = P S P^T" would define S by itself: it is checked as a claim, and is false."""
    verdict = check_derivation("ex6.7", "S = P S P^\\top\n")
    assert verdict.steps[0].status == "wrong"


def test_a_sentence_that_states_the_goal_is_a_claim_and_one_that_denies_a_formula_is_prose():
    proof = (BANK / "ex6.7" / "c02_module_solution.tex").read_text(encoding="utf-8")
    head = "We want to show that $\\operatorname{Attention}(PX) = P \\operatorname{Attention}(X)$.\n"
    tail = "It is not true that $\\operatorname{softmax}(P S) = \\operatorname{softmax}(S) P$.\n"
    verdict = check_derivation("ex6.7", head + proof + "\n" + tail)
    assert verdict.verdict == "correct", verdict.feedback
    assert verdict.steps[0].rule.startswith("stated, then proved")


def test_the_work_a_derivation_asks_for_is_measured_on_its_text(monkeypatch):
    """Issue 49: a step that multiplies out to more than MAX_STEP_TERMS terms is too costly
    before any worker starts (so the verdict cannot depend on the machine), and so is every step
    after the derivation's total passes MAX_DERIVATION_TERMS."""
    from symattn.grading.proofs import proof_judge as d
    from symattn.grading.proofs.step_reader import MAX_DERIVATION_TERMS, MAX_STEP_TERMS

    judged = []
    real = d._judge_line
    monkeypatch.setattr(d, "_judge_line", lambda *a: judged.append(a[3]) or real(*a))
    terms = " + ".join(f"q_{{{i}}} k_{{{i}}}" for i in range(1, 12))  # Var: 11^2 = 121 terms
    text = (
        f"\\operatorname{{Var}}\\left({terms}\\right) = \\sum_{{i=1}}^{{11}} \\operatorname{{Var}}(q_i k_i)\n"
    )
    verdict = check_derivation("ex6.3", text, isolate=False)
    assert verdict.verdict == "invalid" and judged == []
    assert f"multiplies out to 132 terms (at most {MAX_STEP_TERMS})" in verdict.feedback  # 121 + 11
    # steps under the step's limit, but together past the derivation's: cut where the total passes
    eight = " + ".join(f"q_{{{i}}} k_{{{i}}}" for i in range(1, 9))  # 64 + 8 = 72 terms a step
    step = f"\\operatorname{{Var}}\\left({eight}\\right) = \\sum_{{i=1}}^{{8}} \\operatorname{{Var}}(q_i k_i)"
    lines = [step] * (MAX_DERIVATION_TERMS // 72 + 1)
    verdict = check_derivation("ex6.3", "\n".join(lines) + "\n", isolate=False)
    cut = [s for s in verdict.steps if s.status == "invalid"]
    assert [s.line for s in cut] == [len(lines)]
    assert f"more than {MAX_DERIVATION_TERMS} terms in all" in cut[0].feedback
    assert all(s.status == "ok" for s in verdict.steps[:-1])


def test_measures_report_what_the_derivation_is_cut_by():
    """derivation.measures (what bench/limits.py reports) gives each step's terms and operator
    nesting as the cut applies them: 121 + 11 terms for Var of 11 products, softmax nested."""
    from symattn.grading.proofs.proof_judge import measures

    terms = " + ".join(f"q_{{{i}}} k_{{{i}}}" for i in range(1, 12))
    text = (
        f"\\operatorname{{Var}}\\left({terms}\\right) = \\sum_{{i=1}}^{{11}} \\operatorname{{Var}}(q_i k_i)\n"
        "= d_k\n"
    )
    assert measures("ex6.3", text) == [(1, 132, 1, 0), (2, 1, 0, 0)]
    assert measures("ex6.3", text, admitted=True) == [(2, 1, 0, 0)]  # what the measures let through
    deep = r"\operatorname{softmax}(" * 3 + "S" + ")" * 3
    assert measures("ex6.7", f"{deep} = S\n")[0][2] == 3
    # Attention is a softmax inside products: two levels
    stacked = r"\operatorname{Attention}(\operatorname{Attention}(P X)) = S"
    assert measures("ex6.7", stacked + "\n")[0][2:] == (4, 4)
    product = r"P \operatorname{softmax}(S) \operatorname{softmax}(S) \operatorname{Attention}(X) = S"
    assert measures("ex6.7", product + "\n")[0][2:] == (2, 4)  # nested two deep, four applied


def test_a_step_refused_for_itself_does_not_use_up_the_derivations_terms():
    """A step refused at 4,160 terms, then the module's own solution: every line of the solution
    is judged (a refused step asks for no work), not cut for the derivation's total."""
    solution = (BANK / "ex6.3" / "c01_module_solution.tex").read_text(encoding="utf-8")
    costly = r"\operatorname{Var}\left(\sum_{i=1}^{64} q_i k_i\right) = "
    costly += r"\sum_{i=1}^{64} \operatorname{Var}(q_i k_i)"
    verdict = check_derivation("ex6.3", costly + "\n" + solution)
    assert verdict.steps[0].status == "invalid" and "4,160 terms" in verdict.steps[0].feedback
    assert [s.status for s in verdict.steps[1:]] == ["ok"] * (len(verdict.steps) - 1)


REVIEW = sorted((BANK.parent / "learner_proofs_review").glob("ex6.*/*.tex"))


@pytest.mark.parametrize("path", sampled(REVIEW, 3, lambda i, f: f.stem))
def test_a_reviewers_cross_attention_derivations(path, monkeypatch):
    """tests/data/learner_proofs_review/: a reviewer's derivations, verdicts decided by hand: the
    verdict, and where the reviewer named a faulty step, that step not accepted, with the
    reviewer's status (an earlier step may be faulty too: "P = I" stated as a line is false)."""
    import symattn.grading.proofs.proof_judge as proof_judge

    monkeypatch.setattr(proof_judge, "TOTAL_SECONDS", 4 * proof_judge.TOTAL_SECONDS)
    monkeypatch.setattr(proof_judge, "WALL_SECONDS", 4 * proof_judge.WALL_SECONDS)
    expected = expectation(path)
    verdict = check_derivation(path.parent.name, path.read_text(encoding="utf-8"))
    assert verdict.verdict == expected[0], verdict.feedback
    bad = {str(s.line): s.status for s in verdict.steps if s.status != "ok"}
    if len(expected) > 1:
        status, line = expected[1:]
        assert bad.get(line) == status, verdict.feedback
    if expected[0] == "correct":
        assert not bad


def test_the_reviewers_bank_holds_both_verdicts():
    kinds = [expectation(f)[0] for f in REVIEW]
    assert kinds.count("correct") >= 20 and kinds.count("incorrect") >= 20


@pytest.mark.parametrize(
    ("text", "verdict", "said"),
    [
        # a proved cross-attention line serves for Attention(PX), written out by its definition
        (
            "{c18}In particular, for self-attention,\n"
            "$$\\operatorname{{Attention}}(PX) = P \\operatorname{{Attention}}(X)$$\n",
            "correct",
            "",
        ),
        # a one-word sentence chooses the case; the projections taken as I give section 6.5's form
        (
            "{c18}Let $P_1 = P_2 = P$.\n"
            "\\operatorname{{Attention}}(PX, PX, PX) = P \\operatorname{{Attention}}(X, X, X)\n",
            "correct",
            "",
        ),
        # the permutations named the other way round: the statement up to names
        (
            "\\operatorname{{Attention}}(P_2 Q, P_1 K, P_1 V) = \\operatorname{{softmax}}\\left("
            "\\frac{{P_2 Q K^\\mathsf{{T}} P_1^\\top}}{{\\sqrt{{d_k}}}}\\right) P_1 V\n"
            "= P_2 \\operatorname{{softmax}}\\left(\\frac{{Q K^\\top}}{{\\sqrt{{d_k}}}}\\right) "
            "P_1^\\top P_1 V \\qquad (P_1^\\top P_1 = I)\n"
            "= P_2 \\operatorname{{Attention}}(Q, K, V) \\quad \\text{{since }} Q = X W^Q \\blacksquare\n",
            "correct",
            "P_1 \\operatorname{Attention}(Q, K, V)$, which at",
        ),
        # a sentence whose reason is a formula: the stated one is read, the reason is not
        (
            "1. $\\operatorname{{Attention}}(P_1 Q, P_2 K, P_2 V) = P_1 \\operatorname{{softmax}}\\left("
            "\\frac{{Q K^\\top}}{{\\sqrt{{d_k}}}}\\right) P_2^\\top P_2 V$ by the rules for rows and "
            "columns.\n"
            "2. $P_1 \\operatorname{{softmax}}\\left(\\frac{{Q K^\\top}}{{\\sqrt{{d_k}}}}\\right) P_2^\\top "
            "P_2 V = P_1 \\operatorname{{Attention}}(Q, K, V)$ since $P_2^\\top P_2 = I$.\n",
            "incorrect",
            "takes 3 rules",
        ),
        # a case line that a chain goes on from is a claim, not a choice
        ("P_1 = P_2\n= P_2 P_1^\\top P_1\n", "incorrect", "exchanged"),
        # both permutations exchanged at once
        (
            "\\operatorname{{softmax}}(P_1 S P_2^\\top) = P_2 \\operatorname{{softmax}}(S) P_1^\\top\n",
            "incorrect",
            "exchanged",
        ),
    ],
)
def test_cross_attention_as_reviewers_wrote_it(text, verdict, said):
    """Issue 48's hostile review of cross-attention: each of these once went wrong."""
    c18 = (BANK / "ex6.7/c18_cross_attention.tex").read_text(encoding="utf-8")
    got = check_derivation("ex6.7", text.format(c18=c18))
    assert got.verdict == verdict, got.feedback
    assert said in got.feedback


def test_operators_nested_too_deep_are_refused_before_any_work(monkeypatch):
    """Issue 49: softmax nested 8 deep (a hostile step) is too costly by its text, at its line,
    with no worker started; E[(X - E[X])^2], nested two deep, is read."""
    from symattn.grading.proofs import proof_judge as d
    from symattn.grading.proofs.step_reader import MAX_NESTED_OPERATORS

    judged = []
    real = d._judge_line
    monkeypatch.setattr(d, "_judge_line", lambda *a: judged.append(a[3]) or real(*a))
    deep = r"\operatorname{softmax}(" * 8 + "S" + ")" * 8
    verdict = check_derivation("ex6.7", f"{deep} = P S P^\\top\n", isolate=False)
    assert verdict.verdict == "invalid" and judged == []
    assert f"nested 8 deep (softmax, Attention, Var, E: at most {MAX_NESTED_OPERATORS})" in verdict.feedback
    two = check_derivation("ex6.3", r"\operatorname{Var}(q_1) = \mathbb{E}[(q_1 - \mathbb{E}[q_1])^2]" + "\n")
    assert all(s.status != "invalid" for s in two.steps)


SOFTMAX = r"\operatorname{softmax}"


@pytest.mark.parametrize(
    "costly",
    [
        SOFTMAX + "(" + SOFTMAX + "(" + SOFTMAX + "(K S)))",  # nested MAX_NESTED_OPERATORS deep
        f"{SOFTMAX}(K S) {SOFTMAX}(S) {SOFTMAX}(S)",  # applied COSTLY_SOFTMAX times in a product
    ],
)
def test_costly_steps_are_counted_over_the_derivation(monkeypatch, costly):
    """Issue 49: a costly step (operators nested MAX_NESTED_OPERATORS deep, or softmax applied
    COSTLY_SOFTMAX times in a side: 0.2-3.4 s of CPU each here) is read, but only
    MAX_COSTLY_STEPS of them in one derivation: the next such steps are too costly by the text,
    with no worker started, while lighter steps after them are still judged. Twenty such lines
    once ran the derivation out of time."""
    from symattn.grading.proofs import proof_judge as d
    from symattn.grading.proofs.step_reader import COSTLY_SOFTMAX, MAX_COSTLY_STEPS, MAX_NESTED_OPERATORS

    assert MAX_NESTED_OPERATORS == 3 and COSTLY_SOFTMAX == 3  # as the two lines above are written
    judged = []
    monkeypatch.setattr(d, "_judge_line", lambda *a: (judged.append(a[3]) or ("ok", "", "", None), a[-1]))
    lines = [costly.replace("K", str(k)) + r" = P S P^\top" for k in range(2, MAX_COSTLY_STEPS + 4)]
    lines.append(r"\operatorname{softmax}(P S P^\top) = P \operatorname{softmax}(S) P^\top")
    verdict = check_derivation("ex6.7", "\n".join(lines) + "\n", isolate=False)
    refused = [s.line for s in verdict.steps if s.status == "invalid"]
    assert refused == list(range(MAX_COSTLY_STEPS + 1, len(lines)))
    assert judged == [*range(1, MAX_COSTLY_STEPS + 1), len(lines)]
    assert verdict.steps[-2].feedback == (
        f"too costly to check: more than {MAX_COSTLY_STEPS} costly steps (operators nested "
        f"{MAX_NESTED_OPERATORS} deep, or softmax applied {COSTLY_SOFTMAX} or more times in one side)"
    )


def test_softmax_applied_too_often_in_a_side_is_refused_before_any_work(monkeypatch):
    """Issue 49: each softmax multiplies the size of the exact entries a step is proved on,
    in a product as in a nest: softmax(S) five times in a product took 8 s of CPU and six ran
    out of time, though the line multiplies out to one term and nests one deep. Past
    MAX_SOFTMAX (Attention counts as two) the line is refused with no worker started."""
    from symattn.grading.proofs import proof_judge as d
    from symattn.grading.proofs.step_reader import MAX_SOFTMAX

    judged = []
    monkeypatch.setattr(d, "_judge_line", lambda *a: (judged.append(a[3]) or ("ok", "", "", None), a[-1]))
    product = " ".join([f"{SOFTMAX}(S)"] * (MAX_SOFTMAX + 1))
    attention = r"\operatorname{Attention}(X) " * (MAX_SOFTMAX // 2) + f"{SOFTMAX}(S)"
    text = f"P {product} = P {product} P^\\top P\n{attention} = S\n{SOFTMAX}(S) = S\n"
    verdict = check_derivation("ex6.7", text, isolate=False)
    said = f"softmax applied {MAX_SOFTMAX + 1} times in one side (Attention counts as two; at most"
    said += f" {MAX_SOFTMAX})"
    assert [s.feedback.removeprefix("too costly to check: ") for s in verdict.steps[:2]] == [said, said]
    assert judged == [3]


def test_a_line_continuing_one_that_cannot_be_checked_says_so():
    """Issue 49: "= C" after a line refused for its cost continues that line, whose right side
    cannot be checked: it is invalid for that reason, never judged against an earlier line's
    right side (it once was, and came back wrong) nor read as "an empty side"."""
    costly = (
        r"\operatorname{Var}(z) = \operatorname{Var}((q_1 + q_2 + q_3 + q_4 + q_5 + q_6 + q_7 + q_8)^{3})"
    )
    for first in ("", "z = \\sum_i q_i k_i\n"):
        verdict = check_derivation("ex6.3", f"{first}{costly}\n= d_k\n")
        last, refused = verdict.steps[-1], verdict.steps[-2]
        assert refused.status == "invalid" and refused.feedback.startswith("too costly to check")
        assert (last.status, last.feedback) == (
            "invalid",
            f"it continues line {refused.line}, which cannot be checked",
        )
        assert verdict.verdict == "invalid" and f"line {refused.line} cannot be checked" in verdict.feedback


@pytest.mark.parametrize("transpose", ["ᵀ", "^⊤", "^T"])
def test_a_transpose_written_in_unicode_or_as_t_reads_as_top(transpose):
    """ex6.7's worked proof with each transpose written ᵀ, ^⊤ or ^T (as learners type them) gets
    the verdict it gets with ^\\top, and so does its slip."""
    from symattn.grading.proofs.examples import EXAMPLES

    for kind in ("correct", "wrong"):
        text = EXAMPLES["ex6.7"][kind]
        written = text.replace("^{\\top}", "^\\top").replace("^\\top", transpose)
        assert written != text
        want = check_derivation("ex6.7", text, isolate=False)
        got = check_derivation("ex6.7", written, isolate=False)
        assert (got.verdict, [(s.status, s.slip) for s in got.steps]) == (
            want.verdict,
            [(s.status, s.slip) for s in want.steps],
        ), kind
