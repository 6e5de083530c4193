r"""Write tests/data/form_bank.csv: right and wrong answers in the notations learners use.

Run: python tests/data/make_form_bank.py   (the CSV is committed; this documents its making)

Every verdict is decided here by rule, never by running the judge: a value is written in
several notations (scientific notation, Euler's e, units after any spacing, Unicode, nested
lists, row spacing, a mask with its first row of weights, equivalent formulas), and each form
of a right value is correct, each form of a wrong one incorrect. The values are checked here
with mpmath at 50 digits.
"""

from __future__ import annotations

import csv
from pathlib import Path

import mpmath

OUT = Path(__file__).with_name("form_bank.csv")
mpmath.mp.dps = 50
rows: list[tuple[str, str, str, str]] = []


def add(ex: str, answer: str, verdict: str, reason: str) -> None:
    rows.append((ex, answer, verdict, reason))


# -- ex6.2: (e^2 + 11)/(e^2 + 2) = 1.958559..., within 0.01 --------------------------------------
E = mpmath.e
TARGET = (E**2 + 11) / (E**2 + 2)
SCIENTIFIC = [
    (r"{m} \times 10^{{{k}}}", "times ten to a power"),
    (r"{m} \cdot 10^{{{k}}}", "cdot ten to a power"),
    (r"{m}\times10^{k}", "no spaces"),
    ("{m}e{k}", "e-notation"),
    ("{m}E{k}", "E-notation"),
    ("{m} \u00d7 10^{{{k}}}", "a Unicode times sign"),
]
for value in ("1.96", "1.959", "1.95", "1.9586", "1.97", "1.94", "2.0", "1.8"):
    right = abs(mpmath.mpf(value) - TARGET) <= mpmath.mpf("0.01")
    for shift in (-1, 1, 2):
        mantissa = mpmath.nstr(mpmath.mpf(value) * mpmath.mpf(10) ** shift, 8, strip_zeros=True)
        for form, how in SCIENTIFIC:
            if how in ("no spaces", "E-notation") and shift != 1:
                continue
            k = -shift
            answer = form.format(m=mantissa, k=k)
            if how == "no spaces" and k < 0:
                answer = f"{mantissa}\\times10^{{{k}}}"
            add("ex6.2", answer, "correct" if right else "incorrect", f"{value} written with {how}")
EULER_RIGHT = [
    (r"\frac{e^2+11}{e^2+2}", "the closed form"),
    (r"\frac{11+e^{2}}{2+e^{2}}", "terms swapped"),
    (r"\frac{\mathrm{e}^2+11}{\mathrm{e}^2+2}", "upright e"),
    (r"(e^2+11)/(e^2+2)", "a slash"),
    (r"1 + \frac{9}{e^2+2}", "one plus a fraction"),
    (r"\frac{e^{2}+11}{e^{2}+2} \approx 1.96", "the closed form and its value"),
    (r"\frac{1 \cdot e^{2} + 11 e^{0}}{e^{2} + 2 e^{0}}", "e^0 kept"),
    (r"\frac{e^2 + 1.1e1}{e^2 + 2}", "e-notation beside Euler's e: digits after the e, so 1.1e1 is 11"),
    (r"\frac{e^2 + 1.1e+1}{e^2 + 2}", "a sign after the e beside Euler's e: 1.1e + 1? no"),
    (r"1.96 e^{0}", "times e^0"),
    (r"\frac{e^{2}+11}{e^{2}+2}\ \text{}", "an empty text"),
]
for answer, how in EULER_RIGHT:
    if how.endswith("? no"):
        # Euler's e is used and a sign follows the e: 1.1e+1 is 1.1 e + 1, about 0.88 in all.
        assert abs((E**2 + mpmath.mpf("1.1") * E + 1) / (E**2 + 2) - TARGET) > mpmath.mpf("0.01")
        add("ex6.2", answer, "incorrect", "e is Euler's number beside a sign: 1.1e+1 is 1.1 e + 1")
        continue
    if how == "an empty text":
        continue
    add("ex6.2", answer, "correct", f"(e^2 + 11)/(e^2 + 2): {how}")
EULER_WRONG = [
    (r"\frac{6e+7}{e+1}", (6 * E + 7) / (E + 1)),
    (r"e^{2}+1.1e+1", E**2 + mpmath.mpf("1.1") * E + 1),
    (r"\frac{e^2+11}{e^2+1}", (E**2 + 11) / (E**2 + 1)),
    (r"\frac{e^2+1}{e^2+2}", (E**2 + 1) / (E**2 + 2)),
    (r"\frac{2e+11}{2e+2}", (2 * E + 11) / (2 * E + 2)),
    (r"\frac{e^{2}+11}{e^{2}+2e}", (E**2 + 11) / (E**2 + 2 * E)),
    (r"e^{0.7}", E ** mpmath.mpf("0.7")),
    (r"1.96e", mpmath.mpf("1.96") * E),
]
for answer, value in EULER_WRONG:
    assert abs(value - TARGET) > mpmath.mpf("0.01"), answer
    add("ex6.2", answer, "incorrect", f"Euler's e throughout: about {mpmath.nstr(value, 5)}")

