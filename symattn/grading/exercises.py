"""The module's exercises, with answers computed by the library, never typed in.

``EXERCISES`` lists ex6.1 ... ex6.7 in the module's order. Each checkable exercise is built by
a function of its numbers, so a seeded variant (:func:`variant`) is the same exercise with new
numbers and an exactly computed answer. Mistakes are the results of plausible wrong pipelines,
computed from the same definitions (uniform weights, only the largest score, ...).
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import sympy as sp

from ..core.digits import decimal_string
from ..core.exact import attention
from ..core.flops import N, cost_terms, d_model
from ..core.masks import Mask, Table
from ..errors import SymattnError
from ..proof.engine import Derivation
from .answers.judge import Expected, Mistake


class UnknownExercise(SymattnError):
    """Raised for an exercise id that does not exist, or a variant of one that has none."""


@dataclass(frozen=True)
class Exercise:
    id: str
    kind: str  # check, apply, extend
    title: str
    prompt: str
    solution_text: str
    expected: Expected | None = None
    mistakes: tuple[Mistake, ...] = ()
    solution: Callable[[], Derivation] | str | None = None  # a derivation, or a derivation name
    keywords: tuple[str, ...] = ()  # text that identifies the exercise in a module file
    params: dict = field(default_factory=dict)
    checker: str = ""  # "steps": a derivation judged line by line; "formula": ex6.6's formula
    hint: str = ""  # what the exercise page shows after two attempts that were not correct

    def __post_init__(self) -> None:
        # A "mistake" that gives the right answer (it can, for some variant numbers) or
        # repeats an earlier one would only mislead: keep the first of each distinct value.
        if self.expected is None or "drawn_with" in self.params:
            return  # a variant's mistakes were already filtered when it was drawn
        kept: list[Mistake] = []
        for m in self.mistakes:
            if _same(m.value, self.expected.value) or any(_same(m.value, k.value) for k in kept):
                continue
            kept.append(m)
        object.__setattr__(self, "mistakes", tuple(kept))

    @property
    def checkable(self) -> bool:
        return self.expected is not None

    def derivation(self) -> Derivation | None:
        if self.solution is None:
            return None
        if isinstance(self.solution, str):
            import derivations

            return derivations.load(self.solution)
        d = self.solution()
        d.requires_claims = True  # a worked solution states what it establishes
        return d


def _same(a: object, b: object) -> bool:
    if isinstance(a, sp.MatrixBase) or isinstance(b, sp.MatrixBase):
        return isinstance(a, sp.MatrixBase) and isinstance(b, sp.MatrixBase) and a == b
    from ..proof.certify import within

    try:  # distinct values are told apart by intervals; an exact proof only for equal ones
        return within(a, b, 0) is True
    except ArithmeticError:
        return False


# -- ex6.2: attention output from given scores -------------------------------------------------
def _weighted_output(scores: list[int], values: list[int]) -> sp.Expr:
    """The attention output for one query with these (already scaled) scores, exactly."""
    steps = attention([[1]], [[s] for s in scores], [[v] for v in values], scale=False)
    return steps.output[0, 0]


def output_exercise(scores: tuple[int, ...] = (2, 0, 0), values: tuple[int, ...] = (1, 4, 7)) -> Exercise:
    s, v = list(scores), list(values)
    steps = attention([[1]], [[x] for x in s], [[y] for y in v], scale=False)
    exact, weights = steps.output[0, 0], steps.weights
    e = [sp.exp(x) for x in s]
    mistakes = (
        Mistake(
            "uniform-weights",
            "That is the plain average of the values: softmax does not weigh them equally; "
            r"each weight is $e^{\text{score}}$ over the sum of $e^{\text{score}}$.",
            _weighted_output([0] * len(s), v),
        ),
        Mistake(
            "largest-score-only",
            "That is the value of the largest score alone: softmax gives every key some "
            "weight, so the other values pull the output away from it.",
            v[max(range(len(s)), key=lambda i: s[i])],  # the first largest score
        ),
        Mistake(
            "unnormalised",
            "The exponentials were not divided by their sum: weights must add up to 1.",
            sp.Add(*[a * b for a, b in zip(e, v, strict=True)]),
        ),
        Mistake(
            "weight-not-output",
            "That is a weight, not the output: multiply each weight by its value and add.",
            max(weights, key=lambda w: float(w)),
        ),
        Mistake(
            "scores-as-weights",
            "The scores were used as weights without softmax: exponentiate and normalise first.",
            sp.Add(*[a * b for a, b in zip(s, v, strict=True)]),
        ),
    )

    def solution() -> Derivation:
        from ..proof.latex import latex

        weighted = sp.Add(*[w * x for w, x in zip(weights, v, strict=True)])
        d = Derivation(
            "ex6.2",
            "Output from given scores",
            f"The output is ${latex(weighted, plus_first=True)} = {latex(exact, plus_first=True)}$.",
            assumptions=[f"scores ${list(s)}$ (already scaled) and values ${list(v)}$"],
        )
        d.step(
            sp.Matrix(
                [
                    [
                        sp.exp(x, evaluate=False)
                        / sp.Add(*[sp.exp(y, evaluate=False) for y in s], evaluate=False)
                        for x in s
                    ]
                ]
            ),
            weights,
            "softmax: $e^{z_j} / \\sum_k e^{z_k}$",
        )
        d.step(weighted, exact, "weighted sum of the values, over one denominator")
        d.claim(weighted, exact)
        d.approx(exact, decimal_string(exact, 4), "to four digits", digits=4)
        return d

    return Exercise(
        "ex6.2",
        "apply",
        "Attention output from given scores",
        f"One query has scores {list(s)} (already scaled) against {len(s)} keys whose values "
        f"are the scalars {list(v)}. What is its attention output?",
        "Softmax turns the scores into weights; the output is the weighted sum of the values.",
        Expected("number", exact, sp.Rational(1, 100)),
        mistakes,
        solution,
        keywords=(str(list(s)).replace(" ", ""), str(list(v)).replace(" ", "")),
        params={"scores": s, "values": v},
    )


# -- ex6.4: the causal mask ---------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def mask_exercise(n: int = 3) -> Exercise:
    causal = Mask.parse("causal")
    allowed = causal.table(n, n)
    expected = causal.exact(n, n)
    oo = sp.S.NegativeInfinity

    def from_allowed(ok: Table, yes: sp.Expr, no: sp.Expr) -> sp.Matrix:
        return sp.Matrix(n, n, lambda i, j: yes if ok[i][j] else no)

    strict = tuple(tuple(i > j for j in range(n)) for i in range(n))
    mistakes = (
        Mistake(
            "transposed-mask",
            r"That mask is transposed: query $i$ must not see later keys, so $-\infty$ goes "
            "above the diagonal ($j > i$), not below it.",
            expected.T,
        ),
        Mistake(
            "diagonal-blocked",
            "A token may always attend to itself: the diagonal stays $0$, and only $j > i$ is blocked.",
            from_allowed(strict, 0, oo),
        ),
        Mistake(
            "boolean-mask",
            r"A mask is added to the scores: blocked entries are $-\infty$, not $1$.",
            from_allowed(allowed, 0, 1),
        ),
        Mistake(
            "boolean-allowed",
            "$1$ for allowed and $0$ for blocked is a boolean mask; the additive mask has $0$ for "
            r"allowed and $-\infty$ for blocked.",
            from_allowed(allowed, 1, 0),
        ),
        Mistake(
            "weights-not-mask",
            "That is the first row of weights; the question asks for the whole mask matrix "
            r"($0$ where allowed, $-\infty$ where blocked).",
            sp.Matrix([[1] + [0] * (n - 1)]),
        ),
        Mistake(
            "swapped-values",
            r"$0$ and $-\infty$ are swapped: allowed pairs add $0$, blocked pairs add $-\infty$.",
            from_allowed(allowed, oo, 0),
        ),
    )

    def solution() -> Derivation:
        d = Derivation(
            "ex6.4",
            "The causal mask",
            f"The causal mask for {n} tokens; its first row of weights is [1, 0, ..., 0].",
        )
        d.unchecked = {r"j \le i": "a condition: the keys query i may see", "j > i": "a condition"}
        # The rule, entry by entry (kept unevaluated), against the mask the library builds.
        rule = sp.Matrix(
            n,
            n,
            lambda i, j: sp.Piecewise((0, sp.Le(j, i, evaluate=False)), (oo, True), evaluate=False),
        )
        d.step(
            rule,
            expected,
            "query $i$ may see keys $j \\le i$: $-\\infty$ where $j > i$",
            shown_lhs=sp.Symbol(r"M_{\text{causal}}"),
            shown_rhs=sp.Matrix(n, n, lambda i, j: 0 if j <= i else oo),
        )
        s1 = sp.Symbol("s_1", real=True)
        row = sp.Matrix([[s1] + [oo] * (n - 1)])

        terms = [sp.exp(x, evaluate=False) for x in row]
        total = sp.Add(*terms, evaluate=False)
        written_out = sp.Matrix(
            [[sp.Mul(t, sp.Pow(total, -1, evaluate=False), evaluate=False) for t in terms]]
        )
        d.step(
            written_out,
            sp.Matrix([[1] + [0] * (n - 1)]),
            "row 1 keeps only key 1, whatever its score $s_1$",
        )
        d.claim(rule, expected).claim(written_out, sp.Matrix([[1] + [0] * (n - 1)]))
        return d

    return Exercise(
        "ex6.4",
        "apply",
        "The causal mask",
        f"Write the causal mask for {n} tokens ($0$ where attention is allowed, $-\\infty$ where "
        "it is not), and say what the first row of softmax weights is whatever the scores.",
        "Token $i$ may look at tokens $1$ to $i$ only; the first token sees only itself, so its "
        "weights are $1$ then $0$s.",
        Expected(
            "matrix", expected, companion=("the first row of weights", sp.Matrix([[1] + [0] * (n - 1)]))
        ),
        mistakes,
        solution,
        keywords=("causal mask", "three tokens") if n == 3 else ("causal mask",),
        params={"n": n},
    )


# -- ex6.5: the FLOP crossover ----------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def crossover_exercise(width: int = 4096) -> Exercise:
    t = cost_terms()
    quad = sp.expand(t["scores"] + t["weighted_sum"])
    lin = sp.expand(t["projections"] + t["output_projection"])

    def solved(lhs: sp.Expr, rhs: sp.Expr) -> sp.Expr:
        # At the width first: a univariate inequality with numbers is solved 20 times faster.
        rel = sp.reduce_inequalities((lhs > rhs).subs(d_model, width), N)
        return rel.lhs if rel.rhs == N else rel.rhs

    answer = solved(quad, lin)
    mistakes = tuple(
        m
        for m in (
            Mistake(
                "crossover-at-d-model",
                "That compares $N^2 d$ with $N d^2$ and drops the factors 2 and 4: "
                r"$2 N^2 d > 4 N d^2$ gives $N > 2 d_{\text{model}}$.",
                solved(quad / 2, lin / 4),
            ),
            Mistake(
                "one-quadratic-term",
                "Both the scores and the weighted sum cost $N^2 d$: the quadratic term is $2 N^2 d$.",
                solved(t["scores"], lin),
            ),
            Mistake(
                "projections-only",
                "The output projection is part of the linear term too: it is $4 N d^2$, not $3 N d^2$.",
                solved(quad, t["projections"]),
            ),
            Mistake(
                "terms-swapped",
                "The coefficients are swapped: the linear term is $4 N d^2$, the quadratic $2 N^2 d$.",
                solved(2 * quad, lin / 2),
            ),
        )
        if m.value != answer
    )

    def solution() -> Derivation:
        from derivations.multihead_flops import _solved_for_n

        d = Derivation(
            "ex6.5",
            "Where the N^2 term overtakes",
            f"The quadratic term is the larger exactly when $N > {answer}$.",
            assumptions=[rf"$d_{{\text{{model}}}} = {width}$; the length $N$ a positive integer"],
        )
        # The solution states its answer; the check solves the inequality itself.
        solved = sp.StrictGreaterThan(N, 2 * d_model)  # N > 2 d_model, as the module writes it
        d.step(
            quad > lin,
            solved,
            r"solve for $N$ ($N, d_{\text{model}} > 0$)",
            relation="⟺",
            check=_solved_for_n,
        )
        d.step(
            2 * d_model,
            answer,
            f"at $d_{{\\text{{model}}}} = {width}$",
            given={d_model: width},
        )
        d.claim(quad > lin, solved, "⟺")
        return d

    return Exercise(
        "ex6.5",
        "apply",
        "Where the quadratic cost takes over",
        rf"For $d_{{\text{{model}}}} = {width}$, beyond what sequence length $N$ is the "
        r"$2 N^2 d_{\text{model}}$ term of multi-head attention's cost larger than the "
        r"$4 N d_{\text{model}}^2$ term?",
        r"$2 N^2 d > 4 N d^2$ exactly when $N > 2 d_{\text{model}}$.",
        Expected("threshold", answer, sp.S.Zero, "N", (("d_{model}", width), ("d", width))),
        mistakes,
        solution,
        keywords=(f"{width}",),
        params={"width": width},
    )


# -- the registry -----------------------------------------------------------------------------
def _plain(
    id_: str,
    kind: str,
    title: str,
    prompt: str,
    solution: str,
    derivation: str | None,
    keywords: tuple[str, ...],
) -> Exercise:
    return Exercise(id_, kind, title, prompt, solution, solution=derivation, keywords=keywords)


def _checked(e: Exercise, checker: str) -> Exercise:
    """``e`` judged by :mod:`symattn.grading.proofs.proof_judge` ("steps") or
    :mod:`symattn.grading.answers.formula`."""
    import dataclasses

    return dataclasses.replace(e, checker=checker)


def _build() -> dict[str, Exercise]:
    exercises = [
        _plain(
            "ex6.1",
            "check",
            "What queries, keys and values are for",
            "In one sentence each: what does a token's query describe, what does its key "
            "describe, and what does its value carry?",
            "The query says what the token is looking for; the key says what it can be "
            "found by; the value is what it passes on to the tokens that attend to it.",
            None,
            ("query", "key", "value"),
        ),
        output_exercise(),
        _plain(
            "ex6.3",
            "apply",
            "Scaling gives unit variance",
            r"With the rules for expectation and variance, show that "
            r"$\operatorname{Var}(z / \sqrt{d_k}) = 1$ when $z$ is a sum of $d_k$ independent "
            "products of mean 0 and variance 1.",
            r"Variances of independent terms add, so $\operatorname{Var}(z) = d_k$; dividing by "
            r"$\sqrt{d_k}$ divides the variance by $d_k$.",
            "variance_scaling",
            ("var", "sqrt{d_k}"),
        ),
        mask_exercise(),
        crossover_exercise(),
        _plain(
            "ex6.6",
            "extend",
            "Uniform weights",
            "If a head's softmax weights are exactly uniform over all $N$ tokens, what does it "
            "compute, and why can that still be useful?",
            "Every token receives the mean of all value vectors, the same for all of them: a "
            "summary of the whole context, a sensible fallback when nothing specific matters.",
            None,
            ("uniform",),
        ),
        _plain(
            "ex6.7",
            "extend",
            "Permutation equivariance",
            "Show that self-attention with no mask and no positions is permutation-"
            "equivariant: reordering the rows of $X$ reorders the output rows the same way.",
            r"$(PQ)(PK)^\top = P S P^\top$; the row softmax commutes with reordering; "
            r"$P^\top P = I$, so the output is $P$ times the original output.",
            "permutation_equivariance",
            ("permutation",),
        ),
    ]
    checkers = {"ex6.3": "steps", "ex6.6": "formula", "ex6.7": "steps"}
    exercises = [_checked(e, checkers[e.id]) if e.id in checkers else e for e in exercises]
    return {e.id: dataclasses.replace(e, hint=HINTS.get(e.id, "")) for e in exercises}


#: The hint each checked exercise's page gives after two attempts that were not correct: a
#: step toward the answer, in words that hold for every variant's numbers.
HINTS = {
    "ex6.2": r"Turn the scores into weights first: key $j$ gets $e^{s_j}$ divided by the sum of "
    r"$e^{s}$ over all keys. The output is then the sum of the values, each times its weight.",
    "ex6.3": r"Write $z = \sum_{i=1}^{d_k} q_i k_i$. For independent terms the variance of the sum "
    r"is the sum of the variances, and each product has variance 1; a constant comes out of a "
    r"variance squared: $\operatorname{Var}(c z) = c^2 \operatorname{Var}(z)$.",
    "ex6.4": r"Row $i$ is query $i$: it may look at keys $j \le i$ (entry $0$) and at no later one "
    r"(entry $-\infty$). The zeros fill the diagonal and everything below it.",
    "ex6.5": r"Set the two terms equal and solve for $N$ (divide both sides by $2 N d_{\text{model}}$): "
    r"the quadratic term is the larger for every longer sequence.",
    "ex6.6": r"With $N$ equal weights each weight is $1/N$: write the weighted sum of the values "
    r"$v_1, \dots, v_N$ with those weights.",
    "ex6.7": r"Replace $X$ by $PX$ in the three projections: the scores become $P S P^\top$. Use that "
    r"the row softmax commutes with reordering, $\operatorname{softmax}(P S P^\top) = P\,"
    r"\operatorname{softmax}(S) P^\top$, and that $P^\top P = I$.",
}


EXERCISES = _build()

#: How each exercise with numbers draws a variant from a random generator. Another module may
#: add an entry (``VARIANTS["ex7.1"] = builder``); :func:`variant` applies the same guard to all.
VARIANTS: dict[str, Callable[[random.Random], Exercise]] = {
    "ex6.2": lambda rng: output_exercise(*_scores_and_values(rng)),
    "ex6.4": lambda rng: mask_exercise(rng.randint(2, 6)),
    "ex6.5": lambda rng: crossover_exercise(rng.choice([64, 128, 256, 512, 768, 1024, 2048, 8192])),
}
#: The registries as this module builds them, before any plugin or other module adds to them:
#: :func:`symattn.grading.plugins.loaded` restores them from here when it did not see them before.
BUILT_IN: tuple[dict[str, Exercise], dict[str, Callable[[random.Random], Exercise]]] = (
    dict(EXERCISES),
    dict(VARIANTS),
)
#: Seeds tried after the requested one before giving up (never reached in practice).
MAX_SKIP = 100


def _scores_and_values(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    k = rng.randint(2, 4)
    while True:  # equal scores would make the uniform-weights slip the right answer
        scores = [rng.randint(-2, 3) for _ in range(k)]
        if len(set(scores)) > 1:
            break
    values = rng.sample(range(-5, 10), k)
    return tuple(scores), tuple(values)


def solutions() -> dict[str, Callable[[], Derivation]]:
    """The worked solutions that are derivations of their own (not one of ``derivations``), by
    exercise id: ``symattn verify`` verifies them beside the derivations."""
    return {e.id: e.derivation for e in EXERCISES.values() if callable(e.solution)}


def solution_mutations(ids: list[str] | None = None) -> list:
    """Errors planted in the worked solutions (``verify --mutations``): see
    :func:`derivations.planted.worked`."""
    from derivations.planted import worked

    found = solutions()
    return [m for i in (found if ids is None else ids) if i in found for m in worked(i, found[i])]


def get(exercise_id: str, seed: int | None = None) -> Exercise:
    """The exercise ``exercise_id``, or its variant for ``seed``."""
    key = exercise_id.lower()
    if key not in EXERCISES:
        raise UnknownExercise(f"no exercise {exercise_id!r}; the exercises are {', '.join(EXERCISES)}")
    if seed is None:
        return EXERCISES[key]
    return variant(key, seed)


def variant(exercise_id: str, seed: int) -> Exercise:
    """The same exercise with new numbers drawn from ``seed`` (deterministic).

    A draw in which some slip lands within twice the tolerance of the answer (so that a
    slip, or a rounding of it, would pass as correct) is skipped: the next seed is tried, and
    the variant's ``params["seed_note"]`` says which seed was used instead and why.
    """
    if exercise_id not in VARIANTS:
        raise UnknownExercise(f"{exercise_id} has no numeric variants")
    skipped = None
    for used in range(seed, seed + MAX_SKIP):
        ex = VARIANTS[exercise_id](random.Random(used))
        close = slip_too_close(ex)
        if close is None:
            break
        skipped = skipped or close
    else:  # pragma: no cover - no exercise comes near this
        raise UnknownExercise(f"no usable variant of {exercise_id} near seed {seed}")
    params = {**ex.params, "seed": seed, "drawn_with": used}
    if used != seed:
        params["seed_note"] = (
            f"seed {seed} would give a variant whose slip '{skipped}' lies within the tolerance of "
            f"the answer, so this variant uses the numbers of seed {used}"
        )
    return dataclasses.replace(ex, params=params)


def slip_too_close(ex: Exercise) -> str | None:
    """The code of a slip within twice the tolerance of the answer (certified), or None."""
    if ex.expected is None or ex.expected.kind == "matrix":
        return None
    from ..proof.certify import within

    for m in ex.mistakes:
        if within(m.value, ex.expected.value, 2 * ex.expected.tolerance) is not False:
            return m.code
    return None
