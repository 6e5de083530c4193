"""What a careful reader does not count as a claim (symattn/grading/audit/notclaims.py, issue 47,
must-have 2): definitions, ranges of an index, labels and ordinals, choices, figures of a run,
advice. Each is kept in the report as "not a claim" with its reason and is not among the claims;
a sentence that also concludes, compares or counts stays a claim. Sentences written here by hand
in the forms the public texts use; the expected kinds come from reading."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from symattn.cli.app import main
from symattn.grading.audit import notclaims
from symattn.grading.audit.corpus import audit, load
from symattn.grading.audit.keys import Coverage, audit_claims
from symattn.grading.audit.notclaims import NOT_A_CLAIM

TEXTS = load(Path(__file__).resolve().parents[2] / "data" / "texts")

SET_APART = {
    "a family defined by its index": (
        "The frequencies are $w_k = \\frac{1}{10000^{2k/d}}$.",
        notclaims.DEFINITION,
    ),
    "a row and column of an encoding": (
        "The encoding is $p_{i, 2j} = \\sin\\left(\\frac{i}{10000^{2j/d}}\\right)$.",
        notclaims.DEFINITION,
    ),
    "a function of its argument": (
        "The feed-forward layer is $\\mathrm{FFN}(x) = \\max(0, xW_1 + b_1)W_2 + b_2$.",
        notclaims.DEFINITION,
    ),
    "a case split": (
        "The mask is $m_{s s'} = \\begin{cases} 0 & s \\le s' \\\\ -\\infty & s > s' \\end{cases}$.",
        notclaims.DEFINITION,
    ),
    "an update": (
        "Each layer sets $z_{bsd} \\leftarrow \\phi(z_{bsd'} W^{0}_{d'e}) W^{1}_{ed}$.",
        notclaims.DEFINITION,
    ),
    "a range of an index": (
        "For each position $1 \\le i \\le n$ the output is a weighted sum.",
        notclaims.RANGE,
    ),
    "ordinals": ("Compare the $6^{th}$ and the $7^{th}$ columns of the plot.", notclaims.LABEL),
    "labels": ("Tokens 4 and 5 are shown in red.", notclaims.LABEL),
    "numbers listed to be named": (
        "We print the binary representations of $0, 1, \\ldots, 7$.",
        notclaims.LABEL,
    ),
    "a choice": ("We will use 4 attention heads.", notclaims.CHOICE),
    "two settings chosen": ("We will use 4 layers with 4 attention heads each.", notclaims.CHOICE),
    "labels of dimensions": (
        "Below we visualize the positional encoding for the hidden dimensions $1$, $2$, $3$ and $4$.",
        notclaims.LABEL,
    ),
    "a figure of a run": ("With ~94% validation and test accuracy, the model works well.", notclaims.REPORT),
    "a time": ("Running this cell can take 2-3 minutes.", notclaims.REPORT),
    "advice": ("The clip value is usually between 0.5 and 10.", notclaims.ADVICE),
    "a dataset described": (
        "The model was pre-trained on the ImageNet dataset which contains 1 million images of 1k classes.",
        notclaims.REPORT,
    ),
    "a model's figure": ("The feature dimension is 512 for the ResNet34.", notclaims.REPORT),
    "a resource a run needs": ("However, this requires >150MB free disk space.", notclaims.REPORT),
    "a speed another work measured": (
        "In PaLM it was claimed that this formulation is $\\sim 15\\%$ faster.",
        notclaims.REPORT,
    ),
    "an index naming a token": ("To generate the final, $s=-1$ token, we read the cache.", notclaims.LABEL),
    "a constraint posed": (
        "We minimize it subject to the condition that $\\int q(x)\\, dx = 1$.",
        notclaims.CONDITION,
    ),
    "a model's probability": (
        "The outputs $z_{sv}$ are treated as the logits which predict the next token:\n\n"
        "$$p(x_{b(s+1)} = v | x_{bs}, x_{b(s-1)}, \\ldots, x_{b0}) = \\mathrm{Softmax}_v z_{bsv}$$",
        notclaims.DEFINITION,
    ),
    "names explained after where": (
        "Each chunk's sum is rescaled by its maximum.\n\nwhere\n\n"
        "$$M^1 = \\max_j Q \\cdot K_j^1 \\text{ and } M^2 = \\max_j Q \\cdot K_j^2$$",
        notclaims.DEFINITION,
    ),
}

#: Sentences like those above that also conclude, compare, count or state an expectation.
STILL_CLAIMS = {
    "a split into parts": "We will split the training set into 90% training and 10% validation.",
    "an expectation": "The training set should have 50k images, and the test set 10k images.",
    "a consequence": "As our model achieves ~94% accuracy, we only have few mistakes in a batch of 64 sets.",
    "a count in words": "We will use 4 layers, twice as many as before.",
    "a plain name": "The cost of a matmul is $\\mathrm{FLOPs} = 2NPM$.",
    "a name indexed by a letter not on the right": "The cost is $C_{total} = 6 N P$ in all.",
    "a subscript not on the right": "Then $w_k = 10^{-4}$ is the smallest frequency.",
    "an operator": "For q and k with independent N(0, 1) entries, $\\operatorname{Var}(q \\cdot k) = 64$.",
    "a usual value without a range": "The model usually has 12 layers and 12 heads.",
    "labels in a claim about a mask": "Position 3 can attend to positions 0, 1, 2, and 3.",
    "a result said of a setting": "On a TPU v5e, this is 240 tokens.",
    "an ordinal word, not a time": "The next step takes the second input and state 1 to make its output.",
    # a hostile review's cases: a false claim beside a label, a choice, a run or a range
    "labels, then a count": "The window covers positions 0 to 511, 511 positions in all.",
    "an ordinal after a count": "Its 16 heads of width 64 share the 768 dimensions of the $6^{th}$ layer.",
    "a run's arithmetic": "Training on 8 GPUs for 3 days is 72 GPU hours.",
    "a rate's arithmetic": "At 1,000 tokens per second, generating 10,000 tokens takes 100 seconds.",
    "advice with a count": "In practice, with 8 heads and a width of 512, a head has about 128 dimensions.",
    "a crossover written as a range": (
        "With $d = 4096$, the score work stays smaller than the rest exactly when $1 \\le n \\le 4096$."
    ),
    "bounds of a quantity": "After the softmax every weight satisfies $1 \\le a \\le 2$.",
    "a count named with an index": "One attention layer (the four projections) has $P_d = 3d^2$ parameters.",
    "bounds of a weight": "Each attention weight over n keys satisfies $0 \\le a \\le 1/n$.",
    "a range said of a mask": "With a causal mask, query i attends to the keys $1 \\le j \\le i - 1$.",
    "a quantity named before a name": "The parameter count of a layer of width d is $P_d = 3d^2$.",
    "labels of a mask's entries": "Row 3 of the causal mask has nonzero entries in columns 1 to 4.",
    "a usual sum": "The attention weights of a row typically add to about 2.",
    # two settings that make one quantity: the second may be computed from the first
    "settings that make a width": "We will use 8 heads of width 32 in a model of 512.",
    "settings that make a total": "We will use 4 layers with 4 heads each, 16 in total.",
    # a hostile review's: the second figure carried on from the first (and wrong)
    "a count carried on": "We stack 6 encoder layers, 18 sublayers.",
    "a range said of weights": "The attention weights are numbers between 0 and 2.",
    "a count of another kind": "We run 8 heads, 16 key heads in MQA.",
    # a second hostile review's: a description whose figures add up or multiply
    "a model described with a breakdown": (
        "The feature dimension is 512 for the ResNet34, split over 8 heads of 32 each."
    ),
    "a dataset described with a total": (
        "We pretrain on the ImageNet dataset, which has 1000 classes with about 1300 images each "
        "and 13M overall."
    ),
    "a total broken down after a colon": (
        "The number of residual blocks is 18 for the ResNet34: 3, 4, 6 and 3 blocks."
    ),
    "a speed with arithmetic": "It was reported that the kernel is 15% faster, 1.15 times the speed.",
    "a probability not after a model's logits": (
        "By Bayes, $p(a | b) = p(b | a) p(a) / p(b)$ with $p(b) = 0.5$."
    ),
    # after "where", a figure is a given or a claim, not a name explained
    "a value after where": "The cost is\n\n$$C = 2NPM$$\n\nwhere\n\n$$N = 4 \\cdot 8 = 33$$",
    # what solving an equation yields is the claim; the equation is part of it
    "an equation solved": "Solving $\\frac{\\delta L}{\\delta q(x)} = 0$ yields $q(x) = 2 p(x)$.",
}


@pytest.mark.parametrize("name", SET_APART)
def test_what_is_no_claim_is_set_apart_with_its_reason(name):
    text, reason = SET_APART[name]
    claims = audit_claims(text + "\n")
    assert claims, "read, and kept in the report"
    assert {(c.verdict, c.rule) for c in claims} == {(NOT_A_CLAIM, reason)}


@pytest.mark.parametrize("name", STILL_CLAIMS)
def test_a_sentence_that_concludes_compares_or_counts_stays_a_claim(name):
    claims = audit_claims(STILL_CLAIMS[name] + "\n")
    assert claims and all(c.verdict != NOT_A_CLAIM for c in claims)


def test_what_is_no_claim_is_not_counted_among_the_claims():
    text = "We will use 4 attention heads.\n\nThe sum is $1 + 2 = 3$.\n"
    coverage = Coverage.of(audit_claims(text))
    assert (coverage.claims, coverage.certified, coverage.not_claims) == (1, 1, 1)
    assert coverage.decided == 1 and coverage.not_claim_reasons == {notclaims.CHOICE: 1}


def test_the_report_and_its_json_say_what_was_set_apart(tmp_path, capsys):
    path = tmp_path / "notes.md"
    path.write_text("We will use 4 attention heads.\n\nThe sum is $1 + 2 = 4$.\n")
    assert main(["audit", str(path)]) == 1
    out = capsys.readouterr().out
    assert "1 claims: 0 certified, 1 wrong" in out
    assert "1 read and not counted as claims:" in out and "not a claim, 1: a choice the text makes" in out
    assert main(["audit", "--json", str(path)]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["coverage"]["not_claims"] == 1 and doc["coverage"]["claims"] == 1
    assert [c["verdict"] for c in doc["claims"]] == [NOT_A_CLAIM, "wrong"]


@pytest.mark.parametrize("text", TEXTS, ids=[t.name for t in TEXTS])
def test_no_line_a_reader_found_a_claim_on_is_only_set_apart(text):
    """On the public texts: wherever the reader listed a claim, the audit either found a claim
    too or set nothing apart (what it sets apart never hides a claim a reader saw)."""
    result = audit(text)
    reader = {c["line"] for c in text.claims}
    apart = {result.where(c.line) for c in result.claims if c.verdict == NOT_A_CLAIM}
    claimed = {result.where(c.line) for c in result.claims if c.verdict != NOT_A_CLAIM}
    assert not (apart & reader) - claimed
