"""Write the class files tests/grading/batch/test_grade.py and bench/grade_speed.py use (run from the
repo root).

    python tests/data/make_grade_classes.py

grade_bank.csv: answers taken from tests/grading/answers/test_judge.py and
tests/cli/test_cli_exercises.py, plus
seeded variants and unreadable answers, one per row (exercise, seed, answer): the bank on which
`symattn grade` must give `symattn check`'s verdicts while the judge's own answer bank is not
there. class_1000.csv: a class of 250 learners answering ex6.2, ex6.4, ex6.5 and ex6.2 seed 7,
each answer drawn with a fixed seed from a pool of right, slipped, wrong and unreadable answers.
course.csv: a course as a teacher grades it: 64 learners, every kind of exercise (a value, a
matrix, a threshold, ex6.6's formula, the two derivations as steps files under learner_proofs/,
seeded variants), resubmissions, two hostile derivations (hostile/) and two steps files that
lead out of the folder.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

HERE = Path(__file__).parent
MASK = r"\begin{bmatrix} 0 & -\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}"
MASK_T = r"\begin{bmatrix} 0 & 0 & 0 \\ -\infty & 0 & 0 \\ -\infty & -\infty & 0 \end{bmatrix}"
MASK_D = (
    r"\begin{bmatrix} -\infty & -\infty & -\infty \\ 0 & -\infty & -\infty \\ 0 & 0 & -\infty \end{bmatrix}"
)
MASK_B = r"\begin{bmatrix} 0 & 1 & 1 \\ 0 & 0 & 1 \\ 0 & 0 & 0 \end{bmatrix}"

POOL = {
    "ex6.2": [
        "1.959",
        "1.96",
        "1.95",
        "1.97",
        r"\frac{e^2+11}{e^2+2}",
        r"\frac{11 + e^{2}}{2 + e^{2}}",
        r"\frac{e^2+11}{e^2+3}",
        "4",
        "1",
        "18.39",
        "0.787",
        "2",
        "x + 1",
        "8192 )",
        "",
        "1,96",
        r"\def\x{1}\x",
        "banana",
        "-1.96",
        r"\sqrt{\infty}",
        "1.9586",
        "3.5",
    ],
    "ex6.4": [
        MASK,
        MASK_T,
        MASK_D,
        MASK_B,
        r"\begin{bmatrix} 0 & -\infty \\ 0 & 0 \end{bmatrix}",
        "[1, 0, 0]",
        "5",
        "{",
        r"\begin{bmatrix} 0 & 0 \\ 0 & 0 \end{bmatrix}",
    ],
    "ex6.5": [
        "N > 8192",
        "8192 < N",
        "n > 8192",
        r"N \geq 8192",
        "N < 8192",
        "N > 4096",
        "4096",
        "N > 2",
        "N > 2d",
        "x > 8192",
        "8192",
        "8192.001",
        r"2 \cdot 4096",
        "N > 8193",
        r"N \neq 8192",
        "-N < -8192",
    ],
}


def bank_rows() -> list[dict[str, str]]:
    rows = [{"exercise": ex, "seed": "", "answer": a} for ex, answers in POOL.items() for a in answers]
    rows += [
        {"exercise": "ex6.2", "seed": "7", "answer": a}
        for a in ("2.05", "1.5", "4", "0.5", r"\frac{1}{2}", "-3")
    ]
    rows += [{"exercise": "ex6.5", "seed": "4", "answer": a} for a in ("N > 512", "N > 256", "N > 8192")]
    rows += [{"exercise": "ex6.4", "seed": "3", "answer": a} for a in (MASK, MASK_T, "0")]
    rows += [
        {"exercise": "ex6.1", "seed": "", "answer": "anything"},  # not checkable
        {"exercise": "ex6.9", "seed": "", "answer": "1"},  # no such exercise
        {"exercise": "ex6.7", "seed": "3", "answer": "1"},  # no variants
        {"exercise": "ex6.2", "seed": "", "answer": "9^{9^{9}}"},  # costly
        {"exercise": "ex6.2", "seed": "", "answer": "(" * 3000 + "1" + ")" * 3000},
    ]
    return rows


def class_rows(n_learners: int = 250, seed: int = 15) -> list[dict[str, str]]:
    rng = random.Random(seed)
    rows = []
    for i in range(1, n_learners + 1):
        learner = f"learner{i:03d}"
        for ex, variant in (("ex6.2", ""), ("ex6.4", ""), ("ex6.5", ""), ("ex6.2", "7")):
            pool = POOL[ex] if not variant else ["2.05", "1.5", "4", "2", r"\frac{1}{2}", "-3", "banana"]
            # learners favour the right answer and the common slips: a realistic class repeats itself
            answer = pool[min(int(rng.expovariate(0.35)), len(pool) - 1)]
            rows.append({"learner": learner, "exercise": ex, "seed": variant, "answer": answer})
    return rows


FORMULAS = [
    r"\frac{1}{N}\sum_{j=1}^{N} v_j",
    r"\frac{1}{N} \sum_{j=1}^N v_j",
    r"o_i = \frac{1}{N}\sum_{j=1}^{N} v_j",
    r"\frac{v_1 + v_2 + \dots + v_N}{N}",
    r"\sum_{j=1}^{N} v_j",
    r"\frac{1}{N}",
    r"v_j",
    r"\frac{1}{N-1}\sum_{j=1}^{N} v_j",
    r"\frac{1}{N}\sum_{j=1}^{N} v_j^2",
    r"\mean(v)",
]


def course_rows(n_learners: int = 64, seed: int = 27) -> list[dict[str, str]]:
    """A course's class file: every exercise kind, resubmissions, variants and hostile rows."""
    rng = random.Random(seed)
    proofs = {
        ex: sorted(p.relative_to(HERE).as_posix() for p in (HERE / "learner_proofs" / ex).glob("*.tex"))
        for ex in ("ex6.3", "ex6.7")
    }

    def pick(pool: list[str]) -> str:
        return pool[min(int(rng.expovariate(0.4)), len(pool) - 1)]

    rows: list[dict[str, str]] = []
    for i in range(1, n_learners + 1):
        learner = f"s{i:03d}"
        for ex in ("ex6.2", "ex6.4", "ex6.5", "ex6.6", "ex6.3", "ex6.7"):
            attempts = 1 + (rng.random() < 0.3) + (rng.random() < 0.1)  # resubmissions
            variant = str(rng.randint(1, 9)) if ex in ("ex6.2", "ex6.5") and rng.random() < 0.25 else ""
            for _ in range(attempts):
                row = {"learner": learner, "exercise": ex, "seed": "", "answer": "", "steps_file": ""}
                if ex in ("ex6.3", "ex6.7"):
                    # about half right (c*), the rest slipped, unjustified, short or unreadable
                    right = [p for p in proofs[ex] if p.rsplit("/", 1)[1].startswith("c")]
                    rest = [p for p in proofs[ex] if p not in right]
                    row["steps_file"] = rng.choice(right if rng.random() < 0.55 else rest)
                elif ex == "ex6.6":
                    row["answer"] = pick(FORMULAS)
                elif variant:
                    row["seed"] = variant
                    pool = ["2.05", "1.5", "4", "0.5"] if ex == "ex6.2" else ["N > 512", "N > 8192", "4096"]
                    row["answer"] = pick(pool)
                else:
                    row["answer"] = pick(POOL[ex])
                rows.append(row)
    hostile = [
        {"learner": "s007", "exercise": "ex6.3", "steps_file": "hostile/h1.tex"},
        {"learner": "s031", "exercise": "ex6.3", "steps_file": "hostile/h2.tex"},
        {"learner": "s012", "exercise": "ex6.7", "steps_file": "../../etc/hostname"},
        {"learner": "s013", "exercise": "ex6.3", "steps_file": "/etc/hostname"},
    ]
    for h in hostile:
        rows.insert(rng.randrange(len(rows)), {"seed": "", "answer": ""} | h)
    return rows


def hostile_proofs() -> dict[str, str]:
    """Two derivations built to cost as much as the limits allow: 59 lines of large sums."""
    s = " + ".join(f"q_{{{i}}} k_{{{i}}}" for i in range(1, 12))
    h1 = [rf"\operatorname{{Var}}\left(({s})^{{3}}\right) = \operatorname{{Var}}\left(({s})^{{2}}\right)"]
    h2 = [
        r"\operatorname{E}\left[(" + " + ".join(f"q_{{{i}}}" for i in range(1, 25)) + rf")^{{4}}\right] = {n}"
        for n in range(59)
    ]
    return {"h1.tex": "\n".join(h1 * 59) + "\n", "h2.tex": "\n".join(h2) + "\n"}


def write(path: Path, rows: list[dict[str, str]]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, list(rows[0]))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    write(HERE / "grade_bank.csv", bank_rows())
    write(HERE / "class_1000.csv", class_rows())
    write(HERE / "course.csv", course_rows())
    (HERE / "hostile").mkdir(exist_ok=True)
    for name, text in hostile_proofs().items():
        (HERE / "hostile" / name).write_text(text, encoding="utf-8")
