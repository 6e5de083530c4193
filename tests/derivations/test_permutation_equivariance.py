"""derivations/permutation_equivariance.py: attention cannot see word order."""

from __future__ import annotations

from itertools import permutations

import sympy as sp

from derivations import permutation_equivariance as pe

NAME = "permutation_equivariance"


def test_all_steps_verified(verify):
    """Every step passes: the general argument for symbolic N and widths at N = 2..5 (and 1,
    added by the engine), the whole identity end to end likewise, width 2 (and says so)."""
    _, report = verify(NAME)
    assert report.ok and report.numeric_steps == 0
    methods = [r.method for r in report.steps[:4]]
    assert methods == ["symbolic", "at sizes", "at sizes", "at sizes"]
    for step in report.steps[1:4]:
        assert step.detail.startswith("2, 3, 4, 5 and 1, chosen by the engine ")
    assert "width 2" in report.steps[3].step.section
    assert report.steps[0].lhs.shape == (pe.N, pe.d_v)  # symbolic N and width


def test_exhaustive_check_is_real_at_three():
    """At N = 3 all 6 permutations hold exactly with symbolic X and W."""
    assert pe.equivariant_at(3)


def test_causal_mask_breaks_it_for_some_permutation():
    """With a causal mask at least one reordering of three rational tokens changes the outputs."""
    x = sp.Matrix([[1, 0], [0, 1], [1, 1]])
    eye = sp.eye(2)
    base = pe.self_attention(x, eye, eye, eye, "causal")
    broken = 0
    for order in permutations(range(3)):
        P = pe.permutation_matrix(order)
        out = pe.self_attention(P * x, eye, eye, eye, "causal")
        diff = (out - P * base).evalf(30)
        broken += any(abs(e) > 1e-20 for e in diff)
    assert broken == 5  # every reordering except the identity


def test_dog_and_man_with_and_without_positions():
    """ "dog" has one output in both sentences; with positions added the outputs differ."""
    a, b = "the dog bit the man", "the man bit the dog"
    assert pe.output_of("dog", a) == pe.output_of("dog", b)
    with_pos = (pe.output_of("dog", a, True) - pe.output_of("dog", b, True)).evalf(30)
    assert max(abs(e) for e in with_pos) > 1e-3


def test_one_output_row_is_the_attention_of_that_query_alone():
    """output_of attends from one query only; its row is the full attention's row for that word."""
    import sympy as sp

    import derivations.permutation_equivariance as pe

    for words in ("the dog bit the man", "the man bit the dog"):
        for positions in (False, True):
            full = pe.self_attention(pe.sentence(words, positions), pe.WQ, pe.WK, pe.WV)
            for word in ("dog", "man", "bit"):
                row = full.row(words.split().index(word))
                assert sp.simplify(row - pe.output_of(word, words, positions)) == sp.zeros(1, 2)


def test_steps_run_beside_the_work_they_share():
    """The end-to-end step runs after the largest size of its lemma (which evaluates the same
    model), and the two general steps at sizes run together (they share the side between them)."""
    import derivations

    d = derivations.load("permutation_equivariance")
    shared = sorted(sorted(g) for g in d.groups() if len(g) > 1)
    sized = d._lemma_sizes()
    largest = max((k for k, (lemma, _) in enumerate(sized) if lemma.name.startswith("equivariance")),
                  key=lambda k: sized[k][1])
    assert shared == sorted([[("lemma", largest), ("step", 3)], [("step", 1), ("step", 2)]])
