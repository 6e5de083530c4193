r"""Softmax in chunks (flash attention's loops), each update checked by what it must keep true.

Flash attention walks over the keys a chunk at a time. For one query it keeps a running maximum
``M``, a running denominator ``L`` and a running numerator ``Z``; after the chunks seen so far,
with scores s_j and values v_j, an update must leave

    M = max_j s_j,    L = ∑_j e^{s_j − M},    Z = ∑_j e^{s_j − M} v_j,

and at the end the output is z = Z / L (the softmax average of the values) and the log-sum-exp
ℓ = M + ln L = ln ∑_j e^{s_j}. The backward pass recomputes the probabilities as P = e^{s − ℓ}.

A reader checks each update line of such an algorithm on its own: from a state that keeps the
invariants over a first chunk (score s₁, value v₁), the update is carried out exactly (SymPy)
on a second chunk whose score s₂ is larger, so the maximum moves, and the variable it sets is
compared with what the invariant says. An update that forgets to rescale the old numerator by
e^{M_old − M_new} is wrong at its own line, whatever the lines after it do.

An algorithm is read when its lines assign with "gets", ``←`` or ``\leftarrow`` and one of them
takes a maximum of the running maximum and the new scores. The indices (one query, one key per
chunk) and the sums over a chunk's keys drop out; each variable's role comes from the line that
sets it: the maximum from ``max``, the denominator and numerator from their own update (the
numerator carries a value v), the output from a quotient of the two, the log-sum-exp from a
logarithm of the denominator, the probabilities from an exponential of a score less or plus the
log-sum-exp. A line whose role is none of these is not read.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import sympy as sp

from . import calc
from .context import AuditContext
from .document import Line
from .match import Claim, inside
from .said import Math, Said
from .stated import Unreadable

RULE = (
    "online softmax: after each chunk M = max s, L = ∑ e^(s − M), Z = ∑ e^(s − M) v; "
    "z = Z / L and ℓ = M + ln L = ln ∑ e^s"
)
_ASSIGN = re.compile(r"^\s*(?P<name>[^⟨⟩]+?)\s*(?:\bgets\b|←|\bleftarrow\b|:=)\s*(?P<value>[^⟨⟩]+?)\s*$")
#: The first chunk (score and value) and the second, whose score is larger: the maximum moves.
_S1, _S2 = sp.Integer(1), sp.Integer(3)
_V1, _V2 = sp.Symbol("v_1", real=True), sp.Symbol("v_2", real=True)


def online_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    steps = au.doc.once("online softmax", _program)
    for _tex, _plain, start, end in line.formulas:
        step = steps.get((line.number, start))
        if step is None or inside(covered, start, end):
            continue
        verdict = _check(step)
        if verdict is None:
            continue
        ok, expected, got = verdict
        said = Said(f"{_described(step)}: ", Math(expected)) + (
            "" if ok else Said(", the line gives ", Math(got))
        )
        add(Claim.judged(line.number, line.text[start:end], ok, said, RULE, [(start, end)]))


def _described(step: _Step) -> str:
    """What the step's variable must hold, in the algorithm's own terms (with or without M)."""
    shift = " − M" if step.algorithm.maximum else ""
    return {
        "maximum": "the running maximum M = max s",
        "numerator": f"the running numerator Z = ∑ e^(s{shift}) v",
        "denominator": f"the running denominator L = ∑ e^(s{shift})",
        "output": "the output z = Z / L = ∑ e^s v / ∑ e^s",
        "lse": "the log-sum-exp ℓ = ln ∑ e^s",
        "probability": "the probability P = e^(s − ℓ) = e^s / ∑ e^s",
    }[step.role]


@dataclass
class _Algorithm:
    """One algorithm's running variables, by the names it gives them (None where it has none)."""

    maximum: str | None = None  # the new maximum, set from max(old, scores)
    old: str | None = None  # the maximum before the chunk
    numerator: str | None = None
    denominator: str | None = None
    lse: str | None = None  # the log-sum-exp (of this algorithm or an earlier one)


@dataclass
class _Step:
    """One assignment, reduced to one query and one key per chunk, with its role."""

    name: str
    value: str
    algorithm: _Algorithm = field(default_factory=_Algorithm)
    role: str = ""


