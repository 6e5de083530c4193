r"""Judging a learner's derivation step by step (ex6.3 and ex6.7).

Each step ``A = B`` is judged in a forked worker with time and memory limits
(:func:`symattn.grading.answers.parsing.isolated`, as answers are):

1. both sides are read (:mod:`symattn.grading.proofs.step_reader`) and put in normal form, the algebra any
   step may use;
2. the step's truth is decided: for ex6.3 by evaluating E and Var exactly for a symbolic d_k,
   for ex6.7 exactly at concrete sizes with a permutation that is not its own inverse;
3. a true step is **ok** when the exercise's rules (and lines already proved) rewrite one side
   into the other within :data:`PROOF_DEPTH` rules; it is **unjustified** when it needs a rule
   the exercise does not teach (named) or more rules than that in one step;
4. a false step is **wrong**, with a counterexample (a width and a distribution, or a
   permutation and matrices) and, where a known slip explains it, what the slip was.

The derivation is **correct** when every step is ok and the proved equalities connect the
exercise's goal; otherwise **incorrect** (the first step that is not ok, or "does not reach").
A line that cannot be read makes it **invalid**, unless a wrong step comes before it: a false
step is the verdict, whatever follows.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import asdict, dataclass, field, replace
from typing import Any, ClassVar

from ...errors import SymattnError
from ..worker import plain_result
from .step_reader import StepSyntaxError, parse_expression, read_lines

#: Most rules one step may combine.
PROOF_DEPTH = 2
#: Deeper searches, only to name what an unjustified step needs.
NAMING_DEPTH = 4
#: States explored per side of a search, at most.
BUDGET = 150
#: The time safety net (issue 49). What a derivation may ask for is bounded by its text (at most
#: MAX_LINES steps of MAX_LINE characters, MAX_STEP_TERMS terms a step, MAX_DERIVATION_TERMS in
#: all, MAX_SOFTMAX softmax a side, at most MAX_COSTLY_STEPS costly steps:
#: :func:`_measured`). Every derivation of the banks takes about a second of CPU here
#: (bench/limits.py) and the costliest the measures admit (sixty softmax lines, the four costly
#: steps allowed among them) about 20 s; the limits below are set far above (a slower machine
#: spends more CPU), and a busy machine's clock runs ahead of the CPU spent (5 x beside four
#: spinning processes a core). When one
#: fires, the verdict is ``unchecked`` ("try again"), never ``invalid`` or "does not reach".
#: One step in its worker: CPU seconds, wall-clock seconds (3 x), memory (MB beyond what the
#: worker inherits).
CPU_SECONDS = 10
TIMEOUT = 10.0
MEMORY_MB = 400
#: CPU for a whole derivation, this process's and its workers' together.
TOTAL_SECONDS = 120.0
#: Wall clock for a whole derivation: a busy machine's clock runs ahead of the CPU time spent.
WALL_SECONDS = 600.0


@plain_result
@dataclass(frozen=True)
class StepResult:
    line: int
    latex: str
    status: str  # ok, wrong, unjustified, invalid, unchecked (the time net fired)
    rule: str = ""
    feedback: str = ""
    slip: str = ""  # a wrong step's named slip, as the feedback names it in brackets


@dataclass
class ProofVerdict:
    id: str
    verdict: str  # correct, incorrect, invalid, unchecked (symattn.grading.outcomes)
    steps: list[StepResult] = field(default_factory=list)
    feedback: str = ""

    @property
    def exit_code(self) -> int:
        from ..outcomes import exit_code

        return exit_code(self.verdict)

    @property
    def first_fault(self) -> StepResult | None:
        """The first step that is not ok, or None."""
        return next((s for s in self.steps if s.status != "ok"), None)

    @property
    def mistake(self) -> str:
        """What a teacher's summary counts for this derivation: the first faulty step's named
        slip, else its rule (for a step that is true but unjustified), else what kind of fault it
        is; "stops short of the goal" for a derivation whose steps are all right."""
        if self.verdict == "correct":
            return ""
        s = self.first_fault
        if s is None:
            return "stops short of the goal" if self.verdict == "incorrect" else ""
        if s.status == "invalid":
            return ""
        if s.status == "wrong":
            return s.slip
        return s.rule or "unjustified step"

    @property
    def given(self) -> str:
        """The first faulty step, as ``line N: LaTeX`` (what the derivation was read as there)."""
        s = self.first_fault
        return f"line {s.line}: {s.latex}" if s is not None else ""

    #: What a derivation was read as, typeset: nothing (its lines are the learner's own text).
    given_latex: ClassVar[str] = ""
    #: ... and with numbers as typed: nothing either (``check --steps --json`` prints no such field).
    typed: ClassVar[str] = ""
    notes: ClassVar[tuple[str, ...]] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "verdict": self.verdict,
            "steps": [asdict(s) for s in self.steps],
            "feedback": self.feedback,
            "mistake": self.mistake,
            "given": self.given,
        }


# -- the two exercises ----------------------------------------------------------------------
class World:
    """What a step of one exercise means: reading, normal form, rules, truth, goal."""

    id = ""
    goal_text = ""

    def read(self, text: str, defs: dict) -> Any:
        raise NotImplementedError

    def normal(self, expr: Any, defs: dict) -> Any:
        raise NotImplementedError

    def apply(self, rule: Any, key: Any) -> Any:
        raise NotImplementedError

    def fact(self, lhs: Any, rhs: Any) -> Any:
        raise NotImplementedError

    def truth(self, lhs: Any, rhs: Any) -> tuple[str, str | None]:
        raise NotImplementedError

    def goals(self) -> list[tuple[Any, Any]]:
        raise NotImplementedError

    def reachable(self) -> list[tuple[Any, Any]]:
        """The statements a derivation may end in: :meth:`goals` and forms of them (the
        circular-step check uses :meth:`goals` alone)."""
        return self.goals()

    def established(self, goal: tuple[Any, Any]) -> str:
        """What a derivation that reaches ``goal`` (one of :meth:`goals`) has shown, as Markdown."""
        return f"${self.goal_text}$"

    def definition(self, lhs_text: str, defs: dict) -> str | None:
        return None

    def expanded(self, expr: Any) -> Any:
        """``expr`` with the rewritings that are always true and change no slip carried out (the
        transpose of a product expanded), so that a slip is named on the sides as they multiply."""
        return expr

    def uneven(self, lhs_text: str, rhs_text: str) -> str | None:
        """Why a step is wrong before it is read, where its notation alone shows it; or None."""
        return None

    def notation(self, text: str, lines: list) -> list:
        """The derivation's lines in the world's own notation, where the text declares or uses
        another (Einstein's convention, a permutation as a function); as they are by default."""
        return lines

    def slip(self, lhs: Any, rhs: Any) -> tuple[str, str] | None:
        """A named slip found by looking at the whole step (not a rewrite): why the step is
        wrong and the slip's name; or None."""
        return None

    def split(self, lhs: Any, rhs: Any) -> list | None:
        """A right side given by cases, as one step per case: (name, lhs, rhs, assumption)."""
        return None

    def whole(self, rhs: Any) -> Any:
        return rhs

    @contextlib.contextmanager
    def distinct(self, pair: Any) -> Any:
        yield

    rules: tuple = ()
    extra: tuple = ()
    mistakes: tuple = ()


class VarianceWorld(World):
    id = "ex6.3"

    def __init__(self) -> None:
        from . import variance_world as s

        self.s = s
        self.goal_text = s.GOAL_TEXT
        self.rules, self.extra, self.mistakes = s.RULES, s.EXTRA, s.MISTAKES

    def read(self, text: str, defs: dict) -> Any:
        return self.s.build(parse_expression(self.s.bare_sigma(text)))

    def uneven(self, lhs_text: str, rhs_text: str) -> str | None:
        return self.s.sigma_uneven(lhs_text, rhs_text)

    def notation(self, text: str, lines: list) -> list:
        index = self.s.einstein_index(text)
        if index is None:
            return lines
        return [  # declared: the repeated index is summed
            replace(
                ln,
                lhs=None if ln.lhs is None else self.s.einstein(ln.lhs, index),
                rhs=self.s.einstein(ln.rhs, index),
            )
            for ln in lines
        ]

    def normal(self, expr: Any, defs: dict) -> Any:
        if isinstance(expr, self.s.CaseSplit):
            return self.s.CaseSplit(expr.pair, self.s.canon(expr.equal), self.s.canon(expr.different))
        return self.s.canon(expr)

    def split(self, lhs: Any, rhs: Any) -> list | None:
        steps = self.s.case_steps(lhs, rhs)
        if steps is None:
            if isinstance(lhs, self.s.CaseSplit) or isinstance(rhs, self.s.CaseSplit):
                raise StepSyntaxError("both sides split into cases, on different indices")
            return None
        return [(name, self.s.canon(a), self.s.canon(b), pair) for name, a, b, pair in steps]

    def whole(self, side: Any) -> Any:
        return self.s.canon(side.whole()) if isinstance(side, self.s.CaseSplit) else side

    @contextlib.contextmanager
    def distinct(self, pair: Any) -> Any:
        if pair is not None:
            self.s.DISTINCT.add(pair)
        try:
            yield
        finally:
            self.s.DISTINCT.discard(pair)

    def apply(self, rule: Any, key: Any) -> Any:
        return self.s.renormal(self.s.rewrite_all(key, rule))

    def fact(self, lhs: Any, rhs: Any) -> Any:
        return self.s.fact_rule(lhs, rhs)

    def truth(self, lhs: Any, rhs: Any) -> tuple[str, str | None]:
        s = self.s
        try:
            verdict = s.truth(lhs, rhs)
        except s.Unsupported as exc:
            raise StepSyntaxError(f"symattn cannot evaluate this step: {exc}") from None
        if verdict == "false":
            return "false", s.counterexample(lhs, rhs) or s.difference_text(lhs, rhs)
        return verdict, None

    def slip(self, lhs: Any, rhs: Any) -> tuple[str, str] | None:
        return self.s.shifted_range(lhs, rhs)

    def goals(self) -> list[tuple[Any, Any]]:
        lhs, rhs = self.s.GOAL
        return [(self.s.canon(lhs), self.s.canon(rhs))]


class PermutationWorld(World):
    id = "ex6.7"

    def __init__(self) -> None:
        from . import permutation_world as m

        self.m = m
        self.goal_text = m.GOALS_TEXT
        self.rules, self.extra, self.mistakes = m.RULES, m.EXTRA, m.MISTAKES

    def read(self, text: str, defs: dict) -> Any:
        return self.m.build(parse_expression(text), defs)

    def normal(self, expr: Any, defs: dict) -> Any:
        return self.m.canon(expr, defs)

    def apply(self, rule: Any, key: Any) -> Any:
        return self.m.everywhere(key, rule)

    def fact(self, lhs: Any, rhs: Any) -> Any:
        return self.m.fact_rule(lhs, rhs)

    def expanded(self, expr: Any) -> Any:
        transpose = self.m.RULES[0].rewrite
        for _ in range(8):  # each pass expands one more level of nested transposes
            after = self.m.everywhere(expr, transpose)
            if after == expr:
                break
            expr = after
        return expr

    def slip(self, lhs: Any, rhs: Any) -> tuple[str, str] | None:
        return self.m.exchanged(lhs, rhs)

    def truth(self, lhs: Any, rhs: Any) -> tuple[str, str | None]:
        diff = self.m.difference(lhs, rhs)
        return ("true", None) if diff is None else ("false", diff)

    def goals(self) -> list[tuple[Any, Any]]:
        return self.m.goals()

    def reachable(self) -> list[tuple[Any, Any]]:
        return self.m.reachable()

    def established(self, goal: tuple[Any, Any]) -> str:
        return self.m.established(goal)

    def notation(self, text: str, lines: list) -> list:
        lines = self.m.choices(lines)
        if "\\pi" not in text:
            return lines
        from . import index_notation  # a permutation as a function: rows and entries

        inverse, perm = index_notation.convention(text), index_notation.permutation(text)
        return [
            replace(ln, lhs=t[0], rhs=t[1])
            if not ln.error and (t := index_notation.translate(ln.lhs, ln.rhs, inverse, perm)) is not None
            else ln
            for ln in lines
        ]

    def definition(self, lhs_text: str, defs: dict) -> str | None:
        node = parse_expression(lhs_text)
        if node[0] == "id" and node[2] is None and node[3] is None and node[1] in self.m.DEFINABLE:
            return None if node[1] in defs else node[1]
        return None


_WORLDS: dict[str, World] = {}


def world(exercise_id: str) -> World:
    if exercise_id not in _WORLDS:
        _WORLDS[exercise_id] = {"ex6.3": VarianceWorld, "ex6.7": PermutationWorld}[exercise_id]()
    return _WORLDS[exercise_id]


STEP_EXERCISES = ("ex6.3", "ex6.7")


# -- searching for a proof ------------------------------------------------------------------
@dataclass(frozen=True)
class Move:
    name: str
    rewrite: Any
    feedback: str = ""
    kind: str = "rule"  # rule, substitution, extra, mistake, fact


def _grow(w: World, seen: dict[Any, list[Move]], frontier: list[Any], moves: list[Move]) -> list[Any]:
    """One more level of rewrites from ``frontier``; new states go into ``seen``."""
    out = []
    for key in frontier:
        for mv in moves:
            if len(seen) >= BUDGET:
                return out
            try:
                new = w.apply(mv.rewrite, key)
            except (ValueError, TypeError, ZeroDivisionError, AttributeError):
                continue
            if new is not None and new not in seen:
                seen[new] = [*seen[key], mv]
                out.append(new)
    return out


def search(
    w: World, lhs: Any, rhs: Any, moves: list[Move], depth: int, right: list[Move] | None = None
) -> list[Move] | None:
    """A shortest list of moves that takes both sides to one normal form, within ``depth``.

    ``right`` are the moves allowed on the right side (default: ``moves``). Iterative
    deepening from both sides: total depth t = 1, 2, ... is tried before t + 1, and each side's
    levels are computed only when a split of t needs them.
    """
    if lhs == rhs:
        return []
    sides = [({lhs: []}, [[lhs]], moves), ({rhs: []}, [[rhs]], moves if right is None else right)]

    def upto(side: int, level: int) -> dict[Any, list[Move]]:
        seen, levels, allowed = sides[side]
        while len(levels) <= level and levels[-1]:
            levels.append(_grow(w, seen, levels[-1], allowed))
        return seen

    for t in range(1, depth + 1):
        best: list[Move] | None = None
        for a in range(t + 1):
            left, right_seen = upto(0, a), upto(1, t - a)
            for key, path in left.items():
                if key in right_seen and len(path) <= a and len(right_seen[key]) <= t - a:
                    total = path + right_seen[key]
                    if best is None or len(total) < len(best):
                        best = total
        if best is not None:
            return best
    return None


def one_sided(w: World, lhs: Any, rhs: Any, moves: list[Move], depth: int) -> list[Move] | None:
    """:func:`search` with substitutions (hypotheses' values) put into one side only, either
    side: the shorter of the two paths."""
    plain = [m for m in moves if m.kind != "substitution"]
    paths = [search(w, lhs, rhs, moves, depth, plain), search(w, lhs, rhs, plain, depth, moves)]
    found = [p for p in paths if p is not None]
    return min(found, key=len) if found else None


def _names(path: list[Move]) -> str:
    return "; ".join(dict.fromkeys(m.name for m in path)) or "algebra"


def _moves(rules: tuple, kind: str) -> list[Move]:
    return [Move(r.name, r.rewrite, r.feedback, "substitution" if r.substitution else kind) for r in rules]


def judge_step(exercise_id: str, lhs_text: str, rhs_text: str, facts: list, defs: dict) -> dict:
    """Judge one step; runs inside the worker. Returns status, rule, feedback and normal forms."""
    try:
        return _judge_step(world(exercise_id), lhs_text, rhs_text, facts, defs)
    except StepSyntaxError as exc:
        return {"status": "invalid", "rule": "", "feedback": str(exc)}


_SHAPES = "the shapes do not fit"


def _judge_step(w: World, lhs_text: str, rhs_text: str, facts: list, defs: dict) -> dict:
    name = w.definition(lhs_text, defs)
    if name is not None and re.search(rf"(?<![A-Za-z\\]){re.escape(name)}(?![A-Za-z'])", rhs_text):
        name = None  # "S = P S P^T" names S on both sides: a claim about S, not its definition
    if (uneven := w.uneven(lhs_text, rhs_text)) is not None:
        return {"status": "wrong", "rule": "", "feedback": uneven, "slip": ""}
    try:
        rhs = w.normal(w.read(rhs_text, defs), defs)
    except StepSyntaxError as exc:
        if name is not None or not str(exc).startswith(_SHAPES):
            raise
        w.normal(w.read(lhs_text, defs), defs)  # the left side must read
        feedback, slip = _shape_slip(lhs_text, str(exc))
        return {"status": "wrong", "rule": "", "feedback": feedback, "slip": slip}
    if name is not None:
        return {"status": "ok", "rule": f"definition of {name}", "feedback": "", "define": (name, rhs)}
    lhs = w.normal(w.read(lhs_text, defs), defs)
    cases = w.split(lhs, rhs)
    if cases is not None:
        return _judge_cases(w, lhs, rhs, cases, facts)
    return _judge_sides(w, lhs, rhs, facts)


def _judge_cases(w: World, lhs: Any, rhs: Any, cases: list, facts: list) -> dict:
    """A step whose right side is given by cases: each case judged as a step of its own (the
    case i = j with j put equal to i, the case i != j with the two known to differ)."""
    lhs, whole = w.whole(lhs), w.whole(rhs)
    rules = []
    for name, a, b, pair in cases:
        with w.distinct(pair):
            got = _judge_sides(w, a, b, facts)
        if got["status"] != "ok":
            return {
                "lhs": lhs,
                "rhs": whole,
                "status": got["status"],
                "rule": got["rule"],
                "feedback": f"in the case {name}: {got['feedback']}",
                "slip": got.get("slip", ""),
            }
        rules.append(f"{name}: {got['rule']}")
    return {
        "lhs": lhs,
        "rhs": whole,
        "status": "ok",
        "rule": "by cases (" + "; ".join(rules) + ")",
        "feedback": "",
    }


def _sides_to_explain(w: World, lhs: Any, rhs: Any) -> list[tuple[Any, Any]]:
    """The step's sides as written, then expanded where that changes them."""
    expanded = (w.expanded(lhs), w.expanded(rhs))
    return [(lhs, rhs)] + ([expanded] if expanded != (lhs, rhs) else [])


def _judge_sides(w: World, lhs: Any, rhs: Any, facts: list) -> dict:
    out = {"lhs": lhs, "rhs": rhs}
    if lhs == rhs:
        return out | {"status": "ok", "rule": "algebra", "feedback": ""}
    fact_moves = []
    for line, a, b in facts:
        for x, y in ((a, b), (b, a)):
            rule = w.fact(x, y)
            if rule is not None:
                fact_moves.append(Move(f"the result of line {line}", rule, "", "fact"))
    allowed = _moves(w.rules, "rule") + fact_moves
    verdict, counter = w.truth(lhs, rhs)
    if verdict == "false":
        # A slip is named only when it alone (with lines already proved) explains the step:
        # with the allowed rules too, some path through a slip explains almost anything.
        # on the sides as written, and with the transposes of products expanded: the shorter
        # explanation names the slip (as written first: it keeps the evidence of a transpose slip)
        slips = fact_moves + _moves(w.mistakes, "mistake")
        found = [search(w, a, b, slips, PROOF_DEPTH) for a, b in _sides_to_explain(w, lhs, rhs)]
        slip = min((f for f in found if f is not None), key=len, default=None)
        mistakes = [m for m in (slip or []) if m.kind == "mistake"]
        parts, slip = [], ""
        # The whole step's one slip is the better explanation than two slips carried out.
        named = w.slip(lhs, rhs) if len(mistakes) != 1 else None
        if named:
            why, slip = named
            parts.append(f"{why} (the slip: {slip})")
        elif mistakes:
            slip = mistakes[0].name
            parts.append(f"{mistakes[0].feedback} (the slip: {slip})")
        if counter and counter.startswith("the two sides"):
            parts.append(counter)
        else:
            parts.append(f"the two sides differ {counter}" if counter else "the two sides differ")
        return out | {"status": "wrong", "rule": "", "feedback": "; ".join(parts), "slip": slip}
    if verdict == "true":
        # A rule used on both sides counts once: at most PROOF_DEPTH different rules; lines
        # already proved, cited as lemmas ("by 1 and 2"), are not rules.
        path = one_sided(w, lhs, rhs, allowed, PROOF_DEPTH + 1)
        if path is not None and len({m.name for m in path if m.kind != "fact"}) <= PROOF_DEPTH:
            return out | {"status": "ok", "rule": _names(path), "feedback": ""}
    path = one_sided(w, lhs, rhs, allowed + _moves(w.extra, "extra"), PROOF_DEPTH + 1)
    extra = [m for m in (path or []) if m.kind == "extra"]
    uses_extra = extra and out | {
        "status": "unjustified",
        "rule": extra[0].name,
        "feedback": f"true, but it uses {extra[0].name}: {extra[0].feedback}",
    }
    if uses_extra and len(path) == 1:  # the step is that statement itself
        return uses_extra
    goal_moves = [
        Move("the statement to prove", rule, "", "fact")
        for a, b in w.goals()
        for x, y in ((a, b), (b, a))
        if (rule := w.fact(x, y)) is not None
    ]
    circular = out | {
        "status": "unjustified",
        "rule": "circular",
        "feedback": f"circular: this step follows only from ${w.goal_text}$, which is what the "
        "derivation is to prove; derive it from the exercise's rules instead",
    }
    if (lhs, rhs) in w.goals() or (rhs, lhs) in w.goals():  # the step is the statement to prove
        return circular
    if verdict == "normal":
        return out | {
            "status": "unjustified",
            "rule": "normal entries",
            "feedback": "true only for normal entries; the exercise assumes only mean 0, variance 1 "
            "and independence",
        }
    longer = one_sided(w, lhs, rhs, allowed, NAMING_DEPTH)
    if longer is not None:
        return out | {
            "status": "unjustified",
            "rule": _names(longer),
            "feedback": f"true, but it takes {len({m.name for m in longer})} rules in one step "
            f"({_names(longer)}); "
            f"a step may combine at most {PROOF_DEPTH}: write the steps between",
        }
    if uses_extra:
        return uses_extra
    circle = one_sided(w, lhs, rhs, allowed + goal_moves, PROOF_DEPTH + 1)
    if circle is not None and any(m in goal_moves for m in circle):
        return circular
    if search(w, lhs, rhs, allowed, NAMING_DEPTH) is not None:
        return out | {
            "status": "unjustified",
            "rule": "hypotheses on both sides",
            "feedback": "the two sides only take the same value once the hypotheses' values are put "
            "into each of them; neither side is the other with those values put in, so this step "
            "does not follow: derive one side from the other",
        }
    return out | {
        "status": "unjustified",
        "rule": "",
        "feedback": f"true, but not reached from the exercise's rules within {NAMING_DEPTH} rules",
    }


def _shape_slip(lhs_text: str, message: str) -> tuple[str, str]:
    """Why a right side whose shapes do not fit is wrong, naming the slip that usually makes one
    (the feedback, and the slip's name or "")."""
    import re

    why = f"the left side is a matrix, but on the right {message}"
    if re.search(r"\)\s*\^\s*(\\top|\\intercal|T\b|\{\s*(\\top|T)\s*\})", lhs_text):
        slip = r"$(AB)^\top = A^\top B^\top$"
        reverses = r"the transpose of a product reverses the order: $(AB)^\top = B^\top A^\top$"
        return f"{reverses} (the slip: {slip}); {why}", slip
    return why, ""


# -- the whole derivation -------------------------------------------------------------------
class _Links:
    """Which normal forms the proved steps have shown equal (union-find)."""

    def __init__(self) -> None:
        self.parent: dict[Any, Any] = {}

    def find(self, x: Any) -> Any:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def join(self, a: Any, b: Any) -> None:
        self.parent[self.find(a)] = self.find(b)


@dataclass
class _State:
    """What the steps so far have proved: lines as facts, definitions, linked normal forms.

    It holds SymPy objects built from the learner's text, so it crosses between workers only
    as pickled bytes that the parent never unpickles (:func:`_judge_line`)."""

    facts: list = field(default_factory=list)
    defs: dict = field(default_factory=dict)
    links: _Links = field(default_factory=_Links)
    chain_start: Any = None


def _judge_line(exercise_id: str, lhs_text: str, rhs_text: str, number: int, starts: bool, blob: bytes):
    """One step, in its worker: the state from ``blob``, the step judged, the state updated.

    Returns plain data: (status, rule, feedback, slip) and the new state as bytes."""
    import pickle

    state: _State = pickle.loads(blob)
    got = judge_step(exercise_id, lhs_text, rhs_text, state.facts, state.defs)
    if got["status"] != "invalid" and ("define" in got or "lhs" in got):
        if "define" in got:
            state.defs[got["define"][0]] = got["define"][1]
        else:
            if starts:
                state.chain_start = got["lhs"]
            if got["status"] == "ok":
                state.facts.append((number, got["lhs"], got["rhs"]))
                state.links.join(got["lhs"], got["rhs"])
                if state.chain_start is not None and state.chain_start != got["lhs"]:
                    state.facts.append((number, state.chain_start, got["rhs"]))
    return (got["status"], got["rule"], got["feedback"], got.get("slip", "")), pickle.dumps(state)


def _workers_cpu() -> float:
    """CPU seconds spent so far by this process and its finished workers (0 where not measurable):
    the parent's share (forking, collecting) counts against a derivation's budget too."""
    try:
        import resource
    except ImportError:  # a browser's Python: the page's Web Worker has its own deadline
        return 0.0
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def _reaches_goal(exercise_id: str, blob: bytes) -> str | None:
    """What the proved equalities in ``blob`` establish of the exercise's goals (in a worker):
    the first goal they connect, as :meth:`World.established` says it; None for none."""
    import pickle

    links = pickle.loads(blob).links
    w = world(exercise_id)
    return next((w.established(g) for g in w.reachable() if links.find(g[0]) == links.find(g[1])), None)


def _connects(exercise_id: str, blob: bytes, lhs_text: str, rhs_text: str) -> bool:
    """Whether the proved equalities in ``blob`` connect the two sides of a stated claim."""
    import pickle

    state: _State = pickle.loads(blob)
    w = world(exercise_id)
    try:
        lhs = w.normal(w.read(lhs_text, state.defs), state.defs)
        rhs = w.normal(w.read(rhs_text, state.defs), state.defs)
    except StepSyntaxError:
        return False
    return state.links.find(lhs) == state.links.find(rhs)


def check_derivation(exercise_id: str, text: str, isolate: bool = True) -> ProofVerdict:
    """Judge a learner's derivation for ``exercise_id`` (ex6.3 or ex6.7).

    Each step runs in a limited worker, and the whole derivation gets at most
    :data:`TOTAL_SECONDS`. ``isolate=False`` judges in this process, without limits: only for
    derivations symattn itself ships (the docs' worked checks), so that a busy machine cannot
    change generated files.
    """
    import math
    import pickle
    import time

    from ..worker import CAN_FORK, OutOfTime, WorkerError, isolated

    deadline = time.monotonic() + WALL_SECONDS
    spent = _workers_cpu()

    if exercise_id not in STEP_EXERCISES:
        raise SymattnError(
            f"{exercise_id} is not checked step by step (those are {', '.join(STEP_EXERCISES)})"
        )
    try:
        lines = read_lines(text)
    except StepSyntaxError as exc:
        return ProofVerdict(exercise_id, "invalid", [], str(exc))
    w = world(exercise_id)
    _warm_up(w)
    lines = _measured(w.notation(text, lines))

    def run(func: Any, *args: Any) -> Any:
        if not isolate:
            return func(*args)
        if not CAN_FORK:  # a browser's Python: the page's Web Worker is stopped at its own deadline
            return isolated(func, *args)
        left = deadline - time.monotonic()
        cpu_left = TOTAL_SECONDS - (_workers_cpu() - spent)
        if left < 0.2 or cpu_left < 0.2:
            raise OutOfTime()
        return isolated(
            func,
            *args,
            timeout=min(3 * TIMEOUT, left),
            memory_mb=MEMORY_MB,
            cpu_seconds=max(1, math.ceil(min(CPU_SECONDS, cpu_left))),
        )

    blob = pickle.dumps(_State())
    results: list[StepResult] = []
    claims: list[tuple[int, str, str]] = []  # stated claims not proved at their own line
    previous_rhs: str | None = ""  # None after a line that cannot be checked
    for line in lines:
        if line.error:
            results.append(StepResult(line.number, line.latex, "invalid", "", line.error))
            previous_rhs, refused = None, line.number
            continue
        if line.lhs is None and previous_rhs is None:  # "= C" after it: its left side is that line's
            why = f"it continues line {refused}, which cannot be checked"
            results.append(StepResult(line.number, line.latex, "invalid", "", why))
            continue
        lhs_text = line.lhs if line.lhs is not None else previous_rhs
        previous_rhs = line.rhs
        try:
            (status, rule, feedback, slip), blob = run(
                _judge_line, exercise_id, lhs_text, line.rhs, line.number, line.lhs is not None, blob
            )
        except OutOfTime as exc:
            results.append(StepResult(line.number, line.latex, "unchecked", "", str(exc)))
            continue
        except (WorkerError, SymattnError) as exc:
            message = str(exc)
            if not message.startswith("too costly"):
                message = f"cannot be checked: {message}"
            results.append(StepResult(line.number, line.latex, "invalid", "", message))
            previous_rhs, refused = None, line.number
            continue
        results.append(StepResult(line.number, line.latex, status, rule, feedback, slip))
        if line.stated and status == "unjustified":
            claims.append((len(results) - 1, lhs_text, line.rhs))
    try:
        for at, lhs_text, rhs_text in claims:  # a claim stated first, proved by the lines after it
            if run(_connects, exercise_id, blob, lhs_text, rhs_text):
                r = results[at]
                proved = "stated, then proved by the lines after it"
                results[at] = StepResult(r.line, r.latex, "ok", proved, "")
        reached = run(_reaches_goal, exercise_id, blob)
    except OutOfTime as exc:  # no verdict on the proof: never "does not reach"
        return ProofVerdict(w.id, "unchecked", results, f"the conclusion was not checked: {exc}")
    except (WorkerError, SymattnError) as exc:
        message = str(exc) if str(exc).startswith("too costly") else f"cannot be checked: {exc}"
        return ProofVerdict(w.id, "invalid", results, f"the conclusion cannot be checked: {message}")
    return _verdict(w, results, reached)


#: The operators whose nesting :func:`_measured` bounds, as its refusals name them.
OPERATORS = "softmax, Attention, Var, E"


def _measured(lines: list) -> list:
    """``lines`` with those past the work a derivation may ask for marked unreadable: a step
    with operators nested more than MAX_NESTED_OPERATORS deep, applying softmax more than
    MAX_SOFTMAX times in a side, or that multiplies out to more than MAX_STEP_TERMS terms; a
    costly step after MAX_COSTLY_STEPS others; and every step after the derivation's total (of
    the steps not refused) passes MAX_DERIVATION_TERMS. Measured on the text, so the same on
    every machine."""
    from .step_reader import (
        COSTLY_SOFTMAX,
        MAX_COSTLY_STEPS,
        MAX_DERIVATION_TERMS,
        MAX_NESTED_OPERATORS,
        MAX_SOFTMAX,
        MAX_STEP_TERMS,
    )

    out, total, costly = [], 0, 0
    for ln in lines:
        if not ln.error:
            terms, depth, softmax = _line_measures(ln)
            heavy = depth == MAX_NESTED_OPERATORS or softmax >= COSTLY_SOFTMAX
            error = None
            if depth > MAX_NESTED_OPERATORS:
                error = f"operators nested {depth} deep ({OPERATORS}: at most {MAX_NESTED_OPERATORS})"
            elif softmax > MAX_SOFTMAX:
                error = f"softmax applied {softmax} times in one side (Attention counts as two; at most"
                error += f" {MAX_SOFTMAX})"
            elif terms > MAX_STEP_TERMS:
                error = f"this step multiplies out to {terms:,} terms (at most {MAX_STEP_TERMS})"
            elif heavy and costly == MAX_COSTLY_STEPS:
                error = f"more than {MAX_COSTLY_STEPS} costly steps (operators nested {MAX_NESTED_OPERATORS}"
                error += f" deep, or softmax applied {COSTLY_SOFTMAX} or more times in one side)"
            else:  # a step refused for itself asks for no work: it does not count
                total, costly = total + terms, costly + heavy
                if total > MAX_DERIVATION_TERMS:
                    error = f"the steps multiply out to more than {MAX_DERIVATION_TERMS} terms in all"
            if error:
                ln = replace(ln, error=f"too costly to check: {error}")
        out.append(ln)
    return out


def _line_measures(ln: Any) -> tuple[int, int, int]:
    """A step's measures: the terms its sides multiply out to, its operators' nesting and the
    most softmax one side applies."""
    from .step_reader import expansion_terms, operator_depth, softmax_count

    try:
        sides = [parse_expression(side) for side in ([ln.rhs] if ln.lhs is None else [ln.lhs, ln.rhs])]
    except StepSyntaxError:
        return 0, 0, 0  # said when the step is read
    return (
        sum(expansion_terms(side) for side in sides),
        max(operator_depth(side) for side in sides),
        max(softmax_count(side) for side in sides),
    )


def measures(exercise_id: str, text: str, admitted: bool = False) -> list[tuple[int, int, int, int]]:
    """Each readable step's line, terms, operator nesting and softmax applied in a side: what
    :func:`_measured` bounds;
    with ``admitted``, only the steps it lets through to be judged (bench/limits.py reports the
    largest a bank's judged steps reach)."""
    w = world(exercise_id)
    try:
        lines = w.notation(text, read_lines(text))
    except StepSyntaxError:
        return []
    if admitted:
        lines = _measured(lines)
    return [(ln.number, *_line_measures(ln)) for ln in lines if not ln.error]


def _verdict(w: World, results: list[StepResult], reached: str | None) -> ProofVerdict:
    bad = [r for r in results if r.status in ("invalid", "unchecked")]
    first = results.index(bad[0]) if bad else len(results)
    wrong = [r for r in results[:first] if r.status == "wrong"]
    if bad and wrong:  # a false step before a line it cannot read: the derivation is wrong there
        r = wrong[0]
        return ProofVerdict(w.id, "incorrect", results, f"line {r.line} is wrong: {r.feedback}")
    if bad and bad[0].status == "unchecked":  # the time net fired there: no verdict
        return ProofVerdict(
            w.id, "unchecked", results, f"line {bad[0].line} was not checked: {bad[0].feedback}"
        )
    if bad:
        how = "cannot be checked" if bad[0].feedback.startswith("too costly") else "cannot be read"
        return ProofVerdict(w.id, "invalid", results, f"line {bad[0].line} {how}: {bad[0].feedback}")
    wrong = [r for r in results if r.status != "ok"]
    if wrong:
        r = wrong[0]
        return ProofVerdict(w.id, "incorrect", results, f"line {r.line} is {r.status}: {r.feedback}")
    if reached is None:
        return ProofVerdict(w.id, "incorrect", results, f"incorrect: does not reach ${w.goal_text}$")
    return ProofVerdict(w.id, "correct", results, f"correct: the steps establish {reached}")


def _warm_up(w: World) -> None:
    """Load what every worker needs once, in the parent, so forks start warm."""
    import sympy.stats  # noqa: F401

    from ...core import digits  # noqa: F401

    for a, b in w.goals():
        w.truth(a, b)


def read_steps(source: str) -> str:
    """The text of a derivation file, or of standard input for ``-``."""
    import sys

    limit = 200_000
    try:
        if source == "-":
            text = sys.stdin.read(limit + 1)
        else:
            with open(source, encoding="utf-8") as fh:
                text = fh.read(limit + 1)
    except UnicodeDecodeError:  # one line, as `audit` says it, never the codec's message
        raise StepSyntaxError(f"cannot read {source}: not UTF-8 text (a binary file?)") from None
    except OSError as exc:
        raise StepSyntaxError(f"cannot read {source}: {exc.strerror or exc}") from None
    if "\x00" in text:
        raise StepSyntaxError(f"cannot read {source}: not a text file (it holds NUL bytes)")
    if len(text) > limit:  # the file's own size, not the part read
        import os

        size = "more than 200,000 characters" if source == "-" else f"{os.path.getsize(source):,} bytes"
        raise StepSyntaxError(
            f"the derivation is too long: {source} holds {size} (at most {limit:,} characters)"
        )
    return text
