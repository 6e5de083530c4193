r"""What a theorem states in words: each property it names stands for a claim of its form.

A theorem says "$J$ is symmetric and positive semidefinite of rank $n - 1$". The formula
check (:mod:`.shown`) reads ``$n - 1$``, but the words around it are claims too. Each property
word of :data:`PROPERTIES` found in a derivation's title, theorem or section headings must be
one the derivation says it stands for (``Derivation.claim(lhs, rhs, relation,
words="positive semidefinite")``), and that claim must have the property's form:

- *positive semidefinite*: ``0 <= Q`` with Q a quadratic form (Q at twice some vector is four
  times Q, checked exactly with the sums written out at a size); *positive definite* ``0 < Q``;
- *symmetric*: ``A_{ji} = A_{ij}`` (the derivation's two indices swapped, or a transpose), or
  ``A_{ij} - A_{ji} = 0``; *antisymmetric* with a minus sign;
- *rank $r$*: ``rank(A) = r``; *at most $v$*: ``... <= v``; *at least $v$*: ``v <= ...``;
- *sums to $v$* (rows summing to 0): a sum equal to v; *tends to $v$*: a limit equal to v;
  *as ... tends to $v$* ("as one weight tends to 1"): a limit taken at v;
- and the words with no form of their own (orthogonal, invertible, equivariant, ...): some
  claim must stand for them.

The claims themselves are verified like every claim (a chain or a step of the proof must
establish each). A theorem changed to "positive definite", "antisymmetric" or "of rank $n$"
fails ``verify`` naming the words; so does a claim said to stand for words the theorem does
not use. Words outside :data:`PROPERTIES` are not read.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy as sp

from .equivalence import prove_equal
from .reader import ReadError, readings
from .shown_base import DENIAL, NotShownAsChecked, agree


class WordsNotClaimed(NotShownAsChecked):
    """A property the prose names stands for no claim of its form; the message says which."""


@dataclass(frozen=True)
class Property:
    """A property a theorem may state in words."""

    #: The words, as a regular expression (matched without regard to case).
    pattern: str
    #: What a claim standing for it must be, in words (for the failure message).
    form: str
    #: fits(derivation, lhs, rhs, relation, value): the claim has the property's form; value
    #: is what follows the words (``rank $n - 1$``), read, or None.
    fits: Callable[[Any, Any, Any, str, Any], bool]
    #: The words are followed by a value (``$n - 1$``, ``0``) that the claim must state.
    valued: bool = False


# -- forms ------------------------------------------------------------------------------------
def _zero(e: Any) -> bool:
    return isinstance(e, sp.ZeroMatrix) or sp.sympify(e) == 0


def _sizes(e: Any) -> dict[sp.Symbol, int]:
    """The symbols a sum or product runs up to, at size 3 (sums written out, none empty)."""
    bounds = {
        x
        for s in sp.sympify(e).atoms(sp.Sum, sp.Product)
        for (_, _, hi) in s.limits
        for x in sp.sympify(hi).free_symbols
    }
    return dict.fromkeys(sorted(bounds, key=str), 3)


def _quadratic(form: Any) -> bool:
    """``form`` is a quadratic form in some vector: at twice the vector it is four times as
    large (exactly, with its sums written out at size 3), and it is not 0."""
    e = sp.sympify(form)
    if _zero(e):
        return False
    e = e.subs(_sizes(e)).doit()
    for base in sorted({x.base for x in e.atoms(sp.Indexed)}, key=str):
        doubled = e.replace(lambda x, b=base: isinstance(x, sp.Indexed) and x.base == b, lambda x: 2 * x)
        if prove_equal(doubled, 4 * e) is not None:
            return True
    return False


def _signed_form(strict: bool, positive: bool) -> Callable[[Any, Any, Any, str, Any], bool]:
    want = "<" if strict else "<="

    def fits(d: Any, lhs: Any, rhs: Any, rel: str, value: Any) -> bool:
        small, large = (lhs, rhs) if rel in ("<", "<=") else (rhs, lhs)
        if {"<": "<", "<=": "<=", ">": "<", ">=": "<="}.get(rel) != want:
            return False
        zero, form = (small, large) if positive else (large, small)
        return _zero(zero) and _quadratic(form)

    return fits


def _swapped(d: Any, e: Any) -> Any:
    indices = tuple(getattr(d, "indices", ()) or ())[:2]
    if isinstance(e, sp.MatrixBase | sp.MatrixExpr):
        return e.T
    if len(indices) != 2:
        return None
    i, j = indices
    return sp.sympify(e).xreplace({i: j, j: i})


def _symmetric(sign: int) -> Callable[[Any, Any, Any, str, Any], bool]:
    """A = sign * A with its indices swapped; or A - sign * swapped(A) = 0, written as such."""

    def fits(d: Any, lhs: Any, rhs: Any, rel: str, value: Any) -> bool:
        if rel != "=":
            return False
        swapped = _swapped(d, lhs)
        if swapped is None:
            return False
        if not _zero(rhs):
            return _differs(lhs, swapped) and agree(rhs, sign * swapped)
        terms = sp.Add.make_args(sp.sympify(lhs))
        if len(terms) != 2:
            return False
        first, second = terms
        return _differs(first, _swapped(d, first)) and agree(second, -sign * _swapped(d, first))

    return fits


def _differs(a: Any, b: Any) -> bool:
    """Not the same tree: a claim A = A says nothing of symmetry."""
    return sp.sympify(a) != sp.sympify(b)


def _applied(name: str) -> Callable[[Any], bool]:
    def test(e: Any) -> bool:
        return isinstance(e, sp.core.function.AppliedUndef) and e.func.__name__ == name

    return test


def _rank(d: Any, lhs: Any, rhs: Any, rel: str, value: Any) -> bool:
    return rel == "=" and _applied("rank")(lhs) and value is not None and agree(value, rhs)


def _at_most(d: Any, lhs: Any, rhs: Any, rel: str, value: Any) -> bool:
    bound = rhs if rel in ("<", "<=") else lhs if rel in (">", ">=") else None
    return bound is not None and value is not None and agree(value, bound)


def _at_least(d: Any, lhs: Any, rhs: Any, rel: str, value: Any) -> bool:
    bound = lhs if rel in ("<", "<=") else rhs if rel in (">", ">=") else None
    return bound is not None and value is not None and agree(value, bound)


def _sums_to(d: Any, lhs: Any, rhs: Any, rel: str, value: Any) -> bool:
    total = sp.sympify(lhs)
    summed = isinstance(total, sp.Sum | sp.MatMul)
    return rel == "=" and summed and value is not None and agree(value, rhs)


def _tends_to(d: Any, lhs: Any, rhs: Any, rel: str, value: Any) -> bool:
    return rel == "=" and isinstance(lhs, sp.Limit) and value is not None and agree(value, rhs)


def _taken_at(d: Any, lhs: Any, rhs: Any, rel: str, value: Any) -> bool:
    return rel == "=" and isinstance(lhs, sp.Limit) and value is not None and agree(value, lhs.args[2])


def _any_claim(d: Any, lhs: Any, rhs: Any, rel: str, value: Any) -> bool:
    return True


#: The property words a theorem may state, each with the form of the claim it stands for.
#: Order matters only for reading: each word is found by its own pattern.
_S = r"[\s-]+"  # between two words: spaces, a line break or a hyphen
_SEMI = r"semi[\s-]*definite"

PROPERTIES: dict[str, Property] = {
    "positive semidefinite": Property(
        rf"(?:positive{_S}{_SEMI}|non{_S}?negative{_S}definite)",
        "0 <= Q with Q a quadratic form",
        _signed_form(False, True),
    ),
    "positive definite": Property(
        rf"positive{_S}definite", "0 < Q with Q a quadratic form", _signed_form(True, True)
    ),
    "negative semidefinite": Property(
        rf"(?:negative{_S}{_SEMI}|non{_S}?positive{_S}definite)",
        "Q <= 0 with Q a quadratic form",
        _signed_form(False, False),
    ),
    "negative definite": Property(
        rf"negative{_S}definite", "Q < 0 with Q a quadratic form", _signed_form(True, False)
    ),
    "definite": Property(rf"\b(?:{_SEMI}|definite)\b", "a claim", _any_claim),
    "symmetric": Property(
        r"(?<![\w-])symmetric\b",
        "A_ji = A_ij (indices swapped, or transposed), or A_ij - A_ji = 0",
        _symmetric(1),
    ),
    "antisymmetric": Property(
        r"\b(?:anti|skew)[\s-]*symmetric\b", "A_ji = -A_ij (indices swapped, or transposed)", _symmetric(-1)
    ),
    "rank": Property(r"\branks?\b", "rank(A) = the value stated", _rank, valued=True),
    "at most": Property(rf"\bat{_S}most\b", "... <= the value stated", _at_most, valued=True),
    "at least": Property(rf"\bat{_S}least\b", "the value stated <= ...", _at_least, valued=True),
    "sums to": Property(
        rf"\bsum(?:s|med|ming)?{_S}to\b", "a sum equal to the value stated", _sums_to, valued=True
    ),
    "tends to": Property(
        rf"\b(?:tends?|goes|go|converges?){_S}to\b",
        "a limit equal to the value stated",
        _tends_to,
        valued=True,
    ),
    "as ... tends to": Property(
        rf"\b(?:as|when|while)\b[^.;:,]*?\b(?:tends?|goes|go|converges?){_S}to\b",
        "a limit taken at the value stated",
        _taken_at,
        valued=True,
    ),
    "orthogonal": Property(r"\borthogonal\b", "a claim", _any_claim),
    "invertible": Property(r"\b(?:invertible|singular|nonsingular|non-singular)\b", "a claim", _any_claim),
    "equivariant": Property(r"\bequivarian(?:t|ce)\b", "a claim", _any_claim),
    "invariant": Property(r"\binvarian(?:t|ce)\b", "a claim", _any_claim),
    "monotone": Property(r"\b(?:monotone|monotonic|increasing|decreasing)\b", "a claim", _any_claim),
    "convex": Property(r"\b(?:convex|concave)\b", "a claim", _any_claim),
}

#: A value after valued words: ``$...$`` after an optional "of", or a plain number or number word
#: that ends there (a clause boundary or an ordinary word follows, not an operator or a fraction).
_VALUE = re.compile(
    r"\s*(?:of\s+)?(?:\$([^$]+)\$|(-?\d+(?:\.\d+)?|zero|one|two|three|four|infinity)"
    r"(?=\s*$|[;:,.)](?!\d)|\s+(?!(?:plus|minus|times|over|divided|or|half|halves|thirds?|quarters?|fifths?)\b"
    r"|and\s+[\d$])[a-z]))",
    re.IGNORECASE,
)
#: What must follow a ``$...$`` value: not more of the value ("$n - 1$ or $n$").
_AFTER_FORMULA = re.compile(r"\s*(?:$|[;:,.)]|(?!(?:or|plus|minus|times)\b)[a-z])", re.IGNORECASE)
_WORD_NUMBERS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "infinity": sp.oo}


def property_of(words: str) -> str | None:
    """The name of the property ``words`` are (the whole of them), or None."""
    for name, prop in PROPERTIES.items():
        if re.fullmatch(prop.pattern, words.strip(), re.IGNORECASE):
            return name
    return None


def found(text: str) -> list[tuple[str, re.Match]]:
    """(property name, match) for every property word in ``text``, in order."""
    hits = [
        (name, m) for name, prop in PROPERTIES.items() for m in re.finditer(prop.pattern, text, re.IGNORECASE)
    ]
    # A limit's point ("as one weight tends to 1") follows the limit's value in its sentence
    # ("the entries tend to 0 as ..."); without one before it, "as expected they tend to 1"
    # states a value (review of the review: it was read as the point, and passed).
    hits = [h for h in hits if h[0] != "as ... tends to" or _after_a_value(text, h[1], hits)]
    # "positive semidefinite" is not also "positive definite": patterns never overlap, but a
    # match inside a longer one (semi-definite) is dropped all the same.
    hits = [h for h in hits if not any(o is not h and _inside(h[1], o[1]) for o in hits)]
    return sorted(hits, key=lambda h: h[1].start())


def _after_a_value(text: str, point: re.Match, hits: list[tuple[str, re.Match]]) -> bool:
    """A "tends to" that is not inside ``point`` comes before it in the same sentence."""
    sentence = max(text.rfind(".", 0, point.start()), text.rfind(";", 0, point.start()))
    return any(name == "tends to" and sentence < m.start() and m.end() <= point.start() for name, m in hits)


def _inside(a: re.Match, b: re.Match) -> bool:
    return b.start() <= a.start() and a.end() <= b.end() and (a.end() - a.start()) < (b.end() - b.start())


def check_words(d: Any, vocab: Any) -> str:
    """Raise :class:`WordsNotClaimed` unless every property word of the title, the theorem and
    the section headings stands for a claim of its form, and every claim said to stand for words
    stands for words they use. Returns what was checked."""
    if not d.claims:  # a published theorem without claims fails the claims check, naming it
        return "no claims for words to stand for"
    words = []
    for phrase, place in getattr(d, "words", ()) or ():
        if property_of(phrase) is None:
            raise WordsNotClaimed(f"a claim stands for '{phrase}', which is no property symattn reads")
        if not (isinstance(place, int) and 0 <= place < len(d.claims)):
            raise WordsNotClaimed(f"'{phrase}' stands for claim {place}, which the theorem does not make")
        words.append((phrase, d.claims[place]))
    stated = 0
    used: set[int] = set()
    for where, text in _stating(d):
        for name, match in found(text):
            prop = PROPERTIES[name]
            if DENIAL.search(text[: match.start()]):  # symattn checks no negated property
                raise WordsNotClaimed(
                    f"{where} denies '{match.group(0)}': a property said not to hold is no claim "
                    "symattn checks (state what holds, as a claim)"
                )
            value, shown = (
                _value_after(text, match.end(), vocab, match.group(0), where) if prop.valued else ([None], "")
            )
            said = f"'{match.group(0)}{shown}'"
            mine = [(k, c) for k, (phrase, c) in enumerate(words) if property_of(phrase) == name]
            if not mine:
                raise WordsNotClaimed(
                    f"{where} says {said}, which stands for no claim: "
                    f"say which (Derivation.claim(..., words={match.group(0)!r})), of the form {prop.form}"
                )
            fitting = [k for k, c in mine if any(_fits(prop, d, c, v) for v in value)]
            if not fitting:
                shown_claim = _claim_text(mine[0][1])
                raise WordsNotClaimed(
                    f"{where} says {said}, but the claim it stands for ({shown_claim}) is not of the "
                    f"form {prop.form}"
                )
            used.update(fitting)
            stated += 1
    if unused := [phrase for k, (phrase, _) in enumerate(words) if k not in used]:
        raise WordsNotClaimed(f"a claim stands for '{unused[0]}', which the theorem does not say")
    if not stated:
        return "no property stated in words"
    return f"{stated} {'property' if stated == 1 else 'properties'} stated in words, each a claim of its form"


def _stating(d: Any) -> list[tuple[str, str]]:
    """The texts that state what the derivation proves: its title, its theorem and its section
    headings ("Rows sum to zero", "Entries at most $\\tfrac14$"); a rule's words are reasons."""
    headings = dict.fromkeys(s.section for s in d.steps if s.section)
    return [("the title", d.title), ("the theorem", d.theorem)] + [
        (f"the heading '{h}'", h) for h in headings
    ]