# -- ex6.5: N > 8192 -------------------------------------------------------------------------
THRESHOLDS = [
    (r"N > 8.192 \cdot 10^{3}", 8192, ">"),
    (r"N > 8.192 \times 10^3", 8192, ">"),
    (r"N > 8.192\times10^{3}", 8192, ">"),
    (r"N > 81.92 \cdot 10^{2}", 8192, ">"),
    (r"N > 0.8192 \cdot 10^{4}", 8192, ">"),
    (r"N > 8.192e3", 8192, ">"),
    (r"N > 8.192 \u00d7 10^{3}", 8192, ">"),
    (r"N \geq 8.193 \cdot 10^{3}", 8193, ">="),
    (r"N \ge 8.193\times 10^3", 8193, ">="),
    (r"N > 2^{13}", 8192, ">"),
    (r"N > 2 \cdot 4096", 8192, ">"),
    (r"N > 2 \times 4.096 \cdot 10^{3}", 8192, ">"),
    ("N \u2265 8193", 8193, ">="),
    (r"N > 8\,192", 8192, ">"),
    (r"N > 8192 + 10^{-100}", 8192, ">"),  # exact: N is a whole number of tokens
    (r"N > 8193 - 10^{-100}", 8192, ">"),
    (r"N > 8192 + \frac{1}{10^{100}}", 8192, ">"),
    (r"N > \sqrt{67108864}", 8192, ">"),
]
UNITS = [
    r"\ \text{tokens}",
    r"\,\mathrm{tokens}",
    r"~\text{tokens}",
    r"\;\text{tokens}",
    r"\text{ tokens}",
    r"\quad\text{tokens}",
    r"\:\text{tokens}",
    r"\ \mathrm{tokens}",
]
for answer, bound, rel in THRESHOLDS:
    answer = answer.replace(r"\u00d7", "\u00d7")
    first = bound + (1 if rel == ">" else 0)
    assert first == 8193, answer
    add("ex6.5", answer, "correct", f"N > 8192 written as {answer}")
for k, unit in enumerate(UNITS):
    add("ex6.5", rf"N > 8192{unit}", "correct", "N > 8192 with a unit")
    add("ex6.5", rf"N > {8192 + 1000 * (k + 1)}{unit}", "incorrect", "the wrong threshold with a unit")
    add("ex6.5", rf"N \geq 8193{unit}", "correct", "N >= 8193 with a unit")
WRONG_THRESHOLDS = [
    r"N > 4.096 \cdot 10^{3}",
    r"N > 8.192 \cdot 10^{4}",
    r"N > 1.6384 \times 10^{4}",
    r"N < 8.192 \cdot 10^{3}",
    r"N > 8.2 \cdot 10^{3}",
    r"N > 8.1 \cdot 10^{3}",
    r"N > 2^{12}",
    r"N > 2^{14}",
    r"N \geq 8.192 \cdot 10^{3}",
    r"N > 4096\ \text{tokens}",
    r"N > 8.192e2",
    r"N > 8192e1",
    r"N > 8192 - 10^{-100}",
]
for answer in WRONG_THRESHOLDS:
    add("ex6.5", answer, "incorrect", "not the set N > 8192")

# -- ex6.4: the causal mask for 3 tokens, and optionally its first row of weights --------------
MASKS = [
    (r"\begin{bmatrix} 0 & -\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}", True),
    (r"\begin{pmatrix} 0 & -\infty & -\infty \\[2pt] 0 & 0 & -\infty \\[2pt] 0 & 0 & 0 \end{pmatrix}", True),
    (r"[[0, -\infty, -\infty], [0, 0, -\infty], [0, 0, 0]]", True),
    ("[[0, \u2212\u221e, \u2212\u221e], [0, 0, \u2212\u221e], [0, 0, 0]]", True),
    (r"\begin{bmatrix} 0 & -\infty & -\infty \\[1ex] 0 & 0 & -\infty \\[1ex] 0 & 0 & 0 \end{bmatrix}", True),
    (r"[[0,-\infty,-\infty],[0,0,-\infty],[0,0,0]]", True),
    (r"\begin{bmatrix} 0 & 0 & 0 \\ -\infty & 0 & 0 \\ -\infty & -\infty & 0 \end{bmatrix}", False),
    (r"[[0, 0, 0], [-\infty, 0, 0], [-\infty, -\infty, 0]]", False),
    (r"[[-\infty, -\infty, -\infty], [0, -\infty, -\infty], [0, 0, -\infty]]", False),
]
WEIGHTS = [
    ("", None),
    (r", \quad (1, 0, 0)", True),
    (r" \text{ and } [1, 0, 0]", True),
    (r", \alpha_1 = (1, 0, 0)", True),
    (r", \begin{bmatrix} 1 & 0 & 0 \end{bmatrix}", True),
    (r", w_{1} = [1, 0, 0]", True),
    (r", (\frac{1}{3}, \frac{1}{3}, \frac{1}{3})", False),
    (r", [0, 0, 1]", False),
    (r", \alpha_1 = (0.5, 0.5, 0)", False),
]
for mask, mask_right in MASKS:
    for weights, weights_right in WEIGHTS:
        right = mask_right and weights_right is not False
        why = (
            "the causal mask" + (", and the first row of weights [1, 0, 0]" if weights_right else "")
            if right
            else (
                "not the causal mask"
                if not mask_right
                else "the mask, but the first row of weights is [1, 0, 0]"
            )
        )
        add("ex6.4", mask + weights, "correct" if right else "incorrect", why)