#: Assignment lines further apart than this belong to different algorithms.
_GAP = 8


def _program(doc) -> dict[tuple[int, int], _Step]:
    """The steps of the online-softmax algorithms in the text, by (line, formula start), each
    with its role (steps with none are left out)."""
    groups: list[list[tuple[tuple[int, int], _Step, str]]] = []
    last = -_GAP - 1
    for line in doc.lines:
        for _tex, plain, start, _end in line.formulas:
            m = _ASSIGN.match(plain)
            if m is None or re.search(r"\bfor\s*all\b|∀|forall", plain):
                continue
            step = _Step(_scalar(m.group("name")), _scalar(m.group("value")))
            # a new algorithm after a gap, or where a name is set again (two loops in a row, or
            # an update split over two lines, which the invariants do not follow step by step)
            if line.number - last > _GAP or any(s.name == step.name for _, s, _ in groups[-1]):
                groups.append([])
            last = line.number
            sentence, _ = doc.sentence(line, start)
            groups[-1].append(((line.number, start), step, plain + " " + sentence))
    out: dict[tuple[int, int], _Step] = {}
    lse = None
    for group in groups:
        if any(_UNREAD.search(text) for _, _, text in group):
            continue  # a step of another (i - 1) or under a condition: not one chunk's update
        algorithm = _roles([s for _, s, _ in group], lse)
        lse = algorithm.lse or lse
        out.update((k, s) for k, s, _ in group if s.role)
    return out


#: What the reduction to one query and one chunk does not follow: the previous step's value
#: named by its index (``m_{i-1}``), or an update taken only under a condition.
_UNREAD = re.compile(r"_\(?\s*[a-z]\s*-\s*1\s*\)?|\b(?:if|unless|otherwise|when)\b", re.I)


def _scalar(text: str) -> str:
    """One query, one key per chunk: indices dropped, the sums and maxima over a chunk's keys
    too, ``M^((rm new))`` as ``Mnew``."""
    text = re.sub(r"\^\(\((?:rm\s*)?(new|old)\)\)", r"\1", text)
    text = re.sub(r"\^\((?:rm\s*)?(new|old)\)", r"\1", text)
    text = re.sub(r"\b(?:sum|max)_(?:\([^()]*\)|[a-z']+)", "", text)  # over the one key of the chunk
    text = re.sub(r"_(?:\((?:[^()]|\([^()]*\))*\)|[A-Za-z0-9']+)", "", text)
    text = re.sub(r"\(\s*rm\s+d\s*\)\s*", "d", text)
    return re.sub(r"\s+", " ", text).strip()


def _names(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]\w*", text))


def _roles(steps: list[_Step], lse: str | None) -> _Algorithm:
    """Each step's role, from what it computes; the algorithm's running variables."""
    algorithm = _Algorithm(lse=lse)
    for s in steps:
        s.algorithm = algorithm
        names = _names(s.value)
        if re.search(r"\bmax\s*\(", s.value) and not algorithm.maximum:
            olds = sorted(names - {"max", "q", "k", "S", "C", s.name})
            if len(olds) == 1:
                algorithm.maximum, algorithm.old = s.name, olds[0]
                s.role = "maximum"
    running = {algorithm.maximum, algorithm.old} - {None}
    for s in steps:
        names = _names(s.value)
        # a running sum: e^(...) added to itself, no logarithm (a log-space merge) or quotient
        if s.role or "exp" not in names or s.name not in names or "ln" in names or "/" in s.value:
            continue
        if "v" in names:
            s.role, algorithm.numerator = "numerator", s.name
        elif names & running or not running:
            s.role, algorithm.denominator = "denominator", s.name
    numerator, denominator = algorithm.numerator, algorithm.denominator
    both = {numerator, denominator}
    for s in steps:
        names = _names(s.value)
        if s.role:
            continue
        quotient = re.fullmatch(r"\(*\s*(\w+)\s*\)*\s*/\s*\(*\s*(\w+)\s*\)*", s.value)
        if numerator and denominator and quotient and set(quotient.groups()) == both:
            s.role = "output"  # Z / L, or (wrongly) L / Z
        elif (
            denominator
            and denominator in names
            and (names & running or not running)
            and ("ln" in names or _LSE_NAME.match(s.name))
        ):
            s.role, algorithm.lse = "lse", s.name
        elif algorithm.lse and "exp" in names and algorithm.lse in names and {"q", "k"} <= names:
            s.role = "probability"
    # no running sums, or a maximum used that no step of this algorithm takes (its steps are
    # split from the rest): only the probabilities are read
    stray = not algorithm.maximum and any(
        re.search(r"(?:new|old)$", n) for s in steps for n in _names(s.value)
    )
    if not (numerator and denominator) or stray:
        for s in steps:
            s.role = s.role if s.role == "probability" else ""
    return algorithm