def _fits(prop: Property, d: Any, claim: tuple, value: Any) -> bool:
    lhs, rhs, *relation = claim
    try:
        return bool(prop.fits(d, lhs, rhs, relation[0] if relation else "=", value))
    except Exception:
        return False


def _value_after(text: str, at: int, vocab: Any, said: str, where: str) -> tuple[list[Any], str]:
    """The value written right after valued words (every reading of it), and its text. Words
    with no value symattn can read right after them ("full rank", "at most one fifth", "$n - 1$
    or $n$") fail: a value in words is not checked."""
    m = _VALUE.match(text, at)
    if m is not None and m.group(1) is not None and not _AFTER_FORMULA.match(text, m.end()):
        m = None  # the formula goes on: "$n - 1$ or $n$"
    if m is None:
        rest = text[at : at + 30].strip()
        raise WordsNotClaimed(
            f"{where} says '{said}' followed by '{rest}': write the value it states in $...$ right "
            "after the words, for it to be checked"
        )
    formula, number = m.group(1), m.group(2)
    if number is not None:
        word = number.lower()
        value = sp.sympify(_WORD_NUMBERS[word]) if word in _WORD_NUMBERS else sp.Rational(number)
        return [value], m.group(0)
    try:
        values = [r.value() for r in readings(formula, vocab)]
    except (ReadError, ValueError, TypeError) as exc:
        raise WordsNotClaimed(f"the value in '{m.group(0).strip()}' cannot be read ({exc})") from None
    return values, m.group(0)


def _claim_text(claim: tuple) -> str:
    lhs, rhs, *relation = claim
    return f"{sp.sstr(lhs)} {relation[0] if relation else '='} {sp.sstr(rhs)}"