# -- ex6.6: the mean of the value rows, for every N ---------------------------------------------
MEAN_RIGHT = [
    r"\frac{1}{N}\sum_{j=1}^{N} v_j",
    r"\frac{\sum_j v_j}{\sum_j 1}",
    r"\frac{\sum_{j=1}^{N} v_j}{\sum_{k=1}^{N} 1}",
    r"\frac{1}{N}\sum_{k=1}^{N} v_k",
    r"\frac{1}{N}\sum_{j=0}^{N-1} v_{j+1}",
    r"\frac1N \mathbf{1}^\top V",
    r"\frac{1}{N} V^\top \mathbf{1}",
    r"\frac{1}{N}\sum_{j=1}^{N} V_j",
    r"\sum_{j=1}^{N} \frac{1}{N} v_j",
    r"\sum_{j=1}^{N} \frac{v_j}{N}",
    r"\frac{v_1 + v_2 + \cdots + v_N}{N}",
    r"o_i = \frac{1}{N}\sum_{j=1}^{N} v_j",
    r"\frac{2}{2N}\sum_{j=1}^{N} v_j",
    r"\frac{1}{N}\left(\sum_{j=1}^{N} v_j\right)",
    r"\frac{1}{N}\mathbf{1}_N^\top V",
    r"\frac1N\mathbf{1}\mathbf{1}^\top V",
    r"\frac{1}{N}\mathbf{1}_N \mathbf{1}_N^\top V",
    r"\frac{1}{N}\sum_{j=1}^{N} v_{N+1-j}",
    r"\frac{1}{N}\sum_{j=1}^{N}\sum_{k=1}^{N} \frac{v_k}{N}",
    r"\sum_{j=1}^{N}\sum_{k=1}^{N} \frac{v_k}{N^2}",
    r"\frac{1}{N}\left(\sum_{j=2}^{N} v_j + v_1\right)",
    r"\frac{1}{N}\left(\sum_{j=1}^{N-1} v_j + v_N\right)",
    r"\frac{v_N + \cdots + v_2 + v_1}{N}",
]
MEAN_WRONG = [
    (r"\sum_{j=1}^{N} v_j", "the sum, not the mean"),
    (r"\frac{1}{N}", "one weight"),
    (r"\frac{\sum_j v_j}{\sum_j 2}", "half the mean"),
    (r"\frac{1}{N-1}\sum_{j=1}^{N} v_j", "divided by N - 1"),
    (r"\frac{1}{N}\sum_{j=1}^{N-1} v_j", "one value left out"),
    (r"\frac{1}{N}\sum_{j=2}^{N} v_j", "the first value left out"),
    (r"\mathbf{1}^\top V", "the sum of the rows"),
    (r"\frac{1}{N^2}\sum_{j=1}^{N} v_j", "divided by N^2"),
    (r"\frac{1}{N}\sum_{j=1}^{N} v_{j+1}", "shifted by one"),
    (r"v_1", "one value"),
    (r"\mathbf{1}\mathbf{1}^\top V", "the sum of the rows in every row"),
    (r"\frac{1}{N^2}\mathbf{1}_N\mathbf{1}_N^\top V", "divided by N^2 in every row"),
    (r"\frac{1}{N}\sum_{j=1}^{N} v_{N-j}", "reversed, and shifted by one"),
    (r"\frac{1}{N}\sum_{j=1}^{N}\sum_{k=1}^{N} v_k", "the sum of the values, N times, over N"),
    (r"\frac{1}{N}\left(\sum_{j=2}^{N} v_j + v_2\right)", "v_2 twice, v_1 left out"),
]
for answer in MEAN_RIGHT:
    add("ex6.6", answer, "correct", "the mean of the value rows for every N")
for answer, why in MEAN_WRONG:
    add("ex6.6", answer, "incorrect", why)


def main() -> None:
    with OUT.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["exercise", "answer", "verdict", "reason"])
        writer.writerows(rows)
    counts = {k: sum(1 for r in rows if r[2] == k) for k in ("correct", "incorrect", "invalid")}
    print(f"wrote {len(rows)} answers to {OUT.name}: {counts}")


if __name__ == "__main__":
    main()