#: A name for the log-sum-exp, whatever the line computes it from.
_LSE_NAME = re.compile(r"^(?:ell|lse|logsumexp|LSE)$")


def _check(step: _Step) -> tuple[bool, sp.Expr, sp.Expr] | None:
    """Carry ``step`` out from the invariants' state after the first chunk, on the second: (it
    keeps its invariant, the value the invariant wants, the value it gives)."""
    a = step.algorithm
    total = sp.exp(_S1) + sp.exp(_S2)
    chunk = {"q": _S2, "k": sp.Integer(1), "v": _V2, "C": sp.Integer(0), "S": _S2}  # no mask
    if a.maximum:  # sums of e^(s − M), M the maximum so far
        before = {a.old: _S1, a.denominator: sp.Integer(1), a.numerator: _V1}
        after = {a.maximum: _S2, a.old: _S2, a.denominator: 1 + sp.exp(_S1 - _S2)}
        after[a.numerator] = sp.exp(_S1 - _S2) * _V1 + _V2
    else:  # plain sums of e^s
        before = {a.denominator: sp.exp(_S1), a.numerator: sp.exp(_S1) * _V1}
        after = {a.denominator: total, a.numerator: sp.exp(_S1) * _V1 + sp.exp(_S2) * _V2}
    role = step.role
    if role == "maximum":
        env, want = {**chunk, **before}, _S2
    elif role in ("numerator", "denominator"):
        env = {**chunk, **before, **({a.maximum: _S2} if a.maximum else {})}
        want = after[step.name]
    elif role == "output":
        env, want = {**chunk, **after}, (sp.exp(_S1) * _V1 + sp.exp(_S2) * _V2) / total
    elif role == "lse":
        env, want = {**chunk, **after}, sp.log(total)
    elif role == "probability":
        env, want = {**chunk, a.lse: sp.log(total)}, sp.exp(_S2) / total
    else:
        return None
    got = _value(step.value, {k: v for k, v in env.items() if k})
    if got is None:
        return None
    if sp.simplify(got - want) == 0:
        return True, want, got
    # a difference SymPy does not simplify away is called one only where it shows in numbers
    # (never one simplify's word alone): the values put in, 30 digits
    point = {_V1: sp.Rational(3, 7), _V2: sp.Rational(-5, 11)}
    gap = sp.N((got - want).xreplace(point), 30)
    return None if not gap.is_number or abs(gap) < sp.Float("1e-20") else (False, want, got)


def _value(text: str, env: dict) -> sp.Expr | None:
    """The value of a reduced right side with the state ``env`` (max(a, b) read as a maximum)."""
    env = dict(env)
    text = text.replace("ln", " ln ")
    k = 0
    while (m := re.search(r"\bmax\s*\(", text)) is not None:
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        inside_ = text[m.end() : i - 1]
        parts = _top_level_split(inside_)
        values = [_value(p, env) for p in parts]
        if depth or any(v is None for v in values):
            return None
        env[f"MAX{k}"] = sp.Max(*values)
        text = f"{text[: m.start()]} MAX{k} {text[i:]}"
        k += 1
    try:
        members, relations = calc.parse_chain(text)
        if relations or len(members) != 1 or not calc.symbols_of(members[0]) <= set(env):
            return None
        return calc.exact(members[0], env)
    except (Unreadable, TypeError, ValueError, ZeroDivisionError):
        return None


def _top_level_split(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return [*parts, text[start:]]
