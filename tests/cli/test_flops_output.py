"""`symattn flops`: the table it prints, worked out here from the formulas 3 N d^2, N^2 d, N^2 d,
N d^2 (multiply-adds), and its JSON."""

from __future__ import annotations

import json

import pytest


def expected_text(n: int, d: int, h: int) -> str:
    """What `symattn flops --n N --d-model D --heads H` prints, from the module's formulas."""
    counts = [3 * n * d * d, n * n * d, n * n * d, n * d * d]
    total = sum(counts)
    width = max(len(f"{c:,}") for c in [*counts, total])
    labels = [
        "projections      3 N d^2",
        "scores           N^2 d",
        "weighted sum     N^2 d",
        "output proj.     N d^2",
        "total  4 N d^2 + 2 N^2 d",
    ]
    quadratic, linear = 2 * n * n * d, 4 * n * d * d
    side = (
        {True: "larger than", False: "smaller than"}.get(quadratic > linear)
        if quadratic != linear
        else "equal to"
    )
    return "".join(
        [f"Multi-head attention, N = {n:,}, d_model = {d:,}, h = {h} (d_k = {d // h}); multiply-adds:\n"]
        + [f"  {label:<26} {c:>{width},}\n" for label, c in zip(labels, [*counts, total], strict=True)]
        + [
            f"The N^2 terms ({quadratic:,}) are {side} the N d^2 terms ({linear:,}); "
            f"they dominate for N > 2 d_model = {2 * d:,}.\n",
            f"Counting multiplies and adds separately doubles every figure: {2 * total:,} FLOPs.\n",
        ]
    )


@pytest.mark.parametrize(("n", "d", "h"), [(4096, 512, 8), (1024, 512, 1), (100, 512, 1)])
def test_the_table_and_the_crossover_sentence(cli, n, d, h):
    """Past, at and before the crossover N = 2 d_model: each row, the total and which terms are larger."""
    code, out, err = cli("flops", "--n", str(n), "--d-model", str(d), "--heads", str(h))
    assert (code, err) == (0, "")
    assert out == expected_text(n, d, h)


def test_json_is_the_counts_indented(cli):
    code, out, err = cli("flops", "--n", "2", "--d-model", "4", "--json")
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "projections": 96,
        "scores": 16,
        "weighted_sum": 16,
        "output_projection": 32,
        "total": 160,
        "crossover_n": 8,
    }
    assert out.startswith('{\n  "projections": 96,\n')  # indented, one count a line


def test_heads_that_do_not_divide_the_width_are_refused_in_one_line(cli):
    code, out, err = cli("flops", "--n", "2", "--d-model", "5", "--heads", "2")
    assert code == 2 and out == ""
    assert err.startswith("symattn: error: ") and err.count("\n") == 1
